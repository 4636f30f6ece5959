"""Where file bytes come from: the work tree, or a git ref (see `gitread.GitSource`).

Discovery and parsing read through this protocol only, so a ref is analysed from git objects
without a checkout, exactly as a work tree is.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

NONE_UNREADABLE: Mapping[str, str] = MappingProxyType({})  # a source whose files are always readable
NOT_REGULAR = "not a regular file"  # why a FIFO or a device is not read


class PathsError(ValueError):
    """A path on the command line that cannot be used as asked (`diff` of a missing path, an `--output`
    that cannot be written): a usage error, exit 2."""


class FileSource(Protocol):
    """A tree of files addressed by repository-relative POSIX paths."""

    label: str  # "worktree", a ref name or a commit sha, for messages
    @property
    def folder_links(self) -> frozenset[str]:
        """Symlinks to folders among what `list_files` listed: listed like file links, never walked."""
        ...

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        """Every regular file and symlink, relative POSIX paths, sorted. A source that leaves out vendored
        and generated folders (`SKIP_DIRS`) still lists what is under the paths in `also`: paths named on
        the command line or by the config."""
        ...

    def read_many(self, paths: Iterable[str]) -> Mapping[str, bytes]:
        """The bytes of each path. A path that cannot be read is absent from the result (and, where it is
        there but unreadable, in `unreadable`)."""
        ...

    @property
    def unreadable(self) -> Mapping[str, str]:
        """Paths that `read_many` found but could not read, with why (a file's permissions, a FIFO)."""
        ...

    def symlink_target(self, path: str) -> str | None:
        """The link text when `path` is a symlink, else None. Symlinks are never followed."""
        ...

    def size(self, path: str) -> int:
        """Size in bytes, without reading the file."""
        ...

    def link_leaves(self, path: str, target: str) -> bool:
        """Whether the symlink at `path`, whose text is `target`, leads out of the tree."""
        ...


def first_missing(paths: Sequence[str], rel: Sequence[str], listed: Iterable[str]) -> str | None:
    """The first of `paths` (as written; `rel`, each as a path in the listing) that names no file or folder
    of `listed`: a typo that would otherwise check nothing and pass."""
    files = set(listed)
    for shown, path in zip(paths, rel, strict=True):
        if path in (".", "") or path in files or any(f.startswith(path + "/") for f in files):
            continue
        return shown
    return None


def outside(rel: str) -> bool:
    """Whether a normalised relative path (`posixpath.normpath`) leaves the folder it is relative to."""
    return rel == ".." or rel.startswith("../") or posixpath.isabs(rel)


def link_text_leaves(path: str, target: str) -> bool:
    """`link_leaves` judged on the link text alone, for a tree that is not on disk (a commit)."""
    if target.startswith("/") or re.match(r"^[A-Za-z]:", target):  # a drive, rooted (C:\x) or not (C:x)
        return True
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    return joined == ".." or joined.startswith("../")


SKIP_DIRS = frozenset(
    {".git", "node_modules", ".venv", "venv", "vendor", "dist", "build", "site-packages", "__pycache__",
     ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache", "third_party", ".next", "target"}
)


def _leads_to(folder: str, named: Iterable[str]) -> bool:
    """A named path is below `folder`."""
    return any(p.startswith(folder + "/") for p in named)


class WorktreeSource:
    """Files on disk under `root`."""

    def __init__(self, root: Path | str, label: str = "worktree") -> None:
        self.root = Path(root).resolve()
        self.label = label
        self._base = str(self.root) + os.sep  # string paths: discovery asks two questions of every file
        self.folder_links: frozenset[str] = frozenset()  # symlinks to folders seen by `list_files`
        self.unreadable: dict[str, str] = {}

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        # Skipped folders are not walked (node_modules can hold 100k files), except on the way to a path in
        # `also`, and there only that way; below a named folder, the usual folders are skipped again.
        named = {p.strip("/") for p in also} - {"", "."}
        narrow: set[str] = set()  # folders walked only on the way to a named path
        out: list[str] = []
        links: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            rel = Path(dirpath).relative_to(self.root)
            prefix = rel.as_posix() + "/" if rel.parts else ""
            keep = []
            for d in sorted(dirnames):
                folder = prefix + d
                if os.path.islink(os.path.join(dirpath, d)):  # listed like a file link, never walked
                    links.append(folder)
                elif folder in named or (d not in SKIP_DIRS and prefix[:-1] not in narrow):
                    keep.append(d)
                elif _leads_to(folder, named):
                    keep.append(d)
                    narrow.add(folder)
            dirnames[:] = keep
            out.extend(prefix + name for name in filenames)
        self.folder_links = frozenset(links)
        return sorted(out + links)

    def link_leaves(self, path: str, target: str) -> bool:
        """On disk, where the link really leads: through `..`, absolute paths and other links."""
        real = os.path.realpath(self._base + path)
        return not (real + os.sep).startswith(self._base)

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for p in paths:
            full = self.root / p
            try:
                # Never follow a link, nor a path (a config's `baseline: /etc/passwd`) that leaves the tree.
                if full.is_symlink() or not full.resolve().is_relative_to(self.root):
                    continue
                mode = full.stat().st_mode
                if stat.S_ISDIR(mode):  # no file of that name (a config named as its folder says so itself)
                    continue
                if not stat.S_ISREG(mode):  # opening a FIFO would wait for a writer
                    self.unreadable[p] = NOT_REGULAR
                    continue
                out[p] = full.read_bytes()
            except FileNotFoundError:  # a config name that is not there
                continue
            except OSError as exc:
                self.unreadable[p] = exc.strerror or type(exc).__name__
            except ValueError:  # a NUL byte in a path from the config
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


class OneFile:
    """A FileSource holding one file, under its own name: a file compared or checked apart from the
    files beside it (`diff A B` of two files, the Action's tool dump)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.label = str(path)

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        return [self.path.name]

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        if self.path.name not in set(paths):
            return {}
        try:
            if not stat.S_ISREG(self.path.stat().st_mode):  # a FIFO would wait for a writer
                raise PathsError(f"{self.path}: cannot be read: {NOT_REGULAR}")
            return {self.path.name: self.path.read_bytes()}
        except OSError as exc:  # named outright (`diff A B`, a dump): a usage error, not a finding
            raise PathsError(f"{self.path}: cannot be read: {exc.strerror or type(exc).__name__}") from exc

    unreadable: Mapping[str, str] = NONE_UNREADABLE

    def symlink_target(self, path: str) -> str | None:
        return None

    def size(self, path: str) -> int:
        return self.path.stat().st_size if path == self.path.name else 0

    folder_links: frozenset[str] = frozenset()

    def link_leaves(self, path: str, target: str) -> bool:
        return True  # never asked: this source lists no link
