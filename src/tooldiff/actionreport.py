"""The Report an action run is about: a PR diff or an audit, plus code-defined tools from dump files.

The action never runs a configured `command:` itself: earlier workflow steps dump code-defined tools to
files (`base-tools`, `head-tools`), and the action reads those files as data. Under `pull_request_target`
the head is read from git objects only and both refs use the base's config.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tooldiff.config import Config, Selection
from tooldiff.eventplan import Plan
from tooldiff.model import Report, code_label
from tooldiff.settings import Settings, SettingsError

if TYPE_CHECKING:
    from tooldiff.sources import FileSource

COMMANDS_REFUSED = ("Configured `command:` sources were not run: the action reads code-defined tools from "
                    "the `base-tools`/`head-tools` files that earlier steps wrote.")


def _dump(settings: Settings, name: str | None) -> Path | None:
    if not name:
        return None
    root = settings.workspace.resolve()
    path = (settings.workspace / name).resolve()
    if not path.is_relative_to(root):  # `../x`, `/etc/x`, or a link out of the checkout (a PR may commit one)
        raise SettingsError(f"tool dump {name!r} is outside the workspace ({settings.workspace}), or a "
                            "symbolic link that leads out of it: the action's container sees only the "
                            "workspace, so write the dump inside it and give a path relative to it")
    if not path.is_file():
        raise SettingsError(f"tool dump {name!r} does not exist")
    return path


def merge(a: Report, b: Report) -> Report:
    """Two reports of disjoint toolsets as one."""
    stats = dict(a.stats)
    for key, value in b.stats.items():
        stats[key] = stats.get(key, 0) + value
    return dataclasses.replace(
        a, toolsets=a.toolsets + b.toolsets, tools=a.tools + b.tools, findings=a.findings + b.findings,
        resolved=a.resolved + b.resolved, stats=stats, notes=tuple(dict.fromkeys(a.notes + b.notes)),
        config_changes=a.config_changes + b.config_changes)


def for_dump(config: Config) -> Config:
    """The config a tool dump is analysed with: its rules, targets and ignores, not the globs that choose
    the repository's files (`paths`, `exclude`, toolsets' `files`), which do not name a dump's file."""
    return dataclasses.replace(config, paths=(), exclude=(), toolsets=())


def code_defined(report: Report, head: str, base: str) -> Report:
    """A dump's tools and findings as code-defined, `$(head-tools build/tools.json)`, as a `command:`
    source's are: no file of the repository holds them, so nothing annotates or links one. What is from the
    base dump (resolved findings, removed tools) is labelled with it: both dumps may have one file name."""
    def placed(items: tuple[Any, ...], label: str) -> tuple[Any, ...]:
        return tuple(dataclasses.replace(x, file=code_label(label)) if x.file else x for x in items)

    gone = tuple(t for t in report.tools if t.change == "removed")
    kept = tuple(t for t in report.tools if t.change != "removed")
    return dataclasses.replace(report, tools=placed(kept, head) + placed(gone, base or head),
                               findings=placed(report.findings, head),
                               resolved=placed(report.resolved, base or head))


def _selection(settings: Settings) -> Selection:
    """The `select`, `ignore` and `warn-above` inputs, as the command line's flags."""
    return Selection(settings.select, settings.ignore, warn_above=settings.warn_above)


def _diff(settings: Settings, plan: Plan) -> Report:
    from tooldiff import diffrun

    assert plan.base is not None and plan.head is not None
    base_dump, head_dump = _dump(settings, settings.base_tools), _dump(settings, settings.head_tools)
    both = bool(base_dump and head_dump)
    # On every event the action never runs commands, whoever wrote the config: the dumps stand for them.
    chosen = _selection(settings)
    config_from: Literal["head", "base"] = "head" if plan.trusted_head else "base"
    report = diffrun.run_diff(settings.workspace, plan.base, plan.head, paths=settings.paths,
                              config_from=config_from, run_commands=False,
                              config_path=settings.config or None, targets=tuple(settings.targets),
                              commands_refused=None if both else COMMANDS_REFUSED, adjust=chosen.apply,
                              dumps=both)
    if base_dump and head_dump:
        # The dumps are analysed with the config the diff used: its rules, ignores and the targets input.
        config = diffrun.used_config(settings.workspace, plan.base, plan.head, config_from=config_from,
                                     config_path=settings.config or None, targets=tuple(settings.targets),
                                     adjust=chosen.apply)
        dumped = diffrun.run_diff_paths(base_dump, head_dump, config=for_dump(config))
        report = merge(report, code_defined(dumped, f"head-tools {settings.head_tools}",
                                            f"base-tools {settings.base_tools}"))
    elif base_dump or head_dump:
        report = report.noted(
            "Code-defined tools were not compared: give both `base-tools` and `head-tools`.")
    return report


