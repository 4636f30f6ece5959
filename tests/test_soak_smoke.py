"""A fast slice of `make soak`: the kubernetes history's first 6 versions as one PR with 5 pushes,
through the whole action (real git, event payloads, the fake GitHub API on 127.0.0.1)."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

SOAK = Path(__file__).resolve().parents[1] / "bench" / "soak.py"


def load_soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak", SOAK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_kubernetes_history_replays_as_one_comment_thread(shared_dir: Path, tmp_path: Path) -> None:
    if not (shared_dir / "corpora" / "histories" / "kubernetes-mcp-server").is_dir():
        pytest.skip("needs ../shared/corpora/histories/kubernetes-mcp-server")
    soak = load_soak()
    fake = soak.new_fake()
    start = time.monotonic()
    try:
        result = soak.replay("kubernetes-mcp-server", tmp_path, fake, limit=6)
    finally:
        fake.stop()
    assert time.monotonic() - start < 30
    assert len(result.runs) == 5
    assert [r.code for r in result.runs if r.code not in (0, 1)] == []
    assert fake.errors == [] and result.errors == []
    assert all(s < 400 for r in result.runs for s in r.statuses)
    # The first push creates the comment; every later one edits it within the request budget.
    assert result.runs[0].comment == "created"
    assert result.edit_runs == result.runs[1:]
    assert max(len(r.operations) for r in result.edit_runs) <= 5
    assert result.touched and result.comments == 1 and len(fake.bot_comments(soak.NUMBER)) == 1
    assert result.problems() == []
