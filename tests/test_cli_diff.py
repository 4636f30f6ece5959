"""`tooldiff diff` on the command line: the config it reads, the paths it compares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitbuild import commit, git, init
from tooldiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "examples" / "helpdesk" / "base" / "tools.json"
HEAD = ROOT / "examples" / "helpdesk" / "head" / "tools.json"
NO_MISSING_DESCRIPTION = "rules:\n  missing-description: false\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def codes(out: str) -> set[str]:
    return {f["code"] for f in json.loads(out)["findings"]}


def helpdesk_repo(tmp_path: Path) -> Path:
    """The helpdesk PR as a real repository: base committed, head committed on top."""
    root = init(tmp_path / "repo")
    commit(root, {"tools.json": BASE.read_bytes(), "other.yml": NO_MISSING_DESCRIPTION})
    commit(root, {"tools.json": HEAD.read_bytes()})
    return root


def test_diff_refs_reads_the_named_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = helpdesk_repo(tmp_path)
    monkeypatch.chdir(root)
    plain = run(capsys, "diff", "--base", "HEAD~1", "--format", "json")
    assert plain[0] == 0 and "missing-description" in codes(plain[1])
    named = run(capsys, "diff", "--base", "HEAD~1", "--format", "json", "--config", "other.yml")
    assert named[0] == 0 and "missing-description" not in codes(named[1])
    assert "intent-overlap" in codes(named[1])
    code, out, err = run(capsys, "diff", "--base", "HEAD~1", "--config", "nope.yml")
    assert (code, out) == (2, "") and "nope.yml" in err and "not committed at HEAD" in err


def test_a_named_config_that_is_not_committed_says_where_it_looked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = helpdesk_repo(tmp_path)
    (root / "sub").mkdir()
    (root / "sub" / "strict.yml").write_text(NO_MISSING_DESCRIPTION, encoding="utf-8")  # on disk only
    monkeypatch.chdir(root / "sub")
    code, _, err = run(capsys, "diff", "--base", "HEAD~1", "--config", "strict.yml")
    head = git(root, "rev-parse", "HEAD")[:12]
    assert code == 2 and f"sub/strict.yml: config file not committed at HEAD ({head})" in err
    assert "relative to the repository root; commit it, or use `tooldiff diff --worktree`" in err
    assert run(capsys, "diff", "--base", "HEAD~1", "--worktree", "--config", "strict.yml")[0] == 0


def test_check_names_the_folder_a_config_outside_it_was_not_read_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = helpdesk_repo(tmp_path)
    (root / "sub").mkdir()
    monkeypatch.chdir(root / "sub")
    code, _, err = run(capsys, "check", "--config", "../other.yml")  # committed, but outside the run root
    assert code == 2 and f"config file is outside {root / 'sub'}, the folder this run is rooted at" in err
    assert "name a file inside that folder, relative to it" in err
    code, _, err = run(capsys, "check", "--config", "nope.yml")
    assert code == 2 and f"config file not found in {root / 'sub'} (a file outside it is not read)" in err


def test_diff_refs_from_a_subfolder_reads_the_config_relative_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `check --config`: the file is named relative to the folder the command runs in."""
    root = helpdesk_repo(tmp_path)
    commit(root, {"sub/strict.yml": NO_MISSING_DESCRIPTION})
    monkeypatch.chdir(root / "sub")
    code, out, _ = run(capsys, "diff", "--base", "HEAD~2", "--format", "json", "--config", "strict.yml")
    assert code == 0 and "missing-description" not in codes(out) and "intent-overlap" in codes(out)


