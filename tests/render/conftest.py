"""Renderer test options: `pytest tests/render --update-golden` rewrites tests/golden/render/."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "render"


def pytest_addoption(parser: pytest.Parser) -> None:
    with contextlib.suppress(ValueError):  # another conftest may have added it already
        parser.addoption("--update-golden", action="store_true", help="rewrite golden files, do not compare")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    try:
        flag = bool(request.config.getoption("--update-golden"))
    except ValueError:
        flag = False
    return flag or os.environ.get("TOOLDIFF_UPDATE_GOLDEN") == "1"
