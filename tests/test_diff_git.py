"""`run_diff` on real git repositories built in tmp dirs: each case issue 3 names."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from gitbuild import commit, git, init, tool
from tooldiff.config import Config
from tooldiff.diffrun import run_diff, run_diff_paths
from tooldiff.model import Report

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "helpdesk"
BASE_TOOLS = json.loads((EXAMPLES / "base" / "tools.json").read_text())
HEAD_TOOLS = json.loads((EXAMPLES / "head" / "tools.json").read_text())  # adds find_document


def tools_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return list(doc["tools"])


def overlap(report: Report, status: str | None = "new") -> list[Any]:
    """Findings on the seed 001 pair (find_document, search_docs)."""
    pair = ("find_document", "search_docs")
    return [f for f in report.findings
            if tuple(sorted(f.tools)) == pair and (status is None or f.status == status)]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": BASE_TOOLS}, "helpdesk tools")
    git(root, "checkout", "-q", "-b", "pr")
    return root


def test_pure_reformat_and_reorder_give_no_changes(repo: Path) -> None:
    doc = {"tools": [dict(reversed(list(t.items()))) for t in reversed(tools_of(BASE_TOOLS))]}
    commit(repo, {"agent/tools.json": json.dumps(doc, separators=(",", ":"))})
    report = run_diff(repo, "main", "HEAD")
    assert report.tools == () and report.toolsets == ()
    assert report.findings == () and report.resolved == ()
    assert report.stats["tools_changed"] == 0


def test_description_edit_changes_hash_and_tokens(repo: Path) -> None:
    tools = tools_of(BASE_TOOLS)
    tools[0] = {**tools[0], "description": tools[0]["description"] + " Results are ranked by relevance."}
    commit(repo, {"agent/tools.json": {"tools": tools}})
    report = run_diff(repo, "main", "HEAD")
    [t] = report.tools
    assert (t.name, t.change, t.changed_parts) == (tools[0]["name"], "modified", ("description",))
    assert t.schema_hash and t.previous_schema_hash and t.schema_hash != t.previous_schema_hash
    est = t.tokens["estimate"]
    assert est["base"] is not None and est["head"] is not None
    assert est["delta"] == est["head"] - est["base"] > 0
    [ts] = report.toolsets
    assert ts.id == "agent/tools.json" and ts.tokens["estimate"]["delta"] == est["delta"]


def test_a_pr_introducing_an_overlap_reports_it_as_new(repo: Path) -> None:
    commit(repo, {"agent/tools.json": HEAD_TOOLS}, "add find_document")
    report = run_diff(repo, "main", "HEAD")
    assert [(t.name, t.change) for t in report.tools] == [("find_document", "added")]
    assert overlap(report), [(f.code, f.tools) for f in report.findings]
    assert report.stats["pairs_analysed"] >= 1


def test_a_finding_at_base_is_not_new(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": HEAD_TOOLS})
    git(root, "checkout", "-q", "-b", "pr")
    tools = tools_of(HEAD_TOOLS)
    i = next(i for i, t in enumerate(tools) if t["name"] == "find_document")
    tools[i] = {**tools[i], "description": tools[i]["description"].rstrip(".") + ", quickly."}
    commit(root, {"agent/tools.json": {"tools": tools}})
    report = run_diff(root, "main", "HEAD")
    assert [t.change for t in report.tools] == ["modified"]
    assert overlap(report, "existing") and not overlap(report, "new")


def test_removing_one_tool_of_a_flagged_pair_resolves_it(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": HEAD_TOOLS})
    git(root, "checkout", "-q", "-b", "pr")
    kept = [t for t in tools_of(HEAD_TOOLS) if t["name"] != "find_document"]
    commit(root, {"agent/tools.json": {"tools": kept}})
    report = run_diff(root, "main", "HEAD")
    assert [(t.name, t.change) for t in report.tools] == [("find_document", "removed")]
    assert [f for f in report.resolved if "find_document" in f.tools]
    assert not [f for f in report.findings if f.status == "new"]


def test_a_rename_is_a_rename(repo: Path) -> None:
    tools = tools_of(BASE_TOOLS)
    old = tools[0]["name"]
    tools[0] = {**tools[0], "name": old + "_v2"}
    commit(repo, {"agent/tools.json": {"tools": tools}})
    [t] = run_diff(repo, "main", "HEAD").tools
    assert (t.change, t.name, t.previous_name) == ("renamed", old + "_v2", old)


def test_a_moved_file_keeps_its_toolset(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": HEAD_TOOLS})
    git(root, "checkout", "-q", "-b", "pr")
    (root / "server").mkdir()
    git(root, "mv", "agent/tools.json", "server/helpdesk tools ü.json")
    commit(root, message="move")
    report = run_diff(root, "main", "HEAD")
    # No tool changed and nothing is new or resolved; the moved toolset was analysed again under its new
    # path, so its findings are listed as existing.
    assert report.tools == () and report.resolved == () and report.findings
    assert {f.status for f in report.findings} == {"existing"}
    assert {f.file for f in report.findings} == {"server/helpdesk tools ü.json"}
    assert [(t.id, t.change) for t in report.toolsets] == [("server/helpdesk tools ü.json", "renamed")]


def test_moved_and_edited_file_keeps_existing_findings(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": HEAD_TOOLS})
    git(root, "checkout", "-q", "-b", "pr")
    tools = tools_of(HEAD_TOOLS)
    i = next(i for i, t in enumerate(tools) if t["name"] == "find_document")
    tools[i] = {**tools[i], "description": tools[i]["description"] + " "}
    (root / "agent/tools.json").unlink()
    commit(root, {"server/tools.json": {"tools": tools}})
    report = run_diff(root, "main", "HEAD")
    assert {t.toolset for t in report.tools} == {"server/tools.json"}
    assert overlap(report, "existing") and not overlap(report, "new")
    # the old path is said: in the JSON, and beside the toolset in the comment's token table
    assert [(ts.id, ts.previous_id) for ts in report.toolsets] == [("server/tools.json", "agent/tools.json")]
    from tooldiff.render import RenderContext, markdown

    assert "**server/tools.json** (renamed from agent/tools.json)" in markdown.render(report, RenderContext())


def test_odd_file_names(repo: Path) -> None:
    name = "tools dir/ünï 工具\nnewline.json"
    commit(repo, {name: {"tools": [tool("ping_host", "Send an ICMP echo to a host and report the latency.",
                                        {"host": {"type": "string"}}, ["host"])]}})
    report = run_diff(repo, "main", "HEAD")
    assert [(t.name, t.change, t.toolset) for t in report.tools] == [("ping_host", "added", name)]


def test_shallow_clone_fetches_the_base(tmp_path: Path) -> None:
    origin = init(tmp_path / "origin")
    commit(origin, {"agent/tools.json": BASE_TOOLS})
    for i in range(5):
        commit(origin, {"README.md": f"v{i}\n"})
    git(origin, "checkout", "-q", "-b", "pr")
    commit(origin, {"agent/tools.json": HEAD_TOOLS})
    git(origin, "checkout", "-q", "main")
    commit(origin, {"NOTES.md": "later on main\n"})
    main_sha = git(origin, "rev-parse", "main")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "pr", f"file://{origin}", str(clone))
    report = run_diff(clone, main_sha, "HEAD")
    assert [(t.name, t.change) for t in report.tools] == [("find_document", "added")]
    assert overlap(report)


def test_worktree_includes_uncommitted_edits(repo: Path) -> None:
    (repo / "agent" / "tools.json").write_text(json.dumps(HEAD_TOOLS))
    report = run_diff(repo, "main", "HEAD", worktree=True)
    assert [(t.name, t.change) for t in report.tools] == [("find_document", "added")]
    assert run_diff(repo, "main", "HEAD").tools == ()


def test_paths_outside_git(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d, src in ((a, "base"), (b, "head")):
        d.mkdir()
        shutil.copy(EXAMPLES / src / "tools.json", d / "tools.json")
    report = run_diff_paths(a, b)
    assert [(t.name, t.change) for t in report.tools] == [("find_document", "added")]
    files = run_diff_paths(a / "tools.json", b / "tools.json")
    assert [f.fingerprint for f in files.findings] == [f.fingerprint for f in report.findings]
    (b / "renamed.json").write_bytes((b / "tools.json").read_bytes())
    renamed = run_diff_paths(a / "tools.json", b / "renamed.json")
    assert [(t.toolset, t.change) for t in renamed.tools] == [("renamed.json", "added")]


IGNORE_OVERLAP = """ignores:
  - code: "*"
    tool: find_document
    reason: accepted duplicate while we migrate
