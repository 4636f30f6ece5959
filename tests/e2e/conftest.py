"""The real action image, built once per session with the engine `../shared/tools/container-engine` names.

Without a working engine the e2e tests skip with the reason; a failing build is a failure.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
IMAGE = "localhost/tooldiff-action:e2e"


def _engine() -> tuple[str | None, str]:
    script = SHARED / "tools" / "container-engine"
    if not script.is_file():
        return None, f"no container engine script at {script}"
    try:
        proc = subprocess.run([str(script)], capture_output=True, text=True, timeout=1200, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{script} did not run: {exc}"
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return None, f"{script} failed: {proc.stderr.strip()[-300:]}"
    name = lines[-1].strip()
    if shutil.which(name) is None:
        return None, f"the engine {name!r} is not on PATH"
    probe = subprocess.run([name, "info"], capture_output=True, text=True, timeout=120, check=False)
    if probe.returncode != 0:
        return None, f"`{name} info` failed: {probe.stderr.strip()[-300:]}"
    return name, ""


@pytest.fixture(scope="session")
def engine() -> str:
    name, why = _engine()
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


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str
    seconds: float
    outputs: str
    summary: str


def _chown(path: Path, uid: int) -> None:
    subprocess.run(["chown", "-R", f"{uid}:{uid}", str(path)], check=False, capture_output=True)


@pytest.fixture
def run_action(engine: str, image: str, tmp_path: Path) -> Iterator[object]:
    """Run the image as the runner does: workspace, event and file-command folders mounted, env set."""

    def run(workspace: Path, event_dir: Path, env: Mapping[str, str]) -> Ran:
        files = tmp_path / "file_commands"
        files.mkdir(exist_ok=True)
        for name in ("output", "summary.md"):
            (files / name).write_text("")
        inside = {**env, "GITHUB_WORKSPACE": "/github/workspace",
                  "GITHUB_EVENT_PATH": "/github/workflow/event.json",
                  "GITHUB_OUTPUT": "/github/file_commands/output",
                  "GITHUB_STEP_SUMMARY": "/github/file_commands/summary.md"}
        args = [engine, "run", "--rm", "--network", "host", "--workdir", "/github/workspace",
                "-v", f"{workspace}:/github/workspace", "-v", f"{event_dir}:/github/workflow",
                "-v", f"{files}:/github/file_commands"]
        for key, value in inside.items():
            args += ["-e", f"{key}={value}"]
        # The runner's workspace belongs to another user than the container's root: safe.directory matters.
        _chown(workspace, 1001)
        start = time.monotonic()
        try:
            proc = subprocess.run([*args, image], capture_output=True, text=True, timeout=300, check=False)
        finally:
            seconds = time.monotonic() - start
            _chown(workspace, 0)
        print(f"[e2e] container ran {seconds:.2f}s, exit {proc.returncode}")
        return Ran(proc.returncode, proc.stdout, proc.stderr, seconds, (files / "output").read_text(),
                   (files / "summary.md").read_text())

    yield run
