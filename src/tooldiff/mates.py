"""Named paths in their toolsets: `check tools/a.json` analyses a.json where a run over the whole tree does.

A folder of one-tool files is one toolset only when all its files are read, and a config toolset only when
all of its files are. So the files that decide or complete a named file's toolset are read too, the named
files' tools meet those neighbours, and the report keeps what touches a named file. Toolset ids,
fingerprints (so the baseline) and pair findings then do not depend on which paths were named, as with
pre-commit, which names the files a commit changes.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass

from tooldiff.config import Config
from tooldiff.discover import Selection, read_parse, select, spec_of
from tooldiff.model import Finding, ParsedFile, Report, Toolset
from tooldiff.sources import FileSource


@dataclass(frozen=True, slots=True)
class Named:
    selection: Selection  # the named files and the files of their toolsets
    named: frozenset[str]  # the files named: what the report is about


def extend(source: FileSource, config: Config, chosen: Selection
           ) -> tuple[Named | None, Mapping[str, ParsedFile]]:
    """The selection with the files that decide or complete its files' toolsets (None when there are none),
    and the named files parsed on the way, for discovery to reuse."""
    named = frozenset(chosen.paths) | {e.file for e in chosen.errors}
    specs = {spec_of(p, config) for p in chosen.paths} - {None}
    loose = [p for p in chosen.paths if spec_of(p, config) is None]
    dirs = {posixpath.dirname(p) for p in loose}
    if not specs and not dirs:
        return None, {}
    # What a run over the whole tree reads around them (a config toolset's files may be anywhere).
    everything = bool(specs) or "" in dirs  # the root folder: the whole listing, as a full run makes it
    around = select(source, config, () if everything else sorted(dirs), named=False)
    # A folder whose files are all named (`check tools/`) groups as a full run does: nothing to add, and
    # nothing to parse twice. Elsewhere, only a named file of one tool can be grouped with its folder.
    unnamed = {posixpath.dirname(f) for f in around.paths if f not in named}
    partial = [p for p in loose if posixpath.dirname(p) in unnamed]
    _, parsed, _ = read_parse(source, config, partial, chosen.explicit)
    known = {pf.path: pf for pf in parsed}
    folders = {posixpath.dirname(pf.path) for pf in parsed if pf.one_tool}
    extra = {f for f in around.paths if f not in named and (
        spec in specs if (spec := spec_of(f, config)) is not None else posixpath.dirname(f) in folders)}
    if not extra:
        return None, known
    paths = chosen.paths + [f for f in around.paths if f in extra]
    sizes = {**chosen.sizes, **{f: around.sizes.get(f, 0) for f in extra}}
    return Named(dataclasses.replace(chosen, paths=paths, sizes=sizes), named), known


def holding(toolsets: list[Toolset], named: frozenset[str]) -> list[Toolset]:
    """The toolsets a named file is in: the others were read only to tell how files group."""
    return [ts for ts in toolsets if not named.isdisjoint(ts.files)]


def cut(report: Report, named: frozenset[str]) -> Report:
    """The report of the named files: their tools, their toolsets, the findings that touch them."""
    sets = {ts.id for ts in report.toolsets if not named.isdisjoint(ts.files)}
    files: dict[tuple[str, str], set[str]] = {}
    for t in report.tools:
        files.setdefault((t.toolset, t.name), set()).add(t.file)

    def touches(f: Finding) -> bool:
        if f.file in named:
            return True
        if not f.tools:  # a finding about the toolset as a whole
            return f.toolset in sets
        return any(not named.isdisjoint(files.get((f.toolset, name), ())) for name in f.tools)

    return dataclasses.replace(
        report,
        toolsets=tuple(ts for ts in report.toolsets if ts.id in sets),
        tools=tuple(t for t in report.tools if t.file in named),
        findings=tuple(f for f in report.findings if touches(f)),
        resolved=tuple(f for f in report.resolved if touches(f)),
    )
