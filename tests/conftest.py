"""Shared test fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    """`../shared` beside the repository; tests that need it skip with a clear reason when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"needs {SHARED} (the shared corpora and GitHub examples) beside the repository")
    return SHARED
