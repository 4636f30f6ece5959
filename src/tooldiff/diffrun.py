"""`tooldiff diff`: what a pull request changes about its tools, and what it breaks.

Compares the merge base of BASE and HEAD with HEAD (GitHub's "Files changed"), reading both from git
objects. Under `pull_request` both refs use the head's `.tooldiff.yml` and baseline, so adopting tooldiff
does not make every old finding new; under `pull_request_target` both use the base's, so a fork cannot
silence itself.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tooldiff import codetools, mates, regroup, tokens
from tooldiff.baseline import apply_status, load_baseline
from tooldiff.check import config_names, find_config, unmatched_settings
from tooldiff.config import Config, ConfigError, config_hash
from tooldiff.diff import TreeDiff, diff_toolsets
from tooldiff.diffreport import compare, moved_rows, tool_report, toolset_report, translate
from tooldiff.discover import NOTHING_TO_READ, discover, glob_match, select
from tooldiff.engine import Analysis, analyse
from tooldiff.gitread import GitRepo, GitSource, GitWorktreeSource
from tooldiff.model import Finding, ParsedFile, ParseError, Report, Tool, Toolset
from tooldiff.narrow import relevant_files
from tooldiff.parsers import parse_bytes
from tooldiff.scope import Scope, scopes, widen
from tooldiff.sources import FileSource, OneFile, PathsError, WorktreeSource, first_missing, outside


@dataclass(slots=True)
class Side:
    """One ref, discovered: its source, toolsets, file bytes and parse errors."""

    source: FileSource
    toolsets: list[Toolset]
    files: dict[str, bytes]
    errors: list[ParseError]
    commands_ran: list[str] = field(default_factory=list)
    command_failures: list[ParseError] = field(default_factory=list)  # also in `errors`


def _config_bytes(source: FileSource, path: str | None = None) -> bytes | None:
    """The config file's bytes: the one named (`config` input, `--config`), else the default names."""
    names = config_names(path)
    got = source.read_many(names)
    return next((got[n] for n in names if n in got), None)


def _discover(source: FileSource, config: Config, paths: Sequence[str],
              commands_dir: Path | None, read: FileSource | None = None,
              known: Mapping[str, ParsedFile] | None = None, base: Side | None = None) -> Side:
    """Discover through `read` (a narrowed view of `source`, see `narrow`), or all of `source`. The head
    is given the `base`: a file that held tools there is reported if it no longer parses."""
    tool_files = frozenset(t.file for ts in base.toolsets for t in ts.tools) if base else frozenset()
    found = discover(read or source, config, paths, known, tool_files)
    side = Side(source, list(found.toolsets), dict(found.files), list(found.errors))
    if commands_dir is not None and config.sources:
        extra = codetools.run_commands(config.sources, commands_dir, config.max_file_bytes)
        side.toolsets = codetools.merged(side.toolsets + extra.toolsets)
        side.files.update(extra.files)
        side.errors += extra.errors + extra.failed
        side.commands_ran = extra.ran
        side.command_failures = extra.failed
    return side


# What the command line changes in each side's config as it loads (`--select`, `--ignore`).
Adjust = Callable[[Config], Config]


def _same(config: Config) -> Config:
    return config


@dataclass(slots=True)
class Configs:
    """The config both refs are analysed with, and the other ref's, only to compare."""

    used: Config
    other: Config | None
    other_error: str | None
    config_from: str
    path: str | None = None  # the config file named by the caller; None: the default names

    @property
    def full_scope(self) -> bool:
        return self.other is None or config_hash(self.other) != config_hash(self.used)


def load_configs(base: FileSource, head: FileSource, config_from: str, config_path: str | None = None,
                 targets: Sequence[str] = (), adjust: Adjust | None = None) -> Configs:
    """`config_path` names the config file in the trees (default `.tooldiff.yml`); `targets` override its;
    `adjust` changes each side's as it loads (the command line's `--select` and `--ignore`)."""
    used_src, other_src = (head, base) if config_from == "head" else (base, head)
    fix = adjust or _same
    used = fix(_with_targets(find_config(used_src, config_path), targets))
    try:
        other = fix(_with_targets(find_config(other_src, config_path), targets))
        return Configs(used, other, None, config_from, config_path)
    except ConfigError as exc:  # the other side's config is compared, never used: not fatal
        return Configs(used, None, str(exc), config_from, config_path)


