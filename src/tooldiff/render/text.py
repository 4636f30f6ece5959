"""Terminal output, ruff-like: `file:line: severity code [targets] message`, then counts.

Tool text is stripped of control characters (no ANSI escapes or bidi tricks from a tool file), no line can
be read as a workflow command when a job's log shows it (`gha.plain_lines`), and colour
appears only when the caller asks for it (`RenderContext.colour`): the CLI decides whether stdout is a TTY.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from tooldiff.gha import plain_lines
from tooldiff.model import SEVERITY_RANK, Finding, Report
from tooldiff.render import view
from tooldiff.render.context import RenderContext
from tooldiff.render.escape import plain, plural
from tooldiff.render.view import counts_text

_COLOURS = {
    "error": "\x1b[31;1m",
    "warning": "\x1b[33m",
    "info": "\x1b[36m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
}
_RESET = "\x1b[0m"


def _paint(text: str, style: str, on: bool) -> str:
    return f"{_COLOURS[style]}{text}{_RESET}" if on else text


def _key(f: Finding) -> tuple[str, int, int, str, tuple[str, ...], str]:
    return (f.file, f.line, SEVERITY_RANK.get(f.severity, 9), f.code, f.tools, f.fingerprint)


def _where(f: Finding, shown: Callable[[str], str]) -> str:
    where = f"{shown(f.file)}:{f.line}" if f.file and f.line > 0 else shown(f.file) or f.toolset or "-"
    return plain(where, 200)


def finding_line(f: Finding, colour: bool = False, shown: Callable[[str], str] = str) -> str:
    where = _where(f, shown)
    targets = f" [{', '.join(plain(t, 40) for t in f.targets)}]" if f.targets else ""
    head = f"{_paint(where, 'bold', colour)}: {_paint(f.severity, f.severity, colour)} {plain(f.code, 60)}"
    line = f"{head}{targets} {plain(f.message, 1000)}"
    if f.fix:
        line += "\n  " + _paint("fix: " + plain(f.fix, 600), "dim", colour)
    return line


def _changes(report: Report) -> str:
    """What a diff changed, in one sentence: the tools per kind of change and the token delta (of the one
    method counted: several get a line each, `_token_lines`)."""
    kinds: dict[str, int] = {}
    for t in report.tools:
        if t.change == "unchanged" or (t.moved is not None and t.change == "removed"):
            continue
        kind = "moved" if t.moved is not None else t.change  # one tool, not one added and one removed
        kinds[kind] = kinds.get(kind, 0) + 1
    if not kinds:
        return "No tool definition changed."
    parts = ", ".join(f"{n:,} {kind}" for kind, n in sorted(kinds.items()))
    tokens = view.delta_text(report, plain) if len(report.token_methods) < 2 else ""
    return f"Tools changed: {parts}{'; ' + tokens if tokens else ''}."


def _token_lines(report: Report) -> list[str]:
    """`--tokens all`: each counted method on its own line, the figures of the JSON report (a diff's
    delta, a check's cost). With the estimate alone, a diff's sentence says it and a check shows none."""
    if len(report.token_methods) < 2:
        return []
    if report.mode == "diff":
        texts = [view.delta_text(report, plain, m) for m in report.token_methods]
    else:
        texts = [view.cost_text(report, m, plain) for m in report.token_methods]
    return [f"T{t[1:]}." for t in texts if t]


def statistics(new: list[Finding]) -> list[str]:
    """`2,312  warning  intent-overlap`: the new findings per rule code, most first (as ruff --statistics)."""
    counts = Counter((f.code, f.severity) for f in new)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    width = max((len(f"{n:,}") for _, n in ordered), default=1)
    sev_width = max((len(sev) for (_, sev), _ in ordered), default=0)
    return [f"{n:>{width},}  {sev:<{sev_width}}  {plain(code, 60)}" for (code, sev), n in ordered]


def render(report: Report, ctx: RenderContext) -> str:
    new = sorted((f for f in report.findings if f.status == "new"), key=_key)
    if ctx.statistics:
        lines = statistics(new)
    else:
        lines = [finding_line(f, ctx.colour, ctx.shown_path) for f in new]
        for f in sorted(report.resolved, key=_key):
            where = _where(f, ctx.shown_path)
            # Its line is the base file's: at head that line may hold another tool.
            lines.append(f"{where} (base): resolved {plain(f.code, 60)} {plain(f.message, 300)}")
    counts = report.counts("new")
    total = sum(counts.values())
    tools = plural(len(report.tools), "tool")
    if report.mode == "diff" and "tools_changed" in report.stats:  # the pair rules read the neighbours too
        near = report.stats.get("neighbours", 0)
        tools = plural(report.stats["tools_changed"], "changed tool")
        tools += f" and {plural(near, 'neighbour')}" if near else ""
    summary = f"Checked {tools} in {plural(len(report.toolsets), 'toolset')}: {plural(total, 'new finding')}"
    summary += f" ({counts_text(counts)})" if total else ""
    others: dict[str, int] = {}
    for f in report.findings:
        if f.status != "new":
            others[f.status] = others.get(f.status, 0) + 1
    extra = [f"{n:,} {s}" for s, n in sorted(others.items())]
    if report.resolved:
        extra.append(f"{len(report.resolved):,} resolved")
    summary += f"; also {', '.join(extra)}." if extra else "."
    if lines:
        lines.append("")
    if report.mode == "diff":
        lines.append(_changes(report))
    lines += _token_lines(report)
    lines.append(_paint(summary, "error" if counts["error"] else "bold", ctx.colour))
    # A config or baseline change decides what counts as new (an ignore added in the PR silences a
    # finding): the terminal lists it, as the comment and the job summary do.
    lines += [plain(c, 500) for c in report.config_changes]
    lines += [plain(n, 500) for n in report.notes]
    # No line a runner would take for a workflow command (`::warning::x.json:1: ...`, `##[error]` in a name).
    return plain_lines("\n".join(lines)) + "\n"
