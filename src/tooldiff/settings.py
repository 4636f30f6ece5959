"""The action's settings, read once from the environment into a frozen, typed object.

GitHub passes each `action.yml` input as `INPUT_<NAME>` with the name upper-cased and its hyphens kept
(`INPUT_FAIL-ON`); see https://docs.github.com/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions#inputs
A bad value is a `SettingsError`, which the action turns into exit code 2.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

FailOn = Literal["error", "warning", "info", "never"]
CommentMode = Literal["update", "recreate", "off"]
Mode = Literal["auto", "diff", "audit"]

FAIL_ON: tuple[FailOn, ...] = ("error", "warning", "info", "never")
COMMENT_MODES: tuple[CommentMode, ...] = ("update", "recreate", "off")
MODES: tuple[Mode, ...] = ("auto", "diff", "audit")
# The comment id goes into a hidden HTML marker: keep it to characters that cannot end the comment.
COMMENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")


class SettingsError(ValueError):
    """An input or environment value the action cannot work with."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    event_name: str
    event_path: Path | None
    workspace: Path
    api_url: str
    server_url: str
    repository: str
    output_path: Path | None
    summary_path: Path | None
    # Hidden from repr so that a logged Settings never carries the secret.
    token: str = field(repr=False)
    paths: tuple[str, ...] = ()
    config: str | None = None
    targets: tuple[str, ...] = ()
    select: tuple[str, ...] = ()  # rule codes, as `--select` and `--ignore` take them
    ignore: tuple[str, ...] = ()
    warn_above: int | None = None  # heavy-definition's budget, as `--warn-above`
    fail_on: FailOn | None = None  # None: the config's `fail_on`, else error
    comment: CommentMode = "update"
    comment_id: str = "default"
    review_comments: bool = False
    check_run: bool = False
    sarif_file: str | None = None
    json_file: str | None = None
    mode: Mode = "auto"
    base_tools: str | None = None
    head_tools: str | None = None
    bot_login: str = "github-actions[bot]"
    sha: str = ""
    run_id: str = ""

    @property
    def owner_repo(self) -> tuple[str, str]:
        owner, _, name = self.repository.partition("/")
        return owner, name


def _input(env: Mapping[str, str], name: str) -> str:
    """`INPUT_FAIL-ON` as GitHub sets it; `INPUT_FAIL_ON` too, for hand-run containers."""
    key = "INPUT_" + name.upper()
    value = env.get(key)
    if value is None:
        value = env.get(key.replace("-", "_"), "")
    return value.strip()


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    value = _input(env, name).lower() or default
    if value and value not in choices:
        raise SettingsError(f"input {name}: {value!r} is not one of {', '.join(choices)}")
    return value


def _bool(env: Mapping[str, str], name: str) -> bool:
    value = _input(env, name).lower()
    if value in ("", "false", "no", "0", "off"):
        return False
    if value in ("true", "yes", "1", "on"):
        return True
    raise SettingsError(f"input {name}: {value!r} is not true or false")


def _list(value: str) -> tuple[str, ...]:
    """Newline- or comma-separated, as workflow authors write lists in YAML."""
    return tuple(p.strip() for p in re.split(r"[\n,]", value) if p.strip())


def _paths(value: str, workspace: Path) -> tuple[str, ...]:
    """The `paths` input, each named from the repository root in every mode: `/tools` as `.gitignore` reads a
    leading slash, and `${{ github.workspace }}/tools` as `tools`. Read as the runner's own files, a PR run
    said they were outside the repository while the audit read them from the checkout."""
    top = posixpath.normpath(workspace.as_posix())
    out = []
    for entry in _list(value):
        path = entry.replace("\\", "/")
        if path.startswith("/"):
            full = posixpath.normpath(path)
            path = posixpath.relpath(full, top) if (full + "/").startswith(top.rstrip("/") + "/") else path
            path = path.lstrip("/") or "."
        if posixpath.normpath(path).split("/")[0] == "..":
            raise SettingsError(f"input paths: {entry!r} is outside the workspace: name files of the "
                                "repository, from its root")
        out.append(path)
    return tuple(out)


