"""`tooldiff baseline` over part of a repository keeps what it did not check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooldiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
HEAD = ROOT / "examples" / "helpdesk" / "head" / "tools.json"


def entries(root: Path) -> dict[tuple[str, str, tuple[str, ...]], str]:
    doc = json.loads((root / ".tooldiff-baseline.json").read_text(encoding="utf-8"))
    return {(e["toolset"], e["code"], tuple(e["tools"])): e["reason"] for e in doc["findings"]}


def edit_reasons(root: Path, reason: str) -> None:
    path = root / ".tooldiff-baseline.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    for entry in doc["findings"]:
        entry["reason"] = reason
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two agents, each with the helpdesk tools, baselined from the root with an edited reason."""
    (tmp_path / ".git").mkdir()
    for agent in ("a", "b"):
        (tmp_path / agent).mkdir()
        (tmp_path / agent / "tools.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["baseline"]) == 0
    edit_reasons(tmp_path, "kept on purpose")
    return tmp_path


def drop_find_document(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["tools"] = [t for t in doc["tools"] if t["name"] != "find_document"]
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")


@pytest.mark.parametrize("where", ["subfolder", "path"])
def test_a_partial_baseline_keeps_the_entries_it_did_not_check(
    repo: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = entries(repo)
    assert {k[0] for k in before} == {"a/tools.json", "b/tools.json"}
    drop_find_document(repo / "a" / "tools.json")  # a's intent-overlap no longer occurs
    if where == "subfolder":
        monkeypatch.chdir(repo / "a")
        assert main(["baseline", "--reason", "new"]) == 0
    else:
        assert main(["baseline", "a", "--reason", "new"]) == 0
    after = entries(repo)
    # b was not checked: every entry stays, with its edited reason.
    assert {k: r for k, r in after.items() if k[0] == "b/tools.json"} == {
        k: r for k, r in before.items() if k[0] == "b/tools.json"}
    # a was checked: what still occurs keeps its reason, what no longer occurs is gone.
    in_a = {k: r for k, r in after.items() if k[0] == "a/tools.json"}
    assert in_a and set(in_a.values()) == {"kept on purpose"}
    assert not any("find_document" in k[2] for k in in_a)


def test_a_full_baseline_still_drops_what_no_longer_occurs(repo: Path) -> None:
    drop_find_document(repo / "b" / "tools.json")
    assert main(["baseline"]) == 0
    after = entries(repo)
    assert not any("find_document" in k[2] for k in after if k[0] == "b/tools.json")
    assert any("find_document" in k[2] for k in after if k[0] == "a/tools.json")


def test_entries_without_a_toolset_are_kept_by_a_partial_baseline(repo: Path) -> None:
    """A hand-written (or older) entry that names no toolset cannot be placed: it is never dropped."""
    path = repo / ".tooldiff-baseline.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["findings"].append({"fingerprint": "0123456789abcdef", "reason": "hand-written"})
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["baseline", "a"]) == 0
    kept = json.loads(path.read_text(encoding="utf-8"))["findings"]
    assert {"fingerprint": "0123456789abcdef", "reason": "hand-written"} in kept


def test_the_baseline_folder_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "tools.json").write_bytes(HEAD.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text("baseline: sub/deeper/bl.json\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["baseline"]) == 0
    assert json.loads((tmp_path / "sub" / "deeper" / "bl.json").read_text(encoding="utf-8"))["findings"]
    assert main(["check"]) == 0  # the findings it holds are baselined


def test_an_unwritable_baseline_path_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "tools.json").write_bytes(HEAD.read_bytes())
    (tmp_path / "taken").write_text("a file, not a folder\n", encoding="utf-8")
    (tmp_path / ".tooldiff.yml").write_text("baseline: taken/bl.json\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["baseline"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tooldiff: cannot write ") and "taken/bl.json" in err and "Traceback" not in err


def test_a_partial_baseline_keeps_the_entries_of_a_config_toolset_it_read_in_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    for folder, name in (("a", "alpha_thing"), ("b", "beta_thing")):
        (tmp_path / folder).mkdir()
        tool = {"name": name, "description": f"Do the {name} for the user.",
                "input_schema": {"type": "object", "properties": {"x": {"type": "string"}}}}
        (tmp_path / folder / "t.json").write_text(json.dumps([tool]), encoding="utf-8")
    config = "toolsets:\n  - {name: agent, files: ['a/*.json', 'b/*.json']}\n"
    (tmp_path / ".tooldiff.yml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["baseline"]) == 0
    assert main(["baseline", "a"]) == 0
    assert {k[2] for k in entries(tmp_path)} == {("alpha_thing",), ("beta_thing",)}
    assert main(["check", "--fail-on", "info"]) == 0


def test_an_ignore_names_a_toolset_finding_by_its_toolset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "tools.json").write_bytes(HEAD.read_bytes())
    config = ("budgets: {toolset_tokens: 10}\n"
              "ignores:\n  - {code: token-budget, tool: 'legacy/*', reason: being split up}\n")
    (tmp_path / ".tooldiff.yml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--fail-on", "warning", "--format", "json", "-o", "out.json"]) == 1  # the overlap
    findings = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["findings"]
    [budget] = [f for f in findings if f["code"] == "token-budget"]
    assert (budget["status"], budget["reason"]) == ("ignored", "being split up")


def test_an_ignore_of_tools_never_hides_a_file_that_does_not_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "search_index.json").write_text('{"tools": [{"name": "search_x", "input_schema": ', "utf-8")
    config = "ignores:\n  - {code: '*', tool: 'search_*', reason: search tools are fine}\n"
    (tmp_path / ".tooldiff.yml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "search_index.json"]) == 1


def test_baseline_keeps_the_entries_of_code_defined_toolsets_it_did_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tooldiff baseline` reads files only: a `sources` toolset's accepted findings (which `diff` applies)
    were dropped from the baseline it rewrote, and it did not say that it left those tools out."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "tools.json").write_bytes(HEAD.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text('sources:\n  - {command: "python dump.py", toolset: code}\n',
                                            encoding="utf-8")
    accepted = {"fingerprint": "f" * 64, "code": "missing-description", "tools": ["get_ticket"],
                "toolset": "code", "reason": "legacy server"}
    (tmp_path / ".tooldiff-baseline.json").write_text(json.dumps({"version": 1, "findings": [accepted]}),
                                                       encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["baseline"]) == 0
    assert entries(tmp_path)[("code", "missing-description", ("get_ticket",))] == "legacy server"
    assert "`python dump.py`" in capsys.readouterr().err


def test_a_renamed_file_keeps_the_reasons_its_entries_were_accepted_with(repo: Path) -> None:
    # A file's toolset id is its path: after `git mv`, its entries come back under the new id, and
    # `tooldiff baseline` (the documented fix) must not lose the reasons a team wrote for them.
    (repo / "a" / "tools.json").rename(repo / "a" / "helpdesk.json")
    assert main(["baseline"]) == 0
    moved = {k: v for k, v in entries(repo).items() if k[0] == "a/helpdesk.json"}
    assert moved and set(moved.values()) == {"kept on purpose"}
    assert not [k for k in entries(repo) if k[0] == "a/tools.json"]


def test_a_baseline_that_is_a_symlink_is_neither_read_nor_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A branch can commit `.tooldiff-baseline.json -> ../somewhere`: `check` already refuses to read it, and
    `baseline` must not write outside the repository through it."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    (repo / ".git").mkdir()
    (repo / "tools.json").write_bytes(HEAD.read_bytes())
    (repo / ".tooldiff-baseline.json").symlink_to(outside / "pwned.json")
    monkeypatch.chdir(repo)
    assert main(["baseline"]) == 2
    assert not (outside / "pwned.json").exists()
    err = capsys.readouterr().err
    assert "symbolic link" in err and "Traceback" not in err
    # nor through a linked folder on the way
    (repo / ".tooldiff-baseline.json").unlink()
    (repo / "sub").symlink_to(outside)
    (repo / ".tooldiff.yml").write_text("baseline: sub/bl.json\n", encoding="utf-8")
    assert main(["baseline"]) == 2
    assert not (outside / "bl.json").exists() and "(sub)" in capsys.readouterr().err


def test_baseline_messages_keep_terminal_escapes_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "tools.json").write_bytes(HEAD.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text('baseline: "bl\\e]0;title\\a\\e[2J.json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["baseline"]) == 0
    assert "\x1b" not in capsys.readouterr().err


def check_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    code = main(["check", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_a_renamed_toolset_s_baseline_entries_are_named_not_silently_new(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A file renamed after the baseline: its accepted findings come back as new, and the check says why.
    (repo / "a" / "tools.json").rename(repo / "a" / "agent.json")
    _, report = check_json(capsys)
    notes = report["notes"]
    assert isinstance(notes, list)
    [note] = [n for n in notes if "a/tools.json" in n]
    rows = json.loads((repo / ".tooldiff-baseline.json").read_text(encoding="utf-8"))["findings"]
    count = sum(1 for row in rows if row["toolset"] == "a/tools.json")
    assert f"{count} entries for toolset a/tools.json" in note and "tooldiff baseline" in note
    assert not any("b/tools.json" in n for n in notes)


def test_baseline_entries_that_match_no_finding_are_said(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drop_find_document(repo / "a" / "tools.json")  # its intent-overlap and missing-descriptions are fixed
    _, report = check_json(capsys)
    notes = [n for n in report["notes"] if "match no finding" in n]  # type: ignore[union-attr]
    assert len(notes) == 1 and "a/tools.json" in notes[0] and "tooldiff baseline" in notes[0]
    capsys.readouterr()
    assert main(["baseline"]) == 0
    assert "dropped 3 entries (fixed" in capsys.readouterr().err
    _, report = check_json(capsys)
    assert not [n for n in report["notes"] if "baseline" in n]  # type: ignore[union-attr]


def test_baseline_counts_what_it_writes_and_refuses_a_missing_path(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = '{"tools": [\n  {"name": "get_y", "input_schema": {"type": "object"}},\n'
    (repo / "broken.json").write_text(broken)
    capsys.readouterr()
    assert main(["baseline"]) == 0
    err = capsys.readouterr().err
    written = len(json.loads((repo / ".tooldiff-baseline.json").read_text())["findings"])
    assert f"wrote {written} findings" in err
    assert "parse error is never baselined" in err and "broken.json" in err
    assert main(["baseline", "nothere.json"]) == 2


def test_stale_baseline_notes_judge_only_what_the_run_read_and_ran(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A rule the run did not run, a file that does not parse, a file the config leaves out: not "fixed",
    # not "renamed"; and `tooldiff baseline` keeps the broken file's entries for when it parses again.
    _, report = check_json(capsys, "--select", "invalid-name")
    assert not [n for n in report["notes"] if "baseline" in n]  # type: ignore[union-attr]
    good = (repo / "b" / "tools.json").read_text(encoding="utf-8")
    (repo / "b" / "tools.json").write_text(good[:-3] + ",]}", encoding="utf-8")
    _, report = check_json(capsys)
    assert not [n for n in report["notes"] if "baseline" in n]  # type: ignore[union-attr]
    before = entries(repo)
    capsys.readouterr()
    assert main(["baseline"]) == 0
    assert entries(repo) == before and "dropped" not in capsys.readouterr().err
    (repo / "b" / "tools.json").write_text(good, encoding="utf-8")
    (repo / ".tooldiff.yml").write_text("exclude: ['b/**']\n", encoding="utf-8")
    _, report = check_json(capsys)
    assert not [n for n in report["notes"] if "baseline" in n]  # type: ignore[union-attr]


def test_config_paths_that_match_nothing_leave_the_baseline_as_it_was(repo: Path) -> None:
    """A typo in `paths` checks nothing: `check` exits 2 on it, and `baseline` must not write a baseline of
    nothing over the accepted findings."""
    before = (repo / ".tooldiff-baseline.json").read_bytes()
    (repo / ".tooldiff.yml").write_text('paths: ["tolls/*.json"]\n', encoding="utf-8")
    assert main(["baseline"]) == 2
    assert (repo / ".tooldiff-baseline.json").read_bytes() == before


def test_a_path_outside_the_project_is_refused(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Its toolsets would be named from another root: no check of this project would match them, and the
    entries of the files not checked would go."""
    outside = tmp_path_factory.mktemp("elsewhere")
    (outside / "tools.json").write_bytes(HEAD.read_bytes())
    before = (repo / ".tooldiff-baseline.json").read_bytes()
    assert main(["baseline", str(outside)]) == 2
    assert (repo / ".tooldiff-baseline.json").read_bytes() == before
