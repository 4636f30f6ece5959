"""Read only what a diff needs: the changed files and whatever decides their toolsets.

Parsing every tool file at both refs would cost a diff more than a `check`; a PR touches a few files.
A file's toolset depends on its siblings only through the folder rule (a folder whose files each hold one
tool is one toolset) and on the config's named toolsets, so those are all that is read besides.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence

from tooldiff.config import Config
from tooldiff.discover import glob_match
from tooldiff.parsers import parse_bytes
from tooldiff.sources import FileSource


class SubsetSource:
    """A FileSource that shows only `allowed` paths of another, so discovery keeps its own rules."""

    def __init__(self, inner: FileSource, allowed: Iterable[str]) -> None:
        self.inner = inner
        self.label = inner.label
        self.allowed = frozenset(allowed)

    def list_files(self) -> list[str]:
        return [p for p in self.inner.list_files() if p in self.allowed]

    def read_many(self, paths: Iterable[str]) -> Mapping[str, bytes]:
        return self.inner.read_many([p for p in paths if p in self.allowed])

    def symlink_target(self, path: str) -> str | None:
        return self.inner.symlink_target(path)

    def size(self, path: str) -> int:
        return self.inner.size(path)


def _tool_counts(source: FileSource, paths: Sequence[str], config: Config) -> dict[str, int]:
    data = source.read_many([p for p in paths if source.size(p) <= config.max_file_bytes])
    return {p: len(parse_bytes(p, raw, max_bytes=config.max_file_bytes).tools) for p, raw in data.items()}


def relevant_files(base: FileSource, head: FileSource, changed: Sequence[str], config: Config) -> set[str]:
    """The changed paths, plus the files of any named toolset they fall in, plus their folder's files
    when the folder rule could group them (a changed file that holds exactly one tool on either side,
    or appears or disappears while holding tools)."""
    every = set(base.list_files()) | set(head.list_files())
    out = set(changed)
    for spec in config.toolsets:
        if any(glob_match(p, g) for p in changed for g in spec.files):
            out.update(f for f in every if any(glob_match(f, g) for g in spec.files))
    counts_b = _tool_counts(base, changed, config)
    counts_h = _tool_counts(head, changed, config)
    folders = set()
    for p in changed:
        b, h = counts_b.get(p, 0), counts_h.get(p, 0)
        if (b == 1 or h == 1) or (min(b, h) == 0 and max(b, h) > 1):
            folders.add(posixpath.dirname(p))
    if folders:
        out.update(f for f in every if posixpath.dirname(f) in folders)
    return out
