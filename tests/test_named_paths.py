"""Named paths are analysed in the toolsets a whole-tree run puts them in (pre-commit names changed files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tooldiff.cli import main


def tool(name: str, description: str, **props: str) -> dict[str, Any]:
    return {"name": name, "description": description,
            "input_schema": {"type": "object", "properties": {k: {"type": v} for k, v in props.items()}}}


SEND_MAIL = tool("send_mail", "Send an email message to a recipient.", to="string", body="string")
SEND_EMAIL = tool("send_email", "Send an email message to a recipient.", to="string", body="string")
LIST_FILES = tool("list_files", "List the files in a folder of the workspace.", path="string")


def write(root: Path, files: dict[str, Any]) -> None:
    for name, value in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(json.dumps(value, indent=1), encoding="utf-8")


def check(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, root: Path,
          *paths: str) -> tuple[int, dict[str, Any]]:
    monkeypatch.chdir(root)
    code = main(["check", "--format", "json", "--fail-on", "info", *paths])
    return code, json.loads(capsys.readouterr().out)


def found(report: dict[str, Any]) -> set[tuple[str, str, tuple[str, ...], str]]:
    return {(f["code"], f["toolset"], tuple(f["tools"]), f["fingerprint"]) for f in report["findings"]}


@pytest.fixture
def one_tool_folder(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # the repository root
    write(tmp_path, {"tools/send_mail.json": SEND_MAIL, "tools/send_email.json": SEND_EMAIL,
                     "tools/list_files.json": LIST_FILES})
    return tmp_path


def test_a_file_of_a_one_tool_folder_keeps_the_folder_as_its_toolset(
        one_tool_folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, whole = check(capsys, monkeypatch, one_tool_folder)
    _, one = check(capsys, monkeypatch, one_tool_folder, "tools/list_files.json")
    assert [ts["id"] for ts in one["toolsets"]] == ["tools"]
    assert [t["name"] for t in one["tools"]] == ["list_files"]  # the neighbours are read, not reported
    mine = {f for f in found(whole) if "list_files" in f[2]}
    assert found(one) == mine and mine  # same toolset, same fingerprints; the others' pair is not its own


def test_a_pair_with_a_file_not_named_is_found(
        one_tool_folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, whole = check(capsys, monkeypatch, one_tool_folder)
    _, one = check(capsys, monkeypatch, one_tool_folder, "tools/send_mail.json")
    pairs = {f for f in found(one) if len(f[2]) == 2}
    assert pairs and pairs == {f for f in found(whole) if len(f[2]) == 2}
    assert all(f[1] == "tools" for f in found(one))


def test_a_baseline_of_the_whole_tree_holds_for_a_named_file(
        one_tool_folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(one_tool_folder)
    assert main(["baseline"]) == 0
    capsys.readouterr()
    code, one = check(capsys, monkeypatch, one_tool_folder, "tools/send_mail.json")
    assert code == 0 and one["counts"]["new"] == {"error": 0, "warning": 0, "info": 0}


def test_one_tool_files_beside_a_many_tool_file_stay_toolsets_of_their_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"helpdesk.json": [LIST_FILES, tool("read_file", "Read one file of the workspace.")],
                     "mail.json": SEND_MAIL, "email.json": SEND_EMAIL})
    _, whole = check(capsys, monkeypatch, tmp_path)
    _, two = check(capsys, monkeypatch, tmp_path, "mail.json", "email.json")
    assert sorted(ts["id"] for ts in two["toolsets"]) == ["email.json", "mail.json"]
    assert found(two) == {f for f in found(whole) if f[1] in ("email.json", "mail.json")}
    assert not [f for f in found(two) if len(f[2]) == 2]


def test_a_file_of_a_config_toolset_meets_the_toolset_s_other_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    config = "toolsets:\n  - name: mail\n    files: ['a/*.json', 'b/*.json']\n"
    (tmp_path / ".tooldiff.yml").write_text(config)
    write(tmp_path, {"a/mail.json": [SEND_MAIL, LIST_FILES], "b/email.json": [SEND_EMAIL]})
    _, whole = check(capsys, monkeypatch, tmp_path)
    _, one = check(capsys, monkeypatch, tmp_path, "b/email.json")
    assert [ts["id"] for ts in one["toolsets"]] == ["mail"]
    assert [t["name"] for t in one["tools"]] == ["send_email"]
    assert found(one) == {f for f in found(whole) if "send_email" in f[2] or not f[2]}
    assert [f for f in found(one) if set(f[2]) == {"send_email", "send_mail"}]


def test_config_paths_that_match_no_tool_file_are_an_error_not_a_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A typo in `paths` (or a renamed folder) must not turn the required check green for good.
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"mcp/send_mail.json": [SEND_MAIL, LIST_FILES]})
    (tmp_path / ".tooldiff.yml").write_text('paths: ["tools/**/*.json"]\n')
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 2
    assert "paths: 'tools/**/*.json' matches no tool file" in capsys.readouterr().err
    (tmp_path / ".tooldiff.yml").write_text('paths: ["mcp/*.json", "tols/*.json"]\n')
    code, report = check(capsys, monkeypatch, tmp_path)
    assert code == 1 and "paths: 'tols/*.json' matches no tool file." in report["notes"]


def test_named_files_outside_the_config_paths_are_left_as_ci_leaves_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # pre-commit names a changed fixture that CI, reading `paths` only, never checks.
    (tmp_path / ".git").mkdir()
    write(tmp_path, {"tools/mail.json": [SEND_MAIL], "tests/fixtures/bad.json": [tool("bad name!", "Bad.")]})
    (tmp_path / ".tooldiff.yml").write_text('paths: ["tools/**"]\n')
    _, report = check(capsys, monkeypatch, tmp_path, "tests/fixtures/bad.json", "tools/mail.json")
    assert [t["name"] for t in report["tools"]] == ["send_mail"]
    assert "tests/fixtures/bad.json: not checked, as the config's paths leave it out." in report["notes"]
    monkeypatch.chdir(tmp_path / "tests")  # run from a folder the config's paths leave out: nothing to check
    assert main(["check", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["tools"] == []


def test_a_file_two_toolsets_name_is_said_to_belong_to_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    config = ("toolsets:\n  - {name: billing, files: ['billing/*.json', 'shared/*.json']}\n"
              "  - {name: support, files: ['support/*.json', 'shared/*.json']}\n")
    (tmp_path / ".tooldiff.yml").write_text(config)
    write(tmp_path, {"billing/a.json": [LIST_FILES], "support/b.json": [SEND_MAIL],
                     "shared/common.json": [SEND_EMAIL]})
    _, report = check(capsys, monkeypatch, tmp_path)
    assert ("toolsets: shared/common.json is named by 'billing' and 'support'; a file belongs to one "
            "toolset, the first that names it ('billing'). Give the shared tools a toolset of their own, or "
            "name the file in one.") in report["notes"]


def test_a_named_symlink_is_checked_as_its_target_or_said_to_lead_nowhere(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    (tmp_path / ".git").mkdir()
    write(tmp_path, {"tools/mail.json": [SEND_MAIL]})
    os.symlink("tools/mail.json", tmp_path / "mail.json")
    os.symlink("loop2.json", tmp_path / "loop1.json")
    os.symlink("loop1.json", tmp_path / "loop2.json")
    _, report = check(capsys, monkeypatch, tmp_path, "mail.json")
    assert [(t["name"], t["file"]) for t in report["tools"]] == [("send_mail", "tools/mail.json")]
    code, report = check(capsys, monkeypatch, tmp_path, "loop1.json")
    found = [(f["code"], f["file"]) for f in report["findings"]]
    assert code == 1 and found == [("parse-error", "loop1.json")]
    assert "leads to no file" in report["findings"][0]["message"]


def test_an_ignore_that_matches_no_finding_is_noted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A typo'd or stale ignore would otherwise stay forever, doing nothing.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".tooldiff.yml").write_text(
        "ignores:\n  - {code: intent-overlap, tool: 'serch_*', reason: typo}\n"
        "  - {code: intent-overlap, tool: 'send_*', reason: 'the mail tools stay apart'}\n")
    write(tmp_path, {"mail.json": [SEND_MAIL, SEND_EMAIL]})
    _, report = check(capsys, monkeypatch, tmp_path)
    assert "ignores: intent-overlap on 'serch_*' matches no finding." in report["notes"]
    assert not [n for n in report["notes"] if "send_*" in n]


def test_an_ignore_of_a_rule_the_run_did_not_run_is_not_called_stale(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".tooldiff.yml").write_text(
        "ignores:\n  - {code: intent-overlap, tool: 'send_*', reason: 'the mail tools stay apart'}\n")
    write(tmp_path, {"mail.json": [SEND_MAIL, SEND_EMAIL]})
    monkeypatch.chdir(tmp_path)
    main(["check", "--format", "json", "--select", "missing-description"])
    assert not [n for n in json.loads(capsys.readouterr().out)["notes"] if n.startswith("ignores:")]


def test_a_named_link_leads_through_links_and_to_folders_and_obeys_exclude(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    (tmp_path / ".git").mkdir()
    (tmp_path / ".tooldiff.yml").write_text("exclude: ['fixtures/**']\n")
    write(tmp_path, {"tools/mail.json": [SEND_MAIL], "fixtures/bad.json": [tool("bad name!", "Bad.")]})
    os.symlink("tools/mail.json", tmp_path / "link.json")
    os.symlink("link.json", tmp_path / "chain.json")
    os.symlink("tools", tmp_path / "folder")
    os.symlink("fixtures/bad.json", tmp_path / "excluded.json")
    for name in ("chain.json", "folder"):
        _, report = check(capsys, monkeypatch, tmp_path, name)
        assert [t["name"] for t in report["tools"]] == ["send_mail"], name
    _, report = check(capsys, monkeypatch, tmp_path, "excluded.json")
    assert report["tools"] == [] and not report["findings"]


def test_a_toolset_whose_files_all_belong_to_an_earlier_one_is_not_said_to_match_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`b` names a file `a` already holds: "no file that parses as tools matches" was untrue beside the
    note that the file is named by both."""
    (tmp_path / ".git").mkdir()
    config = "toolsets:\n  - {name: a, files: ['agent/*.json']}\n  - {name: b, files: ['agent/mail.json']}\n"
    (tmp_path / ".tooldiff.yml").write_text(config)
    write(tmp_path, {"agent/files.json": [LIST_FILES], "agent/mail.json": [SEND_MAIL]})
    _, report = check(capsys, monkeypatch, tmp_path)
    mine = [n for n in report["notes"] if n.startswith("toolsets: 'b'")]
    assert mine == ["toolsets: 'b' holds no tools: every file it names belongs to the toolset named before "
                    "it ('a'), as a file belongs to one toolset."], report["notes"]


def test_a_named_file_without_tools_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`check openapi.json` on a file of no format tooldiff reads said "Checked 0 tools", exit 0: a clean
    result for a file it never looked into. A note says so; a scan of the tree stays silent on data files."""
    write(tmp_path, {"openapi.json": {"openapi": "3.1.0", "paths": {}}, "tools.json": [LIST_FILES]})
    _, report = check(capsys, monkeypatch, tmp_path, "openapi.json", "tools.json")
    [note] = [n for n in report["notes"] if "openapi.json" in n]
    assert "no tool definitions" in note and "tools.json" not in note
    _, whole = check(capsys, monkeypatch, tmp_path)
    assert not [n for n in whole["notes"] if "openapi.json" in n]
    # with parse errors ignored, a broken tool file is not said to hold no tools
    (tmp_path / "broken.json").write_text('[{"name": "x", "description": "y", "input_schema": ', "utf-8")
    main(["check", "--ignore", "parse-error", "--format", "json", "broken.json"])
    assert json.loads(capsys.readouterr().out)["notes"] == []
    # pre-commit names every changed JSON file: there a data file is skipped in silence
    main(["check", "--skip-non-tool-files", "--format", "json", "openapi.json"])
    assert json.loads(capsys.readouterr().out)["notes"] == []
