"""Shared test fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from paths import SHARED

if TYPE_CHECKING:
    from fakegithub import FakeGitHub


def pytest_configure(config: pytest.Config) -> None:
    """A module compiled by mypyc (`make compile`) runs instead of its .py: an edit made since would go
    untested, so the run stops and says so."""
    package = Path(__file__).resolve().parents[1] / "src" / "tooldiff"
    stale = [so.name for so in package.rglob("*.so")
             if (py := so.with_name(f"{so.name.split('.')[0]}.py")).exists()
             and py.stat().st_mtime > so.stat().st_mtime]
    if stale:
        pytest.exit(f"compiled modules older than their source: {', '.join(sorted(stale))}; run "
                    "`make compile` (or `make pure` to test the plain Python)", returncode=4)


@pytest.fixture
def shared_dir() -> Path:
    """`../shared` beside the repository; tests that need it skip with a clear reason when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"needs {SHARED} (the shared corpora and GitHub examples) beside the repository")
    return SHARED


@pytest.fixture
def fake(shared_dir: Path) -> Iterator[FakeGitHub]:
    """The fake GitHub API served on 127.0.0.1, with no PR yet; it must record no spec error.

    Modules that need a PR registered up front, or `responses` instead of a socket, define their own.
    """
    from fakegithub import FakeGitHub
    from prscenario import TOKEN

    gh = FakeGitHub(repository="Codertocat/Hello-World")
    gh.token = TOKEN
    gh.start()
    yield gh
    gh.stop()
    assert gh.errors == []


@pytest.fixture(autouse=True)
def _outside_a_workflow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI trusts a PR's config and commands by the GitHub event it runs under: the suite must not
    depend on whether CI itself runs in a GitHub workflow. Tests that need an event set one."""
    monkeypatch.delenv("GITHUB_EVENT_NAME", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
