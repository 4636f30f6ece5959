"""Running the Action's image as the Actions runner does; shared by tests/e2e and bench/action_bench.py."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from paths import SHARED


def find_engine() -> tuple[str | None, str]:
    """The engine `../shared/tools/container-engine` names, or None and why it cannot be used."""
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


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str
    seconds: float
    outputs: str
    summary: str
    rooted: list[str]  # workspace paths the container left owned by root (the runner's user owns the rest)


def _chown(path: Path, uid: int) -> None:
    subprocess.run(["chown", "-R", f"{uid}:{uid}", str(path)], check=False, capture_output=True)


def run_image(engine: str, image: str, workspace: Path, event_dir: Path, files: Path,
              env: Mapping[str, str]) -> Ran:
    """Workspace, event and file-command folders mounted where the runner mounts them, `env` set."""
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
    rooted: list[str] = []
    try:
        proc = subprocess.run([*args, image], capture_output=True, text=True, timeout=300, check=False)
        seconds = time.monotonic() - start
        rooted = _owned_by_root(workspace)
    finally:
        seconds = time.monotonic() - start
        _chown(workspace, 0)
    return Ran(proc.returncode, proc.stdout, proc.stderr, seconds, (files / "output").read_text(),
               (files / "summary.md").read_text(), rooted)


def _owned_by_root(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.lstat().st_uid == 0)