def _with_targets(config: Config, targets: Sequence[str]) -> Config:
    return dataclasses.replace(config, targets=tuple(targets)) if targets else config


def config_changes(base: FileSource, head: FileSource, cfg: Configs) -> list[str]:
    """What changed in the config, the ignores and the baseline: the comment lists it."""
    out: list[str] = []
    b_raw, h_raw = _config_bytes(base, cfg.path), _config_bytes(head, cfg.path)
    other_side = "base" if cfg.config_from == "head" else "head"
    if b_raw != h_raw:
        what = "added" if b_raw is None else "removed" if h_raw is None else "changed"
        scope = "over every toolset" if cfg.full_scope else "(no change to the rules it sets)"
        out.append(f"The tooldiff config was {what}; both refs were analysed with the "
                   f"{cfg.config_from}'s config, {scope}.")
    if cfg.other_error is not None:
        out.append(f"The {other_side}'s config does not load: {cfg.other_error}")
    elif cfg.other is not None:
        b_cfg, h_cfg = (cfg.other, cfg.used) if cfg.config_from == "head" else (cfg.used, cfg.other)
        for ig in sorted(set(h_cfg.ignores) - set(b_cfg.ignores), key=repr):
            out.append(f"Ignore added: {ig.code} on {ig.tool} ({ig.reason})")
        for ig in sorted(set(b_cfg.ignores) - set(h_cfg.ignores), key=repr):
            out.append(f"Ignore removed: {ig.code} on {ig.tool} ({ig.reason})")
        out += _rule_changes(b_cfg, h_cfg)
    path = cfg.used.baseline
    b_base, h_base = base.read_many([path]).get(path), head.read_many([path]).get(path)
    if b_base != h_base:
        try:
            b_fps, h_fps = set(load_baseline(b_base).entries), set(load_baseline(h_base).entries)
            out.append(f"Baseline {path} changed: {len(h_fps - b_fps)} fingerprints added, "
                       f"{len(b_fps - h_fps)} removed.")
        except ValueError as exc:
            out.append(f"Baseline {path} changed and does not load: {exc}")
    return out


def _rule_changes(base: Config, head: Config) -> list[str]:
    """Rules turned off or on, severities and the failing level changed: a PR that turns a rule down makes
    its findings vanish from both refs, so the comment says which rule went."""
    from tooldiff.rules import registry

    out = []
    for code in registry():
        was, now = base.rule_enabled(code), head.rule_enabled(code)
        if was != now:
            out.append(f"Rule turned {'on' if now else 'off'}: {code}")
        elif now and base.severity(code) != head.severity(code):
            own = "the rule's own"
            out.append(f"Severity of {code}: {base.severity(code) or own} → {head.severity(code) or own}")
    if base.fail_on != head.fail_on:
        out.append(f"fail_on: {base.fail_on} → {head.fail_on}")
    return out


def _pick(toolsets: Iterable[Toolset], ids: frozenset[str], full: bool) -> list[Toolset]:
    return [ts for ts in toolsets if full or ts.id in ids]