"""


def test_config_from_head_or_base(repo: Path) -> None:
    """pull_request: the head's config (an adopting PR is not red); pull_request_target: the base's."""
    commit(repo, {"agent/tools.json": HEAD_TOOLS, ".tooldiff.yml": IGNORE_OVERLAP})
    head_cfg = run_diff(repo, "main", "HEAD", config_from="head")
    assert overlap(head_cfg, "ignored") and not overlap(head_cfg, "new")
    assert any("config was added" in c for c in head_cfg.config_changes)
    assert any(c.startswith("Ignore added: * on find_document") for c in head_cfg.config_changes)
    base_cfg = run_diff(repo, "main", "HEAD", config_from="base")
    assert overlap(base_cfg, "new")  # a fork cannot silence itself


def test_a_config_change_that_turns_rules_down_is_said(repo: Path) -> None:
    """A PR that turns a rule off made its findings vanish with no trace but "the config was changed": each
    rule turned off or on, each severity and the failing level that changed are named."""
    config = ("fail_on: never\nrules:\n  intent-overlap:\n    enabled: false\n"
              "  missing-description:\n    severity: warning\n")
    commit(repo, {"agent/tools.json": HEAD_TOOLS, ".tooldiff.yml": config})
    report = run_diff(repo, "main", "HEAD", config_from="head")
    assert not overlap(report, None)
    changes = report.config_changes
    assert "Rule turned off: intent-overlap" in changes, changes
    assert "Severity of missing-description: the rule's own → warning" in changes, changes
    assert "fail_on: error → never" in changes, changes


def test_untrusted_head_cannot_baseline_its_own_findings(repo: Path) -> None:
    commit(repo, {"agent/tools.json": HEAD_TOOLS})
    first = run_diff(repo, "main", "HEAD", config_from="base")
    accepted = [{"fingerprint": f.fingerprint, "reason": "mine"} for f in first.findings if f.status == "new"]
    assert accepted
    commit(repo, {".tooldiff-baseline.json": json.dumps({"version": 1, "findings": accepted})})
    assert not overlap(run_diff(repo, "main", "HEAD", config_from="head"), "new")  # a team's own PR
    untrusted = run_diff(repo, "main", "HEAD", config_from="base")
    assert overlap(untrusted, "new")  # the base's baseline, as its config: a fork cannot silence itself
    assert any("Baseline .tooldiff-baseline.json changed" in c for c in untrusted.config_changes)


def test_config_change_means_full_scope(repo: Path) -> None:
    commit(repo, {".tooldiff.yml": "chars_per_token: 3\n"})
    report = run_diff(repo, "main", "HEAD")
    assert report.tools == ()  # no tool changed ...
    assert report.stats["tools_analysed"] == len(tools_of(BASE_TOOLS))  # ... but every tool was analysed
    assert any("over every toolset" in c for c in report.config_changes)


def test_broken_base_config_is_reported_not_fatal(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": BASE_TOOLS, ".tooldiff.yml": "no_such_key: 1\n"})
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {".tooldiff.yml": "chars_per_token: 4\n", "agent/tools.json": HEAD_TOOLS})
    report = run_diff(root, "main", "HEAD")
    assert any("base's config does not load" in c for c in report.config_changes)
    assert overlap(report)


DUMP = """import json, sys
tools = json.load(open("agent/tools.json"))["tools"]
json.dump({"tools": [{"name": "code_" + t["name"], "description": t["description"],
                      "input_schema": t["input_schema"]} for t in tools]}, sys.stdout)
"""


def test_code_defined_tools_run_in_a_worktree_of_each_ref(repo: Path) -> None:
    import sys

    cfg = f"sources:\n  - command: {sys.executable} dump_tools.py\n    toolset: code-tools\n"
    commit(repo, {"agent/tools.json": HEAD_TOOLS, ".tooldiff.yml": cfg, "dump_tools.py": DUMP})
    git(repo, "checkout", "-q", "main")
    commit(repo, {".tooldiff.yml": cfg, "dump_tools.py": DUMP})  # main has the command too
    git(repo, "checkout", "-q", "pr")
    git(repo, "merge", "-q", "--no-edit", "-X", "theirs", "main")
    report = run_diff(repo, "main", "HEAD")
    changed = {(t.toolset, t.name, t.change) for t in report.tools}
    assert ("code-tools", "code_find_document", "added") in changed
    assert any("Ran the configured command" in n for n in report.notes)
    untrusted = run_diff(repo, "main", "HEAD", config_from="base")
    assert any("were not run (untrusted head under pull_request_target)" in n for n in untrusted.notes)
    assert "\n" not in git(repo, "worktree", "list")  # the temporary worktrees are gone


def test_a_command_that_fails_at_both_refs_fails_the_pr_rather_than_passing_unread(repo: Path) -> None:
    """A dump whose dependency is missing (or whose config line is broken) fails at the base as at head:
    compared like a file's parse error it was `existing`, and the PR passed with no tool read at all."""
    import sys

    cfg = f"sources:\n  - command: {sys.executable} -m no_such_dump_module\n    toolset: code-tools\n"
    git(repo, "checkout", "-q", "main")
    commit(repo, {".tooldiff.yml": cfg})
    git(repo, "checkout", "-q", "pr")
    git(repo, "merge", "-q", "--no-edit", "main")
    commit(repo, {"agent/tools.json": HEAD_TOOLS})
    report = run_diff(repo, "main", "HEAD")
    [err] = [f for f in report.findings if f.code == "parse-error"]
    assert err.status == "new" and "no_such_dump_module" in err.message
    assert not report.resolved
    assert any(n.startswith("At the base") and "no_such_dump_module" in n for n in report.notes), report.notes


def test_a_command_that_fails_at_the_base_only_is_a_note_not_a_resolved_finding(repo: Path) -> None:
    """The PR that adds the dump script (or fixes it): the base's failure is not the PR's to resolve."""
    import sys

    cfg = f"sources:\n  - command: {sys.executable} dump_tools.py\n    toolset: code-tools\n"
    commit(repo, {".tooldiff.yml": cfg, "dump_tools.py": DUMP})
    report = run_diff(repo, "main", "HEAD")
    assert not [f for f in (*report.findings, *report.resolved) if f.code == "parse-error"]
    changed = {(t.toolset, t.name, t.change) for t in report.tools}
    assert ("code-tools", "code_search_docs", "added") in changed
    assert any(n.startswith("At the base") and "dump_tools.py" in n for n in report.notes), report.notes


