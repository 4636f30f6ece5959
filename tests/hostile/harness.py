"""How the hostile cases run: the real CLI in a child process held to 10 s and 512 MB, or in-process.

The child's limits are its own (RLIMIT_AS set in `preexec_fn`), so a bomb that expands cannot hide behind
the test runner's memory, and a hang is a `TimeoutExpired`, not a stuck suite.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SECONDS = 10
MEMORY = 512 * 2**20
GOOD_TOOLS = frozenset({"get_invoice", "list_customers"})
TIMINGS: dict[str, float] = {}  # case -> seconds of its slowest child run, for the report


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@dataclass(frozen=True, slots=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.stdout)
        return data


def cli(cwd: Path, *args: str, case: str = "", env: Mapping[str, str] | None = None,
        codes: tuple[int, ...] = (0, 1)) -> Run:
    """`python -m tooldiff ARGS` in `cwd`: must end within 10 s and 512 MB, exit 0 or 1, no traceback."""
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "tooldiff", *args], cwd=cwd, capture_output=True, timeout=SECONDS,
        preexec_fn=_limit_memory, env=dict(env) if env is not None else None, check=False,
    )
    seconds = time.monotonic() - start
    if case:
        TIMINGS[case] = max(TIMINGS.get(case, 0.0), seconds)
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr and "MemoryError" not in stderr, stderr[-3000:]
    assert proc.returncode in codes, (proc.returncode, stderr[-3000:])
    assert seconds < SECONDS
    return Run(proc.returncode, stdout, stderr, seconds)


def check_json(
    cwd: Path, *paths: str, case: str = "", env: Mapping[str, str] | None = None
) -> dict[str, Any]:
    return cli(cwd, "check", *paths, "--format", "json", "--tokens", "estimate", case=case, env=env).report


def workspace(root: Path, *committed: str, extra: Mapping[str, bytes] | None = None) -> Path:
    """A folder holding the good file, the named committed cases and `extra` generated ones."""
    ws = root / "ws"
    ws.mkdir(parents=True, exist_ok=True)
    for name in ("good.json", *committed):
        shutil.copyfile(HERE / name, ws / name)
    for name, data in (extra or {}).items():
        (ws / name).write_bytes(data)
    return ws


def assert_good_analysed(report: Mapping[str, Any]) -> None:
    """The good file's tools are in the report and it has no finding: one bad file spoils nothing else."""
    names = {t["name"] for t in report["tools"] if t["file"] == "good.json"}
    assert names == GOOD_TOOLS
    assert [f for f in report["findings"] if f["file"] == "good.json"] == []


def parse_errors(report: Mapping[str, Any], file: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["code"] == "parse-error" and f["file"] == file]


def one_parse_error(report: Mapping[str, Any], file: str, lines: int) -> dict[str, Any]:
    """Exactly one parse-error on `file`, at a line within it (1..lines)."""
    found = parse_errors(report, file)
    assert len(found) == 1, report["findings"]
    assert 1 <= found[0]["line"] <= lines, found[0]
    assert [t for t in report["tools"] if t["file"] == file] == []
    return found[0]


class MemorySource:
    """A `FileSource` over a dict, for fast in-process runs."""

    label = "memory"
    unreadable: Mapping[str, str] = {}

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self.files = dict(files)

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        return sorted(self.files)

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        return {p: self.files[p] for p in paths if p in self.files}

    def symlink_target(self, path: str) -> str | None:
        return None

    def size(self, path: str) -> int:
        return len(self.files.get(path, b""))

    folder_links: frozenset[str] = frozenset()

    def link_leaves(self, path: str, target: str) -> bool:
        return True  # it holds no links


# Loaded by the child through PYTHONPATH: every Python-level connection attempt is logged and refused.
NET_GUARD = '''
import os, socket

def _deny(*args, **kwargs):
    with open(os.environ["TOOLDIFF_NET_LOG"], "a") as log:
        log.write(repr(args[1:]) + "\\n")
    raise OSError("network access refused by the hostile-input test")

socket.socket.connect = _deny
socket.socket.connect_ex = _deny
socket.create_connection = _deny
socket.getaddrinfo = _deny
'''


@dataclass(frozen=True, slots=True)
class Trap:
    """A local listener no one should reach, and the environment that refuses and logs connections."""

    url: str
    env: dict[str, str]
    log: Path
    server: socket.socket

    def attempts(self) -> list[str]:
        """Connections the guard refused, and any that reached the listener (Rust or C code, proxies)."""
        logged = self.log.read_text().splitlines() if self.log.exists() else []
        self.server.setblocking(False)
        try:
            conn, addr = self.server.accept()
        except BlockingIOError:
            return logged
        conn.close()
        return [*logged, f"listener reached from {addr}"]


@contextmanager
def network_trap(tmp: Path) -> Iterator[Trap]:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]
    guard = tmp / "netguard"
    guard.mkdir(exist_ok=True)
    (guard / "sitecustomize.py").write_text(NET_GUARD)
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(guard), "TOOLDIFF_NET_LOG": str(tmp / "net.log"),
           "HTTP_PROXY": url, "HTTPS_PROXY": url, "ALL_PROXY": url,
           "http_proxy": url, "https_proxy": url, "all_proxy": url, "NO_PROXY": "", "no_proxy": ""}
    try:
        yield Trap(url, env, tmp / "net.log", server)
    finally:
        server.close()
