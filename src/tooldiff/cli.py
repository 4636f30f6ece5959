"""The command line. With `action.py`, the only module that decides where output goes."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tooldiff import __version__
from tooldiff.model import SEVERITY_RANK, Report

if TYPE_CHECKING:
    from tooldiff.config import Config
    from tooldiff.render.context import PathsFrom

# `github` is the job summary, as the Action writes it to $GITHUB_STEP_SUMMARY; `annotations` are the
# workflow commands the Action prints to the log.
FORMATS = ("text", "json", "markdown", "sarif", "github", "annotations")
FAIL_ON = ("error", "warning", "info", "never")
_EXTENSIONS = {"json": "json", "markdown": "md", "sarif": "sarif", "github": "md"}


def fail_level(args: argparse.Namespace, report: Report) -> str:
    """`--fail-on` if given, else the run's config's `fail_on` (default: error)."""
    return str(args.fail_on or report.fail_on)


def failing(report: Report, fail_on: str) -> int:
    """How many `new` findings reach `fail_on`: the exit code is 1 when any do."""
    if fail_on == "never":
        return 0
    limit = SEVERITY_RANK[fail_on]
    return sum(1 for f in report.findings if f.status == "new" and SEVERITY_RANK[f.severity] <= limit)


def _emit(
    report: Report, fmt: str, output: str | None, statistics: bool = False, root: Path | None = None
) -> None:
    """`root`: the folder the report's paths are relative to; text shows them from where the command ran."""
    from tooldiff.progress import colour_wanted
    from tooldiff.render import RenderContext, render
    from tooldiff.render.context import PathsFrom

    output = None if output == "-" else output  # stdout, as most tools read it; `./-` names such a file
    colour = fmt == "text" and output is None and colour_wanted(sys.stdout)
    paths_from = _paths_from(root) if fmt == "text" else PathsFrom()
    text = render(fmt, report, RenderContext(colour=colour, statistics=statistics, paths_from=paths_from))
    text = text if text.endswith("\n") else text + "\n"  # a file gets what stdout shows
    if output:
        if output.endswith(("/", os.sep)):  # Path() drops the slash: a file would take the folder's name
            from tooldiff.sources import PathsError

            raise PathsError(f"cannot write {output}: it names a folder; name a file, such as "
                             f"{output}report.{_EXTENSIONS.get(fmt, 'txt')}")
        _write(Path(output), text)
    else:
        sys.stdout.write(text)


def _rooted(report: Report, base: Path, head: Path, config: str | None = None) -> tuple[Report, Path | None]:
    """`diff A B`'s report with paths from the root `check` would use here (`b/tools.json`, not
    `tools.json`): JSON, SARIF and annotations name files there. Each side's files are under its own
    folder; a base folder outside that root (a checkout in a temporary folder) gives absolute paths. With
    the head outside it, the head's paths stay inside the head folder (the text shows them from there), and
    the base's are absolute."""
    import dataclasses
    import posixpath

    from tooldiff.check import project_root
    from tooldiff.model import is_code_label

    root = project_root(Path.cwd(), config).resolve()
    base_dir, head_dir = ((p if p.is_dir() else p.parent).resolve() for p in (base, head))
    if head_dir.is_relative_to(root):
        below = {"head": head_dir.relative_to(root).as_posix(),
                 "base": base_dir.relative_to(root).as_posix() if base_dir.is_relative_to(root)
                 else base_dir.as_posix()}
    else:  # paths stay inside the head folder; the base's, in another folder, are named in full
        root = head_dir
        below = {"head": ".", "base": "." if base_dir == head_dir else base_dir.as_posix()}

    def at(side: str, file: str) -> str:
        prefix = below[side]
        return file if not file or is_code_label(file) or prefix == "." else posixpath.join(prefix, file)

    return dataclasses.replace(
        report,
        findings=tuple(dataclasses.replace(f, file=at("head", f.file)) for f in report.findings),
        resolved=tuple(dataclasses.replace(f, file=at("base", f.file)) for f in report.resolved),
        tools=tuple(dataclasses.replace(t, file=at("base" if t.change == "removed" else "head", t.file))
                    for t in report.tools),
        toolsets=tuple(
            dataclasses.replace(ts, files=tuple(at("base" if ts.change == "removed" else "head", f)
                                                for f in ts.files))
            for ts in report.toolsets),
    ), root


