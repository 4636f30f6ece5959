"""The PR comment: order of sections, links, the clean and untouched cases, the budget, GFM tables."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from markdown_it import MarkdownIt

from tooldiff.render import RenderContext, markdown, summary

from . import reports

CTX = RenderContext(repo_url="octo/helpdesk", head_sha=reports.SHA)


def html_of(text: str) -> str:
    # GitHub-flavoured enough: CommonMark with GFM tables and strikethrough, raw HTML allowed as on GitHub.
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(text)


def test_marker_first_then_verdict_then_sections_in_order() -> None:
    out = markdown.render(reports.overlap_pr(), CTX)
    lines = out.splitlines()
    assert lines[0] == "<!-- tooldiff:comment id=default -->"
    assert lines[1].startswith(
        "❌ **tooldiff**: 1 new error, 2 new warnings, 1 new info · tokens +58 (+14.4%, "
    )
    order = [
        "### New findings",
        "### Token cost",
        "### Changed tools and their schemaHash",
        "### Resolved findings",
        "<details>",
    ]
    positions = [out.index(h) for h in order]
    assert positions == sorted(positions)


def test_finding_links_to_the_line_at_head_and_carries_its_fix() -> None:
    out = markdown.render(reports.overlap_pr(), CTX)
    assert f"(https://github.com/octo/helpdesk/blob/{reports.SHA}/tools/helpdesk.json#L11)" in out
    assert "Fix: Merge them into one tool and delete the other; do not add a mode argument." in out
    # Without a repository or commit there is no link, only the location.
    bare = markdown.render(reports.overlap_pr(), RenderContext())
    assert "](https://github.com/octo" not in bare and "tools/helpdesk.json:11" in bare


def test_groups_by_tool_most_severe_group_first() -> None:
    out = markdown.render(reports.overlap_pr(), CTX)
    items = [line.split("**")[1] for line in out.splitlines() if line.startswith("- **")]
    assert items == ["error", "info", "warning", "warning"]  # find_document's group holds the error
    labels = [line for line in out.splitlines() if line.startswith("**") and not line.startswith("**Config")]
    assert labels[0] == "**find\\_document**"


def test_comment_id_goes_into_the_marker_only_when_safe() -> None:
    assert markdown.render(reports.clean_pr(), replace(CTX, comment_id="docs-2")).startswith(
        "<!-- tooldiff:comment id=docs-2 -->\n"
    )
    assert markdown.render(reports.clean_pr(), replace(CTX, comment_id="x --> <b>")).startswith(
        "<!-- tooldiff:comment id=default -->\n"
    )


def test_untouched_pr_is_one_line() -> None:
    out = markdown.render(reports.no_changes(), CTX)
    assert out.splitlines()[1:] == ["✅ **tooldiff**: this pull request touches no tool definitions."]


def test_clean_pr_states_the_limit_of_a_clean_result() -> None:
    out = markdown.render(reports.clean_pr(), CTX)
    assert "No new findings." in out and "does not prove that a model will" in out
    assert "renamed from find" in out and "description, schema" in out
    assert ".tooldiff.yml: rule intent-overlap" in out


def test_overlap_graph_only_when_a_crowded_cluster_grows() -> None:
    out = markdown.render(reports.overlap_pr(), CTX)
    graph = out[out.index("```mermaid") : out.index("```", out.index("```mermaid") + 3)]
    assert '["find_document"]' in graph and '---|"intent-overlap"|' in graph
    assert '-.-|"directional-domination"|' in graph  # the existing edge is dotted
    assert "Legend:" in out
    # The audit's cluster has no changed tools but the summary still draws every cluster with findings.
    assert "```mermaid" not in markdown.render(reports.clean_pr(), CTX)
    assert "```mermaid" in summary.render(reports.audit(), CTX)


def test_budget_bar_and_token_table() -> None:
    out = markdown.render(reports.overlap_pr(), CTX)
    assert (
        "| **tools/helpdesk.json** | `estimate` | 402 | 460 | +58 | +14.4% | ███▏░░░░░░ 31% of 1,500 |" in out
    )
    assert "cancels out of a delta" in out


def _tables(html: str) -> list[list[int]]:
    """Cells per row of every table."""
    out = []
    for table in re.findall(r"<table>(.*?)</table>", html, re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
        out.append([len(re.findall(r"<t[hd][ >]", row)) for row in rows])
    return out


@pytest.mark.parametrize("case", sorted(reports.CASES))
def test_tables_parse_as_gfm_tables(case: str) -> None:
    for render in (markdown.render, summary.render):
        text = render(reports.CASES[case](), CTX)
        expected = text.count("\n|---")
        tables = _tables(html_of(text))
        assert len(tables) == expected, case
        for cells in tables:
            assert len(cells) >= 2 and len(set(cells)) == 1, (case, cells)


def test_many_findings_stay_within_budget_and_say_what_was_left_out() -> None:
    big = reports.many(3000)
    ctx = RenderContext(
        repo_url="octo/helpdesk", head_sha=reports.SHA, full_report_hint="Full report: run 42."
    )
    out = markdown.render(big, ctx)
    assert len(out) <= 65_000 < 65_536
    assert "Left out to stay within GitHub's comment size limit:" in out
    assert "new info findings" in out and "Full report: run 42." in out
    assert out.count("**error**") > 0  # the most severe detail survives
    assert out.startswith("<!-- tooldiff:comment id=default -->\n")


@pytest.mark.parametrize("limit", [2_000, 6_000, 20_000])
def test_any_budget_is_kept(limit: int) -> None:
    out = markdown.render(reports.many(600), replace(CTX, max_chars=limit))
    assert len(out) <= limit
    assert out.startswith("<!-- tooldiff:comment id=default -->\n")


def test_summary_stays_under_one_mebibyte() -> None:
    out = summary.render(reports.many(3000), CTX)
    assert len(out.encode()) < 1024 * 1024
    assert "finding number 2999" in out.lower() or "Left out" in out


def test_summary_sizes_resolved_findings_and_says_what_it_left_out() -> None:
    """A PR that fixes thousands of findings and adds a few: the summary lists as many resolved ones as fit,
    and says how many it left out (the comment sends readers there for the full report)."""
    big = reports.many(9000)
    report = replace(big, findings=big.findings[:12],
                     resolved=tuple(replace(f, status="existing") for f in big.findings[12:]))
    out = summary.render(report, CTX)
    assert len(out.encode()) < 1024 * 1024
    shown = out.count("Finding number")
    assert shown > 1000  # far more than the 12 new findings' worth
    assert "resolved finding" in out and "Left out" in out


def test_an_audit_with_accepted_findings_says_new() -> None:
    audit = reports.audit()
    accepted = replace(audit, findings=tuple(replace(f, status="baselined") for f in audit.findings))
    assert "no new findings in" in markdown.verdict(accepted)
    some = replace(audit, findings=(*accepted.findings[1:], replace(audit.findings[0], status="new")))
    assert " new " in markdown.verdict(some).split(" in ")[0]
    only_new = replace(audit, findings=tuple(f for f in audit.findings if f.status == "new"))
    assert "new" not in markdown.verdict(only_new).split(" in ")[0]  # nothing accepted: plain counts


def test_the_leanest_comment_has_no_empty_fold() -> None:
    big = reports.many(3000)
    report = replace(big, findings=tuple(replace(f, status="existing") for f in big.findings))
    out = markdown.render(report, replace(CTX, max_chars=3_000))
    assert len(out) <= 3_000
    if "<details>" in out:
        body = out.split("</summary>", 1)[1].split("</details>", 1)[0]
        assert body.strip(), "a fold with nothing in it"
    else:
        assert "not new in this PR" in out


def test_a_long_list_of_config_changes_does_not_push_the_findings_out() -> None:
    # A PR that adds 2,000 ignores lists one config change per ignore: uncapped, the list filled the comment
    # and the job summary's budget, and the cut dropped every new finding after it without naming them.
    why = "why " * 60
    changes = tuple(f"Ignore added: intent-overlap on tool_{i:04d} ({why})" for i in range(2_000))
    report = replace(reports.overlap_pr(), config_changes=changes)
    out = markdown.render(report, CTX)
    assert len(out) <= CTX.max_chars
    assert "### New findings" in out and "Cut here" not in out
    assert "more configuration changes" in out
    big = replace(report, config_changes=changes * 3)
    page = summary.render(big, CTX)
    assert "### Findings" in page and "Cut here" not in page
    assert "more configuration changes" in page


def test_a_removed_tool_links_to_the_base_where_its_line_is() -> None:
    # Its line is the base file's: at head that line holds another tool (github-mcp-server 69 -> 70).
    base = "b" * 40
    gone = reports.tool("close_ticket", 40, change="removed", h="00000000000000aa",
                        tok=reports.tokens(25, None))
    report = replace(reports.overlap_pr(), tools=(*reports.overlap_pr().tools, gone), base_ref=base)
    with_base = RenderContext(repo_url="octo/helpdesk", head_sha=reports.SHA, base_sha=base)
    out = summary.render(report, with_base)
    link = f"https://github.com/octo/helpdesk/blob/{base}/tools/helpdesk.json#L40"
    assert f"[tools/helpdesk.json:40]({link})" in out
    assert f"blob/{reports.SHA}/tools/helpdesk.json#L40" not in out
    assert f"blob/{reports.SHA}/tools/helpdesk.json#L40" not in summary.render(report, CTX)  # no base


def test_a_rename_says_what_else_changed() -> None:
    renamed = reports.tool("find_docs", 3, change="renamed", previous_name="search_docs",
                           parts=("name", "description", "annotations"))
    assert markdown.what_changed(renamed) == "renamed from search\\_docs; description, annotations"
    alone = reports.tool("find_docs", 3, change="renamed", previous_name="search_docs", parts=("name",))
    assert markdown.what_changed(alone) == "renamed from search\\_docs"


def test_a_change_that_costs_no_tokens_has_no_token_row() -> None:
    # github-mcp-server 123 -> 124 adds `idempotentHint` to 113 tools: 226 rows of "+0".
    same = reports.tool("list_tickets", 30, change="modified", parts=("annotations",),
                        tok=reports.tokens(40, 40), prev="1111111111111111")
    report = replace(reports.overlap_pr(), tools=(*reports.overlap_pr().tools, same))
    out = markdown.render(report, CTX)
    assert "↳ list\\_tickets" not in out.split("### Token cost")[1].split("###")[0]
    table = out.split("### Changed tools and their schemaHash")[1].split("###")[0]
    assert "| list\\_tickets |" in table  # still a changed tool, after those whose schemaHash changed
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    assert rows[-1].startswith("| list\\_tickets |") and "| unchanged |" in rows[-1], rows
    assert all("| unchanged |" not in r for r in rows[:-1]), rows


def _warnings(code: str, n: int, start: int) -> list[Any]:
    pair = [(f"t_{start + i:03d}", f"u_{start + i:03d}") for i in range(n)]
    return [reports.finding(code, "warning", pair[i], f"{code} number {i}. " * 8, line=start + i)
            for i in range(n)]


def test_a_cut_comment_keeps_the_findings_a_reviewer_reads_first() -> None:
    # A huge PR: the overlap findings come before directional-domination within a severity, every new
    # warning before the tables, and the findings section says how many it left out.
    found = (*_warnings("directional-domination", 60, 0), *_warnings("intent-overlap", 20, 100),
             *_warnings("blast-radius-twin", 5, 200))
    big = reports.many(600)
    report = replace(big, findings=(*found, *[f for f in big.findings if f.severity == "info"]))
    ctx = RenderContext(repo_url="octo/helpdesk", head_sha=reports.SHA, max_chars=20_000)
    out = markdown.render(report, ctx)
    assert len(out) <= 20_000
    first = {code: out.find(f"[`{code}`]") for code in ("blast-radius-twin", "intent-overlap")}
    assert 0 < first["blast-radius-twin"] < first["intent-overlap"] < out.find("[`directional-domination`]")
    assert out.count("[`intent-overlap`]") == 20
    assert re.search(r"… and [\d,]+ more new findings", out)


def test_the_summary_says_which_findings_it_left_out() -> None:
    # 715 existing findings, of which the summary had room for 580: the note named "135 info findings".
    big = reports.many(3000)
    old = tuple(replace(f, status="existing") for f in big.findings)
    out = summary.render(replace(big, findings=old), CTX)
    assert re.search(r"[\d,]+ existing info findings", out) and "new info" not in out


def test_token_headline_is_per_toolset_not_a_sum_of_toolsets() -> None:
    """Toolsets are sent in different requests: a tool moved from one to the other costs one agent +71 and
    the other -71, which a sum called +0. The headline names the largest change, and where."""
    from tooldiff.model import ToolsetReport
    from tooldiff.render import text

    one = reports.overlap_pr()
    moved = replace(one, toolsets=(
        ToolsetReport(id="tools/a.json", files=("tools/a.json",), tool_count=4,
                      tokens=reports.tokens(400, 329), change="modified"),
        ToolsetReport(id="tools/b<x>.json", files=("tools/b<x>.json",), tool_count=3,
                      tokens=reports.tokens(129, 200), change="modified"),
    ))
    line = markdown.render(moved, CTX).splitlines()[1]
    tail = "the largest change of 2 toolsets"
    assert line.endswith(f"· tokens +71 (+55.0%, estimate) in tools/b&lt;x&gt;.json, {tail}")
    # The report counted two methods: text gives each its line.
    assert f"Tokens +71 (+55.0%, estimate) in tools/b<x>.json, {tail}." in text.render(moved, RenderContext())
    # one toolset (or one that changed cost): its delta, as before
    assert "· tokens +58 (+14.4%, " in markdown.render(one, CTX).splitlines()[1]


def test_the_summary_row_of_a_removed_or_moved_tool_is_whole() -> None:
    """A removed tool has no schemaHash at head: its cell says so ("–", was ...), not an empty code span."""
    gone = reports.tool("list_tickets", 30, change="removed", h="", prev="7f59aa0000000000",
                        tok=reports.tokens(45, None))
    went = replace(reports.tool("find_document", 12, change="added"), moved="tools/old.json")
    report = replace(reports.overlap_pr(), tools=(*reports.overlap_pr().tools, gone, went))
    out = summary.render(report, CTX)
    row = next(line for line in out.splitlines() if line.startswith("| list\\_tickets |"))
    assert "| – (was `7f59aa0000000000`) | removed |" in row
    assert "added (moved from tools/old.json)" in out


def test_the_token_headline_percent_is_of_the_toolset_that_changed() -> None:
    """One toolset grew by 43 tokens from 14 (+307%); another changed only its annotations: the headline is
    the first's change, not 43 over both toolsets' bases."""
    from tooldiff.model import ToolsetReport

    one = reports.overlap_pr()
    two = replace(one, toolsets=(
        ToolsetReport(id="small.json", files=("small.json",), tool_count=1, tokens=reports.tokens(14, 57),
                      change="modified"),
        ToolsetReport(id="big.json", files=("big.json",), tool_count=9, tokens=reports.tokens(1100, 1100),
                      change="modified"),
    ))
    assert markdown.render(two, CTX).splitlines()[1].endswith("· tokens +43 (+307.1%, estimate)")


def test_resolved_and_existing_findings_say_where_they_were() -> None:
    """Two folders that each fix a broken file showed two identical resolved lines, with no file: a
    file's or a toolset's finding is told apart only by where it is. Resolved ones link to the base."""
    base = "b" * 40
    broken = [reports.finding("parse-error", "error", (), "invalid JSON: Expecting value",
                              file=f"{d}/tools.json", toolset=f"{d}/tools.json", line=3)
              for d in ("agent", "ops")]
    report = replace(reports.overlap_pr(), resolved=tuple(broken))
    out = markdown.render(report, replace(CTX, base_sha=base))
    resolved = out[out.index("### Resolved findings"):].split("\n\n")[0].splitlines()[1:]
    assert resolved[0].endswith(f" · [agent/tools.json:3](https://github.com/octo/helpdesk/blob/{base}/"
                                "agent/tools.json#L3)"), resolved
    assert resolved[1].endswith("/ops/tools.json#L3)")
    existing = out[out.index("<details>"):].splitlines()
    assert any(line.endswith(f"/blob/{reports.SHA}/{reports.HELPDESK}#L26)") for line in existing), existing


@pytest.mark.parametrize(("parts", "details", "cell"), [
    (("schema",), ("max_count: added, optional",), "schema: max\\_count: added, optional"),
    (("format",), ("format: openai-chat → anthropic",), "format: openai-chat → anthropic"),
    (("strict",), ("strict: unset → true",), "strict: unset → true"),
    # A part the details name themselves goes after the others, not under their name.
    (("schema", "strict"), ("strict: unset → true", "max_count: added, optional"),
     "schema: max\\_count: added, optional; strict: unset → true"),
    (("description", "format"), ("format: openai-chat → anthropic",),
     "description; format: openai-chat → anthropic"),
    (("description",), (), "description"),
    ((), (), "definition"),
])
def test_what_changed_names_each_part_once(
    parts: tuple[str, ...], details: tuple[str, ...], cell: str
) -> None:
    changed = replace(reports.tool("search_docs", 3, change="modified", parts=parts), details=details)
    assert markdown.what_changed(changed) == cell
    renamed = replace(changed, change="renamed", previous_name="find_docs", changed_parts=("name", *parts))
    assert markdown.what_changed(renamed) == "renamed from find\\_docs" + (f"; {cell}" if parts else "")
    moved = replace(changed, change="added", moved="tools/old.json")
    assert markdown.what_changed(moved) == "moved from tools/old.json" + (f"; {cell}" if parts else "")
