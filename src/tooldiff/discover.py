"""Which files hold tools, and which tools are offered together (toolsets).

Files come from a `FileSource` (work tree or git ref). Symlinks are never followed; files over the size
limit are never read. Without paths or config globs, every JSON/JSONL/YAML file that holds tools counts.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import takewhile

from tooldiff.config import Config
from tooldiff.model import ParsedFile, ParseError, Tool, Toolset
from tooldiff.parsers import parse_bytes
from tooldiff.sources import NOT_REGULAR, SKIP_DIRS, FileSource

TOOL_EXTENSIONS = (".json", ".jsonl", ".ndjson", ".yaml", ".yml")
# Files that are never tool definitions, however they look.
SKIP_FILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "composer.lock",
    "Pipfile.lock", "poetry.lock", "tsconfig.json", "jsconfig.json", ".eslintrc.json", ".prettierrc.json",
    "renovate.json", ".pre-commit-config.yaml", "pubspec.lock", "flake.lock",
})
# Without one of these keys a file cannot hold a tool, so its syntax errors are not ours to report
# (discovery by content only; explicit paths always report).
TOOL_HINTS = (b"input_schema", b"inputSchema", b"unctionDeclarations", b"unction_declarations")
# A UTF-16/32 file hides those hints between NUL bytes: they are looked for in its text.
WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")


def may_hold_tools(raw: bytes, error_lines: Sequence[int] = ()) -> bool:
    """Whether a file that fails to parse (or is too big to) may be a tool file, so its failure is reported:
    it has a tool key, or `parameters` unless it breaks where a `{{ }}` template is (a Helm chart is not
    YAML until it is rendered; a prompt's `{{city}}` elsewhere is no reason)."""
    if raw.startswith(WIDE_BOMS):
        raw = _narrow(raw)
    if any(h in raw for h in TOOL_HINTS):
        return True
    if b"parameters" not in raw:  # also in StorageClasses and SSM documents: a template is told below
        return False
    if raw.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] in (b"{", b"["):
        return True  # JSON: a `{{` in it is text, not a template (Helm's are YAML)
    lines = raw.split(b"\n")
    # A template line: one that is a template (`{{- if }}`), or whose value or item is (`name: {{ x }}`);
    # the parser may blame the line below one. A `{{name}}` inside a description is text.
    return not any(
        0 < n <= len(lines) and (_TEMPLATED.search(lines[n - 1]) is not None or any(
            line.lstrip().startswith((b"{{", b"{%")) for line in lines[max(0, n - 3):n - 1]))
        for n in error_lines)


_TEMPLATED = re.compile(rb"^\s*(?:-\s+)?(?:[^\s:#]+:\s+)?\{[{%]")


def _narrow(raw: bytes) -> bytes:
    """A wide file's text as UTF-8, for the hints (what cannot be decoded is dropped)."""
    for encoding in ("utf-32", "utf-16"):
        try:
            return raw.decode(encoding).encode("utf-8", "ignore")
        except UnicodeError:
            continue
    return raw.replace(b"\0", b"")


@dataclass(frozen=True, slots=True)
class Discovery:
    files: dict[str, bytes] = field(default_factory=dict)
    parsed: list[ParsedFile] = field(default_factory=list)
    toolsets: list[Toolset] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)