def _paths_from(root: Path | None) -> PathsFrom:
    """The working folder relative to `root`, for text paths that open from there."""
    from tooldiff.render.context import PathsFrom

    if root is None:
        return PathsFrom()
    cwd, top = Path.cwd().absolute(), root.absolute()
    if cwd.is_relative_to(top):
        here = cwd.relative_to(top).as_posix()
        return PathsFrom(here="" if here == "." else here)
    return PathsFrom(up=Path(os.path.relpath(top, cwd)).as_posix())


def _write(path: Path, text: str) -> None:
    """Missing folders are made, as ruff's --output-file does; a path that cannot be written exits 2."""
    from tooldiff.sources import PathsError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise PathsError(f"cannot write {path}: {exc.strerror or exc}") from None


def _token_methods(args: argparse.Namespace) -> tuple[str, ...] | None:
    shows_tokens = args.format in ("json", "markdown", "github")
    if args.tokens == "all" or (args.tokens == "auto" and shows_tokens):
        return None
    return ("estimate",)


def _selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", action="append", metavar="CODES",
                   help="run only these rules, even ones the config turns off (comma-separated or "
                        "repeated; parse errors are still reported)")
    p.add_argument("--ignore", action="append", metavar="CODES",
                   help="turn these rules off for this run (comma-separated or repeated); wins over "
                        "--select and the config")
    p.add_argument("--targets", action="append", metavar="TARGETS",
                   help="lint for these providers (openai-strict, openai, anthropic, anthropic-strict, "
                        "google; comma-separated or repeated), as the config's `targets`: per-toolset and "
                        "per-tool targets in the config still win; default: by each tool's format")
    p.add_argument("--warn-above", type=_positive, metavar="TOKENS",
                   help="heavy-definition's budget for this run: a tool whose estimate exceeds TOKENS is "
                        "heavy (over the config's `budgets.tool_tokens` and the rule's `budget` option)")


def _selected(args: argparse.Namespace, config: Config) -> Config:
    """The config with `--select` and `--ignore` applied (parsed once, before any work: see `_main`)."""
    return args.selection.apply(config) if args.selection is not None else config


_CHECK_CONFIG = ("config file (default: .tooldiff.yml at the root, if any); named, it roots the run at this "
                 "folder and must lie inside it")
_DIFF_CONFIG = ("config file (default: .tooldiff.yml at the root, if any), read from each ref as a path from "
                "the repository root; a diff of two paths reads each folder's own, else the root's")


def _common(p: argparse.ArgumentParser, config_help: str = _CHECK_CONFIG) -> None:
    p.add_argument("--config", help=config_help)
    _selection(p)
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text for a terminal, json (report.schema.json), markdown (the PR comment), sarif "
                        "(code scanning), github (the job summary, Markdown for $GITHUB_STEP_SUMMARY), "
                        "annotations (workflow commands, ::error file=...:: lines for the job log); "
                        "default: text")
    p.add_argument("--output", "-o",
                   help="write the report here, not to stdout (missing folders are made; -: stdout)")
    p.add_argument("--statistics", action="store_true",
                   help="text: one line per rule code with its count of new findings, not every finding")
    p.add_argument("--fail-on", choices=FAIL_ON,
                   help="exit 1 when a new finding reaches this severity (default: the config's fail_on, "
                        "else error)")
    p.add_argument("--tokens", choices=("auto", "estimate", "all"), default="auto",
                   help="token counting methods: all available, or the estimate only (default: all when "
                        "the output format shows tokens: json, markdown, github); with all, text shows "
                        "each method's figures on a line of its own")
    p.add_argument("--jobs", "-j", type=_positive, metavar="N",
                   help="processes for a big run (default: TOOLDIFF_JOBS, else one per CPU, at most 4; "
                        "1: this process only). The output is the same whatever N.")


