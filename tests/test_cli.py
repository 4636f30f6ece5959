"""The command line, run in-process on real files in temp dirs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from tooldiff import __version__
from tooldiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "helpdesk" / "head" / "tools.json"


def report_schema() -> dict[str, object]:
    text = resources.files("tooldiff").joinpath("data", "report.schema.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_check_json_follows_the_report_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLE), "--format", "json")
    doc = json.loads(out)
    jsonschema.validate(doc, report_schema())
    codes = {f["code"] for f in doc["findings"]}
    assert "intent-overlap" in codes
    assert {t["name"] for t in doc["tools"]} >= {"search_docs", "find_document", "escalate_ticket"}
    # The helpdesk has warnings and infos but no provider errors: exit 0 at the default fail-on.
    assert code == 0


def test_check_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "check", str(EXAMPLE), "--format", "json")[1]
    second = run(capsys, "check", str(EXAMPLE), "--format", "json")[1]
    assert first == second


def test_jobs_flag_gives_the_same_report_and_leaves_the_environment_alone(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLDIFF_JOBS", raising=False)
    plain = run(capsys, "check", str(EXAMPLE), "--format", "json")[1]
    assert run(capsys, "check", "-j", "3", str(EXAMPLE), "--format", "json")[1] == plain
    assert "TOOLDIFF_JOBS" not in os.environ
    with pytest.raises(SystemExit) as exc:
        main(["check", "--jobs", "0", str(EXAMPLE)])
    assert exc.value.code == 2
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["abc", "0", "-2", "1.5"])
def test_a_bad_tooldiff_jobs_is_a_usage_error_not_one_process_in_silence(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TOOLDIFF_JOBS", value)
    with pytest.raises(SystemExit) as exc:
        main(["check", str(EXAMPLE)])
    assert exc.value.code == 2
    assert f"TOOLDIFF_JOBS={value}" in capsys.readouterr().err
    assert run(capsys, "check", "-j", "1", str(EXAMPLE))[0] == 0  # the flag wins: the variable is not read
    monkeypatch.setenv("TOOLDIFF_JOBS", " 2 ")
    assert run(capsys, "check", str(EXAMPLE))[0] == 0


def test_tooldiff_jobs_is_read_only_by_commands_that_fork(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLDIFF_JOBS", "0")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "rules")[0] == 0
    assert run(capsys, "explain", "intent-overlap")[0] == 0
    assert run(capsys, "init")[0] == 0
    # describe forks for a big tree but has no --jobs: the error must not send the user to one.
    with pytest.raises(SystemExit) as exc:
        main(["describe", str(EXAMPLE)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "TOOLDIFF_JOBS=0: at least 1" in err and "--jobs" not in err


def test_tokens_all_in_text_shows_every_method_counted(capsys: pytest.CaptureFixture[str]) -> None:
    base, head = str(EXAMPLE.parents[1] / "base"), str(EXAMPLE.parent)
    for argv in (["diff", base, head], ["check", head]):
        doc = json.loads(run(capsys, *argv, "--tokens", "all", "--format", "json")[1])
        assert len(doc["token_methods"]) > 1  # the estimate and openai-o200k at least
        text = run(capsys, *argv, "--tokens", "all")[1]
        (cells,) = (ts["tokens"] for ts in doc["toolsets"])
        for method in doc["token_methods"]:
            cell = cells[method]
            figure = f"{cell['delta']:+,}" if argv[0] == "diff" else f"{cell['head']:,}"
            assert f"Tokens {figure} (" in text and f"{method})." in text, method
            line = next(ln for ln in text.splitlines() if ln.endswith(f"{method})."))
            assert line.startswith(f"Tokens {figure} ("), line
    # The estimate alone: the diff's sentence says it, as before.
    out = run(capsys, "diff", base, head)[1]
    assert "; tokens +52 (+18.8%, estimate)." in out and "openai" not in out


def test_github_outside_github_actions_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    code, out, err = run(capsys, "github")
    assert (code, out) == (2, "") and "only inside a GitHub Actions job" in err and "::" not in err
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert run(capsys, "github")[0] == 2


def test_fail_on_warning_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "check", str(EXAMPLE), "--fail-on", "warning")
    assert code == 1
    code, _, _ = run(capsys, "check", str(EXAMPLE), "--fail-on", "never")
    assert code == 0


def test_bad_config_exits_2_naming_file_line_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".tooldiff.yml").write_text("targets: [anthropic]\nbogus_key: 1\n", encoding="utf-8")
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "check")
    assert code == 2
    assert ".tooldiff.yml" in err and "2" in err and "bogus_key" in err


def test_parse_error_does_not_hide_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "bad.json").write_text('{"tools": [{"name": "x",\n  "description": }\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "good.json", "bad.json", "--format", "json")
    doc = json.loads(out)
    errors = [f for f in doc["findings"] if f["code"] == "parse-error"]
    assert len(errors) == 1 and errors[0]["file"] == "bad.json" and errors[0]["line"] == 2
    assert any(f["code"] == "intent-overlap" for f in doc["findings"])
    assert code == 1


def test_baseline_makes_existing_findings_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "check", "--fail-on", "info")[0] == 1
    assert run(capsys, "baseline")[0] == 0
    assert (tmp_path / ".tooldiff-baseline.json").exists()
    code, out, _ = run(capsys, "check", "--fail-on", "info", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    jsonschema.validate(doc, report_schema())
    assert {(f["status"], f["reason"]) for f in doc["findings"]} == {
        ("baselined", "accepted when the baseline was written")
    }
    # The reason is the baseline entry's, as the team edited it, and code scanning shows it.
    baseline = json.loads((tmp_path / ".tooldiff-baseline.json").read_text(encoding="utf-8"))
    for entry in baseline["findings"]:
        entry["reason"] = f"kept on purpose: {entry['code']}"
    (tmp_path / ".tooldiff-baseline.json").write_text(json.dumps(baseline), encoding="utf-8")
    sarif = json.loads(run(capsys, "check", "--format", "sarif")[1])
    justifications = {
        (r["ruleId"], s["justification"]) for r in sarif["runs"][0]["results"] for s in r["suppressions"]
    }
    assert ("intent-overlap", "kept on purpose: intent-overlap (the tooldiff baseline)") in justifications
    # Writing the baseline again, after a new finding, keeps the edited reasons and gives the new one its own.
    tools = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    tools["tools"].append({"name": "Bad Name!", "description": "Look up the weather for a city by its name.",
                           "input_schema": {"type": "object", "properties": {}}})
    (tmp_path / "tools.json").write_text(json.dumps(tools, indent=2), encoding="utf-8")
    assert run(capsys, "baseline", "--reason", "the rename lands in #40")[0] == 0
    rewritten = json.loads((tmp_path / ".tooldiff-baseline.json").read_text(encoding="utf-8"))
    reasons = {(e["code"], tuple(e["tools"])): e["reason"] for e in rewritten["findings"]}
    assert reasons[("invalid-name", ("Bad Name!",))] == "the rename lands in #40"
    kept = {r for key, r in reasons.items() if key != ("invalid-name", ("Bad Name!",))}
    assert kept == {f"kept on purpose: {e['code']}" for e in baseline["findings"]}


def test_ignores_need_a_reason_and_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".tooldiff.yml").write_text(
        "ignores:\n  - code: intent-overlap\n    tool: find_document\n    reason: 'being deleted in #12'\n",
        encoding="utf-8",
    )
    _, out, _ = run(capsys, "check", "--format", "json")
    doc = json.loads(out)
    jsonschema.validate(doc, report_schema())
    overlap = [f for f in doc["findings"] if f["code"] == "intent-overlap"]
    assert overlap and all(f["status"] == "ignored" for f in overlap)
    assert {f["reason"] for f in overlap} == {"being deleted in #12"}
    # Only accepted findings carry a reason.
    assert all("reason" not in f for f in doc["findings"] if f["status"] == "new")
    (tmp_path / ".tooldiff.yml").write_text(
        "ignores:\n  - code: intent-overlap\n    tool: find_document\n", encoding="utf-8"
    )
    assert run(capsys, "check")[0] == 2


def test_run_from_a_subfolder_uses_the_config_and_baseline_further_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As in CI: the same config, baseline and repository-relative paths (so fingerprints), not the
    subfolder's view of them. The search stops at the repository root."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".tooldiff.yml").write_text("rules:\n  missing-description: false\n", encoding="utf-8")
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path / "agent")
    for argv in ((), (".",), ("tools.json",), ("../agent/./tools.json",)):
        doc = json.loads(run(capsys, "check", *argv, "--format", "json")[1])
        assert {f["file"] for f in doc["findings"]} == {"agent/tools.json"}, argv
        assert {f["code"] for f in doc["findings"]} == {"intent-overlap"}, argv
    assert run(capsys, "baseline")[0] == 0
    assert (tmp_path / ".tooldiff-baseline.json").exists()
    assert not (tmp_path / "agent" / ".tooldiff-baseline.json").exists()
    doc = json.loads(run(capsys, "check", "--format", "json")[1])
    assert {f["status"] for f in doc["findings"]} == {"baselined"}
    # Above the repository root, a config is never picked up.
    outer = tmp_path.parent / f"{tmp_path.name}-outer"
    (outer / "repo" / ".git").mkdir(parents=True)
    (outer / ".tooldiff.yml").write_text("rules:\n  intent-overlap: false\n", encoding="utf-8")
    (outer / "repo" / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(outer / "repo")
    doc = json.loads(run(capsys, "check", "--format", "json")[1])
    assert "intent-overlap" in {f["code"] for f in doc["findings"]}
    # Without a config, a baseline at the top (or the repository root itself) roots the run.
    (tmp_path / ".tooldiff.yml").unlink()
    monkeypatch.chdir(tmp_path / "agent")
    doc = json.loads(run(capsys, "check", "--format", "json")[1])
    assert {f["file"] for f in doc["findings"]} == {"agent/tools.json"}
    assert "baselined" in {f["status"] for f in doc["findings"]}
    (tmp_path / ".tooldiff-baseline.json").unlink()
    doc = json.loads(run(capsys, "check", "--format", "json")[1])
    assert {f["file"] for f in doc["findings"]} == {"agent/tools.json"}


def test_describe_names_files_that_do_not_parse(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "good.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "bad.json").write_text('{"tools": [{"name": "x", "input_schema": ', encoding="utf-8")
    code, out, _ = run(capsys, "describe", str(tmp_path / "good.json"), str(tmp_path / "bad.json"))
    assert code == 0
    assert "search_docs" in out
    assert "bad.json:1: not read: invalid JSON" in out


def test_describe_has_one_row_per_tool(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "describe", str(EXAMPLE))
    assert code == 0
    rows = out.strip().splitlines()
    assert len(rows) == 1 + 6
    assert "schemaHash" in rows[0] and "tokens[estimate]" in rows[0]
    # Each code once, most severe first, with its count: the warning is not lost behind the infos.
    search_docs = next(r for r in rows if r.startswith("search_docs "))
    assert search_docs.endswith("warning intent-overlap, info missing-description ×2")


def test_describe_marks_the_findings_a_baseline_accepts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After `tooldiff baseline`, describe listed the accepted findings as it lists new ones: a reader could
    not tell the tools that need work from the ones whose findings the team has accepted."""
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    rows = run(capsys, "describe", "tools.json")[1].splitlines()
    assert "*" not in rows[1] and not any(r.startswith("*") for r in rows)
    record = json.loads(EXAMPLE.read_text())
    record = record["tools"] if isinstance(record, dict) else record
    assert run(capsys, "baseline")[0] == 0
    extra = {"name": "close_ticket", "description": "",
             "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}}
    (tmp_path / "tools.json").write_text(json.dumps([*record, extra]), encoding="utf-8")
    code, out, _ = run(capsys, "describe", "tools.json")
    rows = out.splitlines()
    search_docs = next(r for r in rows if r.startswith("search_docs "))
    assert code == 0 and search_docs.endswith("warning intent-overlap*, info missing-description ×2*")
    close = next(r for r in rows if r.startswith("close_ticket "))
    assert close.endswith("warning missing-description, info missing-description"), close
    assert "\n* accepted (baselined or ignored): `check --fail-on` does not count it\n" in out


def test_describe_counts_tokens_per_method(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's describe: "tokens per method", so the exact count is there beside the estimate."""
    from tooldiff.tokens import available_methods

    code, out, _ = run(capsys, "describe", str(EXAMPLE))
    header = out.splitlines()[0]
    assert code == 0 and all(f"tokens[{m}]" in header for m in available_methods())
    assert "tokens[openai-o200k]" in header


def test_describe_never_cuts_the_name_nor_the_findings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Two names of 62 characters that differ in `_v1` / `_v2` were one row cut at 48.
    name = "look_up_" + "very_" * 10 + "long_name_v1"
    record = {"name": name, "description": "", "input_schema": {"type": "object", "properties": {"q": {}}}}
    (tmp_path / "tools.json").write_text(json.dumps([record]), encoding="utf-8")
    code, out, _ = run(capsys, "describe", str(tmp_path / "tools.json"))
    row = out.splitlines()[1]
    assert code == 0 and row.startswith(name + " ")
    assert row.endswith("warning missing-description, info missing-description")


def test_describe_never_cuts_the_path_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`path:line` is there to be opened: cut, it names no file and loses its line."""
    folder = tmp_path / "pkg" / "github" / "__toolsnaps__"
    folder.mkdir(parents=True)
    name = "add_pull_request_review_comment_to_pending_review"
    record = {"name": name, "description": "Add a comment.", "input_schema": {"type": "object"}}
    (folder / f"{name}.json").write_text(json.dumps([record]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "describe", "pkg")
    assert code == 0 and f"pkg/github/__toolsnaps__/{name}.json:1 " in out.splitlines()[1]


def test_rules_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "intent-overlap" in out and "optional-not-required" in out
    # A terminal's listing: aligned columns, no Markdown links, no citations of the design notes
    assert "](#" not in out and "| " not in out and "seed 00" not in out
    row = next(line for line in out.splitlines() if line.startswith("intent-overlap "))
    assert row.split()[:3] == ["intent-overlap", "warning", "pair"] and "Two tools" in row
    code, out, _ = run(capsys, "explain", "blast-radius-twin")
    assert code == 0 and "blast-radius-twin" in out
    assert run(capsys, "explain", "no-such-rule")[0] == 2
    assert run(capsys, "explain", "Intent_Overlap")[1] == run(capsys, "explain", "intent-overlap")[1]
    code, _, err = run(capsys, "explain", "intent-overlapp")
    assert code == 2 and "did you mean 'intent-overlap'?" in err


def test_init_never_clobbers_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init")[0] == 0
    workflow = tmp_path / ".github" / "workflows" / "tooldiff.yml"
    config = tmp_path / ".tooldiff.yml"
    assert workflow.exists() and config.exists()
    assert run(capsys, "init")[0] == 0  # identical files: nothing to do
    code, out, _ = run(capsys, "init")
    assert code == 0 and {line.index(".") for line in out.splitlines()} == {11}  # the paths line up
    config.write_text("targets: [anthropic]\n", encoding="utf-8")
    assert run(capsys, "init")[0] == 1
    assert config.read_text(encoding="utf-8") == "targets: [anthropic]\n"
    assert run(capsys, "init", "--force")[0] == 0
    assert config.read_text(encoding="utf-8") != "targets: [anthropic]\n"
    # What init writes is a valid config.
    assert run(capsys, "check", str(EXAMPLE))[0] == 0


def test_init_says_what_it_cannot_write_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".tooldiff.yml").mkdir()  # a folder where the config goes
    code, out, err = run(capsys, "init")
    assert code == 2 and "Traceback" not in err
    assert "tooldiff: cannot write .tooldiff.yml: Is a directory" in err
    assert "wrote      .github/workflows/tooldiff.yml" in out  # the other file is still written
    # Root may write anywhere, so no permission is made up here.
    (tmp_path / ".tooldiff.yml").rmdir()

    def refuse(self: Path, *args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", refuse)
    code, _, err = run(capsys, "init")
    assert code == 2 and "tooldiff: cannot write .tooldiff.yml: Permission denied" in err
    (tmp_path / ".tooldiff.yml").write_bytes(b"\xff\xfe")  # not UTF-8: it differs, as any other edit
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init")[0] == 1
    (tmp_path / ".tooldiff.yml").unlink()
    os.mkfifo(tmp_path / ".tooldiff.yml")  # opening it would wait for a writer
    code, _, err = run(capsys, "init")
    assert code == 2 and "cannot write .tooldiff.yml: not a regular file" in err


def test_a_config_that_cannot_be_read_is_a_config_error_not_the_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its ignores and rule settings would be dropped in silence, and the run judged by the defaults."""
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    os.mkfifo(tmp_path / ".tooldiff.yml")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "check")
    assert code == 2 and ".tooldiff.yml" in err and "cannot be read: not a regular file" in err


def test_python_dash_m_works() -> None:
    out = subprocess.run([sys.executable, "-m", "tooldiff", "--version"], capture_output=True, text=True,
                         check=True)
    assert __version__ in out.stdout


def test_every_command_and_argument_says_what_it_is_for() -> None:
    import argparse

    from tooldiff.cli import build_parser

    parser = build_parser()
    assert parser.description and "tool definitions" in parser.description
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    undocumented = [
        f"{name} {action.dest}"
        for name, sub in commands.choices.items()
        for action in sub._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert undocumented == []
    assert all(choice.help for choice in commands._choices_actions)


def test_diff_against_head_before_the_first_commit_reports_everything_as_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `tooldiff-new` pre-commit hook's first run: HEAD does not exist yet."""
    from gitbuild import git, init

    root = init(tmp_path / "repo")
    (root / "tools.json").write_bytes(EXAMPLE.read_bytes())
    git(root, "add", ".")
    monkeypatch.chdir(root)
    argv = ("diff", "--base", "HEAD", "--worktree", "--format", "json", "--fail-on", "warning")
    code, out, err = run(capsys, *argv)
    doc = json.loads(out)
    assert code == 1 and err == ""
    assert {f["status"] for f in doc["findings"]} == {"new"}
    assert "intent-overlap" in {f["code"] for f in doc["findings"]}
    # Without --worktree, an unborn HEAD is still an error that says what is wrong.
    code, _, err = run(capsys, "diff", "--base", "HEAD")
    assert code == 2 and "HEAD" in err


def test_diff_summary_counts_the_changed_tools_and_the_neighbours_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gitbuild import git, init

    root = init(tmp_path / "repo")
    (root / "tools.json").write_bytes((ROOT / "examples" / "helpdesk" / "base" / "tools.json").read_bytes())
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "base")
    (root / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(root)
    code, out, _ = run(capsys, "diff", "--base", "HEAD", "--worktree")
    summary = out.strip().splitlines()[-1]
    assert code == 0 and summary.startswith("Checked 1 changed tool and "), summary
    assert " neighbour" in summary and summary.endswith("(1 warning, 2 info).")


def test_statistics_counts_the_new_findings_per_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLE), "--statistics")
    assert code == 0
    assert out.splitlines()[:2] == ["13  info     missing-description", " 1  warning  intent-overlap"]
    assert out.rstrip().endswith("14 new findings (1 warning, 13 info).")
    assert "fix:" not in out  # no finding is listed one by one
    with pytest.raises(SystemExit) as exc:
        main(["check", str(EXAMPLE), "--statistics", "--format", "json"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.startswith("usage: tooldiff check ")  # the command's usage, not the top's


def test_skip_non_tool_files_is_for_hooks_that_pass_every_json_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "tsconfig.json").write_text('{\n  // a comment\n  "strict": true\n}\n', encoding="utf-8")
    (tmp_path / "sc.yaml").write_text("metadata:\n  name: {{ .Values.name }}\nparameters:\n  type: gp2\n",
                                      encoding="utf-8")  # a Helm template
    monkeypatch.chdir(tmp_path)
    files = ("tools.json", "tsconfig.json", "sc.yaml")
    code, out, _ = run(capsys, "check", *files, "--format", "json")
    assert code == 1 and {f["file"] for f in json.loads(out)["findings"] if f["code"] == "parse-error"} == {
        "tsconfig.json", "sc.yaml"}
    code, out, _ = run(capsys, "check", "--skip-non-tool-files", *files, "--format", "json")
    assert code == 0 and not [f for f in json.loads(out)["findings"] if f["code"] == "parse-error"]
    # A broken file that looks like tools is still reported.
    (tmp_path / "broken.json").write_text('{"tools": [{"name": "x", "input_schema": }\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "--skip-non-tool-files", *files, "broken.json", "--format", "json")
    assert code == 1 and [f["file"] for f in json.loads(out)["findings"] if f["code"] == "parse-error"] == [
        "broken.json"]


def test_describe_places_each_tool_by_file_and_counts_its_own_findings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two files of one config toolset both define search_docs: each row says its file and line and holds
    its own findings; a pair of the two counts once; wide characters keep the columns aligned."""
    (tmp_path / "tools").mkdir()
    search = {"name": "search_docs", "description": "Search the docs for pages matching a query.",
              "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}}
    described = {**search, "input_schema": {"type": "object", "properties": {
        "query": {"type": "string", "description": "Words to look for."}}}}
    wide = {"name": "検索ツール", "description": "ドキュメントを検索する。",
            "input_schema": {"type": "object"}}
    (tmp_path / "tools" / "a.json").write_text(json.dumps([described, wide]), encoding="utf-8")
    (tmp_path / "tools" / "b.json").write_text(json.dumps([search]), encoding="utf-8")
    config = "toolsets:\n  - {name: agent, files: ['tools/*.json']}\n"
    (tmp_path / ".tooldiff.yml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "describe", "tools")
    rows = out.strip().splitlines()
    a, b = (r for r in rows if r.startswith("search_docs "))
    assert "tools/a.json:1" in a and "tools/b.json:1" in b and "agent" in a
    assert "missing-description" not in a and "info missing-description" in b
    assert "×2" not in a.split("intent-overlap")[-1][:4]  # the self-pair is one finding, counted once
    from unicodedata import east_asian_width
    widths = {sum(2 if east_asian_width(c) in "WF" else 1 for c in r.split("  agent")[0]) for r in rows[1:]}
    assert len(widths) == 1, rows


def test_text_paths_open_from_where_the_command_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a subfolder, the text output's `path:line` is relative to it (an editor or a terminal opens
    it); JSON keeps repository-relative paths, as CI and the baseline see them."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "agents" / "helpdesk").mkdir(parents=True)
    (tmp_path / "agents" / "helpdesk" / "tools.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    _, out, _ = run(capsys, "check", "../agents")
    first = out.splitlines()[0].split(":")[0]
    assert first == "../agents/helpdesk/tools.json" and (tmp_path / "other" / first).is_file()
    _, out, _ = run(capsys, "check", "../agents", "--format", "json")
    assert {f["file"] for f in json.loads(out)["findings"]} == {"agents/helpdesk/tools.json"}
    monkeypatch.chdir(tmp_path / "agents")
    _, out, _ = run(capsys, "describe", "helpdesk")
    assert out.splitlines()[1].split()[1] == "helpdesk/tools.json:3"  # not ../agents/helpdesk/...
    monkeypatch.chdir(tmp_path / "agents" / "helpdesk")
    _, out, _ = run(capsys, "check")
    assert out.splitlines()[0].split(":")[0] == "tools.json"


def test_check_says_it_did_not_run_the_configured_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Code-defined tools are read by `diff` only: a check of such a repository must not look clean and
    empty without saying why."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".tooldiff.yml").write_text('sources:\n  - {command: "python dump.py", toolset: agent}\n',
                                            encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check")
    assert code == 0 and "`python dump.py`" in out and "tooldiff diff" in out
    doc = json.loads(run(capsys, "check", "--format", "json")[1])
    assert any("python dump.py" in n for n in doc["notes"])
    assert "`tooldiff check` reads files only" in out
    code, out, _ = run(capsys, "describe", ".")  # an empty table alone would say "no tools here"
    assert code == 0 and "`python dump.py`" in out and "tooldiff diff" in out
    assert "`tooldiff describe` reads files only" in out  # the command that ran, not `check`


def test_check_names_config_entries_that_match_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A typo in a toolset glob, a toolset id or a tool name passes the schema and then does nothing: a
    whole-tree check says which entries matched nothing, so the setting is not silently dead."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "tools.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text(
        "toolsets:\n  - {name: billing, files: ['agent/*.json']}\n"
        "toolset_targets:\n  agents: [openai-strict]\n  agents/tools.json: [anthropic]\n"
        "tools:\n  'delete_*': {blast: destructive}\n  search_docs: {blast: read}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "check")
    keys = ("toolsets:", "toolset_targets:", "tools:")
    notes = [line for line in out.splitlines() if line.startswith(keys)]
    assert len(notes) == 3, out
    assert "'billing' holds no tools" in notes[0] and "agent/*.json" in notes[0]
    assert notes[1].startswith("toolset_targets: 'agents' names no toolset")
    assert notes[2].startswith("tools: 'delete_*' names no tool")
    # Over some paths only, the rest of the tree was not read: no claim about it.
    _, out, _ = run(capsys, "check", "agents")
    assert "names no" not in out and "holds no tools" not in out


def test_check_notes_a_toolset_named_like_a_path_it_does_not_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A toolsets name that is also another file's id merges the two into one toolset: said, not silent."""
    (tmp_path / ".git").mkdir()
    for folder in ("agents", "mcp"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "tools.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text(
        "toolsets:\n  - {name: mcp/tools.json, files: ['agents/*.json']}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "check")
    notes = [line for line in out.splitlines() if line.startswith("toolsets:")]
    assert len(notes) == 1, out
    assert "'mcp/tools.json' is also the id of mcp/tools.json" in notes[0] and "rename" in notes[0].lower()


@pytest.fixture
def fake_ctok(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """claude-ctok counted by a stand-in (ctok needs Python 3.12), with the token caches cleared around it."""
    from tooldiff import tokens

    def clear() -> None:
        tokens.available_methods.cache_clear()
        tokens._methods_counted.cache_clear()
        tokens._COUNTS.clear()

    monkeypatch.setattr(tokens, "_ctok_counter", lambda: (lambda text: len(text) // 3))
    clear()
    yield
    monkeypatch.undo()
    clear()


@pytest.mark.usefixtures("fake_ctok")
def test_describe_labels_claude_ctok_as_unofficial(capsys: pytest.CaptureFixture[str]) -> None:
    """README: claude-ctok is "an unofficial reconstruction, labelled as one". The PR comment and job summary
    carry that note; describe showed a bare tokens[claude-ctok] column."""
    from tooldiff import tokens

    code, out, _ = run(capsys, "describe", str(EXAMPLE))
    assert code == 0 and "tokens[claude-ctok]" in out.splitlines()[0]
    assert f"claude-ctok: {tokens.METHOD_NOTES['claude-ctok']}" in out


@pytest.mark.usefixtures("fake_ctok")
def test_json_labels_claude_ctok_as_unofficial(capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON report names each counted method's caveat: a consumer can show claude-ctok as unofficial."""
    from tooldiff import tokens

    _, out, _ = run(capsys, "check", str(EXAMPLE), "--tokens", "all", "--format", "json")
    doc = json.loads(out)
    jsonschema.validate(doc, report_schema())
    assert "claude-ctok" in doc["token_methods"]
    assert doc["token_method_notes"]["claude-ctok"] == tokens.METHOD_NOTES["claude-ctok"]
    assert set(doc["token_method_notes"]) <= set(doc["token_methods"])


def test_describe_keeps_apart_two_same_named_tools_of_one_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two definitions of `dup` in one file: only the heavy one is heavy; each row has its own findings."""
    schema = {"type": "object", "properties": {"q": {"type": "string", "description": "The query."}},
              "additionalProperties": False}
    heavy = {"name": "dup", "description": "Look up a record by its query. " * 90, "input_schema": schema}
    light = {"name": "dup", "description": "Look up a record by its query.", "input_schema": schema}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([heavy, light], indent=1), encoding="utf-8")
    _, out, _ = run(capsys, "describe", "--format", "json", str(path))
    first, second = json.loads(out)["tools"]
    assert first["tokens"] > second["tokens"]
    assert {"heavy-definition", "oversized-description"} <= {i["code"] for i in first["issues"]}
    assert not {"heavy-definition", "oversized-description"} & {i["code"] for i in second["issues"]}
    assert all("duplicate-name" in {i["code"] for i in row["issues"]} for row in (first, second))


TWINS_JSON = json.dumps({"tools": [
    {"name": "search", "description": "Search the docs by keyword",
     "input_schema": {"type": "object", "properties": {"q": {"type": "string"}, "r": {"type": "string"}}}},
    {"name": "search", "description": "Search the docs by keyword",
     "input_schema": {"type": "object", "properties": {"q": {"type": "string", "description": "query"}}}},
]}, separators=(",", ":"))
TWINS_YAML = """\
base: &base
  type: object
  properties:
    q: {type: string}
    r: {type: string}
tools:
  - name: search
    description: Search the docs by keyword
    input_schema: *base
  - name: search
    description: Search the docs by keyword
    input_schema:
      type: object
      properties:
        q: {type: string, description: query}
"""


@pytest.mark.parametrize(("name", "text"), [("twins.json", TWINS_JSON), ("twins.jsonl", TWINS_JSON),
                                            ("twins.yaml", TWINS_YAML)], ids=["minified", "jsonl", "anchor"])
def test_describe_gives_each_same_named_tool_the_findings_reported_at_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str
) -> None:
    """Lines cannot tell two tools apart when both are on one line, or when their findings sit in an anchor
    outside both: the first row has the two undescribed properties, the second none."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _, out, _ = run(capsys, "describe", "--format", "json", str(path))
    doc = json.loads(out)
    undescribed = [sorted(i["path"] for i in row["issues"] if i["code"] == "missing-description")
                   for row in doc["tools"]]
    assert undescribed == [["properties.q", "properties.r"], []]
    assert doc["issueCount"] == 4


def test_describe_json_is_seed_002s_report(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 002's describe(): name, tokens, descriptionChars, schemaHash, targets, issues [{code, severity,
    targets, path, message}], ok (false when any issue is an error); describeAll's tokens and issueCount.
    It follows the schema shipped beside the report's, `describe.schema.json`."""
    code, out, _ = run(capsys, "describe", "--format", "json", str(EXAMPLE))
    assert code == 0
    data = json.loads(out)
    from importlib import resources

    import jsonschema

    schema = json.loads(resources.files("tooldiff").joinpath("data/describe.schema.json").read_text())
    jsonschema.validate(data, schema)
    assert set(data) >= {"tools", "tokens", "issueCount"}
    tools = {t["name"]: t for t in data["tools"]}
    doc = json.loads(EXAMPLE.read_text())
    search = next(t for t in doc["tools"] if t["name"] == "search_docs")
    row = tools["search_docs"]
    assert set(row) >= {"name", "tokens", "descriptionChars", "schemaHash", "targets", "issues", "ok"}
    assert row["descriptionChars"] == len(search["description"])
    assert isinstance(row["tokens"], int) and row["tokens"] > 0 and len(row["schemaHash"]) == 16
    codes = {(i["code"], i["path"]) for i in row["issues"]}
    assert ("intent-overlap", "") in codes
    assert any(code == "missing-description" and path.startswith("properties.") for code, path in codes)
    assert row["ok"] is True  # warnings and infos only
    assert data["tokens"] == sum(t["tokens"] for t in data["tools"])
    # each method that needs saying what it is says so (claude-ctok, where installed, is unofficial)
    assert data["tokenMethodNotes"]["estimate"].startswith("characters ÷ 4")
    assert set(data["tokenMethodNotes"]) <= set(row["tokensByMethod"])
    # a pair finding is an issue of both its tools, and one finding
    pairs = {i["message"] for t in data["tools"] for i in t["issues"] if i["code"] == "intent-overlap"}
    shown = sum(len(t["issues"]) for t in data["tools"]) + len(data["toolsetIssues"])
    assert pairs and data["issueCount"] == shown - len(pairs)


def test_describe_json_keeps_toolset_findings_and_accepted_errors_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A toolset's own finding (too many tools for OpenAI) has no tool to sit on: it is in toolsetIssues,
    not lost. A baselined error leaves its tool ok, as `check` passes on it."""
    (tmp_path / ".git").mkdir()
    many = [{"type": "function", "function": {"name": f"t{i}", "description": f"Tool number {i} does a job.",
                                              "parameters": {"type": "object", "properties": {}}}}
            for i in range(130)]
    many[0]["function"]["name"] = "math.sum"  # an invalid name: an error on one tool
    (tmp_path / "tools.json").write_text(json.dumps(many), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    data = json.loads(run(capsys, "describe", "--format", "json", ".")[1])
    assert [i["code"] for i in data["toolsetIssues"]] == ["too-many-tools"]
    table = run(capsys, "describe", ".")[1]  # the table has no row for it: a line under the table says it
    [line] = [line for line in table.splitlines() if "too-many-tools" in line]
    assert line.startswith("tools.json:") and ": error too-many-tools " in line
    row = next(t for t in data["tools"] if t["name"] == "math.sum")
    assert row["ok"] is False and {i["status"] for i in row["issues"]} == {"new"}
    assert run(capsys, "baseline")[0] == 0
    data = json.loads(run(capsys, "describe", "--format", "json", ".")[1])
    row = next(t for t in data["tools"] if t["name"] == "math.sum")
    assert row["ok"] is True and {i["status"] for i in row["issues"]} == {"baselined"}


def test_describe_of_a_path_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "describe", "tools.json", "nothere.json")
    assert code == 2 and "nothere.json: no such file or folder" in err
    assert "search_docs" in out  # the files that are there are still described
    assert run(capsys, "describe", "tools.json")[0] == 0


def test_a_file_that_cannot_be_read_is_a_parse_error_and_the_rest_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO (opening it would wait for a writer) and a file without read permission: each a finding, as
    the README says of a file that cannot be read, never a silent skip, a hang or a traceback."""
    (tmp_path / "good.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "locked.json").write_bytes(EXAMPLE.read_bytes())
    os.mkfifo(tmp_path / "pipe.json")
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "locked.json":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "--format", "json")
    doc = json.loads(out)
    errors = {f["file"]: f["message"] for f in doc["findings"] if f["code"] == "parse-error"}
    assert errors == {"locked.json": "cannot be read: Permission denied",
                      "pipe.json": "cannot be read: not a regular file"}
    assert {t["file"] for t in doc["tools"]} == {"good.json"}
    assert code == 1
    code, _, err = run(capsys, "diff", "pipe.json", "good.json")
    assert code == 2 and "not a regular file" in err


def test_a_named_folder_without_tools_says_nothing_in_it_was_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text("# notes\n", encoding="utf-8")
    (tmp_path / "docs" / "data.json").write_text('{"a": 1}\n', encoding="utf-8")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "agent.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "docs", "tools")
    assert code == 0
    assert "docs holds no tool definitions" in out and "tools holds" not in out
