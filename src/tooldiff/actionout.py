"""What the action derives from a Report for GitHub: step outputs, line comments, check-run annotations.

Pure functions; `action.py` decides where they go. Tool text passes through `render.escape` first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tooldiff.anchors import FileLines, anchor
from tooldiff.github import LineComment, finding_marker
from tooldiff.model import SEVERITY_RANK, Finding, Report, is_code_label
from tooldiff.render.escape import code, md, plain
from tooldiff.render.view import changed_tools, ordered

CHECK_LEVELS = {"error": "failure", "warning": "warning", "info": "notice"}
# Annotations on one check run, most severe first. They go 50 a request, and GitHub's secondary rate limit
# allows about 80 content-creating requests a minute and 500 an hour: 20 requests leave room for the rest.
MAX_CHECK_ANNOTATIONS = 1_000


def failing(report: Report, fail_on: str) -> int:
    """How many `new` findings reach `fail_on` (the job fails when any do)."""
    if fail_on == "never":
        return 0
    limit = SEVERITY_RANK[fail_on]
    return sum(1 for f in report.findings if f.status == "new" and SEVERITY_RANK[f.severity] <= limit)


def token_delta(report: Report) -> int:
    """The summed delta of the first counting method ("estimate", always there) over changed toolsets."""
    method = report.token_methods[0] if report.token_methods else "estimate"
    total = 0
    for ts in report.toolsets:
        delta = ts.tokens.get(method, {}).get("delta")
        total += delta or 0
    return total


# A job's outputs share 1 MB, counted in UTF-16 (docs.github.com, "Passing information between jobs"): the
# list of changed tools keeps to a quarter of that, and `changed-tool-count` says how many there are in all.
CHANGED_TOOLS_MAX_BYTES = 256 * 1024


def _capped_names(names: list[str]) -> str:
    out = json.dumps(names)
    if len(out.encode("utf-16-le")) <= CHANGED_TOOLS_MAX_BYTES:
        return out
    kept: list[str] = []
    size = 4  # "[]" in UTF-16
    for name in names:
        size += len(json.dumps(name).encode("utf-16-le")) + 4  # ", "
        if size > CHANGED_TOOLS_MAX_BYTES:
            break
        kept.append(name)
    return json.dumps(kept)


def outputs(report: Report, *, report_json: str = "", sarif: str = "") -> dict[str, str]:
    new = [f for f in report.findings if f.status == "new"]
    changed = [t.name for t in changed_tools(report)] if report.mode == "diff" else []
    return {
        "new-findings": str(len(new)),
        "new-errors": str(sum(1 for f in new if f.severity == "error")),
        "token-delta": str(token_delta(report)),
        "changed-tools": _capped_names(changed),
        "changed-tool-count": str(len(changed)),
        "report-json": report_json,
        "sarif": sarif,
    }


def _in_repo(f: Finding) -> bool:
    """Findings on code-defined tools point at `$(command)`, which is no file in the repository."""
    return bool(f.file) and not is_code_label(f.file) and f.line > 0


def comment_body(f: Finding) -> str:
    tools = ", ".join(f.tools)
    lines = [f"**tooldiff {plain(f.severity)}** {code(f.code)}" + (f" on {md(tools, 200)}" if tools else ""),
             "", md(f.message, 3000)]
    if f.fix:
        lines += ["", f"Fix: {md(f.fix, 2000)}"]
    return "\n".join([*lines, "", finding_marker(f.fingerprint)])


def line_comments(report: Report, lines: Mapping[str, FileLines]) -> list[LineComment]:
    """One comment per new finding that can sit on a line the PR diff shows."""
    out: list[LineComment] = []
    for f in ordered(x for x in report.findings if x.status == "new"):
        if not _in_repo(f) or not f.fingerprint:
            continue
        n = anchor(f, report.tools, lines)
        if n is not None:
            out.append(LineComment(f.file, n, comment_body(f), f.fingerprint))
    return out


def check_annotations(report: Report) -> list[dict[str, Any]]:
    return [
        {
            "path": f.file, "start_line": f.line, "end_line": f.line,
            "annotation_level": CHECK_LEVELS.get(f.severity, "warning"),
            "title": plain(f"{f.code}: {', '.join(f.tools)}", 255),
            # GitHub allows 64 KB of message; at most 4 bytes a character in UTF-8 keeps 16,000 within it.
            "message": plain(f.message + (f" Fix: {f.fix}" if f.fix else ""), 16_000),
        }
        for f in ordered(x for x in report.findings if x.status == "new") if _in_repo(f)
    ]
