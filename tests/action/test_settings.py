"""Settings: read once from the environment, hyphenated inputs, bad values named, the token never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldiff.settings import SettingsError, from_env

TOKEN = "ghs_PLANTEDsecretVALUE0123456789abcdef"
BASE = {
    "GITHUB_EVENT_NAME": "pull_request",
    "GITHUB_REPOSITORY": "octo-org/tools",
    "GITHUB_WORKSPACE": "/github/workspace",
    "INPUT_GITHUB-TOKEN": TOKEN,
}


def test_defaults() -> None:
    s = from_env(BASE)
    assert (s.fail_on, s.comment, s.comment_id, s.mode, s.bot_login) == (
        None,  # the config's fail_on decides
        "update",
        "default",
        "auto",
        "github-actions[bot]",
    )
    assert s.api_url == "https://api.github.com" and s.server_url == "https://github.com"
    assert s.review_comments is False and s.check_run is False and s.paths == ()
    assert s.workspace == Path("/github/workspace") and s.owner_repo == ("octo-org", "tools")


def test_inputs_keep_their_hyphens_and_enterprise_urls() -> None:
    s = from_env(
        {
            **BASE,
            "INPUT_FAIL-ON": "Warning",
            "INPUT_COMMENT-ID": "docs.v2",
            "INPUT_REVIEW-COMMENTS": "true",
            "INPUT_CHECK-RUN": "false",
            "INPUT_PATHS": "tools/\nmcp/*.json, extra",
            "INPUT_TARGETS": "openai",
            "INPUT_SARIF-FILE": "out.sarif",
            "INPUT_BASE-TOOLS": "b.json",
            "INPUT_HEAD-TOOLS": "h.json",
            "INPUT_BOT-LOGIN": "my-app[bot]",
            "INPUT_MODE": "audit",
            "INPUT_COMMENT": "recreate",
            "GITHUB_API_URL": "https://ghe.example.com/api/v3/",
            "GITHUB_SERVER_URL": "https://ghe.example.com",
            "GITHUB_OUTPUT": "/tmp/out",
            "GITHUB_STEP_SUMMARY": "/tmp/sum",
        }
    )
    assert s.fail_on == "warning" and s.comment_id == "docs.v2" and s.review_comments and not s.check_run
    assert s.paths == ("tools/", "mcp/*.json", "extra") and s.targets == ("openai",)
    assert (s.sarif_file, s.base_tools, s.head_tools, s.bot_login) == (
        "out.sarif",
        "b.json",
        "h.json",
        "my-app[bot]",
    )
    assert s.mode == "audit" and s.comment == "recreate"
    assert s.api_url == "https://ghe.example.com/api/v3" and s.output_path == Path("/tmp/out")


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("INPUT_FAIL-ON", "critical", "fail-on"),
        ("INPUT_COMMENT", "sometimes", "comment"),
        ("INPUT_MODE", "full", "mode"),
        ("INPUT_REVIEW-COMMENTS", "maybe", "review-comments"),
        ("INPUT_COMMENT-ID", "x --> <b>", "comment-id"),
        ("GITHUB_REPOSITORY", "not a repo", "GITHUB_REPOSITORY"),
        ("GITHUB_API_URL", "ftp://x", "GITHUB_API_URL"),
        ("INPUT_TARGETS", "openai, openai-strickt", "targets: unknown target 'openai-strickt': did you mean"),
        ("INPUT_SELECT", "intent-overlapp", "input select: unknown rule 'intent-overlapp': did you mean"),
        ("INPUT_IGNORE", "nope", "input ignore: unknown rule 'nope'"),
    ],
)
def test_bad_values_are_named(key: str, value: str, named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        from_env({**BASE, key: value})


def test_select_and_ignore_take_codes_as_the_command_line_does() -> None:
    env = {**BASE, "INPUT_SELECT": "intent-overlap\nBLAST_RADIUS_TWIN", "INPUT_IGNORE": "mode-argument"}
    s = from_env(env)
    assert s.select == ("intent-overlap", "blast-radius-twin") and s.ignore == ("mode-argument",)


@pytest.mark.parametrize("value", ["0", "-5", "lots", "1.5"])
def test_warn_above_must_be_a_positive_whole_number(value: str) -> None:
    with pytest.raises(SettingsError, match=f"input warn-above: '{value}' is not a positive whole number"):
        from_env({**BASE, "INPUT_WARN-ABOVE": value})


def test_warn_above_is_read_as_a_budget() -> None:
    assert from_env({**BASE, "INPUT_WARN-ABOVE": " 800 "}).warn_above == 800
    assert from_env(BASE).warn_above is None


def test_targets_are_taken_as_the_command_line_takes_them() -> None:
    """`--targets OPENAI_STRICT` runs locally: the same value in the workflow must not fail the step."""
    s = from_env({**BASE, "INPUT_TARGETS": "OPENAI_STRICT, google\nopenai-strict"})
    assert s.targets == ("openai-strict", "google")


def test_token_is_hidden_from_repr() -> None:
    s = from_env(BASE)
    assert s.token == TOKEN and TOKEN not in repr(s) and TOKEN not in str(s)


def test_settings_are_frozen() -> None:
    s = from_env(BASE)
    with pytest.raises(AttributeError):
        s.fail_on = "never"  # type: ignore[misc]


def test_paths_are_read_from_the_repository_root_in_every_mode() -> None:
    """`/tools` and `${{ github.workspace }}/tools` name the repository's tools folder, in a PR run as in an
    audit: a PR run read them as the runner's own files and said "outside the repository ... give BASE_PATH
    HEAD_PATH without --base", a command line the action has no way to take."""
    s = from_env({**BASE, "INPUT_PATHS": "/github/workspace/tools\n/mcp/x.json, tools/, /github/workspace"})
    assert s.paths == ("tools", "mcp/x.json", "tools/", ".")
    with pytest.raises(SettingsError, match=r"input paths: '\.\./other/tools\.json' is outside the work"):
        from_env({**BASE, "INPUT_PATHS": "../other/tools.json"})
    with pytest.raises(SettingsError, match="outside the workspace"):
        from_env({**BASE, "INPUT_PATHS": "tools/../../etc"})