def diff_sides(base: Side, head: Side, renames: Mapping[str, str], config: Config, *,
               full: bool, notes: Sequence[str] = (), changes: Sequence[str] = (),
               base_ref: str | None = None, head_ref: str | None = None,
               token_methods: Sequence[str] | None = None, baseline_from: str = "head",
               baseline_source: FileSource | None = None) -> Report:
    """The diff report of two discovered trees analysed with one config (`token_methods`: see check).
    The baseline is read from the side the config came from (`baseline_from`): an untrusted head
    cannot accept its own findings. `baseline_source`, if given, is read instead (the base branch's tip,
    which the PR cannot choose as it chooses its merge base)."""
    keep_folders(base, head, renames, config.max_file_bytes)
    carried = carry_unread(base, head, renames)
    if carried:
        notes = (*notes, carried)
    aligned = regroup.align(base.toolsets, head.toolsets)
    if aligned.folders:
        notes = (*notes, regroup.note(aligned.folders))
        head_ids = {ts.id for ts in head.toolsets}
        notes = (*notes, *(  # the config still names the folder's toolset, which the head no longer has
            f"toolset_targets: {key!r} names the folder's toolset, which is a toolset per file at head: its "
            "tools are checked against the default targets. Name the files' toolsets in `toolsets`, or keep "
            "one tool per file there." for key in config.toolset_targets
            if key in aligned.folders and key not in head_ids))
    tree = diff_toolsets(aligned.base, head.toolsets, renames)
    base_scope, head_scope = widen(tree, *scopes(tree, full=full), config, aligned.across)
    base_sets = _pick(aligned.base, base_scope.changed_toolsets, full)
    head_sets = _pick(head.toolsets, head_scope.changed_toolsets, full)
    a_base = analyse(base_sets, config, base.files, scope=base_scope, parse_errors=base.errors,
                     token_methods=token_methods)
    a_head = analyse(head_sets, config, head.files, scope=head_scope, parse_errors=head.errors,
                     token_methods=token_methods)
    base_findings = aligned.drop_unseen(a_base.findings)
    moves = tree.move_map()
    moved = translate(base_findings, tree, renames, moves)
    marked, resolved = compare(moved, a_head.findings, base_findings)
    trusted = baseline_source or (head.source if baseline_from == "head" else base.source)
    baseline = load_baseline(trusted.read_many([config.baseline]).get(config.baseline), config.baseline)
    findings = apply_status(marked, baseline, config)
    stale = _stale_entries(base_findings, moved, {f.fingerprint for f in marked}, baseline.entries)
    if stale:
        them = "them" if stale != 1 else "it"
        notes = (*notes, f"{stale} finding{'s' * (stale != 1)} accepted in {config.baseline} moved with a "
                 f"renamed or moved toolset or tool, so the baseline no longer names {them}: run "
                 f"`tooldiff baseline` in this PR to carry {them} over.")
    rows = moved_rows(moves, tree.moved_renames())
    moved_in = tree.moved_in()
    return Report(
        mode="diff",
        toolsets=tuple(toolset_report(d, a_base, a_head, config.toolset_budget(d.id)) for d in tree.changed),
        tools=tuple(tool_report(d, c, a_base, a_head, rows, moved_in) for d in tree.changed
                    for c in d.changes),
        findings=tuple(findings),
        resolved=tuple(resolved),
        stats=_stats(tree, a_base, a_head, head_scope),
        token_methods=tokens.methods_counted(token_methods),
        notes=tuple(notes),  # the renderers say that per-request overhead cancels out of a delta
        base_ref=base_ref,
        head_ref=head_ref,
        config_changes=tuple(changes),
        fail_on=config.fail_on,
    )


def keep_folders(base: Side, head: Side, renames: Mapping[str, str], max_bytes: int) -> None:
    """A folder of one-tool files that is one toolset at one ref stays one at the other where its other
    files no longer (or do not yet) parse: discovery groups only the files that parse, so a two-file folder
    with one file broken was one file left, a toolset of its own, and the diff read the folder's toolset as
    renamed to it, the broken file's tools as removed and their findings resolved (or, in a PR that mends
    the file, the other way round). The lone file's toolset takes the folder's id."""
    _keep_folder(head, base.toolsets, renames, max_bytes)
    _keep_folder(base, head.toolsets, {new: old for old, new in renames.items()}, max_bytes)


def _keep_folder(side: Side, other: Sequence[Toolset], moved: Mapping[str, str], max_bytes: int) -> None:
    """`side`'s lone one-tool file of a folder that is one toolset in `other`, whose other files (their
    paths on `side` by `moved`) fail to parse on `side`, put back in the folder's toolset."""
    ids = {ts.id for ts in side.toolsets}
    alone: dict[str, list[int]] = {}
    for k, ts in enumerate(side.toolsets):
        if ts.files == (ts.id,):
            alone.setdefault(_folder(ts.id), []).append(k)
    read = {t.file for ts in side.toolsets for t in ts.tools}
    for ts in other:
        folder = regroup.folder_toolset(ts)
        if folder is None or folder in ids or len(alone.get(folder, ())) != 1:
            continue
        k = alone[folder][0]
        lone = side.toolsets[k]
        paths = [moved.get(f, f) for f in ts.files]
        if lone.id not in paths or len(lone.tools) != 1:
            continue
        if not any(_broken(side, p, max_bytes) for p in paths
                   if p != lone.id and p not in read and _folder(p) == folder):
            continue  # deleted, or no tool file at all here: the folder really is one file now
        side.toolsets[k] = Toolset(id=folder, files=lone.files,
                                   tools=tuple(dataclasses.replace(t, toolset=folder) for t in lone.tools))
        ids.add(folder)