def test_diff_text_lists_the_config_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PR that adds an ignore silences a finding: the terminal says so, as the comment and summary do."""
    root = helpdesk_repo(tmp_path)
    commit(root, {".tooldiff.yml": "ignores:\n  - {code: intent-overlap, tool: '*', reason: same index}\n"})
    monkeypatch.chdir(root)
    code, out, _ = run(capsys, "diff", "--base", "HEAD~2")
    assert code == 0 and "intent-overlap" not in out.split("Tools changed")[0]
    assert "The tooldiff config was added" in out
    assert "Ignore added: intent-overlap on * (same index)" in out


def test_diff_says_when_a_rename_leaves_a_baselined_finding_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The baseline names findings by toolset: renaming the file moves one away from its entry."""
    root = init(tmp_path / "repo")
    tool = {"name": "get_weather", "description": "Get the weather for a city.",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    commit(root, {"tools.json": {"tools": [tool]}})
    monkeypatch.chdir(root)
    assert run(capsys, "baseline")[0] == 0
    commit(root)
    git(root, "mv", "tools.json", "agent.json")
    commit(root)
    code, out, _ = run(capsys, "diff", "--base", "HEAD~1")
    note = ("1 finding accepted in .tooldiff-baseline.json moved with a renamed or moved toolset or tool, so "
            "the baseline no longer names it: run `tooldiff baseline` in this PR to carry it over.")
    assert code == 0 and note in out


def test_diff_paths_reads_the_named_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "base.json").write_bytes(BASE.read_bytes())
    (tmp_path / "head.json").write_bytes(HEAD.read_bytes())
    (tmp_path / "other.yml").write_text(NO_MISSING_DESCRIPTION, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    plain = run(capsys, "diff", "base.json", "head.json", "--format", "json")
    assert "missing-description" in codes(plain[1])
    named = run(capsys, "diff", "base.json", "head.json", "--format", "json", "--config", "other.yml")
    assert named[0] == 0 and "missing-description" not in codes(named[1])
    code, out, err = run(capsys, "diff", "base.json", "head.json", "--config", "nope.yml")
    assert (code, out) == (2, "") and "nope.yml" in err


def test_diff_before_the_first_commit_reads_the_named_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = init(tmp_path / "repo")
    (root / "tools.json").write_bytes(HEAD.read_bytes())
    (root / "other.yml").write_text(NO_MISSING_DESCRIPTION, encoding="utf-8")
    git(root, "add", ".")
    monkeypatch.chdir(root)
    argv = ("diff", "--base", "HEAD", "--worktree", "--format", "json")
    assert "missing-description" in codes(run(capsys, *argv)[1])
    named = run(capsys, *argv, "--config", "other.yml")
    assert "missing-description" not in codes(named[1]) and "intent-overlap" in codes(named[1])
    code, out, err = run(capsys, *argv, "--config", "nope.yml")
    assert (code, out) == (2, "") and "nope.yml" in err


def one_tool_files(folder: Path, source: Path) -> None:
    """The tools of `source`, one file each: one toolset, the folder."""
    folder.mkdir()
    for t in json.loads(source.read_text(encoding="utf-8"))["tools"]:
        (folder / f"{t['name']}.json").write_text(json.dumps(t), encoding="utf-8")


@pytest.mark.parametrize("missing", ["base", "head"])
def test_diff_paths_with_a_missing_path_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    (tmp_path / "tools.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(tmp_path)
    argv = ("nope.json", "tools.json") if missing == "base" else ("tools.json", "nope")
    code, out, err = run(capsys, "diff", *argv)
    assert (code, out) == (2, "") and "nope" in err and "no such file or folder" in err


def test_diff_of_two_paths_refuses_the_ref_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.json").write_bytes(BASE.read_bytes())
    (tmp_path / "b.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(tmp_path)
    for flags, named in ((["--head", "x"], "--head is"), (["--worktree"], "--worktree is"),
                         (["--head", "HEAD", "--worktree"], "--head and --worktree are")):
        code, out, err = run(capsys, "diff", "a.json", "b.json", *flags)
        assert (code, out) == (2, "") and f"tooldiff: {named} for a diff of refs" in err
    assert run(capsys, "diff", "a.json", "b.json")[0] == 0


def test_diff_of_two_refs_as_paths_points_at_base_and_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `git diff main HEAD` habits: two refs where two paths go must not read as a missing file only.
    root = helpdesk_repo(tmp_path)
    monkeypatch.chdir(root)
    code, out, err = run(capsys, "diff", "HEAD~1", "HEAD")
    assert (code, out) == (2, "")
    assert "HEAD~1: no such file or folder" in err and "--base HEAD~1 --head HEAD" in err


def test_diff_paths_compares_a_file_with_a_folder_of_one_toolset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "base.json").write_bytes(BASE.read_bytes())
    one_tool_files(tmp_path / "head", HEAD)
    one_tool_files(tmp_path / "same", BASE)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "diff", "base.json", "head", "--format", "json")
    doc = json.loads(out)
    changes = {t["name"]: t["change"] for t in doc["tools"]}
    assert changes == {"find_document": "added"}, changes  # not every tool removed and added again
    assert "intent-overlap" in codes(out)
    # The same tools, split into one-tool files, are no change; either way round.
    assert run(capsys, "diff", "base.json", "same")[1].startswith("No tool definition changed")
    assert run(capsys, "diff", "same", "base.json")[1].startswith("No tool definition changed")
    # A folder of several toolsets has no one toolset to compare the file with.
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "a.json").write_bytes(BASE.read_bytes())
    (tmp_path / "two" / "b.json").write_bytes(HEAD.read_bytes())
    code, out, err = run(capsys, "diff", "base.json", "two")
    assert (code, out) == (2, "") and "2 toolsets" in err


