"""The PR comment (`--format markdown`): one page a reviewer reads in ten seconds, within GitHub's size limit.

Over budget the renderer tries ever leaner levels of detail, dropping the lowest severities first, and says
what it left out and where the full report is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tooldiff import schemadiff
from tooldiff.model import Finding, Report, ToolReport
from tooldiff.render import graph as graphs
from tooldiff.render import view
from tooldiff.render.budget import fit
from tooldiff.render.context import RenderContext
from tooldiff.render.escape import environment, md, plain, plural

CLEAN_LINE = (
    "No new findings. A clean result does not prove that a model will tell these tools apart or route "
    "correctly at runtime: tooldiff reads names, descriptions and schemas, not model behaviour."
)
DEFAULT_HINT = "Run `tooldiff` locally, or see the job summary, for the full report."


@dataclass(frozen=True, slots=True)
class Detail:
    """One level of detail. A `None` cap means everything; see `budget.fit` for `min_findings`."""

    finding_cap: int | None
    resolved_cap: int
    existing_cap: int
    table_cap: int
    graph: bool
    min_findings: int | None = None


LEVELS: tuple[Detail, ...] = (
    Detail(None, 100, 50, 200, True),
    Detail(None, 20, 0, 50, False, min_findings=20),
    Detail(None, 0, 0, 10, False, min_findings=0),
)


def what_changed(t: ToolReport) -> str:
    if t.change == "renamed":  # a rename may change more: say what, as a modification does
        more = _changes(t, tuple(p for p in t.changed_parts if p != "name"))
        return f"renamed from {md(t.previous_name or '?', 80)}" + (f"; {more}" if more else "")
    if t.change == "modified":
        return _changes(t, t.changed_parts) or "definition"
    if t.moved is not None:  # "new tool" would not be true, nor "tool removed"; a move may change more too
        renamed = f", renamed from {md(t.previous_name, 80)}" if t.previous_name else ""
        more = _changes(t, t.changed_parts)
        return f"moved {'from' if t.change == 'added' else 'to'} {md(t.moved, 80)}{renamed}" + (
            f"; {more}" if more else "")
    return {"added": "new tool", "removed": "tool removed"}.get(t.change, "")


DETAILS_SHOWN = 5  # in a table cell; the JSON report has up to `schemadiff.MAX_DETAILS`
# Parts whose detail names them ("format: openai-chat → anthropic"), first in `schemadiff.details`, in order.
_NAMED_PARTS = ("format", "strict")


def _changes(t: ToolReport, parts: tuple[str, ...]) -> str:
    """"schema: max_count: added, optional; strict: unset → true" (escaped): the parts, what changed inside
    them, then the changes that name their part themselves, not under the others' names; "" without either."""
    named: list[str] = []
    for part in _NAMED_PARTS:
        if part in parts and len(t.details) > len(named) and t.details[len(named)].startswith(f"{part}: "):
            named.append(part)
    own = t.details[: len(named)]
    rest = [md(p) for p in parts if p not in named]
    inside = [md(d, 100) for d in schemadiff.capped(t.details[len(own):], DETAILS_SHOWN - len(own))]
    cell = ", ".join(rest)
    if inside:
        cell = f"{cell}: {'; '.join(inside)}" if cell else "; ".join(inside)
    return "; ".join(x for x in (cell, *(md(d, 100) for d in own)) if x)


def verdict(report: Report) -> str:
    new = view.severity_counts(f for f in report.findings if f.status == "new")
    icon = "❌" if new["error"] else "⚠️" if new["warning"] else "✅"
    if not view.touches_tools(report):
        return f"{icon} **tooldiff**: this pull request touches no tool definitions."
    if report.mode == "diff":
        found = view.counts_text({f"new {k}": v for k, v in new.items()})
        found = "no new findings" if found == "none" else found
        tokens = view.delta_text(report)
        return f"{icon} **tooldiff**: {found}{' · ' + tokens if tokens else ''}"
    # With accepted (baselined, ignored) findings beside them, the new ones are called new, as in the text.
    accepted = any(f.status != "new" for f in report.findings)
    found = view.counts_text({f"new {k}" if accepted else k: v for k, v in new.items()})
    found = ("no new findings" if accepted else "no findings") if found == "none" else found
    return f"{icon} **tooldiff**: {found} in {plural(len(report.tools), 'tool')}"


def _hash_kept(t: ToolReport) -> bool:
    return bool(t.schema_hash) and t.schema_hash == t.previous_schema_hash


@dataclass(frozen=True, slots=True)
class _Once:
    """What every level of detail shares, computed once per render (`fit` renders several levels)."""

    new: list[Finding]
    resolved: list[Finding]
    existing: list[Finding]
    rows: list[view.TokenRow]
    hashes: list[ToolReport]
    crowded: Any

    @classmethod
    def of(cls, report: Report) -> _Once:
        return cls(
            new=view.ordered(f for f in report.findings if f.status == "new"),
            resolved=view.ordered(report.resolved),
            existing=view.ordered(f for f in report.findings if f.status != "new"),
            rows=view.token_rows(report, changed_only=report.mode == "diff"),
            # Tools whose schemaHash changed first: a cut table keeps them over annotation-only changes.
            hashes=sorted(view.changed_tools(report), key=_hash_kept),
            crowded=graphs.overlap_graph(report, crowded_only=True),
        )


