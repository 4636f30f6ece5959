"""The diff reads only the changed files and what decides their toolsets; it must equal a full read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gitbuild import commit, git, init, tool
from tooldiff.config import Config
from tooldiff.diffrun import Side, diff_sides, run_diff
from tooldiff.discover import discover
from tooldiff.gitread import GitRepo, GitSource
from tooldiff.model import Report

STR = {"type": "string"}
SEARCH = tool("search_docs", "Search the documentation corpus for pages matching a query.",
              {"query": STR}, ["query"])
FIND = tool("find_document", "Find documents relevant to a user's question.", {"question": STR}, ["question"])
TICKET = tool("create_ticket", "Open a support ticket for a customer.", {"title": STR}, ["title"])
REFUND = tool("refund_order", "Refund an order to the original payment method.", {"order": STR}, ["order"])


def full(repo: Path, base: str, head: str) -> Report:
    """The same diff with every tool file discovered at both refs."""
    g = GitRepo(repo)
    sides = []
    for sha in (g.rev_parse(base), g.rev_parse(head)):
        src = GitSource(g, sha)
        found = discover(src, Config.default())
        sides.append(Side(src, list(found.toolsets), dict(found.files), list(found.errors)))
    return diff_sides(sides[0], sides[1], g.renames(g.rev_parse(base), g.rev_parse(head)), Config.default(),
                      full=False)


def summary(r: Report) -> Any:
    return ([(t.toolset, t.name, t.change, t.changed_parts) for t in r.tools],
            sorted((f.fingerprint, f.status) for f in r.findings), sorted(f.fingerprint for f in r.resolved),
            [(ts.id, ts.change, ts.tool_count) for ts in r.toolsets])


FOLDER = {"mcp/search_docs.json": SEARCH, "mcp/create_ticket.json": TICKET, "mcp/refund_order.json": REFUND,
          "other/big.json": {"tools": [TICKET, REFUND]}}

CASES: dict[str, dict[str, Any]] = {
    "add a one-tool file to a folder toolset": {"mcp/find_document.json": FIND},
    "edit one file of a folder toolset": {"mcp/create_ticket.json": {**TICKET, "description": "Open one."}},
    "a second tool splits the folder into files": {"mcp/refund_order.json": {"tools": [REFUND, FIND]}},
    "remove a file so the folder is one file": {"mcp/search_docs.json": None, "mcp/create_ticket.json": None},
    "a many-tool file beside an untouched folder": {"other/big.json": {"tools": [TICKET, FIND, SEARCH]}},
    "a new many-tool file in the folder": {"mcp/more.json": {"tools": [FIND, SEARCH]}},
}


@pytest.mark.parametrize("case", list(CASES))
def test_narrowed_read_equals_full_read(tmp_path: Path, case: str) -> None:
    root = init(tmp_path / "repo")
    commit(root, FOLDER)
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, CASES[case])
    narrowed = run_diff(root, "main", "HEAD")
    assert summary(narrowed) == summary(full(root, "main", "HEAD"))
    assert narrowed.tools, "each case changes something"


def test_named_toolsets_are_read_whole(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    cfg = "toolsets:\n  - name: helpdesk\n    files: ['a/*.json', 'b/*.json']\n"
    commit(root, {".tooldiff.yml": cfg, "a/one.json": {"tools": [SEARCH]}, "b/two.json": {"tools": [TICKET]}})
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"a/one.json": {"tools": [SEARCH, FIND]}})
    report = run_diff(root, "main", "HEAD")
    [ts] = report.toolsets
    assert (ts.id, ts.tool_count, ts.files) == ("helpdesk", 3, ("a/one.json", "b/two.json"))
    assert json.dumps([t.name for t in report.tools]) == '["find_document"]'