def _folder(path: str) -> str:
    return posixpath.dirname(path) or "."


def _broken(side: Side, path: str, max_bytes: int) -> bool:
    """Whether the file is there on `side` and is not read: it fails to parse, or is too big to. One
    reported as a parse error is; one without tool keys is not reported, so it is parsed again here."""
    if any(e.file == path for e in side.errors):
        return True
    raw = side.source.read_many([path]).get(path)
    if raw is None:
        return False
    parsed = parse_bytes(path, raw, max_bytes=max_bytes)
    return bool(parsed.errors) and not parsed.tools


def carry_unread(base: Side, head: Side, renames: Mapping[str, str] | None = None) -> str | None:
    """Tools of the base that a head file with parse errors no longer gives (it does not parse, its command
    failed, or a JSON Lines line or a record newly broke) are held as they were at the base, so a
    syntax error reads as the `parse-error` it is, not as tools removed with their findings resolved. A
    file moved in the PR holds them under its new path. The note says which files. A file whose toolset
    was regrouped at head (a folder of one-tool files that is no longer one, as a file of it holds two tools
    now) keeps showing its tools as removed; a folder left with one file that parses is not regrouped
    (`keep_folders`)."""
    if not head.errors:
        return None
    moved = renames or {}
    was = {new: old for old, new in moved.items()}
    read: dict[str, set[str]] = {}
    for ts in head.toolsets:
        for t in ts.tools:
            read.setdefault(t.file, set()).add(t.name)
    # A file read in part must have more errors than at the base: an old bad line must not hide a removal
    # beside it. A file that gives no tools at all holds them whatever the base had.
    at_base = Counter(e.file for e in base.errors)
    broken = {f for f, n in Counter(e.file for e in head.errors).items()
              if f not in read or n > at_base[was.get(f, f)]}
    now = {was.get(f, f): f for f in broken}  # base path -> the broken head path
    unread = broken - read.keys()  # files that give no tool at head
    by_id = {ts.id: ts for ts in head.toolsets}
    home = {f: ts.id for ts in head.toolsets for f in ts.files}
    missing = {ts.id: [t for t in ts.tools if t.file in now and t.name not in read.get(now[t.file], ())]
               for ts in base.toolsets}
    places = _error_lines(head.errors, [t for ts in base.toolsets for t in missing[ts.id]], now)
    held: dict[str, int] = {}
    for ts in base.toolsets:
        if not missing[ts.id]:
            continue
        paths = sorted({now[t.file] for t in missing[ts.id]})
        target = next((home[p] for p in paths if p in home), moved.get(ts.id, ts.id))
        there = by_id.get(target)
        if there is None and not all(now.get(f) in unread for f in ts.files):
            continue  # regrouped at head
        placed = [_held(t, now[t.file], target, places.get(id(t)), now[t.file] not in unread, head, base)
                  for t in missing[ts.id]]
        mine = there.tools if there is not None else ()
        order = {f: k for k, f in enumerate(sorted({t.file for t in (*mine, *placed)}))}
        merged = sorted((*mine, *placed), key=lambda t: (order[t.file], t.line))
        by_id[target] = Toolset(id=target, files=tuple(order), tools=tuple(merged))
        for t in placed:
            held[t.file] = held.get(t.file, 0) + 1
    if not held:
        return None
    known = {ts.id for ts in head.toolsets}
    added = [by_id[k] for k in sorted(by_id) if k not in known]
    head.toolsets = [by_id[ts.id] for ts in head.toolsets] + added
    listed = ", ".join(f"{f} ({n} tool{'s' * (n != 1)})" for f, n in sorted(held.items()))
    return (f"Not read at head, so shown as at the base rather than as removed: {listed}. Fix the "
            "parse error to see what this PR changes there.")