@pytest.mark.parametrize("event", ["pull_request_target", "workflow_run", "issue_comment", ""])
def test_under_pull_request_target_the_cli_runs_no_pr_command_and_reads_the_base_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, event: str
) -> None:
    """A workflow on pull_request_target that calls the CLI holds the base's secrets: a fork's `sources`
    command must not run there, nor may its config accept its own findings (as the Action already does).
    So do workflow_run and issue_comment jobs, the usual ways to comment on a fork's PR."""
    import sys

    root = init(tmp_path / "repo")
    commit(root, {"tools.json": BASE.read_bytes()})
    marker = tmp_path / "ran"
    cmd = f"{sys.executable} -c \"open('{marker}', 'w').write('x'); print('[]')\""
    config = f"rules:\n  intent-overlap: false\nsources:\n  - {{command: {json.dumps(cmd)}, toolset: t}}\n"
    commit(root, {"tools.json": HEAD.read_bytes(), ".tooldiff.yml": config})
    monkeypatch.chdir(root)
    monkeypatch.setenv("GITHUB_EVENT_NAME", event)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")  # in a workflow, an event name lost on the way is no trust
    _, out, _ = run(capsys, "diff", "--base", "HEAD~1", "--format", "json")
    doc = json.loads(out)
    assert not marker.exists()
    assert "intent-overlap" in codes(out)  # the PR's config did not turn the rule off
    assert any((event or "this event") in n for n in doc["notes"]), doc["notes"]
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    run(capsys, "diff", "--base", "HEAD~1", "--format", "json")
    assert marker.exists()  # elsewhere the configured command runs, as documented


@pytest.mark.parametrize("worktree", [False, True])
def test_diff_refs_with_a_path_at_neither_ref_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, worktree: bool
) -> None:
    # A typo in a CI or hook path must not pass forever as "no tool definition changed".
    root = helpdesk_repo(tmp_path)
    monkeypatch.chdir(root)
    extra = ("--worktree",) if worktree else ()
    code, out, err = run(capsys, "diff", "--base", "HEAD~1", *extra, "tools.json", "tool.json")
    assert (code, out) == (2, "") and "tool.json: no such file or folder at HEAD~1 or " in err
    (root / "new").mkdir()
    (root / "new" / "tools.json").write_bytes(HEAD.read_bytes())  # not committed: the work tree has it
    code, _, err = run(capsys, "diff", "--base", "HEAD~1", *extra, "new")
    assert code == (0 if worktree else 2), err
    assert run(capsys, "diff", "--base", "HEAD~1", *extra, "tools.json", ".")[0] == 0


@pytest.mark.parametrize("head_name", ["tools.json", "capture.json"])
def test_a_failed_capture_at_head_is_a_parse_error_not_every_tool_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, head_name: str
) -> None:
    result = {"tools": [{"name": "get_thing", "description": "Get a thing by its key.",
                         "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}}}}]}
    (tmp_path / "base").mkdir()
    (tmp_path / "head").mkdir()
    (tmp_path / "base" / "tools.json").write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}))
    (tmp_path / "head" / head_name).write_text(
        json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "diff", "base/tools.json", f"head/{head_name}", "--format", "json")
    report = json.loads(out)
    [new] = [f for f in report["findings"] if f["status"] == "new"]
    assert code == 1 and new["code"] == "parse-error" and "JSON-RPC error response" in new["message"]
    assert not [t for t in report["tools"] if t["change"] == "removed"]
    assert any("Not read at head" in note for note in report["notes"])


