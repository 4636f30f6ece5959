"""Shared pieces of the Markdown renderers: ordering, links, grouping, token rows and bars.

Everything returned here that holds tool text is already escaped Markdown (`*_md` names) or is a model value
that the template escapes itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tooldiff import tokens
from tooldiff.docs import PROJECT_URL
from tooldiff.model import SEVERITIES, SEVERITY_RANK, Finding, Report, ToolReport
from tooldiff.render.context import RenderContext
from tooldiff.render.escape import md, percent, plural
from tooldiff.rules import OVERLAP_MODULES, PAIR_PRECEDENCE, RULE_MODULES

RULES_DOC = f"{PROJECT_URL}/blob/main/docs/rules.md"

# Methods that need a caveat wherever their numbers appear.
METHOD_NOTES = tokens.METHOD_NOTES

_BLOCKS = " ▏▎▍▌▋▊▉█"


# Within a severity, what a reviewer should read first (and what a cut keeps): the pair findings in the
# order a pair's headline is chosen, the other overlap rules, then the rest in documentation order.
READING_ORDER: tuple[str, ...] = tuple(dict.fromkeys(
    (*PAIR_PRECEDENCE, *(m.replace("_", "-") for m in (*OVERLAP_MODULES, *RULE_MODULES)))
))
_RULE_RANK = {code: k for k, code in enumerate(READING_ORDER)}


def finding_key(f: Finding) -> tuple[int, int, str, tuple[str, ...], str, int, str, str]:
    return (SEVERITY_RANK.get(f.severity, 9), _RULE_RANK.get(f.code, len(_RULE_RANK)), f.code, f.tools,
            f.file, f.line, f.pointer, f.fingerprint)


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Most severe first, then in reading order (`READING_ORDER`) and by tools: a stable order independent
    of the engine's."""
    return sorted(findings, key=finding_key)


def location_md(f: Finding | ToolReport, ctx: RenderContext, at_base: bool = False) -> str:
    """`file:line`, linked at head; a removed tool's line (or, with `at_base`, a resolved finding's) is the
    base file's, linked there."""
    if not f.file:
        return ""
    text = md(f"{f.file}:{f.line}" if f.line > 0 else f.file, 120)
    url = ctx.blob_url(f.file, f.line, at_base=at_base or getattr(f, "change", None) == "removed")
    return f"[{text}]({url})" if url else text


def tools_md(tools: Sequence[str], limit: int = 80) -> str:
    return " ↔ ".join(f"**{md(t, limit)}**" for t in tools)


@dataclass(frozen=True, slots=True)
class Group:
    label_md: str
    findings: tuple[Finding, ...]


