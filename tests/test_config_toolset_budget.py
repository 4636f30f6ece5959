"""A toolset's own `budget` in `toolsets:` is what `token-budget` checks, and it wins over the global one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitbuild import commit, init
from tooldiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "examples" / "helpdesk" / "base" / "tools.json"
HEAD = ROOT / "examples" / "helpdesk" / "head" / "tools.json"
TOOLSET = "toolsets:\n  - {name: helpdesk, files: [tools.json]%s}\n"


def budget_findings(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    main([*argv, "--format", "json", "--fail-on", "never"])
    report = json.loads(capsys.readouterr().out)
    return [f for f in report["findings"] if f["code"] == "token-budget"]


@pytest.mark.parametrize(("config", "budget"), [
    (TOOLSET % ", budget: 10", 10),
    # The toolset's own budget wins over the global one, both ways.
    (TOOLSET % ", budget: 10" + "budgets: {toolset_tokens: 100000}\n", 10),
    (TOOLSET % ", budget: 100000" + "budgets: {toolset_tokens: 10}\n", None),
    (TOOLSET % "" + "budgets: {toolset_tokens: 10}\n", 10),
], ids=["own", "own-wins-lower", "own-wins-higher", "global"])
def test_check_uses_the_toolsets_own_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], config: str,
                                            budget: int | None) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"tools.json": HEAD.read_bytes(), ".tooldiff.yml": config})
    monkeypatch.chdir(root)
    found = budget_findings(capsys, "check")
    assert [f["evidence"]["budget"] for f in found] == ([budget] if budget else [])  # type: ignore[index]


def test_diff_reports_a_new_overrun_of_the_toolsets_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    root = init(tmp_path / "repo")
    config = TOOLSET % ", budget: 300"  # the base is estimated at 276 tokens, the head at 328
    commit(root, {"tools.json": BASE.read_bytes(), ".tooldiff.yml": config})
    commit(root, {"tools.json": HEAD.read_bytes()})
    monkeypatch.chdir(root)
    [found] = budget_findings(capsys, "diff", "--base", "HEAD~1")
    assert found["status"] == "new" and found["toolset"] == "helpdesk"
    assert found["evidence"] == {"tokens": 328, "budget": 300, "tools": 6, "method": "estimate"}