def test_with_worktree_the_note_says_the_head_command_ran_in_the_work_tree(repo: Path) -> None:
    """`--worktree` runs the head's command in the user's own work tree (uncommitted edits, local files):
    the note said "a temporary worktree of each ref"."""
    import sys

    cfg = f"sources:\n  - command: {sys.executable} dump_tools.py\n    toolset: code-tools\n"
    git(repo, "checkout", "-q", "main")
    commit(repo, {".tooldiff.yml": cfg, "dump_tools.py": DUMP})
    (repo / "agent" / "tools.json").write_text(json.dumps(HEAD_TOOLS), encoding="utf-8")  # not committed
    report = run_diff(repo, "HEAD", "HEAD", worktree=True)
    changed = {(t.toolset, t.name, t.change) for t in report.tools}
    assert ("code-tools", "code_find_document", "added") in changed
    [note] = [n for n in report.notes if "Ran the configured command" in n]
    assert "temporary worktree of the base and in the work tree" in note and "each ref" not in note


def test_two_commands_of_one_toolset_are_one_toolset(repo: Path) -> None:
    """An agent whose tools come from two modules (or an MCP server and local functions), each dumped by its
    own command under one `toolset`: the two were two toolsets of one id, and a docstring edit showed as
    one command's tools removed and the other's added."""
    import sys

    one = ("import json, sys\n"
           "json.dump([{'name': '%s', 'description': '%s', 'parameters': {'type': 'object'}}], sys.stdout)\n")
    cfg = (f"sources:\n  - {{command: {sys.executable} search.py, toolset: agent}}\n"
           f"  - {{command: {sys.executable} notes.py, toolset: agent}}\n")
    git(repo, "checkout", "-q", "main")
    commit(repo, {".tooldiff.yml": cfg,
                  "search.py": one % ("web_search", "Search the public web for pages about a query."),
                  "notes.py": one % ("save_note", "Save a research note to the notebook.")})
    git(repo, "checkout", "-q", "pr")
    git(repo, "merge", "-q", "--no-edit", "main")
    commit(repo, {"search.py": one % ("web_search", "Search the public web; returns titles and URLs.")})
    report = run_diff(repo, "main", "HEAD")
    assert [(t.toolset, t.name, t.change) for t in report.tools] == [("agent", "web_search", "modified")]
    [toolset] = report.toolsets
    assert toolset.id == "agent" and toolset.tool_count == 2 and len(toolset.files) == 2