def by_tool(findings: Iterable[Finding]) -> list[Group]:
    """New findings grouped by the tool (or pair of tools) they are about, most severe group first."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in ordered(findings):
        groups.setdefault((f.toolset, "\x1f".join(sorted(f.tools))), []).append(f)
    # Name the toolset too when one tool name could mean tools of different toolsets.
    several = len({toolset for toolset, _ in groups}) > 1
    out: list[tuple[tuple[int, int, str, str], Group]] = []
    for (toolset, _), items in groups.items():
        tools = sorted(items[0].tools)
        label = tools_md(tools) if tools else f"toolset **{md(toolset, 80)}**"
        if tools and several:
            label += f" in {md(toolset, 80)}"
        severity, rule = finding_key(items[0])[:2]  # its first finding is its most severe, in reading order
        out.append(((severity, rule, toolset, "\x1f".join(tools)), Group(label, tuple(items))))
    return [g for _, g in sorted(out, key=lambda x: x[0])]


def severity_counts(findings: Iterable[Finding]) -> dict[str, int]:
    out: dict[str, int] = {s: 0 for s in SEVERITIES}
    for f in findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def counts_text(counts: dict[str, int]) -> str:
    parts = [f"{n:,} {s}" if s.endswith("info") else plural(n, s) for s, n in counts.items() if n]
    return ", ".join(parts) if parts else "none"


def changed_tools(report: Report) -> list[ToolReport]:
    return sorted((t for t in report.tools if t.change != "unchanged"), key=lambda t: (t.toolset, t.name))


def touches_tools(report: Report) -> bool:
    """False for a diff whose pull request changes no tool definitions."""
    if report.mode != "diff":
        return True
    return bool(changed_tools(report) or report.findings or report.resolved or report.config_changes)


def bar(share: float, width: int = 10) -> str:
    """A unicode block bar, eighths of a cell, that GitHub renders in any font; full past 100%."""
    eighths = round(max(0.0, min(share, 1.0)) * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + (_BLOCKS[rest] if rest else "") + "░" * (width - full - (1 if rest else 0))


@dataclass(frozen=True, slots=True)
class TokenRow:
    label_md: str
    method: str
    base: int | None
    head: int | None
    delta: int | None
    pct: str
    bar: str
    is_toolset: bool


def _rows(
    label_md: str,
    tokens: Mapping[str, Mapping[str, int | None]],
    methods: Sequence[str],
    budget: int | None,
    top: bool,
) -> list[TokenRow]:
    out: list[TokenRow] = []
    for method in methods:
        label = label_md if not out else ""
        cell = tokens.get(method)
        if not cell:
            continue
        base, head, delta = cell.get("base"), cell.get("head"), cell.get("delta")
        if delta is None and base is not None and head is not None:
            delta = head - base
        share = ""
        if top and budget and head is not None and method == methods[0]:
            share = f"{bar(head / budget)} {100 * head / budget:.0f}% of {budget:,}"
        out.append(TokenRow(label, method, base, head, delta, percent(delta, base), share, top))
    return out


def token_rows(report: Report, *, changed_only: bool) -> list[TokenRow]:
    """Per toolset, then per changed tool under it, one row per counting method."""
    methods = list(report.token_methods) or ["estimate"]
    if changed_only:  # a tool whose change costs nothing (its annotations) adds a row of +0 and no news
        tools = [t for t in changed_tools(report) if not _costs_nothing(t)]
    else:
        tools = sorted(report.tools, key=lambda t: (t.toolset, t.name))
    by_toolset: dict[str, list[ToolReport]] = {}
    for t in tools:
        by_toolset.setdefault(t.toolset, []).append(t)
    rows: list[TokenRow] = []
    for ts in sorted(report.toolsets, key=lambda t: t.id):
        mine = by_toolset.get(ts.id, [])
        if changed_only and ts.change == "unchanged" and not mine:
            continue
        was = f" (renamed from {md(ts.previous_id, 80)})" if ts.previous_id else ""
        rows += _rows(f"**{md(ts.id, 80)}**{was}", ts.tokens, methods, ts.budget, True)
        for t in mine:
            rows += _rows(f"↳ {md(t.name, 60)}", t.tokens, methods, None, False)
    return rows


def _costs_nothing(t: ToolReport) -> bool:
    cells = list(t.tokens.values())
    return bool(cells) and all(c.get("base") is not None and c.get("base") == c.get("head") for c in cells)


def delta_text(report: Report, shown: Callable[[object, int], str] = md, method: str | None = None) -> str:
    """"tokens +52 (+18.8%, estimate)": the token delta of the toolset whose cost changed, or "" when there is
    none. Toolsets go out in different requests, so where several changed cost the largest change is named
    ("... in tools/b.json, the largest change of 2 toolsets"): their sum is no request's cost. `shown`
    escapes the toolset id for the output (`md`, or `plain` for a terminal). `method`: the report's first
    counting method unless named."""
    method = method or (report.token_methods[0] if report.token_methods else "estimate")
    cells = [c for ts in report.toolsets if (c := _delta(ts.id, ts.tokens.get(method))) is not None]
    if not cells:
        return ""
    moved = [c for c in cells if c[1]]
    if len(moved) < 2:  # that toolset's own change (its base, not others' too), or +0 over all of them
        _, delta, base = moved[0] if moved else ("", 0, sum(c[2] for c in cells))
        pct = f"{percent(delta, base)}, " if base else ""
        return f"tokens {delta:+,} ({pct}{method})"
    name, delta, base = max(moved, key=lambda c: (abs(c[1]), c[1] > 0, c[0]))
    pct = f"{percent(delta, base)}, " if base else ""
    return (f"tokens {delta:+,} ({pct}{method}) in {shown(name, 80)}, the largest change of "
            f"{len(moved)} toolsets")


def cost_text(report: Report, method: str, shown: Callable[[object, int], str] = md) -> str:
    """"tokens 328 (estimate)": a check's toolset cost by `method` ("" when not counted); of several
    toolsets, the largest is named, as `delta_text` does, for their sum is no request's cost."""
    cells = [(ts.id, head) for ts in report.toolsets
             if (head := (ts.tokens.get(method) or {}).get("head")) is not None]
    if not cells:
        return ""
    if len(cells) == 1:
        return f"tokens {cells[0][1]:,} ({method})"
    name, head = max(cells, key=lambda c: (c[1], c[0]))
    return f"tokens {head:,} ({method}) in {shown(name, 80)}, the largest of {len(cells)} toolsets"


def _delta(name: str, cell: Mapping[str, int | None] | None) -> tuple[str, int, int] | None:
    """(toolset, delta, base) of one toolset's cell for a method (an absent base counts 0); None without."""
    if not cell:
        return None
    b, h, d = cell.get("base"), cell.get("head"), cell.get("delta")
    if d is None and b is not None and h is not None:
        d = h - b
    return None if d is None else (name, d, b or 0)
