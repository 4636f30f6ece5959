"""`check` and `audit`: analyse every toolset of one tree."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tooldiff import mates, split, workers
from tooldiff.baseline import Baseline, apply_status, ignore_matches, load_baseline, stale_notes, within
from tooldiff.config import DEFAULT_BASELINE, Config, ConfigError, Ignore, load_config
from tooldiff.discover import discover_selected, glob_match, left_out, select
from tooldiff.engine import analyse, gc_paused
from tooldiff.model import Finding, Report
from tooldiff.report import assemble, build_report
from tooldiff.sources import FileSource, WorktreeSource

CONFIG_NAMES = (".tooldiff.yml", ".tooldiff.yaml")


def config_names(explicit: str | None = None) -> list[str]:
    """Where the config is looked for: the file named, else the default names in order."""
    return [explicit] if explicit else list(CONFIG_NAMES)


def find_config(source: FileSource, explicit: str | None = None) -> Config:
    """The config named on the command line, else `.tooldiff.yml` at the root, else the defaults."""
    names = config_names(explicit)
    found = source.read_many(names)
    for name in names:
        if name in found:
            return load_config(name, found[name].decode("utf-8", errors="replace"))
        if (why := source.unreadable.get(name)) is not None:  # there: the defaults would not be its rules
            raise ConfigError(name, 0, "", f"config file cannot be read: {why}")
    if explicit:
        raise _missing(source, explicit)
    return Config.default()


def _missing(source: FileSource, name: str) -> ConfigError:
    """A named config that is not there: where it was looked for, and what to do."""
    from tooldiff.gitread import GitSource, GitWorktreeSource

    folder = ConfigError(name, 0, "", "config file is a folder: --config takes the config file itself, not "
                                      "the folder that holds it")
    if isinstance(source, WorktreeSource):  # check, describe, baseline: the folder the run is rooted at
        full = source.root / name
        if full.is_dir() and full.resolve().is_relative_to(source.root.resolve()):
            return folder
        if full.exists() or Path(name).exists():  # there, but outside the root
            message = (f"config file is outside {source.root}, the folder this run is rooted at, and a file "
                       "outside it is not read: name a file inside that folder, relative to it")
            return ConfigError(name, 0, "", message)
        return ConfigError(name, 0, "", f"config file not found in {source.root} (a file outside it is not "
                                        "read): name a file inside that folder, relative to it")
    if isinstance(source, GitWorktreeSource):
        if (source.repo.root / name).is_dir():
            return folder
        return ConfigError(name, 0, "", f"config file not found in the work tree at {source.repo.root}")
    commit = source.commit[:12] if isinstance(source, GitSource) else ""
    inside = posixpath.normpath(name).rstrip("/") + "/"
    if isinstance(source, GitSource) and any(p.startswith(inside) for p in source.repo.tree(source.commit)):
        return folder
    at = source.label if source.label.startswith(commit) else f"{source.label} ({commit})"
    return ConfigError(name, 0, "", f"config file not committed at {at}: a diff reads it from the commit, "
                                    "as a path relative to the repository root; commit it, or use "
                                    "`tooldiff diff --worktree`")


def project_root(cwd: Path, explicit: str | None = None) -> Path:
    """Where a run from `cwd` is rooted: the nearest folder, from `cwd` up to the repository root (the one
    with `.git`), that holds `.tooldiff.yml` or the default baseline; else that repository root; else `cwd`.
    Run from a subfolder, `check` then sees the same config, baseline and repository-relative paths (so the
    same fingerprints) as CI. A config named with `--config` keeps `cwd`."""
    if explicit:
        return cwd
    for folder in (cwd, *cwd.parents):
        if any((folder / name).is_file() for name in (*CONFIG_NAMES, DEFAULT_BASELINE)):
            return folder
        if (folder / ".git").exists():
            return folder
    return cwd


def repository_root(cwd: Path) -> Path:
    """The nearest folder, from `cwd` up, with `.git` (a folder, or a worktree's file); else `cwd`."""
    return next((f for f in (cwd, *cwd.parents) if (f / ".git").exists()), cwd)


def split_root(paths: Sequence[str], cwd: Path) -> tuple[Path, list[str]]:
    """A root that holds every path, and the paths relative to it (paths outside cwd move the root)."""
    resolved = [Path(os.path.normpath(Path(p).absolute())) for p in paths]  # `sub/../x` is `x`
    inside = all(p == cwd or cwd in p.parents for p in resolved)
    root = cwd if inside else Path(os.path.commonpath([p if p.is_dir() else p.parent for p in resolved]))
    return root, [p.relative_to(root).as_posix() if p != root else "." for p in resolved]


def run_check(
    source: FileSource,
    config: Config,
    paths: Sequence[str] = (),
    *,
    mode: str = "check",
    head_ref: str | None = None,
    token_methods: Sequence[str] | None = ("estimate",),
    progress: Callable[[str], None] | None = None,
    baseline_source: FileSource | None = None,
    named: bool | None = None,
) -> Report:
    """Analyse every toolset. Exact token methods cost more than the rest of a check, and no verdict
    depends on them, so they are counted only when asked for (None: every available method).
    `progress` hears the phase names (the CLI's progress line). The baseline is read from
    `baseline_source` if given (a trusted ref, when `source` is not), else from `source`. `named`: see
    `discover.select`. Named files are analysed in their whole toolsets (`mates`)."""
    say = progress or (lambda _: None)
    with gc_paused():  # parsing, analysis and the report allocate a lot and free nothing cyclic
        say("reading tool files")
        chosen = select(source, config, paths, named)
        near, known = mates.extend(source, config, chosen) if paths else (None, {})
        if near is not None:
            chosen = near.selection
        baseline_bytes = (baseline_source or source).read_many([config.baseline]).get(config.baseline)
        baseline = load_baseline(baseline_bytes, config.baseline)
        jobs = workers.jobs_available()
        groups = split.plan(chosen.paths, chosen.sizes, config, jobs)
        if len(groups) > 1:
            part = split.run(source, config, chosen, groups, token_methods, say, jobs, known)
            findings = apply_status(part.findings, baseline, config)
            report = assemble(mode, part.toolsets, part.tools, findings, part.stats, head_ref=head_ref,
                              token_methods=token_methods, fail_on=config.fail_on, notes=chosen.notes)
        else:
            found = discover_selected(source, config, chosen, known)
            toolsets = mates.holding(found.toolsets, near.named) if near is not None else found.toolsets
            tools = sum(len(ts.tools) for ts in toolsets)
            say(f"analysing {tools:,} tool{'s' * (tools != 1)} in {len(toolsets):,} "
                f"toolset{'s' * (len(toolsets) != 1)}")
            analysis = analyse(toolsets, config, found.files, parse_errors=found.errors,
                               token_methods=token_methods)
            findings = apply_status(analysis.findings, baseline, config)
            report = build_report(mode, toolsets, analysis, findings, config, head_ref=head_ref,
                                  token_methods=token_methods, notes=chosen.notes)
        report = mates.cut(report, near.named) if near is not None else report
        if not paths and baseline.rows:  # over some paths only, the other entries were not checked
            report = report.noted(*_stale(baseline, report, config))
        named_outright = bool(paths) if named is None else named  # pre-commit's changed files are not
        # With parse errors ignored, a file that does not parse cannot be told from one without tools.
        said = named_outright and config.rule_enabled("parse-error")
        return _say_empty(report, paths, chosen.paths, chosen.folders) if paths and said else report


def _stale(baseline: Baseline, report: Report, config: Config) -> list[str]:
    """`stale_notes` for a whole-tree check: a toolset whose file does not parse, or that the config leaves
    out, was not read, and the entries of rules this run did not run are not judged."""
    broken = {f.file for f in report.findings if f.code == "parse-error"}
    code = {s.toolset for s in config.sources}

    def unread(toolset: str) -> bool:
        return toolset in code or within(toolset, broken) or left_out(toolset, config)

    return stale_notes(baseline, report.findings, {ts.id for ts in report.toolsets}, unread,
                       config.rule_enabled)


def _say_empty(
    report: Report, paths: Sequence[str], read: Sequence[str], folders: Sequence[str]
) -> Report:
    """A file or folder named outright that holds no tool tooldiff reads gets a note: "Checked 0 tools"
    alone reads as a clean result for a file that was never looked into. (A scan skips data files in
    silence.)"""
    had = {t.file for t in report.tools} | {f.file for f in report.findings}
    files, in_folders = set(read), set(folders)

    def empty(p: str) -> bool:
        if p in files:
            return p not in had
        return p in in_folders and not any(h.startswith(p + "/") for h in had)

    empty_paths = [p for p in dict.fromkeys(posixpath.normpath(p) for p in paths) if empty(p)]
    return report.noted(*(f"{p} holds no tool definitions tooldiff reads (Anthropic, OpenAI, Gemini, MCP or "
                          "Bedrock records, alone, in a list, under `tools` or `functions`, or one per "
                          "line): nothing in it was checked." for p in empty_paths))


class _Grouped(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def files(self) -> tuple[str, ...]: ...


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class Judged(Protocol):
    """What the config entries are judged against: a whole tree's toolsets, tools and findings (a check's
    report, or a diff's head side)."""

    @property
    def toolsets(self) -> Sequence[_Grouped]: ...
    @property
    def tools(self) -> Sequence[_Named]: ...
    @property
    def findings(self) -> Sequence[Finding]: ...


def unmatched_settings(config: Config, report: Judged, *, dumped: bool = False,
                       dumps_apart: bool = False) -> list[str]:
    """Config entries that name nothing in a whole-tree report. The schema cannot tell a typo in a glob, a
    toolset id or a tool name from a real one, and such an entry silently does nothing. `dumped`: tools
    came as a dump too, so `paths` may name generated files that are not there; `dumps_apart`: and they
    are not in `report`, so an ignore or a tool setting may be theirs (not judged)."""
    ids = {ts.id for ts in report.toolsets} | {s.toolset for s in config.sources}  # check runs no command
    names = {t.name for t in report.tools}
    globs = [] if dumped else unmatched_paths(config, report)
    out = [f"paths: {glob!r} matches no tool file." for glob in globs]
    owner = {f: ts.id for ts in report.toolsets for f in ts.files}
    for spec in config.toolsets:
        if spec.name in ids:
            continue
        taken = sorted({owner[f] for f in owner if any(glob_match(f, g) for g in spec.files)})
        if taken:  # its files are there, in a toolset named before it (`shared_files` says which)
            out.append(f"toolsets: {spec.name!r} holds no tools: every file it names belongs to the "
                       f"toolset{'s' * (len(taken) > 1)} named before it ({', '.join(map(repr, taken))}), as "
                       "a file belongs to one toolset.")
        else:
            out.append(f"toolsets: {spec.name!r} holds no tools: no file that parses as tools matches "
                       f"{', '.join(spec.files)}.")
    by_id = {ts.id: ts for ts in report.toolsets}
    for spec in config.toolsets:
        held = by_id.get(spec.name)
        strays = [f for f in held.files if not any(glob_match(f, g) for g in spec.files)] if held else []
        if strays:  # a file or folder whose own id is this name: grouping merged the two
            out.append(f"toolsets: {spec.name!r} is also the id of {', '.join(strays)}, which its files do "
                       "not match: the two were analysed as one toolset. Rename the toolset.")
    out += shared_files(config, report)
    unused = [] if dumps_apart else unused_ignores(config, report)
    out += [f"ignores: {ig.code} on {ig.tool!r} matches no finding." for ig in unused]
    out += [f"toolset_targets: {key!r} names no toolset (a toolset id is a file, a folder of one-tool "
            "files or a toolsets name, as describe shows it)." for key in config.toolset_targets
            if key not in ids]
    out += [f"tools: {name!r} names no tool (tool names are matched exactly, not as globs)."
            for name in config.tool_settings if name not in names and not config.sources and not dumps_apart]
    return out


def unused_ignores(config: Config, report: Judged) -> list[Ignore]:
    """Ignores that no finding of the report matches: stale, or a typo in the code or the tool glob. An
    ignore of a rule this run did not run (`--select`) is not judged."""
    ignored = [f for f in report.findings if f.status == "ignored"]
    return [ig for ig in config.ignores if (ig.code == "*" or config.rule_enabled(ig.code))
            and not any(ignore_matches(ig, f) for f in ignored)]


def shared_files(config: Config, report: Judged) -> list[str]:
    """Files two config toolsets name: each goes to the first only, and the other silently lacks its tools."""
    out = []
    for f in sorted({f for ts in report.toolsets for f in ts.files}):
        names = [spec.name for spec in config.toolsets if any(glob_match(f, g) for g in spec.files)]
        if len(names) > 1:
            listed = " and ".join(repr(n) for n in names)
            out.append(f"toolsets: {f} is named by {listed}; a file belongs to one toolset, the first "
                       f"that names it ({names[0]!r}). Give the shared tools a toolset of their own, or name "
                       "the file in one.")
    return out


def unmatched_paths(config: Config, report: Judged) -> list[str]:
    """The config's `paths` globs that match no file holding tools (or failing to parse) in the report."""
    files = {f for ts in report.toolsets for f in ts.files} | {f.file for f in report.findings}
    return [g for g in config.paths if not any(glob_match(f, g) for f in files)]


@dataclass(frozen=True, slots=True)
class Invocation:
    """What a command-line run reads: the tree, the paths in it, and the config and baseline's folder."""

    home: Path  # `project_root`: where the config and the baseline are
    source: WorktreeSource
    paths: list[str]
    config: Config
    named: bool  # paths were given (`.` too): files under them that do not parse are reported


def invocation(paths: Sequence[str], config_path: str | None = None, cwd: Path | None = None) -> Invocation:
    here = (cwd or Path.cwd()).absolute()
    named = bool(paths)
    home = project_root(here, config_path)
    if home != here:  # a config further up: this folder (or the paths given) inside that root
        paths = [str(here / p) for p in (paths or ["."])]
    root, rel = split_root(paths, home) if paths else (home, [])
    return Invocation(home, WorktreeSource(root), [p for p in rel if p != "."],
                      find_config(WorktreeSource(home), config_path), named)


def check_paths(
    paths: Sequence[str],
    config_path: str | None = None,
    cwd: Path | None = None,
    token_methods: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Report:
    run = invocation(paths, config_path, cwd)
    return run_check(run.source, run.config, run.paths, token_methods=token_methods, progress=progress,
                     named=run.named)
