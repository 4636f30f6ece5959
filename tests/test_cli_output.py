"""`--output`: the report in a file, as stdout would show it, in folders created as needed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tooldiff.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "helpdesk" / "head" / "tools.json"


def test_output_creates_missing_folders_and_matches_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt in ("text", "json", "sarif"):
        assert main(["check", str(EXAMPLE), "--format", fmt]) == 0
        shown = capsys.readouterr().out
        target = tmp_path / fmt / "deep" / "report.out"
        assert main(["check", str(EXAMPLE), "--format", fmt, "--output", str(target)]) == 0
        assert capsys.readouterr().out == ""
        assert target.read_text(encoding="utf-8") == shown, fmt  # the final newline included


def test_output_dash_is_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base = str(EXAMPLE.parents[1] / "base")
    for argv in (["check", str(EXAMPLE)], ["diff", base, str(EXAMPLE.parent)]):
        assert main([*argv, "--format", "json"]) == 0
        shown = capsys.readouterr().out
        assert main([*argv, "--format", "json", "-o", "-"]) == 0
        assert capsys.readouterr().out == shown
        assert not (tmp_path / "-").exists()
    assert main(["check", str(EXAMPLE), "--output", "./-"]) == 0  # a file of that name, when meant
    assert (tmp_path / "-").is_file() and capsys.readouterr().out == ""


def test_output_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for target in (tmp_path, tmp_path / "file" / "report.json"):
        assert main(["check", str(EXAMPLE), "--output", str(target)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tooldiff: cannot write ") and str(target) in err and "Traceback" not in err


def test_output_named_as_a_folder_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`-o reports/` names a folder: writing a file called `reports` instead would hide the report."""
    target = f"{tmp_path / 'reports'}/"
    assert main(["check", str(EXAMPLE), "--format", "sarif", "--output", target]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tooldiff: cannot write ") and "name a file" in err
    assert not (tmp_path / "reports").exists()


def test_init_from_a_subfolder_writes_at_the_repository_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub reads workflows only from the root's .github; check and baseline find the config there."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "agent" / "tools").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "agent" / "tools")
    assert main(["init"]) == 0
    assert (tmp_path / ".github" / "workflows" / "tooldiff.yml").is_file()
    assert (tmp_path / ".tooldiff.yml").is_file()
    assert sorted(p.name for p in (tmp_path / "agent").rglob("*")) == ["tools"]
    assert ".tooldiff.yml" in capsys.readouterr().out
    # Outside any repository: the folder it runs in.
    outside = tmp_path.parent / f"{tmp_path.name}-plain"
    outside.mkdir()
    monkeypatch.chdir(outside)
    assert main(["init"]) == 0
    assert (outside / ".tooldiff.yml").is_file()


def test_github_is_the_job_summary_and_annotations_are_workflow_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As the Action writes them: the summary (Markdown) for $GITHUB_STEP_SUMMARY, annotations for the log."""
    from tooldiff.cli import build_parser

    assert main(["check", str(EXAMPLE), "--format", "github"]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("## tooldiff check\n") and "::warning" not in summary
    assert main(["check", str(EXAMPLE), "--format", "annotations"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("::warning file=") and "intent-overlap" in lines[0]
    # GitHub shows 10 per level: the other 3 infos are one plain log line.
    assert sum(line.startswith("::notice ") for line in lines) == 10 and len(lines) == 12
    check = build_parser()._subparsers._group_actions[0].choices["check"]  # type: ignore[union-attr]
    helps = {a.dest: a.help or "" for a in check._actions}
    assert "github (the job summary" in helps["format"]
    assert "annotations (workflow commands" in helps["format"]


def test_a_named_folder_dot_included_reports_files_that_do_not_parse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A path on the command line always reports; with none, discovery by content skips a file that does not
    parse and holds no tool keys. `.` is a path named like any other, wherever it is run."""
    import json

    (tmp_path / ".git").mkdir()
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "broken.json").write_text('{"tools": [', encoding="utf-8")
    (tmp_path / "x" / "tools.json").write_bytes(EXAMPLE.read_bytes())

    def parse_errors(*argv: str) -> list[str]:
        main(["check", *argv, "--format", "json"])
        doc = json.loads(capsys.readouterr().out)
        return [f["file"] for f in doc["findings"] if f["code"] == "parse-error"]

    monkeypatch.chdir(tmp_path)
    assert parse_errors() == []
    assert parse_errors(".") == parse_errors("x") == ["x/broken.json"]
    monkeypatch.chdir(tmp_path / "x")
    assert parse_errors() == []
    assert parse_errors(".") == parse_errors("broken.json") == ["x/broken.json"]


@pytest.mark.skipif(os.name != "posix", reason="a file name that is not UTF-8 needs a POSIX file system")
def test_a_file_name_that_is_not_utf8_reaches_every_format(tmp_path: Path) -> None:
    # A name in Latin-1 (an old zip, a Windows share): Python spells its byte \xff as a lone surrogate,
    # which crashed the fingerprint, and then every writer that encodes UTF-8.
    name = os.fsdecode(b"outils-\xff.json")
    (tmp_path / name).write_bytes(EXAMPLE.read_bytes())
    for fmt in ("text", "json", "sarif", "markdown", "github", "annotations"):
        target = tmp_path / f"report.{fmt}"
        assert main(["check", str(tmp_path / name), "--format", fmt, "--output", str(target)]) == 0, fmt
        out = target.read_text(encoding="utf-8")  # valid UTF-8, no lone surrogate written
        assert "outils-" in out, fmt
    sarif = json.loads((tmp_path / "report.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"outils-%FF.json"}  # the file's own bytes, percent-encoded
