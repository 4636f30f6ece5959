"""`tooldiff describe`: seed 002's per-tool view, one row per tool."""

from __future__ import annotations

from collections import defaultdict

from tooldiff.model import Report
from tooldiff.render.escape import plain


def render_describe(report: Report) -> str:
    codes: dict[tuple[str, str], list[str]] = defaultdict(list)
    for f in report.findings:
        for name in f.tools:
            codes[(f.toolset, name)].append(f"{f.severity}:{f.code}")
    methods = list(report.token_methods)
    header = ["tool", "toolset", *(f"tokens[{m}]" for m in methods), "schemaHash", "targets", "findings"]
    rows = [header]
    for t in report.tools:
        counts = [str(t.tokens.get(m, {}).get("head", "")) for m in methods]
        found = sorted(codes.get((t.toolset, t.name), []))
        # Names and paths are PR text: no escape sequence, bidi override or line break reaches the terminal.
        rows.append([plain(t.name), f"{plain(t.toolset)}:{t.line}", *counts, t.schema_hash,
                     ",".join(t.targets), ", ".join(found) or "ok"])
    widths = [min(max(len(r[i]) for r in rows), 48) for i in range(len(header))]
    lines = ["  ".join(c[:48].ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    # A file that does not parse has no tool row: say so, or it would look like a file without tools.
    broken = sorted((f for f in report.findings if f.code == "parse-error"), key=lambda f: (f.file, f.line))
    if broken:
        lines.append("")
        lines.extend(f"{plain(f.file)}:{f.line}: not read: {plain(f.message)}" for f in broken)
    return "\n".join(lines) + "\n"