def _context(report: Report, ctx: RenderContext, level: Detail, once: _Once) -> dict[str, Any]:
    new, resolved, existing, rows, hashes = once.new, once.resolved, once.existing, once.rows, once.hashes
    crowded = once.crowded
    shown = new if level.finding_cap is None else new[: level.finding_cap]
    omitted = dropped_findings(new, shown, "new ")
    pictured = crowded if level.graph else None
    if not level.graph and crowded:
        omitted.append("the overlap graph")
    # One line per ignore added or removed: a PR that adds hundreds must not push the findings out.
    changes = report.config_changes[: level.table_cap]
    if level != LEVELS[0]:  # the richest level's caps are its design ("… N more" rows), not the size limit
        for what, total, cap in (
            ("configuration changes", len(report.config_changes), level.table_cap),
            ("resolved findings", len(resolved), level.resolved_cap),
            ("token table rows", len(rows), level.table_cap),
            ("schemaHash rows", len(hashes), level.table_cap),
        ):
            if total > cap:
                omitted.append(f"{total - cap:,} {what}")
    if len(existing) > level.existing_cap:
        omitted.append(
            "the list of existing findings" if not level.existing_cap else "some existing findings"
        )
    methods = list(dict.fromkeys(r.method for r in rows))
    return {
        "marker_id": ctx.safe_comment_id(),
        "verdict": verdict(report),
        "touches": view.touches_tools(report),
        "clean": not new,
        "clean_line": CLEAN_LINE,
        "config_changes": changes,
        "config_more": len(report.config_changes) - len(changes),
        "groups": view.by_tool(shown),
        "findings_more": ", ".join(dropped_findings(new, shown)),
        "findings_more_count": len(new) - len(shown),
        "rules_doc": view.RULES_DOC,
        "location": lambda f, at_base=False: view.location_md(f, ctx, at_base),
        "tools_md": view.tools_md,
        "what_changed": what_changed,
        "graph": pictured,
        "legend": graphs.LEGEND,
        "token_rows": rows[: level.table_cap],
        "token_more": max(0, len(rows) - level.table_cap),
        "budgets": any(r.bar for r in rows),
        "method_notes": [f"{m}: {view.METHOD_NOTES[m]}" for m in methods if m in view.METHOD_NOTES]
        + (
            ["The per-request overhead a provider adds cancels out of a delta."]
            if report.mode == "diff"
            else []
        ),
        "hash_rows": hashes[: level.table_cap],
        "hash_more": max(0, len(hashes) - level.table_cap),
        "resolved": resolved[: level.resolved_cap],
        "resolved_more": max(0, len(resolved) - level.resolved_cap),
        "existing": existing[: level.existing_cap],
        "existing_more": max(0, len(existing) - level.existing_cap) if level.existing_cap else 0,
        "existing_total": len(existing),
        # An audit has no PR: what is not new there was accepted (baselined or ignored).
        "not_new": "not new in this PR" if report.mode == "diff" else "accepted before",
        "existing_counts": _status_counts(existing),
        "notes": report.notes,
        "omitted": omitted,
        "hint": plain(ctx.full_report_hint or DEFAULT_HINT, 300),
    }


def dropped_findings(every: list[Finding], shown: list[Finding], adjective: str = "") -> list[str]:
    """What a cap left out, lowest severity first: ["12 new info findings", ...]."""
    out = []
    for sev in ("info", "warning", "error"):
        n = sum(1 for f in every if f.severity == sev) - sum(1 for f in shown if f.severity == sev)
        if n:
            out.append(f"{n:,} {adjective}{sev} finding{'s' if n != 1 else ''}")
    return out


def _status_counts(findings: list[Finding]) -> str:
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.status] = counts.get(f.status, 0) + 1
    return ", ".join(f"{n:,} {s}" for s, n in sorted(counts.items()))


def render(report: Report, ctx: RenderContext) -> str:
    template = environment().get_template("comment.md.j2")
    total = sum(1 for f in report.findings if f.status == "new")
    once = _Once.of(report)
    # The second level keeps tables and resolved findings only if every new error and warning fits beside
    # them (they come first in `once.new`); else the leanest level gives the findings the room.
    loud = sum(1 for f in once.new if f.severity != "info")
    second = replace(LEVELS[1], min_findings=max(LEVELS[1].min_findings or 0, loud))
    levels = (LEVELS[0], second, LEVELS[2])
    return fit(lambda lvl: template.render(_context(report, ctx, lvl, once)), levels, ctx.max_chars, total)