def test_a_moved_file_that_does_not_parse_keeps_its_one_finding(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    broken = '{"tools": [{"name": "get_weather", "description": "Weather.", "input_schema": {"type": '
    commit(root, {"agent/tools.json": BASE_TOOLS, "old/broken.json": broken}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    (root / "new").mkdir()
    git(root, "mv", "old/broken.json", "new/broken.json")
    commit(root, None, "move the broken file")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    errors = [f for f in report.findings if f.code == "parse-error"]
    assert [(f.file, f.status) for f in errors] == [("new/broken.json", "existing")]
    assert not [f for f in report.resolved if f.code == "parse-error"]


def test_worktree_move_not_yet_added_is_a_move(tmp_path: Path) -> None:
    # `mv` without `git mv`: the old path is deleted, the new one untracked; git's -M cannot pair them.
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": HEAD_TOOLS})
    (root / "server").mkdir()
    (root / "agent/tools.json").rename(root / "server/tools.json")
    report = run_diff(root, "main", "HEAD", worktree=True)
    assert report.tools == () and report.resolved == ()
    assert {(f.status, f.file) for f in report.findings} == {("existing", "server/tools.json")}


def test_a_folder_of_one_tool_files_that_stops_being_one_keeps_its_tools_in_place(tmp_path: Path) -> None:
    """A one-tool file gains a second tool: the folder is a toolset per file at head, one toolset at base.
    The diff compares both refs grouped alike, so only the added tool changed, and a note says why."""
    root = init(tmp_path / "repo")
    search = tool("search_docs", "Search the docs for pages matching a query.", {"query": {}}, ["query"])
    weather = tool("get_weather", "Get the current weather for a city.", {"city": {}}, ["city"])
    find = tool("find_document", "Fetch one document by its id.", {"id": {}}, ["id"])
    commit(root, {"mcp/search.json": search, "mcp/weather.json": weather}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    two = commit(root, {"mcp/search.json": [search, find]}, "a second tool in one file")
    one = commit(root, {"mcp/search.json": search}, "and back: the folder is one toolset again")
    # The head's grouping is the one reported: a toolset per file, then the folder's one toolset again.
    for base, head, want, where in (("main", two, "added", "mcp/search.json"), (two, one, "removed", "mcp")):
        report = run_diff(root, base, head, token_methods=("estimate",))
        assert [(t.name, t.toolset, t.change) for t in report.tools] == [("find_document", where, want)]
        assert any("mcp" in n and "toolset per file" in n for n in report.notes), report.notes
        assert not [f for f in report.findings if f.status == "new" and "find_document" not in f.tools]


def test_a_toolset_finding_does_not_follow_its_first_tool(tmp_path: Path) -> None:
    """too-many-tools is about the toolset: adding a tool at the top keeps it `existing`."""
    root = init(tmp_path / "repo")
    tools = [{"type": "function", "function": {"name": f"get_metric_{i:03d}", "description": f"Metric {i}.",
                                               "parameters": {"type": "object", "properties": {}}}}
             for i in range(130)]
    commit(root, {"tools.json": tools}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    first = {"type": "function", "function": {"name": "add_comment", "description": "Add a comment.",
                                              "parameters": {"type": "object", "properties": {}}}}
    commit(root, {"tools.json": [first, *tools]}, "a tool at the top")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    [finding] = [f for f in report.findings if f.code == "too-many-tools"]
    assert finding.status == "existing" and finding.tools == ()
    assert not [f for f in report.resolved if f.code == "too-many-tools"]


FORECAST = [{"type": "function", "function": {
    "name": "get_forecast", "description": "Get the five-day forecast for a city.", "strict": True,
    "parameters": {"type": "object", "additionalProperties": False, "required": ["city"],
                   "properties": {"city": {"type": "string", "description": "City name, e.g. Paris"},
                                  "days": {"type": "integer", "description": "Number of days, 1 to 5"}}}}}]


def test_a_file_converted_to_yaml_is_the_same_toolset(tmp_path: Path) -> None:
    """git sees a JSON file deleted and a YAML file added; the tools say it is one toolset moved."""
    import yaml

    root = init(tmp_path / "repo")
    commit(root, {"tools.json": FORECAST}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"tools.json": None, "tools.yaml": yaml.safe_dump(FORECAST)}, "to YAML")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    assert report.tools == () and not [f for f in report.findings if f.status == "new"]
    assert [f.code for f in report.findings] == ["optional-not-required"]  # still there, not new
    assert report.resolved == ()


def test_a_renamed_file_is_analysed_under_its_new_path(tmp_path: Path) -> None:
    """Settings keyed by path follow the file's name: a pure rename can change the verdict."""
    root = init(tmp_path / "repo")
    commit(root, {"tools.json": FORECAST, ".tooldiff.yml": "toolset_targets:\n  tools.json: [anthropic]\n"})
    git(root, "checkout", "-q", "-b", "pr")
    git(root, "mv", "tools.json", "weather.json")
    commit(root, None, "rename only")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    assert [(f.code, f.status, f.file) for f in report.findings] == [
        ("optional-not-required", "new", "weather.json")]


def test_a_rename_that_strands_baseline_entries_says_so(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"tools.json": FORECAST}, "base")
    from tooldiff.check import check_paths

    accepted = [{"fingerprint": f.fingerprint, "reason": "known"} for f in check_paths([], cwd=root).findings]
    commit(root, {".tooldiff-baseline.json": json.dumps({"version": 1, "findings": accepted})}, "baseline")
    git(root, "checkout", "-q", "-b", "pr")
    git(root, "mv", "tools.json", "weather.json")
    commit(root, None, "rename")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    assert [(f.status, f.file) for f in report.findings] == [("existing", "weather.json")]
    assert any("1 finding accepted in .tooldiff-baseline.json moved" in n for n in report.notes), report.notes


def test_a_new_pair_finding_points_at_the_changed_tool(tmp_path: Path) -> None:
    """In a folder of one-tool files, a PR that adds find_document gets its overlap on find_document's file,
    not on the untouched search_docs (which sorts after it), so the review comment can sit on the diff."""
    root = init(tmp_path / "repo")
    commit(root, {f"tools/{t['name']}.json": t for t in tools_of(BASE_TOOLS)}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    [added] = [t for t in tools_of(HEAD_TOOLS) if t["name"] == "find_document"]
    commit(root, {"tools/find_document.json": added}, "add find_document")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    [finding] = overlap(report)
    assert finding.file == "tools/find_document.json"


def test_a_folder_that_becomes_one_toolset_reports_its_new_cross_file_pairs(tmp_path: Path) -> None:
    """A file loses its second tool, so the folder is one toolset at head: pairs across its files are
    compared from now on, and a new overlap between two of them is new (as check at head will say)."""
    root = init(tmp_path / "repo")
    delete = tool("delete_file", "Delete one file from the project workspace.", {"path": {}}, ["path"])
    users = tool("list_users", "List the users of the workspace with their roles.", {}, None)
    weather = tool("get_weather", "Get the current weather for a city.", {"city": {}}, ["city"])
    commit(root, {"tools/a.json": [delete, users], "tools/b.json": [weather]}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    remove = tool("remove_file", "Delete one file from the project workspace.", {"path": {}}, ["path"])
    commit(root, {"tools/a.json": [delete], "tools/b.json": [remove]}, "regroup")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    pair_codes = ("intent-overlap", "mutual-nondistinction", "blast-radius-twin")
    new = [f for f in report.findings if f.status == "new" and f.code in pair_codes]
    assert [sorted(f.tools) for f in new] == [["delete_file", "remove_file"]]
    changes = sorted((t.name, t.change) for t in report.tools)
    assert changes == [("get_weather", "removed"), ("list_users", "removed"), ("remove_file", "added")]


@pytest.mark.parametrize("case", ["duplicate", "unchanged pair"])
def test_a_folder_that_becomes_one_toolset_reports_what_check_at_head_adds(tmp_path: Path, case: str) -> None:
    """Merged at base to compare, the folder was no toolset there: its toolset findings, and pairs across
    its former files (even of two unchanged tools), are new, as check at head minus check at base says."""
    from tooldiff.check import check_paths

    root = init(tmp_path / "repo")
    users = tool("list_users", "List the users of the workspace with their roles.", {}, None)
    if case == "duplicate":
        first = second = tool("search", "Search the docs for pages matching a query.", {"q": {}}, ["q"])
    else:
        first = tool("delete_file", "Delete one file from the project workspace.", {"path": {}}, ["path"])
        second = tool("remove_file", "Delete one file from the project workspace.", {"path": {}}, ["path"])
    commit(root, {"tools/a.json": [first, users], "tools/b.json": [second]}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"tools/a.json": [first]}, "a.json loses list_users: the folder is one toolset")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))

    def key(f: Any) -> tuple[str, tuple[str, ...], str]:  # toolset ids differ by ref: the folder regrouped
        return (f.code, tuple(sorted(f.tools)), f.pointer)

    at_head = {key(f) for f in check_paths([], cwd=root).findings}
    git(root, "checkout", "-q", "main")
    at_base = {key(f) for f in check_paths([], cwd=root).findings}
    assert {key(f) for f in report.findings if f.status == "new"} == at_head - at_base
    assert at_head - at_base  # the case makes something new


def test_a_file_that_stops_parsing_is_a_parse_error_not_every_tool_removed(repo: Path) -> None:
    """A PR that leaves a stray comma in tools.json: the comment said all five tools were removed, -100%
    tokens and their findings resolved. The tools are held as at the base, and the parse error is the news."""
    text = json.dumps(BASE_TOOLS, indent=2).replace('"search_docs",', '"search_docs",,', 1)
    commit(repo, {"agent/tools.json": text})
    report = run_diff(repo, "main", "HEAD", token_methods=("estimate",))
    [err] = [f for f in report.findings if f.code == "parse-error"]
    assert err.status == "new" and err.file == "agent/tools.json"
    assert not report.tools and not report.resolved
    assert all(ts.tokens["estimate"].delta == 0 for ts in report.toolsets)
    [note] = [n for n in report.notes if n.startswith("Not read at head")]
    assert "agent/tools.json (5 tools)" in note


def test_a_one_tool_file_that_stops_parsing_stays_in_its_folder_toolset(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    search = tool("search_docs", "Search the docs for pages matching a query.", {"query": {}}, ["query"])
    find = tool("find_docs", "Search the docs for pages matching a query.", {"query": {}}, ["query"])
    weather = tool("get_weather", "Get the current weather for a city.", {"city": {}}, ["city"])
    commit(root, {"mcp/search.json": search, "mcp/find.json": find, "mcp/weather.json": weather}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"mcp/find.json": "{\"name\": \"find_docs\",", "mcp/weather.json": {**weather, "description":
                  "Get the current weather and the forecast for a city."}})
    report = run_diff(root, "main", "HEAD", token_methods=("estimate",))
    assert [(t.name, t.toolset, t.change) for t in report.tools] == [("get_weather", "mcp", "modified")]
    assert not report.resolved, [f.code for f in report.resolved]  # the overlap of find_docs is still there
    assert [f.code for f in report.findings if f.status == "new"] == ["parse-error"]
    assert any("mcp/find.json (1 tool)" in n for n in report.notes), report.notes


# One-tool files of a folder (s, b, c) as JSON and as YAML, each with a finding (q has no description), and
# broken: truncated JSON has no tool key left, so only the other ref tells it is a tool file; the YAML keeps
# its `input_schema`.
_ONE = {"s": ("search_docs", "Search the docs."), "b": ("create_ticket", "Open a ticket."),
        "c": ("get_weather", "Get the weather.")}


def _one_tool_text(kind: str, key: str, broken: bool = False) -> str:
    name, description = _ONE[key]
    if kind == "json":
        text = json.dumps(tool(name, description, {"q": {"type": "string"}}))
        return text[:30] if broken else text
    description = f"[{description}" if broken else description  # an unclosed flow sequence
    return (f"name: {name}\ndescription: {description}\ninput_schema:\n  type: object\n  properties:\n"
            "    q:\n      type: string\n")


def _one_tool_folder(tmp_path: Path, kind: str, files: int, broken: tuple[str, ...], fixed: bool) -> Path:
    """A folder of `files` one-tool files: the PR breaks the `broken` ones (or, `fixed`, mends them)."""
    keys = list(_ONE)[:files]
    path = {k: f"tools/{k}.{kind}" for k in keys}
    root = init(tmp_path / "repo")
    commit(root, {path[k]: _one_tool_text(kind, k, fixed and k in broken) for k in keys}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {path[k]: _one_tool_text(kind, k, not fixed) for k in broken}, "pr")
    return root


@pytest.mark.parametrize("kind", ["json", "yaml"])
@pytest.mark.parametrize(("files", "broken"), [(2, ("s",)), (3, ("s", "c"))])
def test_a_broken_file_that_leaves_one_file_in_its_folder_does_not_regroup_it(
        tmp_path: Path, kind: str, files: int, broken: tuple[str, ...]) -> None:
    """A folder of one-tool files; the PR breaks all but one. The folder was read as one file left, a toolset
    of its own: the folder's toolset read as renamed to it, the broken files' tools as removed and their
    findings resolved."""
    root = _one_tool_folder(tmp_path, kind, files, broken, fixed=False)
    report = run_diff(root, "main", "HEAD", token_methods=("estimate",))
    assert not report.tools, [(t.name, t.toolset, t.change) for t in report.tools]
    assert not report.resolved, [(f.code, f.tools) for f in report.resolved]
    assert [(ts.id, ts.previous_id) for ts in report.toolsets if ts.previous_id or ts.id != "tools"] == []
    errors = [f for f in report.findings if f.code == "parse-error"]
    assert sorted(f.file for f in errors) == sorted(f"tools/{n}.{kind}" for n in broken)
    assert all(f.status == "new" for f in errors)
    [note] = [n for n in report.notes if n.startswith("Not read at head")]
    assert all(f"tools/{n}.{kind} (1 tool)" in note for n in broken), note


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_a_pr_that_mends_the_broken_file_of_a_two_file_folder_adds_its_tool_to_the_folder(
        tmp_path: Path, kind: str) -> None:
    """The other way round: at the base one file was left, so no rename of the folder's toolset at head."""
    root = _one_tool_folder(tmp_path, kind, 2, ("s",), fixed=True)
    report = run_diff(root, "main", "HEAD", token_methods=("estimate",))
    assert [(t.name, t.toolset, t.change) for t in report.tools] == [("search_docs", "tools", "added")]
    assert [(ts.id, ts.previous_id) for ts in report.toolsets] == [("tools", None)]
    assert not [f for f in report.findings if f.code == "parse-error" and f.status != "resolved"]


def test_a_head_command_that_fails_holds_its_tools_as_at_the_base(repo: Path) -> None:
    import sys

    cfg = f"sources:\n  - command: {sys.executable} dump_tools.py\n    toolset: code-tools\n"
    git(repo, "checkout", "-q", "main")
    commit(repo, {".tooldiff.yml": cfg, "dump_tools.py": DUMP})
    git(repo, "checkout", "-q", "pr")
    git(repo, "merge", "-q", "--no-edit", "main")
    commit(repo, {"dump_tools.py": "raise SystemExit('cannot import the agent')\n"})
    report = run_diff(repo, "main", "HEAD", token_methods=("estimate",))
    [err] = [f for f in report.findings if f.code == "parse-error"]
    assert err.status == "new" and "cannot import the agent" in err.message
    assert not report.tools and not report.resolved
    assert any(n.startswith("Not read at head") and "5 tools" in n for n in report.notes), report.notes


def test_a_tools_file_grown_past_the_size_limit_is_reported_once(repo: Path) -> None:
    commit(repo, {".tooldiff.yml": "max_file_bytes: 2700\n", "agent/tools.json": HEAD_TOOLS})
    report = run_diff(repo, "main", "HEAD", token_methods=("estimate",))
    errors = [f for f in report.findings if f.code == "parse-error"]
    assert len(errors) == 1 and errors[0].file == "agent/tools.json", errors
    assert not report.tools and not report.resolved


def test_held_tools_are_placed_in_the_base_text_their_offsets_come_from() -> None:
    from tooldiff.diffrun import Side, carry_unread
    from tooldiff.discover import discover
    from tooldiff.model import ParseError
    from tooldiff.sources import WorktreeSource

    good = json.dumps(BASE_TOOLS, indent=2).encode()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tools.json").write_bytes(good)
        found = discover(WorktreeSource(Path(tmp)), Config.default(), ())
    base = Side(WorktreeSource(Path(".")), list(found.toolsets), dict(found.files), [])
    broken = [ParseError(file="tools.json", line=1, message="bad")]
    head = Side(WorktreeSource(Path(".")), [], {"tools.json": b"{,"}, broken)
    note = carry_unread(base, head)
    assert note is not None and "tools.json (5 tools)" in note
    assert head.files["tools.json"] == good
    assert [t.name for ts in head.toolsets for t in ts.tools] == [t["name"] for t in BASE_TOOLS["tools"]]


def _jsonl(tools: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(t) + "\n" for t in tools)


def test_a_bad_jsonl_line_holds_that_tool_and_the_rest_is_still_diffed(tmp_path: Path) -> None:
    """One broken line of a JSON Lines file: its tool was shown as removed, its findings resolved."""
    root = init(tmp_path / "repo")
    tools = tools_of(BASE_TOOLS)
    commit(root, {"agent/tools.jsonl": _jsonl(tools)}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    edited = [dict(t) for t in tools]
    edited[4]["description"] = str(edited[4]["description"]) + " Pages the on-call engineer."
    lines = _jsonl(edited).splitlines(keepends=True)
    lines[1] = lines[1].replace('"name":', '"name":,', 1)
    commit(root, {"agent/tools.jsonl": "".join(lines)})
    report = run_diff(root, "main", "HEAD", token_methods=("estimate",))
    assert [(t.name, t.change) for t in report.tools] == [("escalate_ticket", "modified")]
    assert not report.resolved, [(f.code, f.tools) for f in report.resolved]
    [err] = [f for f in report.findings if f.code == "parse-error"]
    assert (err.status, err.line) == ("new", 2)
    assert any("agent/tools.jsonl (1 tool)" in n for n in report.notes), report.notes


def test_a_tool_held_in_a_file_read_in_part_is_placed_on_its_broken_record() -> None:
    """Its base offsets would point into the head's other text: findings go to the bad line instead."""
    from tooldiff.diffrun import Side, carry_unread
    from tooldiff.discover import discover
    from tooldiff.engine import analyse
    from tooldiff.sources import WorktreeSource

    tools = tools_of(BASE_TOOLS)
    lines = _jsonl(tools).splitlines(keepends=True)
    lines[1] = lines[1].replace('"name":', '"name":,', 1)
    sides = []
    for text in (_jsonl(tools), "\n" + "".join(lines)):  # a blank line first: the bad one is line 3 now
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "tools.jsonl").write_text(text)
            found = discover(WorktreeSource(Path(tmp)), Config.default(), ())
        sides.append(Side(WorktreeSource(Path(".")), list(found.toolsets), dict(found.files),
                          list(found.errors)))
    base, head = sides
    assert [e.line for e in head.errors] == [3]
    carry_unread(base, head, {})
    [toolset] = head.toolsets
    assert [t.name for t in toolset.tools] == [t["name"] for t in tools]
    findings = analyse(head.toolsets, Config.default(), head.files).findings
    held = [f for f in findings if f.tools == ("get_document_by_id",)]
    assert held and {f.line for f in held} == {3}, [(f.code, f.line) for f in held]
    assert {f.line for f in findings if f.tools == ("list_tickets",)} == {4}


def test_a_record_that_stops_being_a_tool_is_held_as_at_the_base(repo: Path) -> None:
    doc = json.loads(json.dumps(BASE_TOOLS))
    doc["tools"][2]["description"] = 42
    commit(repo, {"agent/tools.json": doc})
    report = run_diff(repo, "main", "HEAD", token_methods=("estimate",))
    [err] = [f for f in report.findings if f.code == "parse-error"]
    assert err.status == "new" and "list_tickets" in err.message
    assert not report.tools and not report.resolved
    assert any("agent/tools.json (1 tool)" in n for n in report.notes), report.notes


def test_a_file_moved_and_broken_in_one_pr_holds_its_tools_under_the_new_path(repo: Path) -> None:
    (repo / "bot").mkdir()
    git(repo, "mv", "agent/tools.json", "bot/tools.json")
    text = json.dumps(BASE_TOOLS, indent=2).replace('"search_docs",', '"search_docs",,', 1)
    commit(repo, {"bot/tools.json": text}, "move and break")
    report = run_diff(repo, "main", "HEAD", token_methods=("estimate",))
    assert not [t for t in report.tools if t.change == "removed"], [(t.name, t.change) for t in report.tools]
    assert not report.resolved, [(f.code, f.tools) for f in report.resolved]
    [err] = [f for f in report.findings if f.code == "parse-error"]
    assert err.file == "bot/tools.json"
    assert any("bot/tools.json (5 tools)" in n for n in report.notes), report.notes
    assert {f.file for f in report.findings} == {"bot/tools.json"}


def test_a_tool_removed_beside_a_line_broken_at_the_base_already_is_removed(tmp_path: Path) -> None:
    """Holding is for what this PR broke: an old bad line must not hide every later removal in its file."""
    root = init(tmp_path / "repo")
    tools = tools_of(BASE_TOOLS)
    commit(root, {"agent/tools.jsonl": _jsonl(tools) + "{oops\n"}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"agent/tools.jsonl": _jsonl(tools[:4]) + "{oops\n"})
    report = run_diff(root, "main", "HEAD", token_methods=("estimate",))
    assert [(t.name, t.change) for t in report.tools] == [("escalate_ticket", "removed")]
    assert not any(n.startswith("Not read at head") for n in report.notes), report.notes


