"""Where file bytes come from: the work tree, or a git ref (see `gitread.GitSource`).

Discovery and parsing read through this protocol only, so a ref is analysed from git objects
without a checkout, exactly as a work tree is.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Protocol


class FileSource(Protocol):
    """A tree of files addressed by repository-relative POSIX paths."""

    label: str  # "worktree", a ref name or a commit sha, for messages

    def list_files(self) -> list[str]:
        """Every regular file and symlink, relative POSIX paths, sorted."""
        ...

    def read_many(self, paths: Iterable[str]) -> Mapping[str, bytes]:
        """The bytes of each path. A path that cannot be read is absent from the result."""
        ...

    def symlink_target(self, path: str) -> str | None:
        """The link text when `path` is a symlink, else None. Symlinks are never followed."""
        ...

    def size(self, path: str) -> int:
        """Size in bytes, without reading the file."""
        ...


SKIP_DIRS = frozenset(
    {".git", "node_modules", ".venv", "venv", "vendor", "dist", "build", "site-packages", "__pycache__",
     ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache", "third_party", ".next", "target"}
)


class WorktreeSource:
    """Files on disk under `root`."""

    def __init__(self, root: Path | str, label: str = "worktree") -> None:
        self.root = Path(root).resolve()
        self.label = label
        self._base = str(self.root) + os.sep  # string paths: discovery asks two questions of every file

    def list_files(self) -> list[str]:
        out: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            rel = Path(dirpath).relative_to(self.root)
            for name in filenames:
                out.append((rel / name).as_posix() if rel.parts else name)
        return sorted(out)

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for p in paths:
            full = self.root / p
            try:
                # Never follow a link, nor a path (a config's `baseline: /etc/passwd`) that leaves the tree.
                if full.is_symlink() or not full.resolve().is_relative_to(self.root):
                    continue
                out[p] = full.read_bytes()
            except (OSError, ValueError):  # ValueError: a NUL byte in a path from the config
                continue
        return out

    def _lstat(self, path: str) -> os.stat_result | None:
        try:
            return os.lstat(self._base + path)
        except (OSError, ValueError):
            return None

    def symlink_target(self, path: str) -> str | None:
        st = self._lstat(path)
        return os.readlink(self._base + path) if st is not None and stat.S_ISLNK(st.st_mode) else None

    def size(self, path: str) -> int:
        st = self._lstat(path)
        return 0 if st is None else st.st_size
