"""Code-defined tools: a config `sources: [{command, toolset}]` entry names a command that prints tool
definitions as JSON. It runs (opt-in) in a temporary `git worktree` of each ref, never through a shell.
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tooldiff.gitread import GitRepo
from tooldiff.model import ParseError, Toolset

TIMEOUT_S = 300


@dataclass(slots=True)
class CommandTools:
    toolsets: list[Toolset] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    errors: list[ParseError] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)


_FIX = "Make the command in `sources` run in a fresh checkout and print the tool definitions as JSON."


def label(command: str) -> str:
    """The pseudo file name the command's output is filed under (findings point here)."""
    return f"$({command})"


def run_commands(sources: Sequence[Any], cwd: Path) -> CommandTools:
    """Run each `CommandSource(command, toolset)` in `cwd` and parse what it prints."""
    from tooldiff.parsers import parse_bytes

    out = CommandTools()
    for src in sources:
        name = label(src.command)
        out.ran.append(src.command)
        try:
            proc = subprocess.run(shlex.split(src.command), cwd=cwd, capture_output=True, timeout=TIMEOUT_S,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            message = f"command failed to run: {exc}"
            out.errors.append(ParseError(file=name, line=0, message=message, fix=_FIX))
            continue
        if proc.returncode != 0:
            tail = proc.stderr.decode("utf-8", "replace").strip()[-300:]
            out.errors.append(ParseError(file=name, line=0,
                                         message=f"command exited with {proc.returncode}: {tail}", fix=_FIX))
            continue
        parsed = parse_bytes(name, proc.stdout)
        out.files[name] = proc.stdout
        out.errors.extend(parsed.errors)
        tools = tuple(replace(t, toolset=src.toolset) for t in parsed.tools)
        out.toolsets.append(Toolset(id=src.toolset, files=(name,), tools=tools))
    return out


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
