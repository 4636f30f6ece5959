"""Code-defined tools: a config `sources: [{command, toolset}]` entry names a command that prints tool
definitions as JSON. It runs (opt-in) in a temporary `git worktree` of each ref, never through a shell.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tooldiff.gitread import GitRepo
from tooldiff.model import ParseError, Toolset, code_label
from tooldiff.parsers import DEFAULT_MAX_BYTES

_STDERR_KEEP = 4096  # the tail of stderr a failure quotes; the rest is dropped as it is read


@dataclass(slots=True)
class CommandTools:
    toolsets: list[Toolset] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    errors: list[ParseError] = field(default_factory=list)  # in output that gave tools
    failed: list[ParseError] = field(default_factory=list)  # one per command that gave no tools: why
    ran: list[str] = field(default_factory=list)


_FIX = "Make the command in `sources` run in a fresh checkout and print the tool definitions as JSON."
_FIX_SLOW = ("Make the command finish sooner, or give its `sources` entry a longer `timeout` (seconds, at "
             "most 3600).")
_FIX_OUTPUT = ("Make the command print the tool definitions as JSON on stdout (an MCP `tools/list` result, "
              "a list of function definitions), and its logs on stderr.")


def _says_no_tools(stdout: bytes) -> bool:
    """An explicitly empty list of tools (`[]`, `{"tools": []}`): a toolset that has none, not a mistake."""
    try:
        doc = json.loads(stdout)
    except ValueError:
        return False
    return doc == [] or (isinstance(doc, dict) and bool(doc) and all(v == [] for v in doc.values()))


@dataclass(slots=True)
class _Outcome:
    returncode: int
    stdout: bytes
    stderr: bytes  # its last `_STDERR_KEEP` bytes
    stopped: str | None  # why tooldiff stopped the command, if it did
    fix: str = _FIX  # what to do about it: a command that ran too long may be given longer


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill the command and every process of its session."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):  # already gone, or no process groups (Windows)
        proc.kill()


def _execute(argv: list[str], cwd: Path, max_bytes: int, timeout: int) -> _Outcome:
    """Run `argv`, keeping at most `max_bytes` of stdout: output is read as it comes and the command is
    stopped past the limit or the timeout, so one that prints without end cannot fill the memory."""
    # A session of its own: stopping the command stops the processes it started too (a server, a helper),
    # which would otherwise outlive tooldiff in a worktree that is about to be removed.
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    out, err = bytearray(), bytearray()
    over = threading.Event()

    def read_out() -> None:
        assert proc.stdout is not None
        while chunk := os.read(proc.stdout.fileno(), 1 << 16):
            out.extend(chunk)
            if len(out) > max_bytes:
                over.set()
                _stop(proc)
                return

    def read_err() -> None:
        assert proc.stderr is not None
        while chunk := os.read(proc.stderr.fileno(), 1 << 16):
            err.extend(chunk)
            del err[:-_STDERR_KEEP]

    readers = [threading.Thread(target=f, daemon=True) for f in (read_out, read_err)]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    late = f"timed out after {timeout} second{'s' * (timeout != 1)}"
    stopped: str | None = None
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        stopped = late
    for reader in readers:  # a child process may still hold the output open
        reader.join(max(0.0, deadline - time.monotonic()))
    if stopped is None and any(r.is_alive() for r in readers):
        stopped = late
    if stopped:
        _stop(proc)
        proc.wait()
        for reader in readers:
            reader.join(5)
    if not any(r.is_alive() for r in readers):  # else a reader still reads it: left to the collector
        for stream in (proc.stdout, proc.stderr):
            assert stream is not None
            stream.close()
    fix = _FIX_SLOW if stopped else _FIX
    if over.is_set():
        stopped, fix = f"printed more than {max_bytes:,} bytes on stdout (`max_file_bytes`)", _FIX
    return _Outcome(proc.returncode, bytes(out), bytes(err), stopped, fix)


def run_commands(sources: Sequence[Any], cwd: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> CommandTools:
    """Run each `CommandSource(command, toolset)` in `cwd` and parse what it prints (at most `max_bytes`)."""
    from tooldiff.parsers import parse_bytes

    out = CommandTools()
    for src in sources:
        name = code_label(src.command)
        out.ran.append(src.command)
        try:
            argv = shlex.split(src.command)
        except ValueError as exc:  # an unclosed quote: a config typo, not a crash with a traceback
            argv, unsplit = [], f": {exc}"
        else:
            unsplit = ": it is empty"
        if not argv:
            out.failed.append(ParseError(file=name, line=0, message=f"command cannot be run{unsplit}",
                                         fix="Write the command as it would be typed in a shell."))
            continue
        try:
            proc = _execute(argv, cwd, max_bytes, src.timeout)
        except OSError as exc:
            message = f"command failed to run: {exc}"
            out.failed.append(ParseError(file=name, line=0, message=message, fix=_FIX))
            continue
        if proc.stopped:
            out.failed.append(ParseError(file=name, line=0, message=f"command {proc.stopped}; it was stopped",
                                         fix=proc.fix))
            continue
        if proc.returncode != 0:
            tail = proc.stderr.decode("utf-8", "replace").strip()[-300:]
            out.failed.append(ParseError(file=name, line=0,
                                         message=f"command exited with {proc.returncode}: {tail}", fix=_FIX))
            continue
        parsed = parse_bytes(name, proc.stdout, max_bytes=max_bytes)
        if not parsed.tools and not parsed.errors and not _says_no_tools(proc.stdout):
            # Else an empty toolset: every tool shown as removed, its findings as resolved, and a pass.
            what = "nothing" if not proc.stdout.strip() else f"{len(proc.stdout):,} bytes"
            out.failed.append(ParseError(file=name, line=0, message=f"command printed no tool definitions "
                                         f"tooldiff can read (stdout: {what})", fix=_FIX_OUTPUT))
            continue
        out.files[name] = proc.stdout
        # The parser's fix speaks of a file; this output is the command's, so say what to change there.
        errors = [e if e.fix else replace(e, fix=_FIX_OUTPUT) for e in parsed.errors]
        (out.errors if parsed.tools else out.failed).extend(errors)
        tools = tuple(replace(t, toolset=src.toolset) for t in parsed.tools)
        out.toolsets.append(Toolset(id=src.toolset, files=(name,), tools=tools))
    return out


def merged(toolsets: Sequence[Toolset]) -> list[Toolset]:
    """One toolset per id: commands that name one `toolset` (an agent's tools from two modules, or beside a
    config toolset of that name) add to it. Two toolsets of one id were diffed as one replacing the other."""
    by_id: dict[str, Toolset] = {}
    for ts in toolsets:
        seen = by_id.get(ts.id)
        by_id[ts.id] = ts if seen is None else Toolset(id=ts.id, files=seen.files + ts.files,
                                                        tools=seen.tools + ts.tools)
    return list(by_id.values())


@contextmanager
def worktree(repo: GitRepo, commit: str) -> Iterator[Path]:
    """A throwaway detached work tree of `commit`, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="tooldiff-wt-") as tmp:
        dest = Path(tmp) / "wt"
        repo.add_worktree(commit, dest)
        try:
            yield dest
        finally:
            repo.remove_worktree(dest)