def _targets(env: Mapping[str, str]) -> tuple[str, ...]:
    """The `targets` input, each name checked as the config's `targets` are: a typo must not lint nothing."""
    names = _list(_input(env, "targets"))
    if names:
        from tooldiff.config import known_targets, unknown

        known = known_targets()
        names = tuple(n.lower().replace("_", "-") for n in names)  # as `--targets` and the `select` input
        for name in names:
            if name not in known:
                raise SettingsError(f"input targets: {unknown(f'target {name!r}', name, known)}")
    return tuple(dict.fromkeys(names))


def _codes(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """The `select` or `ignore` input: rule codes checked as the command line checks them."""
    from tooldiff.config import ConfigError, Selection

    try:
        chosen = Selection.parse(_list(_input(env, name)), None)
    except ConfigError as exc:
        raise SettingsError(f"input {name}: {exc.message}") from None
    return chosen.select


def _warn_above(env: Mapping[str, str]) -> int | None:
    """The `warn-above` input: a token budget, a positive whole number as `--warn-above` takes it."""
    value = _input(env, "warn-above")
    if not value:
        return None
    try:
        budget = int(value)
    except ValueError:
        budget = 0
    if budget < 1:
        raise SettingsError(f"input warn-above: {value!r} is not a positive whole number of tokens")
    return budget


def _path(env: Mapping[str, str], name: str) -> Path | None:
    value = env.get(name, "").strip()
    return Path(value) if value else None


def _optional(env: Mapping[str, str], name: str) -> str | None:
    return _input(env, name) or None


def from_env(env: Mapping[str, str]) -> Settings:
    """Read every setting the action uses; raise SettingsError naming the first bad one."""
    repository = env.get("GITHUB_REPOSITORY", "").strip()
    if repository and not REPOSITORY.fullmatch(repository):
        raise SettingsError(f"GITHUB_REPOSITORY: {repository!r} is not owner/name")
    comment_id = _input(env, "comment-id") or "default"
    if not COMMENT_ID.fullmatch(comment_id):
        raise SettingsError(f"input comment-id: {comment_id!r} must be 1-64 letters, digits, '.', '_' or '-'")
    api_url = (env.get("GITHUB_API_URL") or "https://api.github.com").rstrip("/")
    if not api_url.startswith(("https://", "http://")):
        raise SettingsError(f"GITHUB_API_URL: {api_url!r} is not an http(s) URL")
    workspace = _path(env, "GITHUB_WORKSPACE") or Path.cwd()
    return Settings(
        event_name=env.get("GITHUB_EVENT_NAME", "").strip(),
        event_path=_path(env, "GITHUB_EVENT_PATH"),
        workspace=workspace,
        api_url=api_url,
        server_url=(env.get("GITHUB_SERVER_URL") or "https://github.com").rstrip("/"),
        repository=repository,
        output_path=_path(env, "GITHUB_OUTPUT"),
        summary_path=_path(env, "GITHUB_STEP_SUMMARY"),
        token=_input(env, "github-token") or env.get("GITHUB_TOKEN", ""),
        paths=_paths(_input(env, "paths"), workspace),
        config=_optional(env, "config"),
        targets=_targets(env),
        select=_codes(env, "select"),
        ignore=_codes(env, "ignore"),
        warn_above=_warn_above(env),
        fail_on=cast(FailOn | None, _choice(env, "fail-on", FAIL_ON, "") or None),
        comment=cast(CommentMode, _choice(env, "comment", COMMENT_MODES, "update")),
        comment_id=comment_id,
        review_comments=_bool(env, "review-comments"),
        check_run=_bool(env, "check-run"),
        sarif_file=_optional(env, "sarif-file"),
        json_file=_optional(env, "json-file"),
        mode=cast(Mode, _choice(env, "mode", MODES, "auto")),
        base_tools=_optional(env, "base-tools"),
        head_tools=_optional(env, "head-tools"),
        bot_login=_input(env, "bot-login") or "github-actions[bot]",
        sha=env.get("GITHUB_SHA", "").strip(),
        run_id=env.get("GITHUB_RUN_ID", "").strip(),
    )