def _error_lines(
    errors: Sequence[ParseError], missing: Sequence[Tool], now: Mapping[str, str]
) -> dict[int, int]:
    """id(tool) -> the line of the head's parse error that stands for it: in a file read in part, when it
    has as many errors as tools gone missing, the nth missing tool is the nth broken record."""
    lines: dict[str, list[int]] = {}
    for e in errors:
        lines.setdefault(e.file, []).append(e.line)
    gone: dict[str, list[Tool]] = {}
    for t in missing:
        gone.setdefault(now[t.file], []).append(t)
    return {id(t): line for path, tools in gone.items() if len(tools) == len(lines.get(path, ()))
            for t, line in zip(sorted(tools, key=lambda t: t.line), sorted(lines[path]), strict=True)}


def _held(
    tool: Tool, path: str, toolset: str, line: int | None, in_part: bool, head: Side, base: Side
) -> Tool:
    """A base tool placed at head. A file read not at all is given the base's text, where the tool's
    offsets come from. In a file read in part they would point into other text, so the tool has no
    positions but a line: its broken record's, else its base line."""
    if not in_part:
        if tool.file in base.files:
            head.files[path] = base.files[tool.file]
        return dataclasses.replace(tool, file=path, toolset=toolset)
    at = tool.line if line is None else line
    return dataclasses.replace(tool, file=path, toolset=toolset, line=at, end_line=at, offset=-1,
                               end_offset=-1, pointer="", schema_pointer="")


def _stale_entries(base: Sequence[Finding], moved: Sequence[Finding], head: set[str],
                   accepted: Mapping[str, str]) -> int:
    """Baselined base findings still there at head under a new fingerprint the baseline lacks."""
    return sum(1 for b, m in zip(base, moved, strict=True)
               if b.fingerprint in accepted and m.fingerprint != b.fingerprint and m.fingerprint in head
               and m.fingerprint not in accepted)


def _stats(tree: TreeDiff, base: Analysis, head: Analysis, scope: Scope) -> dict[str, int]:
    return {
        "toolsets": len(tree.toolsets),
        "toolsets_changed": len(tree.changed),
        # A tool moved to another toolset is one change, not a removal and an addition.
        "tools_changed": sum(len(d.changes) for d in tree.changed) - len(tree.move_map()),
        "neighbours": len(scope.neighbours),
        "pairs_recandidated": len(scope.pairs),
        "tools_analysed": head.stats.get("tools_analysed", 0),
        "pairs_analysed": head.stats.get("pairs_analysed", 0),
        "base_tools_analysed": base.stats.get("tools_analysed", 0),
        "base_pairs_analysed": base.stats.get("pairs_analysed", 0),
    }


