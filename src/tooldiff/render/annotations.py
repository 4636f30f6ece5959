"""Workflow-command annotations (`::error file=...,line=...,title=...::message`) for new findings.

Most severe first. GitHub shows 10 annotations per level per step, so we print that many per level and one
plain log line for the rest. Escaping follows GitHub's runner (`toolkit/packages/core/src/command.ts`):
data escapes `%`, CR and LF; properties also escape `:` and `,`. With every line break escaped, tool text
can never start a line of its own, so it can never issue a workflow command (`::stop-commands::`, ...).
"""

from __future__ import annotations

import re

from tooldiff.model import Finding, Report, is_code_label
from tooldiff.render.context import RenderContext
from tooldiff.render.escape import visible
from tooldiff.render.view import ordered

PER_LEVEL = 10
_OTHER_BREAKS = re.compile(r"[\v\f\x1c-\x1e\x85\u2028\u2029]")
COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    # Also no bidi overrides or terminal escapes, and no other break that a line splitter (Python's
    # `splitlines`, say) would honour: a new line could start with `::` and issue a command of its own.
    text = visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _OTHER_BREAKS.sub(" ", text)


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    props = []
    # Tools a command or a dump gave (`$(make tools)`) are in no file of the repository: say where instead.
    in_code = is_code_label(f.file)
    if f.file and not in_code:
        props.append(f"file={escape_property(f.file)}")
        if f.line > 0:
            props.append(f"line={f.line}")
    tools = ", ".join(f.tools[:2])
    title = f"tooldiff {f.code}" + (f" ({tools})" if tools else "")
    props.append(f"title={escape_property(title[:200])}")
    message = (f"{f.file}: " if in_code else "") + f.message + (f"\nFix: {f.fix}" if f.fix else "")
    return f"::{COMMANDS.get(f.severity, 'warning')} {','.join(props)}::{escape_data(message[:4000])}"


def render(report: Report, ctx: RenderContext) -> str:
    lines: list[str] = []
    taken = dict(ctx.annotated)
    shown: dict[str, int] = {}
    left = 0
    for f in ordered(x for x in report.findings if x.status == "new"):
        if shown.get(f.severity, 0) + taken.get(COMMANDS.get(f.severity, "warning"), 0) >= PER_LEVEL:
            left += 1
            continue
        shown[f.severity] = shown.get(f.severity, 0) + 1
        lines.append(annotation(f))
    if left:
        # A plain log line, not a command: it cannot be mistaken for one more finding.
        lines.append(f"tooldiff: {left:,} more new findings are not annotated; see the job summary.")
    return "\n".join(lines) + ("\n" if lines else "")