def _positive(raw: str) -> int:
    try:
        n = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {raw!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return n


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tooldiff",
        description="Review AI-agent tool definitions: provider schema lint, overlap between tools, "
        "token and schemaHash deltas.",
        epilog="`tooldiff COMMAND --help` for a command's options; `tooldiff explain CODE` for a rule.",
    )
    parser.add_argument("--version", action="version", version=f"tooldiff {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="analyse tool definitions in files or folders")
    p.add_argument("paths", nargs="*",
                   help="files or folders (default: the repository's tool files, found as the config says or "
                        "by their content). A path named here, `.` included, reports every JSON/YAML file "
                        "under it that does not parse, as a `paths` glob in the config does; with neither, "
                        "one that holds no tool keys is skipped")
    p.add_argument("--skip-non-tool-files", action="store_true",
                   help="skip a named file that holds no tool keys, even when it does not parse, as "
                        "discovery does (for hooks that pass every changed JSON/YAML file); a broken file "
                        "that looks like tools is still reported")
    _common(p)

    p = sub.add_parser("describe", help="one row per tool: tokens, schemaHash, findings")
    p.add_argument("paths", nargs="+", help="files or folders")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: a table; json: for each tool its tokens (the estimate), descriptionChars, "
                        "schemaHash, targets, issues and ok (no error among them), with the totals tokens "
                        "and issueCount")
    p.add_argument("--config", help=_CHECK_CONFIG)
    _selection(p)

    p = sub.add_parser("diff", help="compare tool definitions between two refs or two paths")
    p.add_argument("--base", help="base ref; the merge base with HEAD is compared, as GitHub does")
    p.add_argument("--head", help="head ref (default: HEAD)")  # None: a two-path diff can tell it was given
    p.add_argument("--worktree", action="store_true",
                   help="compare the work tree (uncommitted and untracked files included) instead of the "
                        "head ref, which then only chooses the merge base")
    p.add_argument("paths", nargs="*",
                   help="with --base: only these files or folders; without it: two paths, "
                        "BASE_PATH HEAD_PATH, compared as base and head (two files, two folders, or a "
                        "file and a folder of one toolset; a missing path is an error)")
    _common(p, _DIFF_CONFIG)

    p = sub.add_parser("baseline", help="accept the current findings: write the baseline file")
    p.add_argument("paths", nargs="*", help="files or folders (default: as check)")
    p.add_argument("--config", help=_CHECK_CONFIG)
    p.add_argument("--reason", default="accepted when the baseline was written",
                   help="the reason recorded for findings not yet in the baseline (those already in it keep "
                        "theirs)")

    sub.add_parser("rules", help="list the rules")
    p = sub.add_parser("explain", help="print a rule's documentation")
    p.add_argument("code", help="a rule code, as `tooldiff rules` lists them")

    p = sub.add_parser("init", help="write a workflow and a commented .tooldiff.yml at the repository root")
    p.add_argument("--force", action="store_true", help="overwrite files that differ from what init writes")

    sub.add_parser("github",
                   help="run as the GitHub Action (reads GITHUB_* and INPUT_*); only inside a GitHub Actions "
                        "job")
    return parser


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._actions:  # argparse keeps its subcommands' parsers on this one action
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices.get(command, parser)
            return found
    return parser


# The commands that may fork workers, and so read TOOLDIFF_JOBS (`github` runs a check or a diff).
_FORKS = frozenset({"check", "diff", "describe", "baseline", "github"})