def _followed(rel: Sequence[str], renames: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """The named paths to read at the base and at head: with a file the PR renames under either name, its
    other name on the other side, so the diff follows the rename rather than see a file removed or added."""

    def named(path: str) -> bool:
        return any(p in ("", ".") or path == p or path.startswith(p + "/") for p in rel)

    base = [*rel, *(old for old, new in renames.items() if named(new) and not named(old))]
    head = [*rel, *(new for old, new in renames.items() if named(old) and not named(new))]
    return base, head


@dataclass(frozen=True, slots=True)
class _Named:
    """A diff's named paths at each ref with their neighbours, and the named files the report is about."""

    base: list[str]
    head: list[str]
    files: frozenset[str]


def _with_neighbours(b_src: FileSource, h_src: FileSource, config: Config, b_rel: Sequence[str],
                     h_rel: Sequence[str]) -> _Named | None:
    """Named files are diffed in their whole toolsets, as `check` reads them (`mates`): the other files of
    their folder of one-tool files or of their config toolset are read at both refs (a file the PR adds has
    its neighbours at the base too), so pairs with them are found and the toolset is a full run's. None
    when there are no such files."""
    b_sel, h_sel = select(b_src, config, b_rel), select(h_src, config, h_rel)
    b_near, h_near = mates.extend(b_src, config, b_sel)[0], mates.extend(h_src, config, h_sel)[0]
    if b_near is None and h_near is None:
        return None
    files = frozenset({*b_sel.paths, *h_sel.paths, *(e.file for e in (*b_sel.errors, *h_sel.errors))})
    more = sorted({*(b_near.selection.paths if b_near else ()), *(h_near.selection.paths if h_near else ())}
                  - files)
    return _Named([*b_rel, *more], [*h_rel, *more], files)


@dataclass(frozen=True, slots=True)
class _Refs:
    """The two trees a diff reads: the merge base of `base` and `head`, and `head` (or the work tree)."""

    git: GitRepo
    head_sha: str
    merge_base: str
    base_src: FileSource
    head_src: FileSource
    prefix: str  # `repo` inside the repository: paths and the config file are named relative to it
    base_tip: FileSource  # `base` itself: where a trusted base's config and baseline are read
    here: Path  # the folder the diff runs in, as given (not resolved): what an absolute path is named from

    @classmethod
    def open(cls, repo: str | Path, base: str, head: str, worktree: bool) -> _Refs:
        git = GitRepo(repo)
        head_sha = git.resolve(head)
        merge_base = git.merge_base_fetching(git.resolve(base), head_sha)
        head_src: FileSource = GitWorktreeSource(git) if worktree else GitSource(git, head_sha, label=head)
        prefix = Path(repo).resolve().relative_to(git.root.resolve()).as_posix()
        tip = git.resolve(base)
        return cls(git, head_sha, merge_base, GitSource(git, merge_base, label=base), head_src, prefix,
                   GitSource(git, tip, label=base), Path(repo).absolute())

    def in_tree(self, path: str) -> str:
        """`path`, named from the folder the diff runs in, from the repository root; one outside the
        repository starts with `..` or stays absolute (see `outside`)."""
        full = Path(posixpath.normpath((self.here / path).as_posix()))  # an absolute `path` stays itself
        for top, prefix in ((self.here, self.prefix), (self.git.root.resolve(), ".")):
            if full.is_relative_to(top):
                return posixpath.normpath(posixpath.join(prefix, full.relative_to(top).as_posix()))
        if not Path(path).is_absolute():  # `..` out of a folder reached through a link: git's root is real
            return posixpath.normpath(posixpath.join(self.prefix, path))
        # Through a link to the repository; the last part stays as named (a link in the tree is its own file).
        real, root = full.parent.resolve() / full.name, self.git.root.resolve()
        return real.relative_to(root).as_posix() if real.is_relative_to(root) else full.as_posix()


def _all_there(paths: Sequence[str], rel: Sequence[str], refs: _Refs, base: str, head: str) -> None:
    """A path at neither ref is a typo: the diff would pass forever, finding no tool changed."""
    if not paths:
        return
    for shown, path in zip(paths, rel, strict=True):  # it may exist on disk: "no such file" would mislead
        if outside(path):
            raise PathsError(f"{shown}: outside the repository at {refs.git.root}; a diff of refs compares "
                             "files in it (to compare two folders outside git, give BASE_PATH HEAD_PATH "
                             "without --base)")
    listed = {*refs.base_src.list_files(), *refs.head_src.list_files()}
    if (missing := first_missing(paths, rel, listed)) is not None:
        raise PathsError(f"{missing}: no such file or folder at {base} or {head}")


def _globs_match(config: Config, refs: _Refs, base: str, head: str) -> None:
    """The config's `paths` (and its toolsets' `files`, read as well) matching no file at either ref is a
    typo, or a folder renamed: the diff would find no tool changed on every PR and pass, where `check`
    exits 2 on the same config."""
    if not config.paths:
        return
    globs = [*config.paths, *(g for spec in config.toolsets for g in spec.files)]
    listed = {*refs.base_src.list_files(), *refs.head_src.list_files()}
    if not any(glob_match(f, g) for g in globs for f in listed):
        shown = ", ".join(repr(g) for g in config.paths)
        raise PathsError(f"paths: {shown} match{'es' * (len(config.paths) == 1)} no file at {base} or {head} "
                         "(the config's `paths`): nothing would be compared. Fix the glob, or name the "
                         "folder the tools are in now.")


def used_config(repo: str | Path, base: str, head: str, *, config_from: Literal["head", "base"] = "head",
                config_path: str | None = None, targets: Sequence[str] = (),
                adjust: Adjust | None = None) -> Config:
    """The config `run_diff` with the same arguments analyses both refs with."""
    refs = _Refs.open(repo, base, head, False)
    return load_configs(refs.base_tip if config_from == "base" else refs.base_src, refs.head_src, config_from,
                        refs.in_tree(config_path) if config_path else None, targets, adjust).used


def run_diff(
    repo: Path,
    base: str,
    head: str = "HEAD",
    *,
    worktree: bool = False,
    paths: Sequence[str] = (),
    config_from: Literal["head", "base"] = "head",
    run_commands: bool | None = None,
    token_methods: Sequence[str] | None = None,
    config_path: str | None = None,
    targets: Sequence[str] = (),
    commands_refused: str | None = None,
    adjust: Adjust | None = None,
    dumps: bool = False,
) -> Report:
    """Diff the merge base of `base` and `head` against `head` (or the work tree with `worktree`).
    `dumps`: the caller compares tool dumps as well, so the config's `paths` may name only generated files.

    `run_commands` (code-defined tools) defaults to on under `config_from="head"` only: under
    `pull_request_target` the head is untrusted code. A caller that turns them off says why in
    `commands_refused`, the note for a config that names some (None: no note).
    """
    refs = _Refs.open(repo, base, head, worktree)
    git, head_sha, merge_base, base_src, head_src = (refs.git, refs.head_sha, refs.merge_base, refs.base_src,
                                                     refs.head_src)
    rel = [refs.in_tree(p) for p in paths]
    _all_there(paths, rel, refs, base, "the work tree" if worktree else head)
    config_path = refs.in_tree(config_path) if config_path else None
    # A trusted base's config is its branch's tip: the PR chooses its merge base (a fork may branch from a
    # commit whose config or baseline was laxer), not the tip of the branch it asks to merge into.
    trusted_base = refs.base_tip if config_from == "base" else base_src
    cfg = load_configs(trusted_base, head_src, config_from, config_path, targets, adjust)
    config = cfg.used
    if not paths and not dumps:
        _globs_match(config, refs, base, "the work tree" if worktree else head)
    run = (config_from == "head") if run_commands is None else run_commands
    notes: list[str] = []
    target = None if worktree else head_sha
    b_read: FileSource = base_src
    h_read: FileSource = head_src
    b_known: dict[str, ParsedFile] = {}
    h_known: dict[str, ParsedFile] = {}
    if not cfg.full_scope:
        changed = git.changed_paths(merge_base, target) + (git.untracked_files() if worktree else [])
        keep, narrow_b, narrow_h = relevant_files(base_src, head_src, changed, config)
        b_read, h_read = narrow_b.source(base_src, keep), narrow_h.source(head_src, keep)
        b_known, h_known = narrow_b.parsed, narrow_h.parsed
    renames = git.renames(merge_base, target)
    b_rel, h_rel = _followed(rel, renames)
    named = _with_neighbours(b_read, h_read, config, b_rel, h_rel) if rel else None
    if named is not None:
        b_rel, h_rel = named.base, named.head
    with (codetools.worktree(git, merge_base) if run and config.sources else nullcontext()) as b_dir:
        base_side = _discover(base_src, config, b_rel, b_dir, b_read, b_known)
    # A command that fails at the base as at head (a missing dependency, a broken config line) says nothing
    # of the PR: compared like a file's parse error, head's failure would be `existing` and the PR would pass
    # with no tool read. Head's failure stays a finding; the base's is said in a note.
    for failure in base_side.command_failures:
        base_side.errors.remove(failure)
        why = " ".join(failure.message.split())
        notes.append(f"At the base, {failure.file} gave no tools ({why[:300]}): its tools at head show as "
                     "added.")
    if worktree:
        head_side = _discover(head_src, config, h_rel, git.root if run else None, h_read, h_known, base_side)
    else:
        with (codetools.worktree(git, head_sha) if run and config.sources else nullcontext()) as h_dir:
            head_side = _discover(head_src, config, h_rel, h_dir, h_read, h_known, base_side)
    if rel:  # `_all_there` has checked them: a path not at one ref is a file the PR adds, deletes or renames
        for side in (base_side, head_side):  # (or one narrowing did not read, as the PR leaves it as it was)
            side.errors = [e for e in side.errors if e.message != NOTHING_TO_READ]
    # With `worktree`, the head's run is in the user's own work tree (its edits, its untracked files).
    where = "of the base and in the work tree" if worktree else "of each ref"
    for cmd in dict.fromkeys(base_side.commands_ran + head_side.commands_ran):
        notes.append(f"Ran the configured command `{cmd}` in a temporary worktree {where}.")
    if config.sources and not run:
        refused = ("Configured commands were not run (untrusted head under pull_request_target)."
                   if run_commands is None else commands_refused)
        notes += [refused] if refused else []
    report = diff_sides(base_side, head_side, renames, config, full=cfg.full_scope, notes=notes,
                        changes=config_changes(base_src, head_src, cfg),
                        base_ref=merge_base, head_ref=None if worktree else head_sha,
                        token_methods=token_methods, baseline_from=config_from,
                        baseline_source=refs.base_tip if config_from == "base" else None)
    if named is not None:  # the report of the named files, as `check` cuts one (`mates.cut`)
        report = mates.cut(report, named.files)
    wrote = _config_bytes(base_src, cfg.path) != _config_bytes(head_src, cfg.path)
    if cfg.full_scope and not paths and wrote:
        # This PR wrote the config, and every file was read: say what of it names nothing, as `check` does
        # (what dumps the caller compares apart may answer is not judged).
        tree = _Tree(head_side.toolsets, [t for ts in head_side.toolsets for t in ts.tools], report.findings)
        report = report.noted(*unmatched_settings(config, tree, dumped=dumps, dumps_apart=dumps))
    return report


@dataclass(frozen=True, slots=True)
class _Tree:
    """A diff's head side as `check.unmatched_settings` judges a whole tree."""

    toolsets: Sequence[Toolset]
    tools: Sequence[Tool]
    findings: Sequence[Finding]


def run_diff_paths(base_path: Path, head_path: Path, config: Config | None = None,
                   token_methods: Sequence[str] | None = None, adjust: Adjust | None = None) -> Report:
    """Two files or two folders outside git. Two files of different names are one toolset renamed; a file
    and a folder compare the file with the folder's one toolset."""
    base_path, head_path = Path(base_path), Path(head_path)
    for path in (base_path, head_path):
        if not path.exists():
            raise PathsError(f"{path}: no such file or folder")
        if not path.is_file() and not path.is_dir():  # a FIFO would wait for a writer
            raise PathsError(f"{path}: not a regular file or a folder")
    b_src: FileSource = OneFile(base_path) if base_path.is_file() else WorktreeSource(base_path)
    h_src: FileSource = OneFile(head_path) if head_path.is_file() else WorktreeSource(head_path)
    if config is not None:  # the named one for both sides: their own are not read
        config = adjust(config) if adjust else config
        cfg = Configs(config, config, None, "head")
    else:
        cfg = load_configs(b_src, h_src, "head", adjust=adjust)
    # A file named outright is reported if it does not parse, tool keys or not (a failed capture).
    base_side = _discover(b_src, cfg.used, [base_path.name] if base_path.is_file() else (), None)
    head_side = _discover(h_src, cfg.used, [head_path.name] if head_path.is_file() else (), None,
                          base=base_side)
    renames: dict[str, str] = {}
    if base_path.is_file() and head_path.is_file():
        renames = {base_path.name: head_path.name} if base_path.name != head_path.name else {}
    elif base_path.is_file() or head_path.is_file():
        renames = _file_to_folder(base_side, head_side, head_path.is_dir(), head_path if head_path.is_dir()
                                  else base_path)
    return diff_sides(base_side, head_side, renames, cfg.used, full=cfg.full_scope,
                      base_ref=str(base_path), head_ref=str(head_path),
                      changes=config_changes(b_src, h_src, cfg), token_methods=token_methods)


def _file_to_folder(base: Side, head: Side, folder_is_head: bool, folder: Path) -> dict[str, str]:
    """The renames that match the file's toolset with the folder's, when the folder holds only one."""
    in_folder = head.toolsets if folder_is_head else base.toolsets
    if len(in_folder) > 1:
        raise PathsError(f"{folder} holds {len(in_folder)} toolsets: compare a file with a folder of one "
                         "toolset, or two folders")
    if not base.toolsets or not head.toolsets:
        return {}  # one side has no tools: nothing to match
    return {base.toolsets[0].id: head.toolsets[0].files[0]}

