"""Build real git repositories in tmp dirs for the diff tests (no mocks: the code under test runs git)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull,
}


def git(cwd: Path, *args: str, stdin: bytes | None = None) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, env=ENV, input=stdin, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"git {args}: {proc.stderr.decode()}")
    return proc.stdout.decode("utf-8", "surrogateescape").strip()


def init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "uploadpack.allowAnySHA1InWant", "true")
    return path


def write(root: Path, files: dict[str, Any]) -> None:
    """Write files: bytes/str as is, anything else as pretty JSON. A value of None deletes the file."""
    for rel, value in files.items():
        p = root / rel
        if value is None:
            p.unlink()
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(value, bytes):
            p.write_bytes(value)
        elif isinstance(value, str):
            p.write_text(value, encoding="utf-8")
        else:
            p.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def commit(root: Path, files: dict[str, Any] | None = None, message: str = "c") -> str:
    if files:
        write(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD")


def tool(name: str, description: str, props: dict[str, Any] | None = None,
         required: list[str] | None = None) -> dict[str, Any]:
    """An Anthropic-shape tool."""
    schema: dict[str, Any] = {"type": "object", "properties": props or {}}
    if required:
        schema["required"] = required
    return {"name": name, "description": description, "input_schema": schema}


def fast_import(path: Path, versions: list[tuple[str, dict[str, bytes]]]) -> list[str]:
    """One commit per version (message, full tree as {path: bytes}) on `main`, via ONE `git fast-import`.
    Returns the commit shas, oldest first."""
    init(path)
    chunks: list[bytes] = []
    for i, (message, files) in enumerate(versions, start=1):
        msg = message.encode()
        chunks.append(b"commit refs/heads/main\nmark :%d\ncommitter t <t@example.com> %d +0000\n"
                      % (i, 1_700_000_000 + i * 60))
        chunks.append(b"data %d\n%s\n" % (len(msg), msg))
        if i > 1:
            chunks.append(b"from :%d\n" % (i - 1))
        chunks.append(b"deleteall\n")
        for rel, data in sorted(files.items()):
            chunks.append(b'M 100644 inline "%s"\ndata %d\n%s\n' % (
                rel.replace("\\", "\\\\").replace('"', '\\"').encode(), len(data), data))
    git(path, "fast-import", "--quiet", stdin=b"".join(chunks))
    git(path, "reset", "-q", "--hard", "main")
    return git(path, "rev-list", "--reverse", "main").split()
