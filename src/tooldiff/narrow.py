"""Read only what a diff needs: the changed files and whatever decides their toolsets.

Parsing every tool file at both refs would cost a diff more than a `check`; a PR touches a few files.
A file's toolset depends on its siblings only through the folder rule (a folder whose files each hold one
tool is one toolset) and on the config's named toolsets, so those are all that is read besides.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tooldiff.config import Config
from tooldiff.discover import glob_match
from tooldiff.model import ParsedFile
from tooldiff.parsers import parse_bytes
from tooldiff.sources import FileSource


class SubsetSource:
    """A FileSource that shows only `allowed` paths of another, so discovery keeps its own rules.

    Bytes already read while narrowing are served again without a second read from git.
    """

    def __init__(self, inner: FileSource, allowed: Iterable[str], read: Mapping[str, bytes] | None = None
                 ) -> None:
        self.inner = inner
        self.label = inner.label
        self.allowed = frozenset(allowed)
        self._read = dict(read or {})

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        return [p for p in self.inner.list_files(also) if p in self.allowed]

    def read_many(self, paths: Iterable[str]) -> Mapping[str, bytes]:
        wanted = [p for p in paths if p in self.allowed]
        missing = [p for p in wanted if p not in self._read]
        out = {p: self._read[p] for p in wanted if p in self._read}
        if missing:
            out.update(self.inner.read_many(missing))
        return out

    @property
    def unreadable(self) -> Mapping[str, str]:
        return self.inner.unreadable

    def symlink_target(self, path: str) -> str | None:
        return self.inner.symlink_target(path)

    def size(self, path: str) -> int:
        return self.inner.size(path)

    @property
    def folder_links(self) -> frozenset[str]:
        return self.inner.folder_links & self.allowed

    def link_leaves(self, path: str, target: str) -> bool:
        return self.inner.link_leaves(path, target)


@dataclass(slots=True)
class Side:
    """What narrowing read and parsed on one ref; discovery reuses both instead of doing them again."""

    data: dict[str, bytes]
    parsed: dict[str, ParsedFile]

    def tool_count(self, path: str) -> int:
        pf = self.parsed.get(path)
        return len(pf.tools) if pf is not None else 0

    def source(self, inner: FileSource, keep: Iterable[str]) -> SubsetSource:
        return SubsetSource(inner, keep, self.data)


def _read_and_parse(source: FileSource, paths: Sequence[str], config: Config) -> Side:
    data = dict(source.read_many([p for p in paths if source.size(p) <= config.max_file_bytes]))
    parsed = {p: parse_bytes(p, raw, max_bytes=config.max_file_bytes) for p, raw in data.items()}
    return Side(data, parsed)


def relevant_files(
    base: FileSource, head: FileSource, changed: Sequence[str], config: Config
) -> tuple[set[str], Side, Side]:
    """The changed paths, plus the files of any named toolset they fall in, plus their folder's files
    when the folder rule could group them (a changed file that holds exactly one tool on either side,
    or appears or disappears while holding tools). Also what was read and parsed on each side."""
    every = set(base.list_files()) | set(head.list_files())
    out = set(changed)
    for spec in config.toolsets:
        if any(glob_match(p, g) for p in changed for g in spec.files):
            out.update(f for f in every if any(glob_match(f, g) for g in spec.files))
    side_b = _read_and_parse(base, changed, config)
    side_h = _read_and_parse(head, changed, config)
    folders = set()
    for p in changed:
        b, h = side_b.tool_count(p), side_h.tool_count(p)
        if (b == 1 or h == 1) or (min(b, h) == 0 and max(b, h) > 1):
            folders.add(posixpath.dirname(p))
    if folders:
        out.update(f for f in every if posixpath.dirname(f) in folders)
    return out, side_b, side_h
