"""`tooldiff describe`: seed 002's per-tool view, one row per tool."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any
from unicodedata import combining, east_asian_width

from tooldiff.gha import plain_lines
from tooldiff.model import ACCEPTED, SEVERITY_RANK, Finding, Report, ToolReport, reported_at
from tooldiff.render.context import AT_ROOT, PathsFrom
from tooldiff.render.escape import plain
from tooldiff.tokens import METHOD_NOTES

CELL_MAX = 48  # the toolset and targets cells are cut here (with "…"); name, file and findings never are


ACCEPTED_MARK = "*"
ACCEPTED_NOTE = f"{ACCEPTED_MARK} accepted (baselined or ignored): `check --fail-on` does not count it"


def _findings_cell(found: Counter[tuple[str, str, bool]]) -> str:
    """`warning intent-overlap, info missing-description ×2*`: most severe first, each code once, and once
    more marked where the baseline or an ignore accepts some of them."""
    ordered = sorted(found.items(), key=lambda item: (SEVERITY_RANK.get(item[0][0], 9), *item[0][1:]))
    return ", ".join(f"{sev} {code}" + (f" ×{n}" if n > 1 else "") + ACCEPTED_MARK * accepted
                     for (sev, code, accepted), n in ordered) or "ok"


def _cut(cell: str) -> str:
    return cell if len(cell) <= CELL_MAX else cell[: CELL_MAX - 1] + "…"


class _Grouped:
    """A report's findings by tool row: one on a tool belongs to that tool's row (two same-named tools in a
    toolset are two rows, told apart by file, and in one file by the tool each finding was reported at), a
    pair finding to both tools' rows, once each; a toolset's own (too many tools, a token budget) to no row.
    Parse errors are left to the caller."""

    def __init__(self, report: Report) -> None:
        rows = Counter((t.toolset, t.name, t.file) for t in report.tools)
        # Two same-named tools of one file: each takes the findings reported at it.
        self.twins = {key for key, n in rows.items() if n > 1}
        self.own: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
        self.shared: dict[tuple[str, str], list[Finding]] = defaultdict(list)
        self.of_toolsets: list[Finding] = []
        for f in report.findings:
            if f.code == "parse-error":
                continue
            if not f.tools:
                self.of_toolsets.append(f)
            elif len(f.tools) == 1:
                self.own[(f.toolset, f.tools[0], f.file)].append(f)
            else:
                for name in sorted(set(f.tools)):
                    self.shared[(f.toolset, name)].append(f)

    def of(self, t: ToolReport) -> list[Finding]:
        key = (t.toolset, t.name, t.file)
        own = self.own.get(key, [])
        if key in self.twins:  # `duplicate-name` is about both: each row keeps it
            own = [f for f in own if f.code == "duplicate-name" or reported_at(f, t)]
        return own + self.shared.get((t.toolset, t.name), [])


def render_describe(report: Report, paths_from: PathsFrom = AT_ROOT) -> str:
    """`paths_from`: where the command ran, so each `path:line` opens from there."""
    grouped = _Grouped(report)
    methods = list(report.token_methods)
    by_toolset = any(t.toolset != t.file for t in report.tools)  # a folder or config toolset: name it
    header = ["tool", "file", *(["toolset"] if by_toolset else []), *(f"tokens[{m}]" for m in methods),
              "schemaHash", "targets", "findings"]
    rows = [header]
    for t in report.tools:
        counts = [str(t.tokens.get(m, {}).get("head", "")) for m in methods]
        # Names and paths are PR text: no escape sequence, bidi override or line break reaches the terminal.
        where = f"{plain(paths_from.show(t.file))}:{t.line}"
        cells = [plain(t.name), where, *([plain(t.toolset)] if by_toolset else []), *counts, t.schema_hash,
                 ",".join(t.targets)]
        found = Counter[tuple[str, str, bool]]((f.severity, f.code, f.status in ACCEPTED)
                                               for f in grouped.of(t))
        # `path:line` is never cut: cut, it opens nothing and loses its line; a name cut at 48 of its 64
        # characters could show two tools (`..._v1`, `..._v2`) as one.
        rows.append([*(c if i <= 1 else _cut(c) for i, c in enumerate(cells)), _findings_cell(found)])
    widths = [max(_width(r[i]) for r in rows) for i in range(len(header) - 1)]
    lines = ["  ".join([*(c + " " * (w - _width(c)) for c, w in zip(r[:-1], widths, strict=True)), r[-1]])
             .rstrip() for r in rows]
    # A toolset's own findings have no row: each is a line under the table.
    if grouped.of_toolsets:
        lines.append("")
        lines += [f"{plain(paths_from.show(f.file))}:{f.line}: {f.severity} {f.code}"
                  f"{ACCEPTED_MARK * (f.status in ACCEPTED)} {plain(f.message)}" for f in grouped.of_toolsets]
    if any(f.status in ACCEPTED for f in report.findings if f.code != "parse-error"):
        lines += ["", ACCEPTED_NOTE]
    # A reconstructed tokenizer's column says what it is under the table (the estimate's header says enough).
    notes = [f"{m}: {METHOD_NOTES[m]}" for m in methods if m != "estimate" and m in METHOD_NOTES]
    if notes:
        lines += ["", *notes]
    # What the run could not do as configured (sources not run, settings that match nothing), as check says.
    if report.notes:
        lines += ["", *(plain(n) for n in report.notes)]
    # A file that does not parse has no tool row: say so, or it would look like a file without tools.
    broken = sorted((f for f in report.findings if f.code == "parse-error"), key=lambda f: (f.file, f.line))
    if broken:
        lines.append("")
        lines += [f"{plain(paths_from.show(f.file))}:{f.line}: not read: {plain(f.message)}"
                  for f in broken]
    # A row starts with a tool's name: in a job's log `::error::x` would be a workflow command.
    return plain_lines("\n".join(lines)) + "\n"


def describe_json(report: Report) -> str:
    """Seed 002's `describe()` per tool and `describeAll()`'s totals: tokens (the estimate), descriptionChars,
    schemaHash, targets, issues {code, severity, targets, path, message, status} and ok (no error among
    them that the baseline or an ignore has not accepted). `file`, `line`, `toolset`, `tokensByMethod` and
    `tokenMethodNotes` (what a method is, where it needs saying) are tooldiff's own; a pair finding is an
    issue of both tools (and counts once in `issueCount`), a toolset's own finding (too many tools, a token
    budget) is in `toolsetIssues`, and a file that does not parse is in `notRead`."""
    grouped = _Grouped(report)
    tools: list[dict[str, Any]] = []
    total = 0
    for t in report.tools:
        issues = [_issue(f) for f in grouped.of(t)]
        estimate = t.tokens.get("estimate", {}).get("head") or 0
        total += estimate
        tools.append({
            "name": t.name, "file": t.file, "line": t.line, "toolset": t.toolset, "tokens": estimate,
            "tokensByMethod": {m: cell.get("head") for m, cell in t.tokens.items()},
            "descriptionChars": t.description_chars, "schemaHash": t.schema_hash, "targets": list(t.targets),
            "issues": issues,
            "ok": all(i["severity"] != "error" or i["status"] in ACCEPTED for i in issues),
        })
    broken = sorted((f for f in report.findings if f.code == "parse-error"), key=lambda f: (f.file, f.line))
    out = {
        "tools": tools,
        "toolsetIssues": [{"toolset": f.toolset, **_issue(f)} for f in grouped.of_toolsets],
        "tokens": total,
        "issueCount": sum(1 for f in report.findings if f.code != "parse-error"),
        "notRead": [{"file": f.file, "line": f.line, "message": f.message} for f in broken],
        "notes": list(report.notes),
        "tokenMethodNotes": {m: METHOD_NOTES[m] for m in report.token_methods if m in METHOD_NOTES},
    }
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def _issue(f: Finding) -> dict[str, Any]:
    return {"code": f.code, "severity": f.severity, "targets": list(f.targets), "path": _path(f.pointer),
            "message": f.message, "status": f.status}


def _path(pointer: str) -> str:
    """Seed 002's issue path: `/input_schema/properties/note` is `properties.note`, `/description` is
    `description`, a pair finding's "" stays ""."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    if parts[:1] == ["input_schema"]:
        parts = parts[1:]
    return ".".join(parts)


def _width(text: str) -> int:
    """Columns a terminal gives `text`: East Asian wide characters take two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(0 if combining(c) else 2 if east_asian_width(c) in "WF" else 1 for c in text)