@cache
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """`**` spans folders, `*` and `?` stay within one; a pattern without `/` also matches a base name."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?")  # a folder pattern matches what is under it


def _plain(path: str) -> str:
    """A path or glob as written (`./tools/`), as listings write it (`tools`)."""
    return path.strip().removeprefix("./").rstrip("/")


def glob_match(path: str, pattern: str) -> bool:
    pattern = _plain(pattern)
    if not pattern or pattern == ".":
        return True
    if _glob_regex(pattern).fullmatch(path):
        return True
    return "/" not in pattern and _glob_regex(pattern).fullmatch(posixpath.basename(path)) is not None


def _skipped(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return (
        any(p in SKIP_DIRS for p in parts[:-1])
        or name in SKIP_FILES
        or name.startswith((".tooldiff", "tsconfig."))
    )


def _is_tool_file(path: str) -> bool:
    return path.lower().endswith(TOOL_EXTENSIONS) and not _skipped(path)


def _named_by_toolset(path: str, config: Config) -> bool:
    # A toolset's globs name files as `paths` globs do, whatever the extension (`*.snap`: github-mcp-server's
    # one-tool files) and even in dist/.
    return any(_configured(path, g) for spec in config.toolsets for g in spec.files)


def _in_paths(path: str, config: Config) -> bool:
    """Inside the config's `paths` (all of the tree without any); a toolset's files are read too: `paths`
    must not make a declared toolset vanish."""
    if not config.paths or any(_configured(path, g) for g in config.paths):
        return True
    return _named_by_toolset(path, config)


def left_out(path: str, config: Config) -> bool:
    """Whether the config's `exclude` leaves the file, or the folder's files, out of a run."""
    return any(_excluded(p, config) is not None for p in (path, f"{path}/_"))  # `_`: a file in the folder


def _excluded(path: str, config: Config) -> str | None:
    """The `exclude` glob that leaves the file out, if one does."""
    return next((g for g in config.exclude if glob_match(path, g)), None)


# A named path that names nothing (a diff of refs checks its paths itself, and drops this error).
NOTHING_TO_READ = "nothing to read: no such file, or a folder without files"


def _select(
    all_files: list[str], config: Config, paths: Sequence[str], folder_links: frozenset[str] = frozenset()
) -> tuple[list[str], list[ParseError]]:
    """Candidate files, and errors for paths that name nothing. A scan also takes the symlinks to folders
    (they may lead out of the tree with tool files in them)."""
    if paths:
        chosen: list[str] = []
        errors: list[ParseError] = []
        present = set(all_files)
        for raw in paths:
            p = _plain(raw)
            if p in present:
                chosen.append(p)  # named explicitly: read whatever its extension
                continue
            prefix = "" if p in ("", ".") else p + "/"
            under = [f for f in all_files if f.startswith(prefix) and _is_tool_file(f[len(prefix):])]
            if not under and not any(f.startswith(prefix) for f in all_files):
                errors.append(ParseError(
                    file=p, line=1, message=NOTHING_TO_READ,
                    fix="Check the path: it is relative to the folder tooldiff runs in.",
                ))
            chosen.extend(under)
        # What a run over the whole tree reads, as it reads it: a file the config's `paths` leave out is
        # not a tool file here either (pre-commit names a changed test fixture CI never checks).
        return [f for f in dict.fromkeys(chosen) if _in_paths(f, config)], errors

    if config.paths:
        return [f for f in all_files if _in_paths(f, config)], []

    def wanted(f: str) -> bool:
        if f in folder_links:  # a link to a folder, unless it is (or is in) a folder discovery skips
            return not any(part in SKIP_DIRS for part in f.split("/"))
        return _is_tool_file(f) or _named_by_toolset(f, config)

    return [f for f in all_files if wanted(f)], []


def literal_prefix(pattern: str) -> str:
    """The leading part of a glob without wildcards (`dist/tools/*.json` -> `dist/tools`, `dist` -> `dist`):
    a vendored or generated folder named there is wanted; one that a wildcard reaches is still skipped."""
    parts = _plain(pattern).split("/")
    return "/".join(takewhile(lambda part: not any(c in part for c in "*?["), parts))


def _configured(path: str, pattern: str) -> bool:
    if not glob_match(path, pattern):
        return False
    prefix = literal_prefix(pattern)
    if path == prefix:
        return True  # the file itself is named
    return not _skipped(path[len(prefix) + 1 :] if prefix and path.startswith(prefix + "/") else path)


def named_paths(config: Config, paths: Sequence[str]) -> list[str]:
    """What the command line or the config names: a source lists these even in folders it skips."""
    if paths:
        return [_plain(p) for p in paths]
    globs = [*config.paths, *(g for spec in config.toolsets for g in spec.files)]
    return [prefix for g in globs if (prefix := literal_prefix(g))]


@dataclass(frozen=True, slots=True)
class Selection:
    """The files to read, and errors for the ones that may not be (links out, too big, missing)."""

    paths: list[str]
    errors: list[ParseError]
    explicit: bool  # named by the command line or the config: syntax errors count even without tool hints
    sizes: dict[str, int] = field(default_factory=dict)  # bytes of each path to read
    notes: list[str] = field(default_factory=list)  # named files the config leaves out
    folders: list[str] = field(default_factory=list)  # the paths named that are folders


def select(
    source: FileSource, config: Config, paths: Sequence[str] = (), named: bool | None = None
) -> Selection:
    """`named`: whether the user named paths (None: `paths` says). The command line tells, as a run from a
    subfolder without paths gets that subfolder as its path, and it is no more named than the root is."""
    listed = source.list_files(named_paths(config, paths))
    candidates, errors = _select(listed, config, paths, source.folder_links)
    explicit = (bool(paths) if named is None else named) or bool(config.paths)
    kept = [f for f in candidates if _excluded(f, config) is None]
    notes = _left_out(listed, paths, candidates, config) if paths else []
    candidates = kept
    to_read: list[str] = []
    sizes: dict[str, int] = {}
    candidates += _named_link_targets(source, paths, candidates, listed, errors, config)
    for path in candidates:
        target = source.symlink_target(path)
        if target is not None:
            if source.link_leaves(path, target):
                message = "symlink leaves the repository; not followed"
                fix = "Link to a file inside the repository, or leave it out (`exclude` in .tooldiff.yml)."
                errors.append(ParseError(file=path, line=1, message=message, fix=fix))
            continue  # a link inside the tree: its target is analysed under its own name
        size = source.size(path)
        if size > config.max_file_bytes:
            # Found by the scan, a big file is only a tool file if it holds tool keys: a data file is not.
            if explicit or _may_hold_tools(source, path):
                message = f"file is {size:,} bytes, over the limit of {config.max_file_bytes:,}; not read"
                fix = ("Split the file, or raise `max_file_bytes` in .tooldiff.yml if it really is one tool "
                       "file.")
                errors.append(ParseError(file=path, line=1, message=message, fix=fix))
            continue
        to_read.append(path)
        sizes[path] = size
    return Selection(to_read, errors, explicit, sizes, notes, _folders(paths, listed))


def _folders(paths: Sequence[str], listed: Sequence[str]) -> list[str]:
    files = set(listed)
    named = [p for p in (_plain(raw) for raw in paths) if p not in files and p not in ("", ".")]
    return [p for p in named if any(f.startswith(p + "/") for f in listed)]


MAX_LINK_HOPS = 8


def _named_link_targets(source: FileSource, paths: Sequence[str], candidates: Sequence[str],
                        listed: Sequence[str], errors: list[ParseError], config: Config) -> list[str]:
    """The files that links named outright lead to (through other links, to a file or a folder), as a scan
    finds them under their own names and as the config's `paths` and `exclude` let it; a link that leads to
    no file (a missing target, a loop) is an error, not silence."""
    named = {_plain(p) for p in paths}
    present, taken, out = set(listed), set(candidates), []

    for path in [c for c in candidates if c in named]:
        real, hops = path, 0
        while (target := source.symlink_target(real)) is not None and hops < MAX_LINK_HOPS:
            if source.link_leaves(real, target):
                break  # reported where links are read (`select`)
            real, hops = posixpath.normpath(posixpath.join(posixpath.dirname(real), target)), hops + 1
        if hops == 0 or (source.symlink_target(real) is not None and hops < MAX_LINK_HOPS):
            continue  # not a link, or it leaves the tree
        found = [real] if real in present else [f for f in listed if f.startswith(real + "/")]
        if not found or source.symlink_target(real) is not None:
            errors.append(ParseError(file=path, line=1, message="symlink leads to no file in the repository "
                                     "(a missing target, or a loop of links)",
                                     fix="Point the link at a file or a folder, or remove it."))
            continue
        for f in found:  # the file linked to, or the tool files of the folder linked to
            if f not in taken and _in_paths(f, config) and _excluded(f, config) is None and (
                    f == real or _is_tool_file(f)):
                taken.add(f)
                out.append(f)
    return out


def _left_out(
    listed: Sequence[str], paths: Sequence[str], in_paths: Sequence[str], config: Config
) -> list[str]:
    """A file named outright that the config leaves out (outside `paths`, or `exclude`): said, not silent."""
    present, inside = set(listed), set(in_paths)
    out = []
    for f in map(_plain, paths):
        if f not in present:
            continue
        if f not in inside:
            out.append(f"{f}: not checked, as the config's paths leave it out.")
        elif glob := _excluded(f, config):
            out.append(f"{f}: not checked, as the config excludes it ({glob}).")
    return out


def _may_hold_tools(source: FileSource, path: str) -> bool:
    """The test `read_parse` applies to a file that fails to parse, for a file too big to parse."""
    raw = source.read_many([path]).get(path)
    return raw is None or may_hold_tools(raw)


def read_parse(
    source: FileSource,
    config: Config,
    to_read: Sequence[str],
    explicit: bool,
    known: Mapping[str, ParsedFile] | None = None,
    tool_files: frozenset[str] = frozenset(),
) -> tuple[dict[str, bytes], list[ParsedFile], list[ParseError]]:
    """Bytes and parse results of the files that hold tools (or fail to parse where tools may be: a file
    with tool keys, or one of `tool_files`, known to be a tools file elsewhere)."""
    data = source.read_many(to_read)
    files: dict[str, bytes] = {}
    parsed: list[ParsedFile] = []
    errors: list[ParseError] = []
    for path in to_read:
        raw = data.get(path)
        if raw is None:
            why = source.unreadable.get(path)
            if why is not None:  # it may hold tools: say so rather than check the rest and pass
                fix = ("Remove it, or leave it out with the config's `exclude`." if why == NOT_REGULAR else
                       "Make the file readable to the user tooldiff runs as, or leave it out with the "
                       "config's `exclude`.")
                errors.append(ParseError(file=path, line=1, message=f"cannot be read: {why}", fix=fix))
            continue
        result = (known or {}).get(path) or parse_bytes(path, raw, max_bytes=config.max_file_bytes)
        # Whether a broken file may hold tools is asked only of one without tools (a scan of its bytes).
        keep = bool(result.tools) or (bool(result.errors) and (
            explicit or path in tool_files or may_hold_tools(raw, [e.line for e in result.errors])))
        if keep:
            files[path] = raw
            parsed.append(result)
            errors.extend(result.errors)
    return files, parsed, errors


def discover(
    source: FileSource,
    config: Config,
    paths: Sequence[str] = (),
    known: Mapping[str, ParsedFile] | None = None,
    tool_files: frozenset[str] = frozenset(),
) -> Discovery:
    """Tool files of `source`; `known` holds parse results of files already parsed from the same source.
    `tool_files` are reported when they do not parse, tool keys or not (a diff's head: the base's tool
    files, so a truncated one is not taken for anyone's JSON)."""
    return discover_selected(source, config, select(source, config, paths), known, tool_files)


def discover_selected(
    source: FileSource, config: Config, chosen: Selection, known: Mapping[str, ParsedFile] | None = None,
    tool_files: frozenset[str] = frozenset(),
) -> Discovery:
    """`discover` of files already selected."""
    files, parsed, errors = read_parse(source, config, chosen.paths, chosen.explicit, known, tool_files)
    return Discovery(files=files, parsed=parsed, toolsets=group_toolsets(parsed, config),
                     errors=chosen.errors + errors)


def spec_of(path: str, config: Config) -> str | None:
    """The config toolset a file belongs to (the first whose globs match), if any."""
    if not config.toolsets:
        return None  # the common case, asked once per file
    return next((s.name for s in config.toolsets if any(glob_match(path, g) for g in s.files)), None)


def group_toolsets(
    parsed: Sequence[ParsedFile], config: Config, per_file: frozenset[str] = frozenset()
) -> list[Toolset]:
    """Config toolsets first; then a folder of one-tool files is one toolset; else each file is one.

    `per_file`: folders known (from files read elsewhere) not to be one-tool folders."""
    with_tools = [p for p in parsed if p.tools]
    groups: dict[str, list[ParsedFile]] = defaultdict(list)
    rest: list[ParsedFile] = []
    for pf in with_tools:
        spec = spec_of(pf.path, config)
        if spec is not None:
            groups[spec].append(pf)
        else:
            rest.append(pf)
    by_folder: dict[str, list[ParsedFile]] = defaultdict(list)
    for pf in rest:
        by_folder[posixpath.dirname(pf.path)].append(pf)
    for folder, members in by_folder.items():
        if folder not in per_file and len(members) >= 2 and all(m.one_tool for m in members):
            groups[folder or "."].extend(members)
        else:
            for m in members:
                groups[m.path].append(m)
    return [_toolset(tid, members) for tid, members in sorted(groups.items())]


def _toolset(toolset_id: str, members: Iterable[ParsedFile]) -> Toolset:
    ordered = sorted(members, key=lambda m: m.path)
    tools = tuple(_in_toolset(t, toolset_id) for m in ordered for t in m.tools)
    return Toolset(id=toolset_id, files=tuple(m.path for m in ordered), tools=tools)


def _in_toolset(tool: Tool, toolset_id: str) -> Tool:
    """The tool as a member of its toolset.

    A tool fresh from its parser has no toolset yet and is owned by this discovery alone, so it is set in
    place: a copy of 20k tools was a fifth of discovery. A tool already placed (parse results reused by
    another discovery) is copied, so no toolset ever sees another's id.
    """
    if tool.toolset == toolset_id:
        return tool
    if not tool.toolset:
        tool.toolset = toolset_id
        return tool
    return replace(tool, toolset=toolset_id)
