"""`tooldiff diff --base REF PATH ...`: a diff of refs over named files or folders (the CLI's paths, the
Action's `paths` input) reports what a diff of the whole tree reports about them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitbuild import commit, git, init, tool
from tooldiff.diffrun import run_diff
from tooldiff.model import Report

SEARCH = tool("search_docs", "Search the documentation corpus for pages matching a query.",
              {"query": {"type": "string", "description": "What to look for."}}, ["query"])
FIND = tool("find_document", "Find documents relevant to a user's question.",
            {"question": {"type": "string", "description": "The question."}}, ["question"])
TICKET = tool("create_ticket", "Create a support ticket in the helpdesk queue.",
              {"title": {"type": "string"}})
USERS = tool("list_users", "List the users of the helpdesk account.", {"q": {"type": "string"}})


def codes(report: Report) -> list[tuple[str, str]]:
    return sorted((f.code, f.status) for f in (*report.findings, *report.resolved))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init(tmp_path / "repo")
    commit(root, {"tools/a.json": [SEARCH, FIND, TICKET], "tools/z.json": [USERS]}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    return root


def test_a_named_path_missing_at_one_ref_is_no_parse_error(repo: Path) -> None:
    # A file the PR deletes is not at head, one it adds not at the base: neither is "nothing to read".
    closing = tool("close_ticket", "Close a support ticket that the customer confirmed is solved.",
                   {"ticket_id": {"type": "string"}}, ["ticket_id"])
    commit(repo, {"tools/z.json": None, "tools/new.json": [closing]})
    gone = run_diff(repo, "main", "HEAD", paths=["tools/z.json"])
    assert codes(gone) == [("missing-description", "resolved")]
    assert [(t.name, t.change) for t in gone.tools] == [("list_users", "removed")]
    added = run_diff(repo, "main", "HEAD", paths=["tools/new.json"])
    assert codes(added) == [("missing-description", "new")]
    assert [(t.name, t.change) for t in added.tools] == [("close_ticket", "added")]


def test_a_named_path_the_pr_does_not_touch_is_no_parse_error(repo: Path) -> None:
    # Only what the PR changes is read (and the files that group with it): other/ is not tools/.
    commit(repo, {"other/x.json": [USERS, {**TICKET, "name": "close_ticket"}]})
    report = run_diff(repo, "main", "HEAD", paths=["tools/a.json"])
    assert report.findings == () and report.resolved == () and report.tools == ()


@pytest.mark.parametrize("named", ["tools/a.json", "tools/b.json"])
def test_a_named_file_the_pr_renames_is_followed_by_either_name(repo: Path, named: str) -> None:
    git(repo, "mv", "tools/a.json", "tools/b.json")
    edited = {**TICKET, "description": "Create a support ticket in the helpdesk queue now."}
    commit(repo, {"tools/b.json": [SEARCH, FIND, edited]})
    whole = run_diff(repo, "main", "HEAD")
    report = run_diff(repo, "main", "HEAD", paths=[named])
    assert [(t.name, t.change) for t in report.tools] == [("create_ticket", "modified")]
    assert [(ts.id, ts.previous_id) for ts in report.toolsets] == [("tools/b.json", "tools/a.json")]
    assert codes(report) == codes(whole) == [("missing-description", "existing")]


@pytest.mark.parametrize("layout", ["folder", "config"])
def test_a_named_file_is_diffed_in_its_whole_toolset(tmp_path: Path, layout: str) -> None:
    """As `check tools/d.json` does: the other files of its folder of one-tool files, or of its config
    toolset, are its neighbours, so an overlap with an unchanged one is new and the toolset id is a full
    run's; what the PR changes in a file not named stays out of the report."""
    root = init(tmp_path / "repo")
    edited = {**TICKET, "description": "Create a support ticket in the helpdesk queue now."}
    if layout == "config":
        config = "toolsets:\n  - name: helpdesk\n    files: ['tools/*.json']\n"
        base: dict[str, object] = {".tooldiff.yml": config, "tools/a.json": [SEARCH, USERS],
                                   "tools/b.json": [TICKET]}
        named, toolset = "tools/d.json", "helpdesk"
        pr: dict[str, object] = {named: [FIND], "tools/b.json": [edited]}
    else:
        base = {"tools/search.json": SEARCH, "tools/users.json": USERS, "tools/ticket.json": TICKET}
        named, toolset = "tools/find.json", "tools"
        pr = {named: FIND, "tools/ticket.json": edited}
    commit(root, base, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, pr)
    whole = run_diff(root, "main", "HEAD")
    report = run_diff(root, "main", "HEAD", paths=[named])
    assert [(ts.id, ts.tool_count, ts.change) for ts in report.toolsets] == [(toolset, 4, "modified")]
    # The toolset's tokens are a full run's: the neighbours are at the base as well.
    assert report.toolsets[0].tokens == whole.toolsets[0].tokens
    assert [(t.name, t.change) for t in report.tools] == [("find_document", "added")]
    new = [(f.code, f.tools, f.fingerprint) for f in report.findings if f.status == "new"]
    assert new == [(f.code, f.tools, f.fingerprint) for f in whole.findings
                   if f.status == "new" and "find_document" in f.tools]
    assert [code for code, _, _ in new] == ["intent-overlap"]