def test_diff_paths_reads_the_config_check_would_read_here(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--config` defaults to .tooldiff.yml at the root (the help says): with no config inside the compared
    folders, the one `check` reads from here applies, as it would to `check b`."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "tools.json").write_bytes(BASE.read_bytes())
    (tmp_path / "b" / "tools.json").write_bytes(HEAD.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text(NO_MISSING_DESCRIPTION, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "diff", "a", "b", "--format", "json")
    assert "missing-description" not in codes(out) and "intent-overlap" in codes(out)
    # a compared folder's own config still wins, as for two checkouts compared side by side
    (tmp_path / "a" / ".tooldiff.yml").write_text("chars_per_token: 4\n", encoding="utf-8")
    (tmp_path / "b" / ".tooldiff.yml").write_text("chars_per_token: 4\n", encoding="utf-8")
    _, out, _ = run(capsys, "diff", "a", "b", "--format", "json")
    assert "missing-description" in codes(out)


def test_diff_paths_report_paths_from_the_root_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff a b` gave `tools.json` in JSON, SARIF and annotations, a file that is not at the root: code
    scanning and the runner put the alert on nothing. A finding's file is now `b/tools.json` (a resolved one
    `a/...`, from the base), as the text output already showed it."""
    git(init(tmp_path), "status")
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "tools.json").write_bytes(BASE.read_bytes())
    (tmp_path / "new" / "tools.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(tmp_path / "new")
    _, out, _ = run(capsys, "diff", "../old", ".", "--format", "json")
    doc = json.loads(out)
    assert {f["file"] for f in doc["findings"]} == {"new/tools.json"}
    assert {t["file"] for t in doc["tools"]} == {"new/tools.json"}
    _, out, _ = run(capsys, "diff", "../old", ".", "--format", "annotations")
    assert "file=new/tools.json,line=" in out
    _, out, _ = run(capsys, "diff", "../old", ".", "--format", "sarif")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(out)["runs"][0]["results"]}
    assert uris == {"new/tools.json"}
    _, out, _ = run(capsys, "diff", ".", "../old", "--format", "json")  # the other way: resolved at base
    assert {f["file"] for f in json.loads(out)["resolved"]} == {"new/tools.json"}
    _, out, _ = run(capsys, "diff", "../old", ".")
    assert "tools.json:" in out and "new/tools.json" not in out  # text: from where it ran, as before


def test_diff_paths_with_the_base_outside_the_repository_still_roots_the_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A base checked out to a temporary folder (CI's way) undid the rooting for every format; now the head
    keeps `new/tools.json` and the base's files are named in full."""
    repo = init(tmp_path / "repo")
    (repo / "new").mkdir()
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "tools.json").write_bytes(BASE.read_bytes())
    (repo / "new" / "tools.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(repo)
    _, out, _ = run(capsys, "diff", str(tmp_path / "old"), "new", "--format", "json")
    assert {f["file"] for f in json.loads(out)["findings"]} == {"new/tools.json"}
    (tmp_path / "old" / "tools.json").write_bytes(HEAD.read_bytes())
    (repo / "new" / "tools.json").write_bytes(BASE.read_bytes())
    _, out, _ = run(capsys, "diff", str(tmp_path / "old"), "new", "--format", "json")
    assert {f["file"] for f in json.loads(out)["resolved"]} == {(tmp_path / "old" / "tools.json").as_posix()}
    _, out, _ = run(capsys, "diff", str(tmp_path / "old"), "new")
    assert f"{(tmp_path / 'old' / 'tools.json').as_posix()}:" in out, out


def test_diff_paths_with_both_folders_outside_the_repository_names_the_base_in_full(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the head outside the root too, a resolved finding's `tools.json` was shown under the head
    folder, a file that holds no such finding."""
    repo = init(tmp_path / "repo")
    for name, data in (("old", HEAD), ("new", BASE)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "tools.json").write_bytes(data.read_bytes())
    monkeypatch.chdir(repo)
    _, out, _ = run(capsys, "diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "json")
    assert {f["file"] for f in json.loads(out)["resolved"]} == {(tmp_path / "old" / "tools.json").as_posix()}
    _, out, _ = run(capsys, "diff", str(tmp_path / "old"), str(tmp_path / "new"))
    assert f"{(tmp_path / 'old' / 'tools.json').as_posix()}:" in out, out


def test_a_broken_file_of_a_two_file_folder_is_no_rename_in_the_comment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comment said `tools/b.json (renamed from tools)`, search_docs removed and its findings resolved."""
    root = init(tmp_path / "repo")
    search = {"name": "search_docs", "description": "Search the docs.",
              "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ticket = {"name": "create_ticket", "description": "Open a ticket.",
              "input_schema": {"type": "object", "properties": {"title": {"type": "string"}}}}
    commit(root, {"tools/s.json": json.dumps(search), "tools/b.json": json.dumps(ticket)})
    git(root, "checkout", "-q", "-b", "pr")
    commit(root, {"tools/s.json": json.dumps(search)[:30]})
    monkeypatch.chdir(root)
    code, out, _ = run(capsys, "diff", "--base", "main", "--head", "pr", "--format", "markdown")
    assert code == 1 and "parse-error" in out and "Not read at head" in out, out
    assert "renamed from" not in out and "Resolved" not in out and "tool removed" not in out, out


def test_a_config_that_names_a_folder_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = helpdesk_repo(tmp_path)
    (root / "sub").mkdir()
    (root / "sub" / "x.txt").write_text("x\n", encoding="utf-8")
    monkeypatch.chdir(root)
    code, _, err = run(capsys, "check", "--config", "sub")
    assert code == 2 and "config file is a folder" in err and "outside" not in err
    code, _, err = run(capsys, "diff", "--base", "HEAD~1", "--worktree", "--config", "sub")
    assert code == 2 and "config file is a folder" in err
    commit(root)
    code, _, err = run(capsys, "diff", "--base", "HEAD~1", "--config", "sub")
    assert code == 2 and "config file is a folder" in err


def test_a_path_through_a_link_to_the_repository_names_what_the_relative_path_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the folders on the way are resolved: a link the path names inside the tree is a file of its
    own (git's view), not the file it points at."""
    root = helpdesk_repo(tmp_path)
    (root / "alias.json").symlink_to("tools.json")
    commit(root)
    (tmp_path / "link").symlink_to(root)
    monkeypatch.chdir(root)
    relative = run(capsys, "diff", "--base", "HEAD~2", "--format", "json", "alias.json")
    linked = str(tmp_path / "link" / "alias.json")
    through = run(capsys, "diff", "--base", "HEAD~2", "--format", "json", linked)
    assert through == relative


def test_a_diff_in_a_repository_with_no_commits_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = init(tmp_path / "repo")
    (root / "tools.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(root)
    for argv in (["--base", "main", "--worktree"], ["--base", "main", "--head", "main"]):
        code, _, err = run(capsys, "diff", *argv)
        assert code == 2 and "has no commits yet" in err and "spelling" not in err


def test_a_diff_of_refs_over_a_path_outside_the_repository_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = helpdesk_repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "tools.json").write_bytes(HEAD.read_bytes())
    (root / "sub").mkdir()
    monkeypatch.chdir(root / "sub")
    for path in (str(elsewhere), "../../elsewhere/tools.json"):
        code, _, err = run(capsys, "diff", "--base", "HEAD~1", path)
        assert code == 2 and "outside the repository" in err and "no such file" not in err
    # An absolute path inside it, and `..` out of a folder and back in, name its files.
    # ... and so does an absolute path through a link to the repository.
    (tmp_path / "link").symlink_to(root)
    for path in (str(root / "tools.json"), "../../repo/tools.json", str(tmp_path / "link" / "tools.json")):
        code, out, _ = run(capsys, "diff", "--base", "HEAD~1", "--format", "json", path)
        assert code == 0 and "intent-overlap" in codes(out)
