"""`fail_on` in `.tooldiff.yml` applies when `--fail-on` is not given; the command line wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitbuild import commit, init
from tooldiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "examples" / "helpdesk" / "base" / "tools.json"
HEAD = ROOT / "examples" / "helpdesk" / "head" / "tools.json"  # new warnings and infos, no error


def test_check_reads_fail_on_from_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tools.json").write_bytes(HEAD.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 0
    (tmp_path / ".tooldiff.yml").write_text("fail_on: warning\n", encoding="utf-8")
    assert main(["check"]) == 1
    assert main(["check", "--fail-on", "error"]) == 0
    (tmp_path / "strict.yml").write_text("fail-on: info\n", encoding="utf-8")
    assert main(["check", "--config", "strict.yml", "--fail-on", "never"]) == 0
    assert main(["check", "--config", "strict.yml"]) == 1


def test_diff_reads_fail_on_from_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = init(tmp_path / "repo")
    commit(root, {"tools.json": BASE.read_bytes()})
    commit(root, {"tools.json": HEAD.read_bytes(), ".tooldiff.yml": "fail_on: warning\n"})
    monkeypatch.chdir(root)
    assert main(["diff", "--base", "HEAD~1"]) == 1
    assert main(["diff", "--base", "HEAD~1", "--fail-on", "error"]) == 0
    (tmp_path / "head").mkdir()
    (tmp_path / "head" / "tools.json").write_bytes(HEAD.read_bytes())
    (tmp_path / "head" / ".tooldiff.yml").write_text("fail_on: warning\n", encoding="utf-8")
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "tools.json").write_bytes(BASE.read_bytes())
    assert main(["diff", str(tmp_path / "base"), str(tmp_path / "head")]) == 1
    assert main(["diff", str(tmp_path / "base"), str(tmp_path / "head"), "--fail-on", "never"]) == 0