def _all_there(source: FileSource, paths: Sequence[str], workspace: Path | None = None) -> None:
    """A `paths` entry that names nothing is a typo, said as one (exit 2), as a diff says it: as a finding
    it would put a code-scanning alert on a file that does not exist. One that an earlier step wrote and
    did not commit is said as that: the audit reads the commit."""
    from tooldiff.sources import PathsError, first_missing, outside

    if not paths:
        return
    rel = [posixpath.normpath(p.replace("\\", "/")).strip("/") for p in paths]
    if (missing := first_missing(paths, rel, source.list_files())) is None:
        return
    label = getattr(source, "label", "")
    # Where the listing looked, in the workspace: `/etc` is read as `etc`, not as the container's /etc.
    there = rel[list(paths).index(missing)]
    if workspace is not None and label and not outside(there) and (workspace / there).exists():
        raise PathsError(f"{missing}: in the workspace but not committed at {label}: the audit reads the "
                         "commit, as a diff does, so a file an earlier step wrote is not seen. Commit it, or "
                         "give generated tools as the `head-tools` input.")
    raise PathsError(f"{missing}: no such file or folder in the checkout")


def _audit(settings: Settings, plan: Plan) -> Report:
    from tooldiff.check import find_config, run_check, unmatched_paths, unmatched_settings
    from tooldiff.gitread import GitError, GitRepo, GitSource
    from tooldiff.sources import OneFile, PathsError, WorktreeSource

    source: FileSource = WorktreeSource(settings.workspace)
    trusted: FileSource | None = None  # where the config and baseline come from, if not `source`
    head = plan.head
    try:
        repo = GitRepo(settings.workspace)
        head = repo.resolve(head or "HEAD")
        source = GitSource(repo, head, label=head)
        if not plan.trusted_head:  # pull_request_target: the PR's own config and baseline could silence it
            base = repo.resolve(plan.base) if plan.base else repo.resolve("HEAD")
            trusted = GitSource(repo, base, label=base)
    except GitError:
        if not plan.trusted_head:
            raise SettingsError("the base commit of this pull_request_target run cannot be read, so an "
                                "audit would have to use the PR's own config") from None
    _all_there(source, settings.paths, Path(settings.workspace))
    config = _selection(settings).apply(find_config(trusted or source, settings.config))
    if settings.targets and hasattr(config, "targets"):
        config = dataclasses.replace(config, targets=tuple(settings.targets))
    report = run_check(source, config, settings.paths, mode="audit", head_ref=head, baseline_source=trusted)
    files_read = bool(report.tools or report.findings)
    head_dump = _dump(settings, settings.head_tools)
    if head_dump:
        # The dump stands alone: its tools are not the repository's files beside it.
        dumped = run_check(OneFile(head_dump), for_dump(config), [head_dump.name], mode="audit",
                           head_ref=head)
        report = merge(report, code_defined(dumped, f"head-tools {settings.head_tools}", ""))
    if not settings.paths:  # the whole tree: what the config names and the tree lacks is known, and said
        if config.paths and not files_read and not head_dump:  # as `check`: not a pass on nothing
            globs = unmatched_paths(config, report)
            raise PathsError(f"paths: {', '.join(map(repr, globs))} match{'es' * (len(globs) == 1)} no tool "
                             f"file committed at {head}: nothing was checked.")
        report = report.noted(*unmatched_settings(config, report, dumped=bool(head_dump)))
    if getattr(config, "sources", ()) and not head_dump:
        report = report.noted(COMMANDS_REFUSED)
    return report


def analyse_plan(settings: Settings, plan: Plan) -> Report:
    return _diff(settings, plan) if plan.kind == "diff" else _audit(settings, plan)