def main(argv: Sequence[str] | None = None) -> int:
    top = build_parser()
    args = top.parse_args(argv)
    parser = _command_parser(top, args.command)  # its usage, not the top-level one, goes with an error
    if getattr(args, "statistics", False) and args.format != "text":
        parser.error("--statistics is for --format text; the other formats list every finding")
    jobs = getattr(args, "jobs", None)
    if not jobs:
        raw = os.environ.get("TOOLDIFF_JOBS", "").strip()
        if raw and args.command in _FORKS:  # `rules` does not read it: a bad value must not stop it
            try:
                _positive(raw)
            except argparse.ArgumentTypeError as exc:  # else a typo would run one process without a word
                like = ", like --jobs" if hasattr(args, "jobs") else ""  # a command without --jobs: no hint
                parser.error(f"TOOLDIFF_JOBS={raw}: {exc}; it caps the processes{like}")
        return _main(args)
    before = os.environ.get("TOOLDIFF_JOBS")
    os.environ["TOOLDIFF_JOBS"] = str(jobs)  # what `workers.jobs_available` reads, in every stage
    try:
        return _main(args)
    finally:
        if before is None:
            del os.environ["TOOLDIFF_JOBS"]
        else:
            os.environ["TOOLDIFF_JOBS"] = before


def _main(args: argparse.Namespace) -> int:
    from tooldiff.baseline import BaselineError
    from tooldiff.config import ConfigError
    from tooldiff.gitread import GitError
    from tooldiff.sources import PathsError

    try:
        args.selection = None
        if any(getattr(args, flag, None) for flag in ("select", "ignore", "targets", "warn_above")):
            from tooldiff.config import Selection

            # An unknown code or target is a usage error before any file or ref is read.
            args.selection = Selection.parse(args.select, args.ignore, getattr(args, "targets", None),
                                             getattr(args, "warn_above", None))
        return _dispatch(args)
    except (ConfigError, GitError, BaselineError, PathsError) as exc:
        from tooldiff.render.escape import plain

        # One line, no controls: a config key from a PR must not forge a `::command::` line in a CI log.
        print(f"tooldiff: {plain(exc)}", file=sys.stderr)
        return 2


