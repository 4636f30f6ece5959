"""The real action image, built once per session with the engine `../shared/tools/container-engine` names.

Without a working engine the e2e tests skip with the reason; a failing build is a failure.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from container import Ran, find_engine, run_image
from paths import ROOT

IMAGE = "localhost/tooldiff-action:e2e"


@pytest.fixture(scope="session")
def engine() -> str:
    name, why = find_engine()
    if name is None:
        pytest.skip(f"no working container engine: {why}")
    return name


@pytest.fixture(scope="session")
def image(engine: str) -> str:
    """Built once per session; layer caching makes a rebuild with no source change take seconds."""
    start = time.monotonic()
    proc = subprocess.run([engine, "build", "-q", "-t", IMAGE, str(ROOT)], capture_output=True, text=True,
                          timeout=1800, check=False)
    if proc.returncode != 0:
        pytest.fail(f"image build failed:\n{proc.stderr[-3000:]}")
    print(f"\n[e2e] image built in {time.monotonic() - start:.1f}s")
    return IMAGE


@pytest.fixture
def run_action(engine: str, image: str, tmp_path: Path) -> Iterator[object]:
    """Run the image as the runner does: workspace, event and file-command folders mounted, env set."""

    def run(workspace: Path, event_dir: Path, env: Mapping[str, str]) -> Ran:
        ran = run_image(engine, image, workspace, event_dir, tmp_path / "file_commands", env)
        print(f"[e2e] container ran {ran.seconds:.2f}s, exit {ran.code}")
        return ran

    yield run
