"""Outputs, line anchors (unidiff on the PR patch) and check-run annotations derived from a report."""

from __future__ import annotations

import dataclasses
import json

from reports import diff_report, finding, tool

from tooldiff import actionout
from tooldiff.anchors import anchor, diff_lines, parse_patch, tool_span
from tooldiff.github import FINDING_MARK

PATCH = (
    '@@ -9,8 +9,13 @@\n   },\n   {\n     "x": 1\n-  }\n+  },\n+  {\n+    "name": "find_document",\n'
    '+    "description": "Find a document.",\n+    "parameters": {}\n+  }\n \n \n \n \n'
    "\\ No newline at end of file"
)


def test_patch_lines() -> None:
    lines = parse_patch(PATCH)
    assert lines.added == (12, 13, 14, 15, 16, 17)
    assert {9, 10, 11, 12, 17, 18, 21} <= lines.visible and 8 not in lines.visible and 22 not in lines.visible


def test_anchor_prefers_the_finding_line_then_the_first_changed_line_of_the_tool() -> None:
    lines = diff_lines([("tools/a.json", PATCH), ("README.md", None)])
    report = diff_report()
    on_line = finding("intent-overlap", ("find_document", "search_docs"), 14)
    assert anchor(on_line, report.tools, lines) == 14
    # A line outside the diff: the tool's own first line (11) is context, so the comment sits there.
    outside = finding("intent-overlap", ("find_document",), 30)
    assert anchor(outside, report.tools, lines) == 11
    # Neither the finding's line nor the tool's first line is shown: the first added line of its span.
    wide = dataclasses.replace(report.tools[1], line=5, end_line=40)
    assert anchor(finding("x", ("find_document",), 6), (wide,), lines) == 12
    gone = finding("x", ("search_docs",), 3)
    assert anchor(gone, report.tools, lines) is None
    assert anchor(finding("x", ("a",), 1, file="README.md"), report.tools, lines) is None


def test_a_finding_of_one_of_two_same_named_tools_sits_in_that_tool() -> None:
    # The finding's line (3, a YAML anchor) is in neither tool: the tool it was reported at says which.
    lines = diff_lines([("tools/a.json", PATCH)])
    first = dataclasses.replace(tool("search", 5, 10), pointer="/tools/0")
    second = dataclasses.replace(tool("search", 12, 17), pointer="/tools/1")
    at_second = dataclasses.replace(finding("missing-description", ("search",), 3), tool_pointer="/tools/1")
    assert tool_span(at_second, (first, second)) == (12, 17)
    assert anchor(at_second, (first, second), lines) == 12


def test_line_comments_carry_a_fingerprint_marker_and_inert_text() -> None:
    hostile = finding(
        "intent-overlap",
        ("find_document",),
        14,
        message="@org/team <!-- tooldiff:comment id=default --> </details> [x](javascript:alert(1))",
    )
    [c] = actionout.line_comments(diff_report(hostile), diff_lines([("tools/a.json", PATCH)]))
    assert FINDING_MARK.findall(c.body) == [hostile.fingerprint[:32]]
    assert "<!-- tooldiff:comment" not in c.body and "</details>" not in c.body and "@org" not in c.body
    assert "javascript:" not in c.body


def test_outputs_and_failing() -> None:
    report = diff_report(
        finding("a", ("find_document",), 12), finding("b", ("find_document",), 13, "warning")
    )
    out = actionout.outputs(report, report_json="r.json")
    assert out["new-findings"] == "2" and out["new-errors"] == "1" and out["token-delta"] == "50"
    assert json.loads(out["changed-tools"]) == ["find_document"] and out["sarif"] == ""
    assert actionout.failing(report, "error") == 1 and actionout.failing(report, "warning") == 2
    assert actionout.failing(report, "never") == 0


def test_changed_tools_output_stays_small_and_says_how_many() -> None:
    """A job's outputs share 1 MB, counted in UTF-16 (GitHub's docs): 20k new tools must not fill them."""
    many = tuple(tool(f"tool_number_{i:05d}_with_a_long_descriptive_name", i, i) for i in range(20_000))
    report = dataclasses.replace(diff_report(), tools=many)
    out = actionout.outputs(report)
    names = json.loads(out["changed-tools"])
    assert len(out["changed-tools"].encode("utf-16-le")) <= actionout.CHANGED_TOOLS_MAX_BYTES
    assert 0 < len(names) < 20_000 and names == [t.name for t in many[: len(names)]]
    assert out["changed-tool-count"] == "20000"
    small = actionout.outputs(diff_report())
    assert json.loads(small["changed-tools"]) == ["find_document"] and small["changed-tool-count"] == "1"


def test_check_annotations_use_check_levels_and_skip_code_defined_tools() -> None:
    report = diff_report(
        finding("a", ("t",), 12),
        finding("b", ("t",), 3, "info"),
        finding("c", ("t",), 1, file="$(python dump.py)"),
    )
    notes = actionout.check_annotations(report)
    assert [n["annotation_level"] for n in notes] == ["failure", "notice"]
    assert all(n["start_line"] == n["end_line"] for n in notes)


def test_check_annotation_message_fits_64_kb_of_utf8() -> None:
    # GitHub: "The maximum size is 64 KB"; invalid-name quotes the whole name, and a 30,000-character CJK
    # name made a 90 KB message that failed the whole check-run request.
    report = diff_report(finding("invalid-name", ("t",), 12, message="語" * 30_000))
    [note] = actionout.check_annotations(report)
    assert len(note["message"].encode("utf-8")) <= 64 * 1024
    assert note["message"].endswith("…")