def test_a_file_with_a_bad_record_at_the_base_that_stops_parsing_still_holds_its_tools(repo: Path) -> None:
    """An error already at the base says nothing about a file that gives no tools at all at head."""
    doc = json.loads(json.dumps(BASE_TOOLS))
    doc["tools"][2]["description"] = 42  # list_tickets is no tool at the base
    git(repo, "checkout", "-q", "main")
    commit(repo, {"agent/tools.json": doc}, "a bad record")
    git(repo, "checkout", "-q", "pr")
    git(repo, "merge", "-q", "--no-edit", "main")
    text = json.dumps(doc, indent=2).replace('"search_docs",', '"search_docs",,', 1)
    commit(repo, {"agent/tools.json": text})
    report = run_diff(repo, "main", "HEAD", token_methods=("estimate",))
    assert not report.tools, [(t.name, t.change) for t in report.tools]
    assert any("agent/tools.json (4 tools)" in n for n in report.notes), report.notes


def test_targets_of_a_folder_toolset_that_splits_at_head_are_said_to_be_lost(tmp_path: Path) -> None:
    # `toolset_targets: {mcp/tickets: [openai-strict]}`; a PR adds a file of two tools to the folder, which
    # is then a toolset per file: every tool there falls back to the default targets.
    root = init(tmp_path / "repo")
    one = {f"mcp/tickets/{n}.json": tool(n, f"Do {n} with a ticket.")
           for n in ("open_ticket", "close_ticket")}
    commit(root, {**one, ".tooldiff.yml": "toolset_targets:\n  mcp/tickets: [openai-strict]\n"}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    bulk = [tool("bulk_close", "Close tickets."), tool("bulk_open", "Open tickets.")]
    commit(root, {"mcp/tickets/bulk.json": bulk})
    report = run_diff(root, "main", "HEAD")
    assert any("toolset_targets: 'mcp/tickets' names the folder's toolset" in n for n in report.notes)


WEATHER = [
    tool("get_forecast", "Get the weather forecast for a city.", {"city": {"type": "string"}}, ["city"]),
    tool("get_alerts", "List active weather alerts for a US state.", {"state": {"type": "string"}},
         ["state"]),
]


def _moved_repo(tmp_path: Path) -> tuple[Path, list[Any]]:
    """helpdesk.json and weather.json; the PR moves search_docs and find_document, unchanged, into
    weather.json (a file split the other way round)."""
    root = init(tmp_path / "repo")
    helpdesk = tools_of(HEAD_TOOLS)
    files = {"agent/helpdesk.json": {"tools": helpdesk}, "agent/weather.json": {"tools": WEATHER}}
    commit(root, files, "base")
    return root, helpdesk


def _move(root: Path, helpdesk: list[Any]) -> None:
    pair = {"search_docs", "find_document"}
    stay = [t for t in helpdesk if t["name"] not in pair]
    went = [t for t in helpdesk if t["name"] in pair]
    commit(root, {"agent/helpdesk.json": {"tools": stay}, "agent/weather.json": {"tools": WEATHER + went}},
           "move")


def test_tools_moved_to_another_file_keep_their_findings(tmp_path: Path) -> None:
    """A tool moved, unchanged, to another toolset brings its findings along: the pair that moved together
    is the same finding, not a new one (and the old one is not resolved)."""
    root, helpdesk = _moved_repo(tmp_path)
    git(root, "checkout", "-q", "-b", "pr")
    _move(root, helpdesk)
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    assert overlap(report, "existing") and not overlap(report, "new"), report.findings
    assert not [f for f in report.resolved if tuple(sorted(f.tools)) == ("find_document", "search_docs")]
    moved = {"search_docs", "find_document"}
    assert not [(f.code, f.tools) for f in report.findings if f.status == "new" and set(f.tools) <= moved]
    # Said as a move: where from and where to, not "new tool" and "tool removed"
    rows = {(t.name, t.change, t.moved) for t in report.tools}
    assert rows == {(n, "added", "agent/helpdesk.json") for n in moved} | {
        (n, "removed", "agent/weather.json") for n in moved}
    from tooldiff.render import RenderContext, markdown, text

    comment = markdown.render(report, RenderContext())
    assert "moved from agent/helpdesk.json" in comment and "moved to agent/weather.json" in comment
    assert "new tool" not in comment and "tool removed" not in comment
    shown = text.render(report, RenderContext())
    assert "Tools changed: 2 moved" in shown and "Checked 2 changed tools" in shown, shown


def test_a_baselined_finding_on_a_moved_tool_is_not_new(tmp_path: Path) -> None:
    root, helpdesk = _moved_repo(tmp_path)
    from tooldiff.check import check_paths

    accepted = [{"fingerprint": f.fingerprint, "reason": "known"} for f in check_paths([], cwd=root).findings]
    commit(root, {".tooldiff-baseline.json": json.dumps({"version": 1, "findings": accepted})}, "baseline")
    git(root, "checkout", "-q", "-b", "pr")
    _move(root, helpdesk)
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    moved = {"search_docs", "find_document"}
    assert not [(f.code, f.tools) for f in report.findings if f.status == "new" and set(f.tools) <= moved]
    assert any("accepted in .tooldiff-baseline.json moved" in n for n in report.notes), report.notes


def test_a_resolved_finding_says_resolved(tmp_path: Path) -> None:
    """A finding the PR removes is listed under `resolved` with the status `resolved`, not `existing`, which
    a consumer filtering on status would take for one still there."""
    root = init(tmp_path / "repo")
    commit(root, {"agent/tools.json": HEAD_TOOLS})
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"agent/tools.json": BASE_TOOLS}, "drop find_document")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    assert report.resolved and {f.status for f in report.resolved} == {"resolved"}
    import jsonschema

    from tooldiff.render import RenderContext, jsonout

    data = json.loads(jsonout.render(report, RenderContext()))
    schema = json.loads((Path(__file__).resolve().parents[1] / "src" / "tooldiff" / "data" /
                         "report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert {f["status"] for f in data["resolved"]} == {"resolved"}


def test_a_tool_moved_and_renamed_keeps_its_findings(tmp_path: Path) -> None:
    """create_ticket moves from tickets.json to users.json as open_ticket, word for word the same tool: its
    error was new (and its old one resolved), so the required check failed on an error it already had."""
    ticket = {"type": "function", "function": {
        "name": "create_ticket", "strict": True,
        "description": "Create a support ticket for the customer with a title and a body.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["title"],
                       "properties": {"title": {"type": "string"}, "body": {"type": "string"}}}}}
    user = {"type": "function", "function": {
        "name": "get_user", "strict": True, "description": "Get one user by their id.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["id"],
                       "properties": {"id": {"type": "string"}}}}}
    note = {"type": "function", "function": {
        "name": "add_note", "strict": True, "description": "Add a private note to a ticket.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["text"],
                       "properties": {"text": {"type": "string"}}}}}
    root = init(tmp_path / "repo")
    commit(root, {"tools/tickets.json": [ticket, note], "tools/users.json": [user]})
    git(root, "checkout", "-q", "-b", "pr")
    renamed = {"type": "function", "function": {**ticket["function"], "name": "open_ticket"}}
    commit(root, {"tools/tickets.json": [note], "tools/users.json": [user, renamed]}, "move and rename")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    errors = [f for f in report.findings if f.code == "optional-not-required"]
    assert [(f.tools, f.status) for f in errors] == [(("open_ticket",), "existing")]
    assert not [f for f in report.resolved if f.code == "optional-not-required"]
    rows = {(t.name, t.change, t.moved, t.previous_name) for t in report.tools}
    assert rows == {("open_ticket", "added", "tools/tickets.json", "create_ticket"),
                    ("create_ticket", "removed", "tools/users.json", None)}
    from tooldiff.render import RenderContext, markdown

    comment = markdown.render(report, RenderContext())
    assert "moved from tools/tickets.json, renamed from create\\_ticket" in comment
    import jsonschema

    from tooldiff.render import jsonout

    schema = json.loads((Path(jsonout.__file__).parents[1] / "data" / "report.schema.json").read_text())
    jsonschema.validate(json.loads(jsonout.render(report, RenderContext())), schema)