def _dispatch(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd == "check":
        from tooldiff.check import invocation, run_check
        from tooldiff.progress import Progress, interactive

        run = invocation(args.paths, args.config)
        config = _selected(args, run.config)
        with Progress(sys.stderr, interactive(sys.stderr)) as progress:
            report = run_check(run.source, config, run.paths, token_methods=_token_methods(args),
                               progress=progress.update, named=run.named and not args.skip_non_tool_files)
        if (nothing := _paths_match_nothing(run.paths, config, report)) is not None:
            print(f"tooldiff: {nothing}", file=sys.stderr)  # a required check must not pass on nothing
            return 2
        report = _check_notes(report, config, whole_tree=not run.paths)
        _emit(report, args.format, args.output, args.statistics, run.source.root)
        return 1 if failing(report, fail_level(args, report)) else 0
    if cmd == "diff":
        return _diff(args)
    if cmd == "describe":
        from tooldiff.check import invocation, run_check
        from tooldiff.describe import describe_json, render_describe

        run = invocation(args.paths, args.config)
        config = _selected(args, run.config)
        # Its table shows tokens per method (the README's promise), so every available method is counted.
        report = run_check(run.source, config, run.paths, token_methods=None, named=run.named)
        report = _check_notes(report, config, whole_tree=not run.paths, command="describe")
        if args.format == "json":
            sys.stdout.write(describe_json(report))
        else:
            sys.stdout.write(render_describe(report, _paths_from(run.source.root)))
        missing = [p for p in args.paths if not Path(p).exists()]
        for path in missing:  # a typo: a script must not read "described" from an exit 0
            from tooldiff.render.escape import plain

            print(f"tooldiff: {plain(path)}: no such file or folder", file=sys.stderr)
        return 2 if missing else 0
    if cmd == "baseline":
        return _baseline(args)
    if cmd in ("rules", "explain"):
        from tooldiff import docs

        if cmd == "rules":
            sys.stdout.write(docs.render_rules_text())
            return 0
        code = args.code.strip().lower().replace("_", "-")  # INTENT_OVERLAP, as a constant might spell it
        if code not in docs.codes():
            import difflib  # only on this error path: not at every start

            close = difflib.get_close_matches(code, docs.codes(), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            print(f"tooldiff: unknown rule {args.code!r}{hint} (see `tooldiff rules`)", file=sys.stderr)
            return 2
        sys.stdout.write(docs.render_rule_markdown(code))
        return 0
    if cmd == "init":
        from tooldiff.check import repository_root
        from tooldiff.init import run_init

        # GitHub reads workflows from the repository root only, and runs are rooted there.
        root = repository_root(Path.cwd().absolute())
        if root != Path.cwd().absolute():
            print(f"tooldiff: writing at the repository root, {root}", file=sys.stderr)
        return run_init(root, force=args.force)
    if cmd == "github":
        if os.environ.get("GITHUB_ACTIONS") != "true":  # no event: it would pass on nothing
            print("tooldiff: `tooldiff github` runs only inside a GitHub Actions job (GITHUB_ACTIONS is not "
                  "\"true\"); here, use `tooldiff check` or `tooldiff diff --base REF`", file=sys.stderr)
            return 2
        from tooldiff.action import main as action_main

        return action_main()
    raise AssertionError(cmd)


def _diff(args: argparse.Namespace) -> int:
    from tooldiff import diffrun

    if args.base is None:
        if len(args.paths) != 2:
            print("tooldiff: give --base REF, or two paths: BASE_PATH HEAD_PATH", file=sys.stderr)
            return 2
        # Two paths compare files on disk: a ref option would be ignored without a word.
        given = [flag for flag, on in (("--head", args.head is not None), ("--worktree", args.worktree))
                 if on]
        if given:
            print(f"tooldiff: {' and '.join(given)} {'is' if len(given) == 1 else 'are'} for a diff of refs, "
                  "with --base REF; two paths, BASE_PATH HEAD_PATH, are compared as they are on disk",
                  file=sys.stderr)
            return 2
        from tooldiff.check import CONFIG_NAMES, find_config, project_root
        from tooldiff.sources import PathsError, WorktreeSource

        if _names_refs(args.paths):
            base, head = args.paths
            missing = next(p for p in args.paths if not Path(p).exists())
            raise PathsError(f"{missing}: no such file or folder; to compare two refs, give "
                             f"--base {base} --head {head}")
        # The named config is a file here, as for `check --config`; else each compared folder's own, and
        # where they have none, the one `check` reads from here (a project comparing two of its outputs).
        config = find_config(WorktreeSource(Path.cwd()), args.config) if args.config else None
        if config is None and not any(_own_config(Path(p)) for p in args.paths):
            home = project_root(Path.cwd())
            if any((home / name).is_file() for name in CONFIG_NAMES):
                config = find_config(WorktreeSource(home), None)
        report = diffrun.run_diff_paths(Path(args.paths[0]), Path(args.paths[1]), config,
                                        token_methods=_token_methods(args),
                                        adjust=lambda c: _selected(args, c))
        report, root = _rooted(report, Path(args.paths[0]), Path(args.paths[1]), args.config)
    elif args.worktree and args.base == "HEAD" and not _has_commits(Path.cwd()):
        # The first commit (the pre-commit hook's case): nothing to compare with, so every finding is new.
        from tooldiff.check import invocation, run_check

        run = invocation(args.paths, args.config)
        report = run_check(run.source, _selected(args, run.config), run.paths,
                           token_methods=_token_methods(args), named=run.named)
        root = run.source.root
    else:
        # In a pull_request_target (or workflow_run, issue_comment...) workflow the job holds the base's
        # secrets and write token: as the Action does, the PR's config may not accept its own findings, and
        # no command of the PR runs.
        event = os.environ.get("GITHUB_EVENT_NAME", "")
        in_actions = os.environ.get("GITHUB_ACTIONS") == "true"  # an event name lost on the way fails safe
        untrusted = (bool(event) or in_actions) and event not in TRUSTED_EVENTS
        report = diffrun.run_diff(Path.cwd(), args.base, args.head or "HEAD", worktree=args.worktree,
                                  paths=args.paths, token_methods=_token_methods(args),
                                  config_path=args.config, config_from="base" if untrusted else "head",
                                  adjust=lambda c: _selected(args, c))
        if untrusted:
            report = report.noted(f"Under {event or 'this event'} the base's .tooldiff.yml and baseline were "
                                  "used, and no configured command ran: the PR's own are not trusted with "
                                  "this workflow's secrets.")
        from tooldiff.check import repository_root

        root = repository_root(Path.cwd().absolute())  # where git's paths start: no second git process
    _emit(report, args.format, args.output, args.statistics, root)
    return 1 if failing(report, fail_level(args, report)) else 0


# GitHub events whose job runs the code it checks with no more than that code's own rights (a fork's
# `pull_request` gets a read-only token and no secrets). Any other (pull_request_target, workflow_run,
# issue_comment, ...) may hold the base's secrets while its files come from a PR: none of the PR is trusted.
TRUSTED_EVENTS = frozenset({"pull_request", "push", "merge_group", "workflow_dispatch", "schedule"})


def _names_refs(paths: list[str]) -> bool:
    """A path that does not exist while both name commits here: `git diff main HEAD` habits."""
    if all(Path(p).exists() for p in paths):
        return False
    from tooldiff.gitread import GitError, GitRepo

    try:
        repo = GitRepo(Path.cwd())
        for ref in paths:
            repo.rev_parse(ref)
    except GitError:
        return False
    return True


def _check_notes(report: Report, config: Config, *, whole_tree: bool, command: str = "check") -> Report:
    """What the check could not do as configured, said rather than silently skipped. `command` is the one
    that ran (`check` or `describe`), for the note to name it."""

    from tooldiff.check import unmatched_settings

    notes: list[str] = []
    if config.sources:
        # check reads files only: configured `sources` commands run under `diff`, so a repository whose
        # tools are defined in code must not look clean and empty without a word.
        listed = ", ".join(f"`{s.command}`" for s in config.sources)
        notes.append(f"The configured sources {listed} were not run: `tooldiff {command}` reads files only; "
                     "`tooldiff diff` runs them in a temporary worktree of each ref.")
    if whole_tree:  # over some paths only, the rest of the tree was not read: no claim about it
        notes += unmatched_settings(config, report)
    return report.noted(*notes)


def _own_config(path: Path) -> bool:
    from tooldiff.check import CONFIG_NAMES

    return path.is_dir() and any((path / name).is_file() for name in CONFIG_NAMES)


def _has_commits(path: Path) -> bool:
    from tooldiff.gitread import GitError, GitRepo

    try:
        return GitRepo(path).has_commits()
    except GitError:
        return True  # not a repository: run_diff says so


def _paths_match_nothing(paths: Sequence[str], config: Config, report: Report) -> str | None:
    """What to say when the config's `paths` found nothing in a whole-tree run: a typo, or a folder
    renamed."""
    if paths or not config.paths or report.tools or report.findings:
        return None
    from tooldiff.check import unmatched_paths

    globs = unmatched_paths(config, report)
    verb = "matches" if len(globs) == 1 else "match"
    return f"paths: {', '.join(map(repr, globs))} {verb} no tool file: nothing was checked."


def _baseline(args: argparse.Namespace) -> int:
    from tooldiff.baseline import dump_baseline, load_baseline, moved_reasons, outside, within
    from tooldiff.check import invocation, run_check
    from tooldiff.render.escape import plain
    from tooldiff.sources import PathsError

    missing = next((p for p in args.paths if not Path(p).exists()), None)
    if missing is not None:  # a typo would write a baseline of nothing for it, and say it had
        raise PathsError(f"{plain(missing)}: no such file or folder")
    run = invocation(args.paths, args.config)  # the config is read once, and the baseline goes beside it
    if run.source.root != run.home.resolve():  # its entries would name toolsets no check of it sees
        raise PathsError(f"{plain(' '.join(args.paths))}: outside {plain(run.home)}, the folder the baseline "
                         "is for; a baseline holds findings of files under its own folder")
    report = run_check(run.source, run.config, run.paths, token_methods=("estimate",), named=run.named)
    if (nothing := _paths_match_nothing(run.paths, run.config, report)) is not None:
        raise PathsError(f"{nothing} The baseline was not written.")  # it would drop every entry
    # A file that does not parse cannot be accepted: what it would hide is unknown.
    broken = sorted({f.file for f in report.findings if f.code == "parse-error"})
    keep = [f for f in report.findings if f.status in ("new", "baselined") and f.code != "parse-error"]
    target = run.home / run.config.baseline
    # Committed by a branch, a link could point anywhere (`check` does not read through one either): the
    # file, and every folder on the way to it, must be real.
    linked = [p for p in (target, *target.parents) if run.home in p.parents and p.is_symlink()]
    if linked:
        raise PathsError(f"the baseline {plain(run.config.baseline)} is reached through a symbolic link "
                         f"({plain(linked[-1].relative_to(run.home))}): tooldiff neither reads nor writes a "
                         "baseline through one; replace it with a file")
    old = load_baseline(target.read_bytes() if target.is_file() else None, run.config.baseline)
    # Over some paths only (a subfolder, paths given), the entries this run did not check stay as they are.
    unchecked = outside(old, run.paths, {(t.toolset, t.name) for t in report.tools})
    # `sources` commands run under `diff` only, which applies the baseline to their tools too: the entries
    # of their toolsets were not checked here, so they stay as they are.
    code = {s.toolset for s in run.config.sources}
    # A file that does not parse was not read either: its toolset's entries wait for it to parse again.
    held = {str(row.get("fingerprint")) for row in unchecked}
    unchecked += [row for fingerprint, row in old.rows.items() if fingerprint not in held and (
        row.get("toolset") in code or within(str(row.get("toolset") or ""), broken))]
    moved = moved_reasons(old, {ts.id for ts in report.toolsets} | {str(r.get("toolset")) for r in unchecked})
    _write(target, dump_baseline(keep, args.reason, unchecked, moved))
    also = f" (and kept {len(unchecked)} this run did not check)" if unchecked else ""
    print(f"tooldiff: wrote {len(keep)} finding{'s' * (len(keep) != 1)} to {plain(target)}{also}",
          file=sys.stderr)
    written = {f.fingerprint for f in keep} | {str(r.get("fingerprint")) for r in unchecked}
    dropped = sum(1 for fingerprint in old.rows if fingerprint not in written)
    if dropped:
        print(f"tooldiff: dropped {dropped} entr{'ies' if dropped != 1 else 'y'} (fixed, ignored now, or of "
              "a toolset renamed since)", file=sys.stderr)
    if broken:
        listed = ", ".join(plain(f) for f in broken[:5]) + (f" and {len(broken) - 5} more" if len(broken) > 5
                                                             else "")
        print(f"tooldiff: a parse error is never baselined: fix {listed}, or leave it out with `exclude` in "
              "the config", file=sys.stderr)
    if run.config.sources:
        listed = ", ".join(f"`{plain(s.command)}`" for s in run.config.sources)
        print(f"tooldiff: the configured sources {listed} were not run: `tooldiff baseline` reads files "
              "only, so it holds no new finding of their tools", file=sys.stderr)
    return 0
