"""The job summary (`--format github`, written to `$GITHUB_STEP_SUMMARY`): the full report, under 1 MiB.

For audits it lists every toolset and tool with tokens and hashes, and every finding with its status. In a
diff it lists the changed tools. Over budget it drops info rows first, then caps the tables, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tooldiff.model import SEVERITY_RANK, STATUSES, Finding, Report, ToolsetReport
from tooldiff.render import graph as graphs
from tooldiff.render import view
from tooldiff.render.budget import fit
from tooldiff.render.context import RenderContext
from tooldiff.render.escape import environment, number, plain, signed
from tooldiff.render.markdown import CLEAN_LINE, dropped_findings, verdict

MAX_BYTES = 1_000_000  # GitHub refuses step summaries over 1 MiB (1,048,576 bytes)
STATUS_RANK = {"new": 0, "existing": 1, "baselined": 2, "ignored": 3}


@dataclass(frozen=True, slots=True)
class Level:
    finding_cap: int | None
    table_cap: int | None
    graph: bool
    min_findings: int | None = None


LEVELS: tuple[Level, ...] = (
    Level(None, None, True),
    Level(None, 2000, True, min_findings=200),
    Level(None, 100, False, min_findings=0),
)


def _key(f: Finding) -> tuple[int, int, str, str, int, str]:
    return (
        STATUS_RANK.get(f.status, 9),
        SEVERITY_RANK.get(f.severity, 9),
        f.code,
        f.file,
        f.line,
        f.fingerprint,
    )


def cell(tokens: Mapping[str, Mapping[str, int | None]], method: str) -> str:
    counts = tokens.get(method)
    if not counts:
        return "–"
    head, delta = counts.get("head"), counts.get("delta")
    return number(head) + (f" ({signed(delta)})" if delta else "")


def share(ts: ToolsetReport) -> str:
    for counts in ts.tokens.values():
        head = counts.get("head")
        if ts.budget and head is not None:
            return f"{view.bar(head / ts.budget)} {100 * head / ts.budget:.0f}% of {ts.budget:,}"
        break
    return ""


def _cap(items: list[Any], cap: int | None) -> list[Any]:
    return items if cap is None else items[:cap]


def _context(
    report: Report, ctx: RenderContext, level: Level, everything: list[Any], full_graph: Any
) -> dict[str, Any]:
    findings = _cap(everything, level.finding_cap)
    omitted = [line for status in STATUSES for line in dropped_findings(
        [f for f in everything if f.status == status], [f for f in findings if f.status == status],
        f"{status} ")]
    # The cap counts findings, then resolved ones: `fit` sizes it over both lists.
    all_resolved = view.ordered(report.resolved)
    left = None if level.finding_cap is None else max(0, level.finding_cap - len(findings))
    resolved = _cap(all_resolved, left)
    if len(resolved) < len(all_resolved):
        n = len(all_resolved) - len(resolved)
        omitted.append(f"{n:,} resolved finding{'s' * (n != 1)}")
    tools = (
        view.changed_tools(report)
        if report.mode == "diff"
        else sorted(report.tools, key=lambda t: (t.toolset, t.name))
    )
    toolsets = sorted(report.toolsets, key=lambda t: t.id)
    if level.table_cap is not None and len(toolsets) > level.table_cap:
        omitted.append(f"{len(toolsets) - level.table_cap:,} toolset rows")
    # One line per ignore added or removed: a PR that adds thousands must not push the findings out.
    changes = _cap(list(report.config_changes), level.table_cap)
    if len(changes) < len(report.config_changes):
        omitted.append(f"{len(report.config_changes) - len(changes):,} configuration changes")
    graph = full_graph if level.graph else None
    if not level.graph and full_graph:
        omitted.append("the overlap graph")
    shown_tools = _cap(tools, level.table_cap)
    methods = list(report.token_methods) or ["estimate"]
    return {
        "mode": report.mode,
        "verdict": verdict(report),
        "touches": view.touches_tools(report),
        "config_changes": changes,
        "config_more": len(report.config_changes) - len(changes),
        "graph": graph,
        "legend": graphs.LEGEND,
        "methods": methods,
        "toolsets": _cap(toolsets, level.table_cap),
        "budgets": any(ts.budget for ts in toolsets),
        "cell": cell,
        "share": share,
        "tools_title": "Changed tools" if report.mode == "diff" else "Tools",
        "tools": shown_tools,
        "tools_more": len(tools) - len(shown_tools),
        "location": lambda x, at_base=False: view.location_md(x, ctx, at_base),
        "findings": findings,
        "rules_doc": view.RULES_DOC,
        "resolved": resolved,
        "clean": not any(f.status == "new" for f in report.findings),
        "clean_line": CLEAN_LINE,
        "notes": report.notes,
        "method_notes": [f"{m}: {view.METHOD_NOTES[m]}" for m in methods if m in view.METHOD_NOTES],
        "omitted": omitted,
        "hint": plain(ctx.full_report_hint or "The JSON report has everything.", 300),
    }


def render(report: Report, ctx: RenderContext) -> str:
    template = environment().get_template("summary.md.j2")
    # Sorted and drawn once: `fit` renders several levels of detail.
    everything = sorted(report.findings, key=_key)
    full_graph = graphs.overlap_graph(report, crowded_only=False)
    return fit(
        lambda level: template.render(_context(report, ctx, level, everything, full_graph)),
        LEVELS,
        MAX_BYTES,
        len(report.findings) + len(report.resolved),
        size=lambda s: len(s.encode("utf-8", "surrogatepass")),
    )
