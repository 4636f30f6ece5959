"""The Action's `config` and `targets` inputs reach a diff, not just an audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitbuild import commit, git, init, tool
from tooldiff.config import ConfigError
from tooldiff.diffrun import run_diff

# A property outside `required`: only openai-strict calls that an error.
LOOSE = tool("get_weather", "Get the current weather for a city.", {"city": {"type": "string",
                                                                           "description": "City name"}})


def pr(tmp_path: Path, config: dict[str, str]) -> Path:
    repo = init(tmp_path / "repo")
    commit(repo, {"README.md": "x\n", **config}, "base")
    git(repo, "checkout", "-q", "-b", "pr")
    commit(repo, {"tools.json": [LOOSE]}, "add a tool")
    return repo


def codes(repo: Path, **kwargs: object) -> set[str]:
    report = run_diff(repo, "main", "pr", token_methods=("estimate",), **kwargs)  # type: ignore[arg-type]
    return {f.code for f in report.findings if f.status == "new"}


def test_targets_input_overrides_the_default_targets(tmp_path: Path) -> None:
    repo = pr(tmp_path, {})
    assert "optional-not-required" not in codes(repo)
    assert "optional-not-required" in codes(repo, targets=("openai-strict",))


def test_config_input_names_another_file(tmp_path: Path) -> None:
    repo = pr(tmp_path, {"ci/tooldiff.yml": "targets: [openai-strict]\n"})
    assert "optional-not-required" in codes(repo, config_path="ci/tooldiff.yml")
    with pytest.raises(ConfigError):
        codes(repo, config_path="ci/missing.yml")


def test_a_change_to_the_named_config_file_is_listed(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"README.md": "x\n", "ci/tooldiff.yml": "targets: [anthropic]\n", "tools.json": [LOOSE]},
           "base")
    git(repo, "checkout", "-q", "-b", "pr")
    commit(repo, {"ci/tooldiff.yml": "targets: [openai-strict]\n"}, "tighten the targets")
    report = run_diff(repo, "main", "pr", token_methods=("estimate",), config_path="ci/tooldiff.yml")
    assert any("config was changed" in line for line in report.config_changes), report.config_changes
    plain = run_diff(repo, "main", "pr", token_methods=("estimate",))
    assert not any("config was changed" in line for line in plain.config_changes)  # no .tooldiff.yml