SEARCH = tool("search_docs", "Search the product documentation for pages matching a query.",
              {"query": {"type": "string"}}, ["query"])
TICKET = tool("create_ticket", "Create a support ticket with a title and a body.",
              {"title": {"type": "string"}, "body": {"type": "string"}}, ["title"])
OTHERS = [
    tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string"}}, ["city"]),
    tool("send_email", "Send an email to one recipient.",
         {"to": {"type": "string"}, "body": {"type": "string"}}, ["to", "body"]),
]


def _json_report(report: Report) -> dict[str, Any]:
    """The JSON report, validated against its published schema."""
    import jsonschema

    from tooldiff.render import RenderContext, jsonout

    data: dict[str, Any] = json.loads(jsonout.render(report, RenderContext()))
    schema = json.loads((Path(jsonout.__file__).parents[1] / "data" / "report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    return data


def _hash_row(comment: str, name: str, change: str) -> str:
    """The row of `name`'s `change` in the comment's schemaHash table."""
    return next(line for line in comment.splitlines()
                if line.startswith(f"| {name.replace('_', chr(92) + '_')} |") and f"| {change} |" in line)


@pytest.mark.parametrize("edit", [True, False], ids=["moved-and-changed", "moved-only"])
def test_a_tool_moved_to_another_file_says_what_else_the_pr_changed(tmp_path: Path, edit: bool) -> None:
    """search_docs moves from a.json to b/x.json and gains an optional `delete_all`: the comment said only
    "moved from a.json" (its schema change hidden), where a change in place says what changed. A move and
    nothing else still reads as a move."""
    root = init(tmp_path / "repo")
    commit(root, {"a.json": [SEARCH, TICKET], "b/x.json": OTHERS}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    moved = SEARCH
    if edit:
        moved = tool("search_docs", SEARCH["description"], {"query": {"type": "string"},
                                                          "delete_all": {"type": "boolean"}}, ["query"])
    commit(root, {"a.json": [TICKET], "b/x.json": [*OTHERS, moved]}, "move search_docs")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    data = _json_report(report)
    rows = {(t["name"], t["change"]): t for t in data["tools"]}
    assert set(rows) == {("search_docs", "removed"), ("search_docs", "added")}, rows
    came, went = rows[("search_docs", "added")], rows[("search_docs", "removed")]
    assert (came["moved"], went["moved"]) == ("a.json", "b/x.json")
    assert came["previous_schema_hash"] == went["previous_schema_hash"]  # the base's hash of the tool
    assert (went["changed_parts"], went["details"]) == ([], [])  # the row it left says where it went
    from tooldiff.render import RenderContext, markdown

    comment = markdown.render(report, RenderContext())
    assert _hash_row(comment, "search_docs", "removed").endswith("| moved to b/x.json |")
    cell = _hash_row(comment, "search_docs", "added")
    if edit:
        assert (came["changed_parts"], came["details"]) == (["schema"], ["delete_all: added, optional"])
        assert came["schema_hash"] != came["previous_schema_hash"]
        assert cell.endswith("| moved from a.json; schema: delete\\_all: added, optional |"), cell
    else:
        assert (came["changed_parts"], came["details"]) == ([], [])
        assert came["schema_hash"] == came["previous_schema_hash"]
        assert cell.endswith("| unchanged | moved from a.json |"), cell


def test_a_changed_format_or_strict_is_named_once(tmp_path: Path) -> None:
    """The "What changed" cell said "format: format: openai-chat → anthropic" and "strict: strict: unset →
    true": the part's name, then the detail that names it again."""
    root = init(tmp_path / "repo")
    chat = {"type": "function", "function": {"name": "search_docs", "description": SEARCH["description"],
                                             "parameters": SEARCH["input_schema"]}}
    commit(root, {"a.json": [chat], "b.json": [TICKET]}, "base")
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"a.json": [SEARCH], "b.json": [{**TICKET, "strict": True}]}, "anthropic, strict")
    report = run_diff(root, "main", "pr", token_methods=("estimate",))
    parts = {t.name: (t.change, t.changed_parts) for t in report.tools}
    assert parts == {"search_docs": ("modified", ("format",)), "create_ticket": ("modified", ("strict",))}
    from tooldiff.render import RenderContext, markdown

    comment = markdown.render(report, RenderContext())
    assert _hash_row(comment, "search_docs", "modified").endswith("| format: openai-chat → anthropic |")
    assert _hash_row(comment, "create_ticket", "modified").endswith("| strict: unset → true |")
    assert "format: format:" not in comment and "strict: strict:" not in comment


def test_renaming_one_of_two_same_named_tools_carries_their_pair_finding(repo: Path) -> None:
    """Base offers `search_docs` twice (a duplicate name and an overlap of the name with itself); the PR
    renames the second to `search_kb`. The overlap of the two is the one the base had, not a new one: a PR
    that only fixes the duplicate must not fail on a warning."""
    search = next(t for t in BASE_TOOLS["tools"] if t["name"] == "search_docs")
    commit(repo, {"agent/tools.json": {"tools": [search, search]}}, "twice")
    git(repo, "checkout", "-q", "-b", "fix")
    commit(repo, {"agent/tools.json": {"tools": [search, {**search, "name": "search_kb"}]}}, "rename")
    report = run_diff(repo, "pr", "fix")
    pair = [f for f in report.findings if f.code == "intent-overlap"]
    assert [(sorted(f.tools), f.status) for f in pair] == [(["search_docs", "search_kb"], "existing")]
    assert [f.code for f in report.resolved] == ["duplicate-name"]


def test_a_pr_that_changes_the_config_hears_of_its_entries_that_name_nothing(repo: Path) -> None:
    """`check` notes an ignore that matches no finding or a toolset glob that matches no file; a PR that
    brought them in heard nothing, and found out only when a finding it meant to silence failed the check."""
    config = ("ignores:\n  - {code: intent-overlap, tool: nonexistent_tool, reason: typo}\n"
              "toolsets:\n  - {name: agent, files: ['agnet/*.json']}\n")
    commit(repo, {".tooldiff.yml": config}, "config")
    report = run_diff(repo, "main", "pr")
    assert "ignores: intent-overlap on 'nonexistent_tool' matches no finding." in report.notes
    assert any(n.startswith("toolsets: 'agent' holds no tools") for n in report.notes), report.notes
    commit(repo, {"agent/tools.json": HEAD_TOOLS}, "unchanged config")
    git(repo, "checkout", "-q", "-b", "later")
    commit(repo, {"agent/tools.json": BASE_TOOLS}, "tools only")
    assert not any(n.startswith("ignores:") for n in run_diff(repo, "pr", "later").notes)  # not this PR's


def test_a_config_whose_toolsets_name_the_tool_files_is_no_paths_typo(repo: Path) -> None:
    """`paths: [agents/**]` matches nothing, but the toolsets' `files` are read too: `check` compares them,
    so the diff must not exit 2 saying nothing would be compared."""
    config = "paths: ['agents/**']\ntoolsets:\n  - {name: main, files: ['agent/*.json']}\n"
    commit(repo, {".tooldiff.yml": config, "agent/tools.json": HEAD_TOOLS}, "config")
    report = run_diff(repo, "main", "pr")
    assert {t.name for t in report.tools} == {"find_document"}


def test_a_resolved_parse_error_of_a_renamed_file_is_placed_at_its_base_path(repo: Path) -> None:
    """`git mv tools/x.json tools/y.json` and a fix: the resolved parse-error pointed at tools/y.json, a
    path the base does not have, so its link (made at the base) was a 404."""
    whole = json.dumps(BASE_TOOLS, indent=1).encode()
    commit(repo, {"tools/x.json": whole[:-3]}, "broken")  # git's rename detection needs them alike
    git(repo, "checkout", "-q", "-b", "fix")
    git(repo, "mv", "tools/x.json", "tools/y.json")
    commit(repo, {"tools/y.json": whole}, "renamed and fixed")
    report = run_diff(repo, "pr", "fix")
    assert [(f.code, f.file) for f in report.resolved if f.code == "parse-error"] == [
        ("parse-error", "tools/x.json")]


def test_a_tool_that_makes_an_unchanged_one_s_prefix_a_vendor_re_judges_its_pairs(repo: Path) -> None:
    """Adding `tavily_search` beside `brave_search` shows `brave_` to be a vendor's prefix, so the pair of
    the unchanged `brave_search` and `search` is judged anew at head: `tooldiff diff` must say what
    `check` of each side says of it (new == check(head) - check(base))."""
    query = {"type": "object", "properties": {"query": {"type": "string", "description": "Words to find."}},
             "required": ["query"]}
    text = "Search the web and return the top results for a query."

    def t(name: str, description: str = text, schema: dict[str, Any] = query) -> dict[str, Any]:
        return {"name": name, "description": description, "input_schema": schema}

    city = {"type": "object", "properties": {"city": {"type": "string", "description": "A city."}}}
    base = [t("brave_search"), t("search"), t("get_weather", "Get the current weather for a city.", city),
            t("get_time", "Get the current time in a city.", city)]
    commit(repo, {"agent/tools.json": base}, "base")
    git(repo, "checkout", "-q", "-b", "add")
    commit(repo, {"agent/tools.json": [*base, t("tavily_search")]}, "add tavily")
    report = run_diff(repo, "pr", "add")
    pair = {(f.code, tuple(sorted(f.tools)), f.status) for f in report.findings
            if sorted(f.tools) == ["brave_search", "search"]}
    gone = {(f.code, tuple(sorted(f.tools))) for f in report.resolved
            if sorted(f.tools) == ["brave_search", "search"]}
    from tooldiff.check import run_check
    from tooldiff.sources import WorktreeSource

    def judged(ref: str) -> set[tuple[str, tuple[str, ...]]]:
        git(repo, "checkout", "-q", ref)
        found = run_check(WorktreeSource(repo), Config.default()).findings
        return {(f.code, tuple(sorted(f.tools))) for f in found
                if sorted(f.tools) == ["brave_search", "search"]}

    at_base, at_head = judged("pr"), judged("add")
    assert {(c, tools) for c, tools, status in pair if status == "new"} == at_head - at_base
    assert gone == at_base - at_head


def test_a_one_tool_file_moved_to_another_folder_toolset_leaves_that_toolset_its_id(tmp_path: Path) -> None:
    """git mv a/f.json b/f.json: folder a/ is left with one file (a toolset of its own), b/ gains one. The
    base's a/ was matched by the renamed file's vote to head's b/, which base's b/ then could not have: two
    rows named b (one "renamed from a", one removed) and b's tools moved from b to b."""
    search = tool("search_docs", "Search the documentation corpus for pages matching a query.",
                  {"query": {"type": "string", "description": "What to look for."}}, ["query"])
    find = tool("find_document", "Find documents relevant to a user's question.",
                {"question": {"type": "string", "description": "The question."}}, ["question"])
    ticket = tool("create_ticket", "Create a support ticket in the helpdesk queue.",
                  {"title": {"type": "string", "description": "Its title."}}, ["title"])
    users = tool("list_users", "List the users of the helpdesk account.",
                 {"q": {"type": "string", "description": "A name."}}, ["q"])
    root = init(tmp_path / "repo")
    commit(root, {"a/s.json": search, "a/f.json": find, "b/c.json": ticket, "b/l.json": users})
    git(root, "mv", "a/f.json", "b/f.json")
    commit(root)
    report = run_diff(root, "HEAD~1", "HEAD")
    assert [(ts.id, ts.previous_id) for ts in report.toolsets] == [("a/s.json", "a"), ("b", None)]
    assert sorted((t.toolset, t.name, t.change, t.moved) for t in report.tools) == [
        ("a/s.json", "find_document", "removed", "b"), ("b", "find_document", "added", "a")]
    pair = ("find_document", "search_docs")
    assert [(f.code, f.tools) for f in report.resolved] == [("intent-overlap", pair)]
    assert report.findings == ()
