"""`--select` and `--ignore`: the rules of one run, on top of the config, as ruff's flags work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitbuild import commit, git, init
from tooldiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "helpdesk" / "head" / "tools.json"


def codes(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, set[str]]:
    code = main(["check", str(EXAMPLE), "--format", "json", *argv])
    doc = json.loads(capsys.readouterr().out)
    return code, {f["code"] for f in doc["findings"]}


def test_select_runs_only_those_rules(capsys: pytest.CaptureFixture[str]) -> None:
    _, every = codes(capsys)
    assert {"intent-overlap", "missing-description"} <= every
    assert codes(capsys, "--select", "intent-overlap")[1] == {"intent-overlap"}
    # Comma-separated or repeated, in any case and with underscores, as `explain` takes a code.
    assert codes(capsys, "--select", "INTENT_OVERLAP,missing-description")[1] == {
        "intent-overlap", "missing-description"}
    assert codes(capsys, "--select", "intent-overlap", "--select", "missing-description")[1] == {
        "intent-overlap", "missing-description"}


def test_ignore_turns_rules_off_and_wins_over_select(capsys: pytest.CaptureFixture[str]) -> None:
    _, every = codes(capsys)
    assert codes(capsys, "--ignore", "missing-description")[1] == every - {"missing-description"}
    assert codes(capsys, "--select", "intent-overlap,missing-description",
                 "--ignore", "missing-description")[1] == {"intent-overlap"}


def test_select_keeps_parse_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that does not parse must not pass silently because a run looks at one rule."""
    (tmp_path / "broken.json").write_text('{"tools": [', encoding="utf-8")
    main(["check", str(tmp_path / "broken.json"), "--format", "json", "--select", "intent-overlap"])
    assert {f["code"] for f in json.loads(capsys.readouterr().out)["findings"]} == {"parse-error"}


def test_select_runs_a_rule_the_config_turns_off_and_ignore_drops_parse_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the README says: `--select` names the rules of the run, whatever the config turns off, and only
    `--ignore parse-error` (not `--select`) drops a parse error."""
    init(tmp_path)
    (tmp_path / "tools.json").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"tools": [{"input_schema": ', encoding="utf-8")
    (tmp_path / ".tooldiff.yml").write_text("rules:\n  intent-overlap: false\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def run(*argv: str) -> set[str]:
        main(["check", ".", "--format", "json", *argv])
        return {f["code"] for f in json.loads(capsys.readouterr().out)["findings"]}

    assert "intent-overlap" not in run()
    assert run("--select", "intent-overlap") == {"intent-overlap", "parse-error"}
    assert run("--select", "intent-overlap", "--ignore", "parse-error") == {"intent-overlap"}


def test_unknown_code_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLE), "--select", "intent-overlapp"]) == 2
    err = capsys.readouterr().err
    assert "--select" in err and "did you mean 'intent-overlap'" in err
    assert main(["check", str(EXAMPLE), "--ignore", "nope"]) == 2


def test_select_reaches_describe_and_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main(["describe", str(EXAMPLE), "--select", "intent-overlap"])
    out = capsys.readouterr().out
    assert "intent-overlap" in out and "missing-description" not in out
    base = json.loads((ROOT / "examples" / "helpdesk" / "base" / "tools.json").read_text(encoding="utf-8"))
    head = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    init(tmp_path)
    commit(tmp_path, {"tools.json": base}, "base")
    git(tmp_path, "checkout", "-q", "-b", "pr")
    commit(tmp_path, {"tools.json": head}, "pr")
    monkeypatch.chdir(tmp_path)
    main(["diff", "--base", "main", "--format", "json", "--select", "intent-overlap"])
    assert {f["code"] for f in json.loads(capsys.readouterr().out)["findings"]} == {"intent-overlap"}
    main(["diff", "--base", "main", "--format", "json"])
    assert "missing-description" in {f["code"] for f in json.loads(capsys.readouterr().out)["findings"]}


def test_an_unknown_code_is_named_before_any_path_or_ref_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nowhere")
    assert main(["diff", missing, missing + "2", "--select", "nope"]) == 2
    assert "--select: unknown rule 'nope'" in capsys.readouterr().err


def test_targets_lint_for_the_providers_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--targets`, as the config's `targets` and the Action's input: an Anthropic tool linted for OpenAI
    strict mode too gets its errors; an unknown target is a usage error that names it."""
    loose = tmp_path / "tools.json"
    loose.write_text(json.dumps({"tools": [{"name": "get_page", "description": "Get one page by its id.",
                                            "input_schema": {"type": "object", "properties": {
                                                "id": {"type": "string", "description": "The page id."}}}}]}))

    def run(*argv: str) -> tuple[int, dict[str, set[tuple[str, ...]]]]:
        code = main(["check", str(loose), "--format", "json", *argv])
        doc = json.loads(capsys.readouterr().out)
        found: dict[str, set[tuple[str, ...]]] = {}
        for f in doc["findings"]:
            found.setdefault(f["code"], set()).add(tuple(f["targets"]))
        return code, found

    assert run() == (0, {})  # Anthropic alone: nothing to say
    code, found = run("--targets", "anthropic,openai-strict")
    assert code == 1 and found == {"missing-additional-properties-false": {("openai-strict",)},
                                   "optional-not-required": {("openai-strict",)}}
    assert run("--targets", "OPENAI_STRICT", "--targets", "google")[1].keys() == found.keys()
    assert main(["check", str(loose), "--targets", "openai-strct"]) == 2
    assert "openai-strict" in capsys.readouterr().err  # did you mean


def test_warn_above_sets_heavy_definitions_budget_for_one_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seed 002's `--warn-above 300`: the token budget of one tool (heavy-definition) for this run, over the
    config's `budgets.tool_tokens` and the rule's own `budget` option, in check, diff and describe."""
    (tmp_path / ".tooldiff.yml").write_text("rules:\n  heavy-definition: {options: {budget: 2000}}\n")
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.chdir(tmp_path)
    tools, config = "tools.json", ".tooldiff.yml"

    def heavy(*argv: str) -> list[str]:
        main(["check", tools, "--config", config, "--format", "json", "--fail-on", "never", *argv])
        doc = json.loads(capsys.readouterr().out)
        return sorted(f["tools"][0] for f in doc["findings"] if f["code"] == "heavy-definition")

    assert heavy() == []
    assert heavy("--warn-above", "50") == ["create_ticket", "escalate_ticket", "find_document",
                                           "list_tickets", "search_docs"]
    main(["describe", tools, "--config", config, "--warn-above", "50"])
    assert "warning heavy-definition" in capsys.readouterr().out
    main(["diff", tools, tools, "--config", config, "--warn-above", "50", "--format", "json"])
    assert capsys.readouterr().out  # a diff of a file with itself: nothing new, but the flag is taken
    for bad in ("0", "-3", "many"):
        with pytest.raises(SystemExit) as stopped:  # argparse's usage error
            main(["check", tools, "--warn-above", bad])
        assert stopped.value.code == 2 and "--warn-above" in capsys.readouterr().err
