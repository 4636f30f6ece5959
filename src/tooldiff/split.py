"""One check split across worker processes, each reading, parsing and analysing its own share of files.

Workers fork before anything is parsed, so they share almost no memory with the main process and copy
nothing on write; only their report parts travel back (see `workers`). A toolset never spans two pieces:
files are shared out by folder (and config toolsets stay whole). A folder too big for one piece is cut,
and then its one-tool files are left to the main process, because only all of the folder's files together
say whether it is one toolset (a folder of one-tool files) or a toolset per file.
"""

from __future__ import annotations

import pickle
import posixpath
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from tooldiff import rules, workers
from tooldiff.config import Config
from tooldiff.discover import Selection, group_toolsets, read_parse, spec_of
from tooldiff.engine import analyse, finding_order
from tooldiff.lexicon import lexicon
from tooldiff.model import Finding, ParsedFile, ParseError, ToolReport, ToolsetReport
from tooldiff.report import tool_reports, toolset_reports
from tooldiff.sources import FileSource

# Below this many bytes of tool files, forking costs more than a second core saves (20k tools: 23 MB).
PARALLEL_MIN_BYTES = 2_000_000


@dataclass(slots=True)
class Part:
    """What one worker found, ready to be merged."""

    toolsets: list[ToolsetReport] = field(default_factory=list)
    tools: list[ToolReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    deferred: list[str] = field(default_factory=list)  # one-tool files of split folders: the main process's
    not_one_tool: set[str] = field(default_factory=set)  # split folders where a file holds more than one tool


# The smallest piece, as a share of one worker's work: the last pieces are this small, so the workers end
# within about this much of each other (a timeline of the 20k corpus: 1/24 left one process idle ~55 ms at the
# end; 1/96 for ~5 ms, at the cost of 9 more pieces).
LAST_PIECE = 1 / 96


def plan(paths: Sequence[str], sizes: Mapping[str, int], config: Config, jobs: int) -> list[list[str]]:
    """The files in pieces for the workers to take in turn, largest first and shrinking (guided
    self-scheduling: each piece about a third of a worker's share of what is left), so the last pieces
    are small and the workers end together. Folders (and config toolsets) stay whole where they fit; a
    bigger folder is cut into runs of files. One piece: no workers."""
    total = sum(sizes.get(p, 0) for p in paths)
    if jobs < 2 or total < PARALLEL_MIN_BYTES:
        return [list(paths)]
    units: dict[str, list[str]] = defaultdict(list)
    for p in paths:
        spec = spec_of(p, config)
        units[f"toolset:{spec}" if spec is not None else f"folder:{posixpath.dirname(p)}"].append(p)
    smallest = total / jobs * LAST_PIECE
    items: list[tuple[int, list[str]]] = []  # (bytes, files): whole units, and runs of the big folders
    for key, files in units.items():
        size = sum(sizes.get(f, 0) for f in files)
        if key.startswith("toolset:") or size <= smallest:
            items.append((size, files))
            continue
        run: list[str] = []
        size = 0
        for f in files:
            run.append(f)
            size += sizes.get(f, 0)
            if size >= smallest:
                items.append((size, run))
                run, size = [], 0
        if run:
            items.append((size, run))
    items.sort(key=lambda item: -item[0])
    pieces: list[list[str]] = []
    left = total
    i = 0
    while i < len(items):
        target = max(left / jobs / 3, smallest)
        piece: list[str] = []
        size = 0
        while i < len(items) and (not piece or size + items[i][0] <= target):
            size += items[i][0]
            piece.extend(items[i][1])
            i += 1
        pieces.append(sorted(piece))
        left -= size
    return pieces


def split_folders(groups: Sequence[Sequence[str]], config: Config) -> frozenset[str]:
    """Folders whose files went to more than one piece (config toolsets never do)."""
    owner: dict[str, int] = {}
    split: set[str] = set()
    for k, group in enumerate(groups):
        for p in group:
            if spec_of(p, config) is not None:
                continue
            folder = posixpath.dirname(p)
            if owner.setdefault(folder, k) != k:
                split.add(folder)
    return frozenset(split)


def run_part(
    source: FileSource,
    config: Config,
    paths: Sequence[str],
    explicit: bool,
    split: frozenset[str],
    token_methods: Sequence[str] | None,
    per_file: frozenset[str] = frozenset(),
    known: Mapping[str, ParsedFile] | None = None,
) -> Part:
    """Read, parse and analyse `paths`; one-tool files of `split` folders are deferred, not analysed.
    `known`: files parsed already (named files `mates` read), not parsed again."""
    files, parsed, errors = read_parse(source, config, paths, explicit, known)
    part = Part()
    keep = []
    for pf in parsed:
        folder = posixpath.dirname(pf.path)
        in_split = folder in split and spec_of(pf.path, config) is None
        if in_split and pf.one_tool:
            part.deferred.append(pf.path)
            continue
        if in_split and pf.tools:
            part.not_one_tool.add(folder)
        keep.append(pf)
    deferred = set(part.deferred)
    toolsets = group_toolsets(keep, config, per_file=per_file)
    analysis = analyse(toolsets, config, files, parse_errors=[e for e in errors if e.file not in deferred],
                       token_methods=token_methods, jobs=1)
    part.toolsets = toolset_reports(toolsets, analysis, config)
    part.tools = tool_reports(toolsets, analysis)
    part.findings = analysis.findings
    part.stats = analysis.stats
    return part


def run(
    source: FileSource,
    config: Config,
    chosen: Selection,
    groups: list[list[str]],
    token_methods: Sequence[str] | None,
    say: Callable[[str], None],
    jobs: int,
    known: Mapping[str, ParsedFile] | None = None,
) -> Part:
    """The whole check from `jobs` processes taking the pieces `groups` in turn, merged as one process
    would have made it."""
    split = split_folders(groups, config)
    rules.registry()  # imported and loaded once, here, rather than in every worker
    lexicon()
    say(f"reading and analysing {len(chosen.paths):,} files in {jobs} processes")
    parts = workers.pool_map(
        lambda paths: run_part(source, config, paths, chosen.explicit, split, token_methods, known=known),
        groups, jobs,
        pack=pack, unpack=unpack,
    )
    deferred = sorted(p for part in parts for p in part.deferred)
    if deferred:
        per_file = frozenset().union(*(part.not_one_tool for part in parts))
        parts.append(
            run_part(source, config, deferred, chosen.explicit, frozenset(), token_methods, per_file,
                     known=known)
        )
    return merge(parts, chosen.errors, config)


def _builder(cls: type) -> Callable[[tuple[Any, ...]], Any]:
    """row -> instance of the slotted dataclass `cls`, its fields set straight into their slots.

    Generated once per class, as `dataclasses` makes `__init__`: one line per field instead of a loop,
    about twice as fast, and this runs in the main process while it also analyses. A frozen class's fields
    go through object.__setattr__; any other's are plain assignments, faster still."""
    names = [f.name for f in fields(cls)]
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    body = "".join(
        f"    put(obj, {name!r}, row[{i}])\n" if frozen else f"    obj.{name} = row[{i}]\n"
        for i, name in enumerate(names)
    )
    source = f"def build(row):\n    obj = new(cls)\n{body}    return obj\n"
    scope: dict[str, Any] = {"new": object.__new__, "put": object.__setattr__, "cls": cls}
    exec(source, scope)  # the field names of our own dataclasses: no input reaches this text
    built: Callable[[tuple[Any, ...]], Any] = scope["build"]
    return built


_ROWS: tuple[tuple[Callable[[Any], tuple[Any, ...]], Callable[[tuple[Any, ...]], Any]], ...] = tuple(
    (attrgetter(*(f.name for f in fields(cls))), _builder(cls))
    for cls in (ToolsetReport, ToolReport, Finding)
)


def pack(part: Part) -> bytes:
    """A part as rows of field values: pickling slotted dataclasses one by one costs three times more."""
    lists: tuple[list[Any], ...] = (part.toolsets, part.tools, part.findings)
    rows = [list(map(row_of, objs)) for (row_of, _), objs in zip(_ROWS, lists, strict=True)]
    return pickle.dumps((rows, part.stats, part.deferred, part.not_one_tool), pickle.HIGHEST_PROTOCOL)


def unpack(data: bytes) -> Part:
    rows, stats, deferred, not_one_tool = pickle.loads(data)
    made = [list(map(build, values)) for (_, build), values in zip(_ROWS, rows, strict=True)]
    return Part(toolsets=made[0], tools=made[1], findings=made[2], stats=stats, deferred=deferred,
                not_one_tool=not_one_tool)


def merge(parts: Sequence[Part], errors: Sequence[ParseError], config: Config) -> Part:
    from tooldiff.engine import parse_error_findings

    out = Part(findings=parse_error_findings(errors, config))
    for part in parts:
        out.toolsets.extend(part.toolsets)
        out.tools.extend(part.tools)
        out.findings.extend(part.findings)
        for k, v in part.stats.items():
            out.stats[k] = out.stats.get(k, 0) + v
    out.toolsets.sort(key=attrgetter("id"))
    out.tools.sort(key=attrgetter("toolset"))  # stable: each toolset's tools keep their order
    out.findings.sort(key=finding_order)
    return out
