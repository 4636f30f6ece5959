"""`tooldiff github`: the GitHub Action. With `cli.py`, the only module that decides where output goes.

Events: `pull_request`/`pull_request_target` diff the PR (merge base against head) and comment, and skip
a closed PR; `merge_group` diffs `base_sha` against `head_sha` without a comment; `workflow_dispatch`,
`schedule` and `push` audit every toolset at the ref. `mode` overrides that where the event allows (see
`eventplan`). Exit codes: 0 fine, 1 new findings reach `fail-on`
(or GitHub failed for good), 2 bad input, config or git state.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, cast

from tooldiff import actionout, actionpost, gha
from tooldiff.eventplan import Plan, plan_event
from tooldiff.github import Publisher, make_client
from tooldiff.model import Report
from tooldiff.settings import FailOn, Settings, SettingsError, from_env


def _run_errors() -> tuple[type[Exception], ...]:
    """What a run's input can be wrong with (config, baseline, refs, paths): exit 2, said where it is read.
    Imported when an error is met, not at start: a run with nothing to do loads no config machinery."""
    from tooldiff.baseline import BaselineError
    from tooldiff.config import ConfigError
    from tooldiff.gitread import GitError
    from tooldiff.sources import PathsError

    return ConfigError, GitError, BaselineError, PathsError


def _unfinished() -> tuple[type[Exception], ...]:  # after the event is read: said on the PR
    return (*_run_errors(), SettingsError)


def _bad_input() -> tuple[type[Exception], ...]:
    return (SettingsError, *_run_errors(), json.JSONDecodeError)


_ANNOTATED: dict[str, int] = {}  # the annotations this run printed itself, per command


def _say(message: str) -> None:
    """Print a workflow command (`gha.command`) as it is, anything else as a plain line (`gha.plain_line`)."""
    command = message[2:].split(" ", 1)[0].split("::", 1)[0] if message.startswith("::") else ""
    if command in ("notice", "warning", "error"):
        _ANNOTATED[command] = _ANNOTATED.get(command, 0) + 1
    print(message if command else gha.plain_line(message), flush=True)


def _load_event(settings: Settings) -> dict[str, Any]:
    if settings.event_path is None or not settings.event_path.is_file():
        return {}
    try:
        data = json.loads(settings.event_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        why = f"{exc.msg} (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
        raise SettingsError(f"GITHUB_EVENT_PATH {settings.event_path}: the event payload is not JSON: {why}; "
                            "the runner writes it for each job") from None
    return data if isinstance(data, dict) else {}


def _inside(workspace: Path, name: str) -> Path:
    """An output file named by an input, kept inside the workspace, and reached through no symbolic link: the
    workspace is the PR's checkout, and a PR can commit `tooldiff.sarif -> .git/config`. A link at the file
    itself is replaced by the file; a linked folder on the way is refused."""
    root = workspace.resolve()
    path = Path(os.path.normpath(root / name))
    if path != root and root not in path.parents:
        # Often `${{ github.workspace }}/x`: the runner's path, which the action's container does not have.
        raise SettingsError(f"{name!r} is outside the workspace ({workspace}): give a path relative to it")
    for folder in reversed(path.parents):
        if root in folder.parents and folder.is_symlink():
            raise SettingsError(f"{name!r} goes through {folder.relative_to(root)}, a symbolic link in the "
                                "checkout: name an output path without one")
    if path.is_symlink():
        path.unlink()
    return path


Outputs = tuple[tuple[str, str, Path | None], ...]  # (name, format, path) of the JSON and SARIF files


def _outputs(settings: Settings, plan: Plan) -> Outputs:
    """The output files, checked before anything is analysed: a path a PR has made unusable is said in
    place of the last verdict, as any run that cannot finish is."""
    json_name = settings.json_file or ("tooldiff-report.json" if plan.kind == "audit" else None)
    sarif_name = settings.sarif_file or ("tooldiff.sarif" if plan.kind == "audit" else None)
    root = settings.workspace.resolve()
    out: list[tuple[str, str, Path | None]] = []
    for name, fmt in ((json_name, "json"), (sarif_name, "sarif")):
        path = _inside(settings.workspace, name) if name else None
        if name and path is not None:
            _writable(name, fmt, path)
            # The `sarif` and `report-json` outputs: a path a later step can open, as in the workspace.
            name = path.relative_to(root).as_posix()
        out.append((name or "", fmt, path))
    (json_shown, _, json_path), (_, _, sarif_path) = out
    if json_path is not None and json_path == sarif_path:
        raise SettingsError(f"json-file and sarif-file both name {json_shown!r}: give each report its own "
                            "file")
    return tuple(out)


def _writable(name: str, fmt: str, path: Path) -> None:
    """A report file must not take the place of a folder, nor of a tool file the run reads."""
    from tooldiff.parsers import DEFAULT_MAX_BYTES, parse_bytes

    if path.is_dir():
        raise SettingsError(f"{name!r} is a folder: name a file for the {fmt.upper()} report")
    if path.exists() and not path.is_file():  # a FIFO or a device: writing would wait or go elsewhere
        raise SettingsError(f"{name!r} is not a regular file: name a file for the {fmt.upper()} report")
    # A file past the size limit is no tool file the run reads, and a fork PR may commit one there. (A link
    # at the path is gone already: `_inside` replaced it.)
    small = path.is_file() and path.stat().st_size <= DEFAULT_MAX_BYTES
    try:
        held = small and bool(parse_bytes(name, path.read_bytes()).tools)
    except OSError as exc:
        raise SettingsError(f"{name!r} cannot be read ({exc.strerror or exc}), so it cannot be written "
                            "either: name another file") from None
    if held:
        raise SettingsError(f"{name!r} holds tool definitions, which the {fmt.upper()} report would "
                            "overwrite: name another file")


def _write_files(outputs: Outputs, report: Report, ctx: Any) -> tuple[str, str]:
    from tooldiff.render import render

    written: list[str] = []
    for name, fmt, path in outputs:
        if path is None:
            written.append("")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(fmt, report, ctx), encoding="utf-8")
        written.append(name)
    return written[0], written[1]


def run(settings: Settings, event: Mapping[str, Any],
        client: Callable[[], Any] | None = None) -> int:
    from tooldiff.actionreport import analyse_plan
    from tooldiff.render import RenderContext, render

    plan = plan_event(settings, event)
    if isinstance(plan, str):  # said where a required check's reader looks, not only in the log
        from tooldiff.render.escape import md

        _say(gha.command("notice", f"tooldiff: {plan}; nothing to do."))
        gha.append_summary(settings.summary_path, f"**tooldiff**: {md(plan, 300)}; nothing was analysed.\n")
        return 0
    try:
        outputs = _outputs(settings, plan)
        report = analyse_plan(settings, plan)
    except _unfinished() as exc:
        _could_not_analyse(settings, plan, exc, client)
        raise
    except Exception as exc:  # a bug of ours: the traceback fails the job, and the old verdict goes
        _could_not_analyse(settings, plan, exc, client, internal=True)
        raise
    # The input wins; else the config the run used (the base's under pull_request_target), else error.
    fail_on = settings.fail_on or report.fail_on
    settings = dataclasses.replace(settings, fail_on=cast(FailOn, fail_on))
    hint = (f"See the job summary: {settings.server_url}/{settings.repository}/actions/runs/{settings.run_id}"
            if settings.run_id and settings.repository else None)
    ctx = RenderContext(repo_url=settings.repository or None, head_sha=plan.head,
                        base_sha=report.base_ref if report.mode == "diff" else None,
                        comment_id=settings.comment_id, server_url=settings.server_url, full_report_hint=hint)
    report_json, sarif = _write_files(outputs, report, ctx)
    if sarif and report.mode == "diff":
        # Code scanning takes an upload as the whole analysis of its ref: alerts on unchanged tools would
        # read as fixed by this PR.
        _say(gha.command("notice", f"tooldiff: {sarif} holds the findings of the changed tools and their "
                                   "neighbours only; upload SARIF from an audit (mode: audit) for code "
                                   "scanning."))
    failing = actionout.failing(report, fail_on)
    hard, notes = False, list[str]()
    if plan.note:
        _say(gha.command("notice", plan.note))
        notes.append(plan.note)
    if plan.publish and (settings.comment != "off" or settings.review_comments or settings.check_run):
        client = client or make_client(settings.api_url, settings.token)
        publisher = Publisher(client, settings.repository, bot_login=settings.bot_login,
                              comment_id=settings.comment_id, log=_say)
        hard, published = actionpost.publish(settings, plan, report, render("markdown", report, ctx),
                                             publisher, failing, _say)
        notes += published
    # After our own notices: the runner shows only the first 10 annotations of a level in a step, and ten
    # findings printed first would hide why no comment was posted or that posting failed.
    taken = dataclasses.replace(ctx, annotated=tuple(sorted(_ANNOTATED.items())))
    gha.emit(render("annotations", report, taken).splitlines())
    summary = render("github", report, ctx)
    gha.append_summary(settings.summary_path, summary + "".join(f"\n> {n}\n" for n in notes))
    gha.write_outputs(settings.output_path, actionout.outputs(report, report_json=report_json, sarif=sarif))
    _say(f"tooldiff: {plan.kind} of {plan.describe()}: "
         f"{failing} new finding(s) at or above {fail_on}")
    return 1 if failing or hard else 0


def _could_not_analyse(
    settings: Settings, plan: Plan, exc: Exception, client: Callable[[], Any] | None, internal: bool = False
) -> None:
    """Say so where the verdict is read: the job summary, and in place of an earlier PR comment, whose
    verdict is about a push the PR has moved past. No new comment is made for it: the failed job says
    enough."""
    from tooldiff.github import GitHubError
    from tooldiff.render.escape import md, plain

    why: object = exc
    if internal:
        why = f"an internal error ({type(exc).__name__}: {exc}); the job log has the traceback"
    text = f"❌ **tooldiff** could not analyse {md(plan.describe(), 200)}: {md(plain(why), 600)}"
    gha.append_summary(settings.summary_path, text + "\n")
    with contextlib.suppress(AttributeError):  # `main` writes no second summary line
        exc.tooldiff_said = True  # type: ignore[attr-defined]
    if not (plan.publish and plan.pr is not None and settings.comment != "off" and settings.token):
        return
    try:
        publisher = Publisher(client or make_client(settings.api_url, settings.token), settings.repository,
                              bot_login=settings.bot_login, comment_id=settings.comment_id, log=_say)
        publisher.upsert_comment(plan.pr, text + "\n\nThe findings of the last push it could analyse are no "
                                 "longer shown: fix this, and the next run posts them again.\n",
                                 allow_create=False)
    except GitHubError as err:
        _say(gha.command("notice", f"tooldiff: the PR comment was not updated: {err}"))


def plain_traceback(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """`sys.excepthook` for the Action: an internal error's traceback fails the job as usual, but each of
    its lines is a plain line (`gha.plain_line`), as an exception's message may quote a PR's text."""
    for chunk in traceback.format_exception(kind, value, tb):
        for line in chunk.rstrip("\n").split("\n"):
            print(gha.plain_line(line), file=sys.stderr)


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None,
         client: Callable[[], Any] | None = None) -> int:
    from tooldiff.render.escape import plain

    env = os.environ if env is None else env
    _ANNOTATED.clear()  # one step, one budget (tests run several in one process)
    sys.excepthook = plain_traceback
    try:
        settings = from_env(env)
        gha.add_mask(settings.token)
        return run(settings, _load_event(settings), client)
    except _bad_input() as exc:
        from tooldiff.config import ConfigError
        from tooldiff.render.escape import md

        where = {"file": exc.file, "line": exc.line or None} if isinstance(exc, ConfigError) else {}
        print(gha.command("error", f"tooldiff: {plain(exc)}", **where), flush=True)
        print(gha.plain_line(f"tooldiff: {plain(exc)}"), file=sys.stderr)  # the runner reads stderr too
        if not getattr(exc, "tooldiff_said", False):  # an input error before any analysis: no summary yet
            summary = env.get("GITHUB_STEP_SUMMARY", "").strip()
            gha.append_summary(Path(summary) if summary else None,
                               f"❌ **tooldiff** did not run: {md(plain(exc), 600)}\n")
        return 2
