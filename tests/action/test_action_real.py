"""`tooldiff github` in-process on a real git repository (the whole pipeline) against the fake API."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from fakegithub import FakeGitHub
from gitbuild import git
from prscenario import TOKEN, PullRequest, dispatch_event, environment, fixed_head, helpdesk
from tooldiff import action
from tooldiff.github import comment_marker, make_client

FIX = Path(__file__).parents[1] / "fixtures" / "github"


def run(fake: FakeGitHub, tmp_path: Path, event: str, event_path: Path, workspace: Path, sha: str,
        api: str | None = None, client: bool = True, **inputs: str) -> int:
    """`client=False` lets the action build its own client from the settings, as in production."""
    files = tmp_path / "files"
    files.mkdir(exist_ok=True)
    api = api or fake.base
    env = environment(event, api, str(workspace), str(event_path), str(files), sha, **inputs)
    factory = make_client(api, TOKEN, retries=1, backoff=0, secondary_wait=0, max_wait=1)
    return action.main([], env, factory if client else None)


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_pr_comment_then_edit_after_the_fix(fake: FakeGitHub, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head) == 1
    [comment] = [dict(c) for c in fake.bot_comments(2)]
    assert comment["body"].startswith(comment_marker("default")) and "find" in comment["body"]
    out = capsys.readouterr().out
    assert "::warning file=tools.json" in out and out.count(TOKEN) == 1 and f"::add-mask::{TOKEN}" in out
    outputs = (tmp_path / "files" / "output").read_text()
    assert "find_document" in outputs

    pr.push({"tools.json": fixed_head()})
    fake.requests.clear()
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head) == 0
    [again] = fake.bot_comments(2)
    assert again["id"] == comment["id"] and again["body"] != comment["body"]
    assert len(fake.requests) <= 5


def test_workflow_dispatch_audit_writes_sarif(fake: FakeGitHub, tmp_path: Path) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head)
    assert code == 1  # the overlap is a warning; fail-on is warning and an audit has no baseline
    sarif = json.loads((pr.repo / "tooldiff.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    assert (pr.repo / "tooldiff-report.json").is_file() and fake.requests == []


def test_an_audit_of_a_path_that_is_not_there_is_an_input_error(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`paths: agnet` made a parse-error finding on `agnet:1`, and a code-scanning alert on a file that does
    not exist; a diff already said "no such file or folder" and exited 2."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"agent/tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head, paths="agnet")
    assert code == 2 and "agnet: no such file or folder" in capsys.readouterr().out
    assert not (pr.repo / "tooldiff.sarif").exists()
    assert run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               paths="./agent/, agent/tools.json", fail_on="never") == 0


def test_select_and_ignore_inputs_choose_the_rules(fake: FakeGitHub, tmp_path: Path) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    event = pr.event_dir / "event.json"
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head) == 1  # the overlap, a warning
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head, ignore="intent-overlap") == 0
    # An audit (the dispatch event replaces the PR's event file).
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               ignore="intent-overlap")
    assert code == 0
    sarif = json.loads((pr.repo / "tooldiff.sarif").read_text())
    codes = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert codes and "intent-overlap" not in codes
    assert run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               select="intent-overlap") == 1
    sarif = json.loads((pr.repo / "tooldiff.sarif").read_text())
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"intent-overlap"}


def test_warn_above_input_sets_the_tool_budget(fake: FakeGitHub, tmp_path: Path) -> None:
    """As `--warn-above`: over the config's budget, in a PR run and in an audit."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    event = pr.event_dir / "event.json"
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head, select="heavy-definition") == 0
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head, select="heavy-definition",
               warn_above="20") == 1
    [comment] = fake.bot_comments(2)
    assert "heavy-definition" in comment["body"] and "(budget 20" in comment["body"].replace("\\", "")
    assert run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               select="heavy-definition", warn_above="20") == 1
    sarif = json.loads((pr.repo / "tooldiff.sarif").read_text())
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"heavy-definition"}


def test_shallow_checkout_fetches_the_base(fake: FakeGitHub, tmp_path: Path) -> None:
    """actions/checkout clones one commit deep: the merge base must be fetched from origin."""
    origin = PullRequest(tmp_path / "origin", fake)
    origin.push({"tools.json": helpdesk("head")})
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "pr", f"file://{origin.repo}", str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository") == "true"
    code = run(fake, tmp_path, "pull_request", origin.event_dir / "event.json", clone, origin.head)
    assert code == 1 and len(fake.bot_comments(2)) == 1


def test_pull_request_target_never_runs_commands_and_uses_the_base_config(fake: FakeGitHub,
                                                                           tmp_path: Path) -> None:
    pr = PullRequest(tmp_path, fake)
    marker = tmp_path / "pwned"
    # The PR adds a command source and silences the overlap rule in its own config: neither may work.
    config = (f"sources:\n  - {{command: \"touch {marker}\", toolset: evil}}\n"
              "rules:\n  intent-overlap: {enabled: false}\n")
    pr.push({"tools.json": helpdesk("head"), ".tooldiff.yml": config})
    code = run(fake, tmp_path, "pull_request_target", pr.event_dir / "event.json", pr.repo, pr.head)
    assert not marker.exists()
    [comment] = [dict(c) for c in fake.bot_comments(2)]
    assert code == 1 and "intent" in comment["body"]
    # The same config under `pull_request` is the repository's own: it applies (and proves it is valid).
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head)
    [trusted] = fake.bot_comments(2)
    # no finding of it; the comment names the rule the PR turned off
    body = trusted["body"]
    assert body.count("intent-overlap") == 1 and "Rule turned off: intent-overlap" in body
    assert not marker.exists()


def test_pull_request_target_audit_uses_the_base_config_and_baseline(fake: FakeGitHub,
                                                                     tmp_path: Path) -> None:
    pr = PullRequest(tmp_path, fake, fork=True)
    pr.push({"tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request_target", pr.event_dir / "event.json", pr.repo, pr.head,
               mode="audit", comment="off", **{"json-file": "first.json"}) == 1
    first = json.loads((pr.repo / "first.json").read_text())
    accept = [{"fingerprint": f["fingerprint"], "reason": "mine"} for f in first["findings"]]
    # The fork accepts its own findings twice over: an ignore-everything config and a baseline.
    silence = "ignores:\n  - {code: '*', tool: '*', reason: mine}\n"
    baseline = json.dumps({"version": 1, "findings": accept})
    pr.push({".tooldiff.yml": silence, ".tooldiff-baseline.json": baseline})
    code = run(fake, tmp_path, "pull_request_target", pr.event_dir / "event.json", pr.repo, pr.head,
               mode="audit", comment="off", **{"json-file": "second.json"})
    second = json.loads((pr.repo / "second.json").read_text())
    assert code == 1 and {f["status"] for f in second["findings"]} == {"new"}
    # Under `pull_request` the same files are the repository's own: they apply.
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               mode="audit", comment="off", **{"json-file": "third.json"}) == 0


@pytest.mark.parametrize("mode", ["update", "recreate"])
def test_a_push_that_drops_the_tool_changes_leaves_a_current_comment(fake: FakeGitHub, tmp_path: Path,
                                                                     mode: str) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment=mode)
    [first] = [dict(c) for c in fake.bot_comments(2)]
    pr.push({"tools.json": helpdesk("base"), "README.md": "# helpdesk, tools unchanged\n"})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               comment=mode) == 0
    [now] = fake.bot_comments(2)
    assert "touches no tool definitions" in now["body"] and (now["id"] == first["id"]) == (mode == "update")


def test_closing_a_pull_request_posts_nothing_and_passes(fake: FakeGitHub, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})  # new findings that would fail the job at fail-on: warning
    event = json.loads((FIX / "pull_request.closed.payload.json").read_text())
    event["pull_request"]["head"]["sha"], event["pull_request"]["base"]["sha"] = pr.head, pr.base
    path = pr.event_dir / "closed.json"
    path.write_text(json.dumps(event))
    assert run(fake, tmp_path, "pull_request", path, pr.repo, pr.head) == 0
    assert fake.requests == [] and "closed" in capsys.readouterr().out


def test_merge_group_with_mode_audit_audits_the_group_head(fake: FakeGitHub, tmp_path: Path) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    path = pr.event_dir / "merge_group.json"
    path.write_text(json.dumps({"action": "checks_requested",
                                "merge_group": {"head_sha": pr.head, "base_sha": pr.base}}))
    assert run(fake, tmp_path, "merge_group", path, pr.repo, pr.head, mode="audit") == 1
    report = json.loads((pr.repo / "tooldiff-report.json").read_text())
    assert report["mode"] == "audit" and report["findings"] and fake.requests == []


def test_mode_diff_without_a_base_says_an_audit_ran(fake: FakeGitHub, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head, mode="diff")
    assert "::notice::`mode: diff` was asked" in capsys.readouterr().out
    assert "an audit" in (tmp_path / "files" / "summary.md").read_text()
    assert (pr.repo / "tooldiff.sarif").is_file()


def test_no_token_still_writes_the_summary_and_outputs(fake: FakeGitHub, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, client=False,
               github_token="", check_run="true")
    assert code == 1 and fake.requests == []  # the warning-level overlap reaches fail-on: warning
    assert "::warning::Nothing was posted to GitHub" in capsys.readouterr().out
    assert "no token was given" in (tmp_path / "files" / "summary.md").read_text()
    assert "find_document" in (tmp_path / "files" / "output").read_text()


def test_an_input_error_is_said_in_the_job_summary_too(fake: FakeGitHub, tmp_path: Path) -> None:
    """`fail-on: critical` exited 2 with a log line only: the job summary, where a required check's reader
    looks, was empty. It is said there once, as a failed analysis is."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               fail_on="critical") == 2
    summary = (tmp_path / "files" / "summary.md").read_text()
    assert "critical" in summary and summary.count("tooldiff") == 1
    (tmp_path / "files" / "summary.md").unlink()
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               paths="nothere") == 2
    summary = (tmp_path / "files" / "summary.md").read_text()
    assert "nothere" in summary and summary.count("could not analyse") == 1


def test_an_unreachable_api_fails_the_job_after_writing_the_summary(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               api=closed_port(), fail_on="never", check_run="true")
    assert code == 1  # like a 5xx that outlasts the retries: the PR's comment may now be stale
    out = capsys.readouterr().out
    assert "::error::tooldiff: Posting to GitHub failed (PR comment)" in out and "could not be reached" in out
    assert "Not tried for the same reason: the check run." in out  # it would meet the same wall
    assert "could not be reached" in (tmp_path / "files" / "summary.md").read_text()
    assert "new-findings<<" in (tmp_path / "files" / "output").read_text()


def test_a_refused_comment_does_not_stop_the_check_run(fake: FakeGitHub, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A token with `checks: write` but not `pull-requests: write`."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    fake.fail("POST", r"/issues/2/comments$", 403, body={"message": "Resource not accessible by integration"})
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               check_run="true")
    [check] = fake.check_runs.values()
    assert code == 1 and check["conclusion"] == "failure" and fake.bot_comments(2) == []
    assert "::notice::No PR comment was posted: GitHub refused it" in capsys.readouterr().out


def test_a_refused_review_is_named_as_the_review(fake: FakeGitHub, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    fake.fail("POST", r"/pulls/2/reviews$", 403, body={"message": "Resource not accessible by integration"})
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, review_comments="true")
    out = capsys.readouterr().out
    assert len(fake.bot_comments(2)) == 1 and "::notice::No review was posted: GitHub refused it" in out
    assert "No PR comment was posted" not in out


def test_a_primary_rate_limit_is_reported_as_one(fake: FakeGitHub, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    reset = str(int(time.time()) + 3600)  # beyond any wait: PyGithub gives up at once
    fake.fail("POST", r"/issues/2/comments$", 403, times=5,
              headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset},
              body={"message": "API rate limit exceeded for installation ID 123.",
                    "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"})
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               fail_on="never", check_run="true")
    out = capsys.readouterr().out
    assert code == 1 and "::error::tooldiff: No PR comment was posted: GitHub's API rate limit" in out
    assert "the limit resets at" in out and "read-only" not in (tmp_path / "files" / "summary.md").read_text()
    assert fake.check_runs == {} and "Not tried for the same reason: the check run." in out


def test_a_secondary_rate_limit_that_outlasts_the_retries_is_reported_as_one(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    fake.secondary_rate_limit("POST", r"/issues/2/comments$", retry_after=0, times=10)
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, fail_on="never")
    out = capsys.readouterr().out
    assert code == 1 and "GitHub's API rate limit was reached" in out and "read-only" not in out


def test_host_paths_for_files_are_refused_with_a_hint(fake: FakeGitHub, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`/tmp/x` and `${{ github.workspace }}/x` are the runner's paths; the container sees neither."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    elsewhere = str(tmp_path / "runner" / "tmp")
    for inputs in ({"json_file": f"{elsewhere}/report.json"},
                   {"base_tools": f"{elsewhere}/base-tools.json",
                    "head_tools": f"{elsewhere}/head-tools.json"}):
        assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
                   comment="off", **inputs) == 2
        assert "relative to" in capsys.readouterr().err


def test_fail_on_comes_from_the_config_the_run_used(fake: FakeGitHub, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """An empty `fail-on` input: the config's `fail_on` decides, the base's under pull_request_target."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head"), ".tooldiff.yml": "fail_on: warning\n"})  # new warnings only
    event = pr.event_dir / "event.json"
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head, fail_on="", comment="off") == 1
    assert "at or above warning" in capsys.readouterr().out
    # The base has no config: error, which no new finding reaches.
    assert run(fake, tmp_path, "pull_request_target", event, pr.repo, pr.head, fail_on="",
               comment="off") == 0
    assert "at or above error" in capsys.readouterr().out
    # The input wins over the config.
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head, fail_on="never", comment="off") == 0
    # An audit reads it too.
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head, fail_on="")
    assert code == 1


def test_an_unknown_target_input_exits_2_as_the_config_does(fake: FakeGitHub, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    event = pr.event_dir / "event.json"
    typo = "anthropic, openai-strickt"
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head, targets=typo) == 2
    err = capsys.readouterr().err
    assert "input targets: unknown target 'openai-strickt': did you mean 'openai-strict'?" in err
    assert fake.requests == []
    pr.push({".tooldiff.yml": "targets: [openai-strickt]\n"})  # the same typo in the config
    assert run(fake, tmp_path, "pull_request", event, pr.repo, pr.head) == 2
    assert "unknown target 'openai-strickt': did you mean 'openai-strict'?" in capsys.readouterr().err


def test_configured_commands_are_refused_for_the_true_reason(fake: FakeGitHub, tmp_path: Path) -> None:
    """Under `pull_request` the head is trusted, yet the action runs no command: it says so and what to do."""
    pr = PullRequest(tmp_path, fake)
    marker = tmp_path / "ran"
    pr.push({"tools.json": helpdesk("head"),
             ".tooldiff.yml": f"sources:\n  - {{command: \"touch {marker}\", toolset: code}}\n"})
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment="off")
    summary = (tmp_path / "files" / "summary.md").read_text()  # notes are escaped for Markdown
    assert not marker.exists() and "untrusted head" not in summary
    assert "sources were not run" in summary and "base-tools" in summary and "head-tools" in summary


def test_a_config_input_not_committed_names_the_commit(fake: FakeGitHub, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    (pr.repo / "ci").mkdir()
    (pr.repo / "ci" / "tooldiff.yml").write_text("fail_on: never\n")  # written by a step, never committed
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               config="ci/tooldiff.yml")
    err = capsys.readouterr().err
    assert code == 2 and f"ci/tooldiff.yml: config file not committed at {pr.head}" in err
    assert "relative to the repository root; commit it" in err


def test_tool_dumps_are_checked_with_the_config_and_targets_of_the_run(fake: FakeGitHub,
                                                                      tmp_path: Path) -> None:
    """Code-defined tools (`base-tools` / `head-tools`) get the config's rules and the `targets` input, as
    the tools read from git do."""
    pr = PullRequest(tmp_path, fake)
    dump = {"name": "math.sum", "description": "Add two numbers and return the sum.",
            "input_schema": {"type": "object", "properties": {"a": {"type": "number"}}}}
    pr.push({"tools.json": helpdesk("head"), ".tooldiff.yml": "rules:\n  invalid-name: false\n"})
    (pr.repo / "dumps").mkdir()  # written by an earlier step, never committed
    (pr.repo / "dumps" / "base.json").write_text("[]")
    (pr.repo / "dumps" / "head.json").write_text(json.dumps([dump]))
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               comment="off", fail_on="never", targets="openai", json_file="report.json",
               base_tools="dumps/base.json", head_tools="dumps/head.json")
    assert code == 0
    report = json.loads((pr.repo / "report.json").read_text())
    targets = {t["name"]: t["targets"] for t in report["tools"]}
    assert targets["math.sum"] == targets["find_document"] == ["openai"]
    assert not [f for f in report["findings"] if f["code"] == "invalid-name"]
    # No file of the repository holds them: they are code-defined, never annotated or linked as a file.
    dumped = {t["file"] for t in report["tools"] if t["name"] == "math.sum"}
    assert dumped == {"$(head-tools dumps/head.json)"}


def test_a_paths_input_at_neither_ref_exits_2_naming_it(fake: FakeGitHub, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               paths="tols.json")
    assert code == 2 and "tols.json: no such file or folder at " in capsys.readouterr().err


def test_a_push_that_breaks_the_config_replaces_the_verdict_and_says_why(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first push's verdict must not stand on the PR once a later push cannot be analysed."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head) == 1
    [first] = [dict(c) for c in fake.bot_comments(2)]
    pr.push({".tooldiff.yml": "rules:\n  intent-overlap:\n    enabld: false\n"})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head) == 2
    [now] = fake.bot_comments(2)
    assert now["id"] == first["id"] and "could not analyse" in now["body"] and "enabld" in now["body"]
    summary = (tmp_path / "files" / "summary.md").read_text()
    assert "could not analyse" in summary and "enabld" in summary
    out = capsys.readouterr().out
    assert "::error file=.tooldiff.yml,line=3" in out


def test_a_sarif_file_on_a_pull_request_says_it_holds_the_changed_tools_only(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Code scanning takes an upload as the whole analysis: alerts on other tools would read as fixed."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment="off",
        sarif_file="tooldiff.sarif")
    assert "tooldiff.sarif holds the findings of the changed tools" in capsys.readouterr().out


def test_an_audit_s_tool_dump_stands_alone_beside_one_tool_files(fake: FakeGitHub, tmp_path: Path) -> None:
    """A dump at the workspace root must not join the root's folder of one-tool files as one toolset."""
    pr = PullRequest(tmp_path, fake)
    search = {"name": "search_manual", "description": "Search the manual by keyword.",
              "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}}
    # A folder of one-tool files, and the dump written beside them (the root holds a many-tool file).
    pr.push({"agent/search.json": search, "agent/fetch.json": {**search, "name": "fetch_page",
                                                               "description": "Fetch one page by its URL."}})
    (pr.repo / "agent" / "head-tools.json").write_text(json.dumps([{**search, "name": "find_manual"}]))
    run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head, comment="off",
        head_tools="agent/head-tools.json", json_file="report.json", fail_on="never")
    report = json.loads((pr.repo / "report.json").read_text())
    assert not [f for f in report["findings"] if set(f["tools"]) == {"find_manual", "search_manual"}]


def test_an_internal_error_replaces_the_verdict_too(
        fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in tooldiff (any exception) must not leave the last push's verdict standing on the PR either;
    the traceback still fails the job."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head) == 1
    [first] = [dict(c) for c in fake.bot_comments(2)]
    pr.push({"tools.json": helpdesk("base")})
    import tooldiff.actionreport

    def broken(*_: object) -> None:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    monkeypatch.setattr(tooldiff.actionreport, "analyse_plan", broken)
    with pytest.raises(ValueError, match="4300 digits"):
        run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head)
    [now] = fake.bot_comments(2)
    assert now["id"] == first["id"] and "could not analyse" in now["body"]
    assert "internal error" in now["body"] and "4300 digits" in now["body"]


def test_an_output_file_that_the_pr_made_a_symlink_is_replaced_not_followed(
        fake: FakeGitHub, tmp_path: Path) -> None:
    """A PR that commits `tooldiff.sarif -> .git/config` must not have the checkout's git config written."""
    pr = PullRequest(tmp_path, fake)
    (pr.repo / "tooldiff.sarif").symlink_to(".git/config")
    pr.push({"tools.json": helpdesk("head")})
    config = (pr.repo / ".git" / "config").read_bytes()
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment="off",
        sarif_file="tooldiff.sarif", fail_on="never")
    assert (pr.repo / ".git" / "config").read_bytes() == config
    assert not (pr.repo / "tooldiff.sarif").is_symlink()
    assert json.loads((pr.repo / "tooldiff.sarif").read_text())["version"] == "2.1.0"


def test_an_output_path_through_a_linked_folder_replaces_the_verdict(
        fake: FakeGitHub, tmp_path: Path) -> None:
    """A push that makes the output path go through a committed link is refused before anything is analysed,
    and the PR comment says so rather than keep the last push's verdict."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               json_file="out/report.json") == 1
    [first] = [dict(c) for c in fake.bot_comments(2)]
    import shutil

    shutil.rmtree(pr.repo / "out")
    (pr.repo / "out").symlink_to(".git")
    pr.push({"tools.json": helpdesk("base")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head,
               json_file="out/report.json") == 2
    [now] = fake.bot_comments(2)
    assert now["id"] == first["id"] and "could not analyse" in now["body"] and "symbolic link" in now["body"]
    assert not (pr.repo / ".git" / "report.json").exists()


@pytest.mark.parametrize(("inputs", "said"), [
    ({"sarif_file": "agent"}, "agent&#39; is a folder"),
    ({"json_file": "x.out", "sarif_file": "x.out"}, "both name &#39;x.out"),
    ({"json_file": "agent/tools.json"}, "agent/tools.json&#39; holds tool definitions"),
])
def test_an_output_path_that_cannot_hold_the_report_is_refused_before_analysis(
        fake: FakeGitHub, tmp_path: Path, inputs: dict[str, str], said: str) -> None:
    """A folder crashed the run after the analysis (the last push's verdict stayed); one file named for both
    reports kept only the SARIF; a tool file named as the output was overwritten with the report."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"agent/tools.json": helpdesk("head")})
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head) == 1
    [first] = [dict(c) for c in fake.bot_comments(2)]
    pr.push({"agent/tools.json": helpdesk("base")})
    tools = (pr.repo / "agent" / "tools.json").read_bytes()
    assert run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, **inputs) == 2
    [now] = fake.bot_comments(2)
    assert now["id"] == first["id"] and "could not analyse" in now["body"] and said in now["body"]
    assert (pr.repo / "agent" / "tools.json").read_bytes() == tools and not (pr.repo / "x.out").exists()


def test_the_report_outputs_are_workspace_paths(fake: FakeGitHub, tmp_path: Path) -> None:
    """An absolute path inside the workspace (in the container, /github/workspace/...) is given to later
    steps as the workspace path, which they can open on the runner too."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment="off",
        sarif_file=str(pr.repo / "out" / "tooldiff.sarif"), json_file="./out/../report.json", fail_on="never")
    lines = (tmp_path / "files" / "output").read_text().splitlines()
    outputs = {lines[i].split("<<")[0]: lines[i + 1] for i in range(0, len(lines), 3)}
    assert (outputs["sarif"], outputs["report-json"]) == ("out/tooldiff.sarif", "report.json")
    assert (pr.repo / "out" / "tooldiff.sarif").is_file() and (pr.repo / "report.json").is_file()


def test_a_huge_file_at_the_output_path_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check that an output path holds no tool file read the whole file: a fork PR could commit 3 GB
    at `tooldiff.sarif`. A file past the size limit is not read (nor is it a tool file the run reads)."""
    big = tmp_path / "tooldiff.sarif"
    with big.open("wb") as fh:
        fh.truncate(3_000_000_000)  # sparse: no disk used

    def refuse(self: Path) -> bytes:
        raise AssertionError(f"read {self}")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    action._writable("tooldiff.sarif", "sarif", big)


def test_an_output_path_that_is_no_regular_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A FIFO at the output path would make the write wait forever; a file that cannot be read would end
    the run in a traceback. Both are said as the input error they are."""
    import os

    from tooldiff.settings import SettingsError

    fifo = tmp_path / "tooldiff.sarif"
    os.mkfifo(fifo)
    with pytest.raises(SettingsError, match="not a regular file"):
        action._writable("tooldiff.sarif", "sarif", fifo)
    locked = tmp_path / "report.json"
    locked.write_text("{}")

    def denied(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(SettingsError, match="cannot be read"):
        action._writable("report.json", "json", locked)


def test_a_config_paths_typo_fails_the_run_instead_of_passing_on_nothing(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`paths: [agnet/*.json]` matched no file: the PR run said "touches no tool definitions" and the audit
    "no findings in 0 tools", both green, where `tooldiff check` exits 2. A required check must not pass
    on nothing. The audit also says the config entries that name nothing, as `check` does."""
    pr = PullRequest(tmp_path, fake)
    pr.push({".tooldiff.yml": "paths: ['agnet/*.json']\n", "tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head)
    assert code == 2 and "paths: 'agnet/*.json' matches no file" in capsys.readouterr().out
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head)
    assert code == 2 and "paths: 'agnet/*.json' matches no" in capsys.readouterr().out
    config = ("paths: ['*.json', 'agnet/*.json']\nignores:\n  - {code: intent-overlap, tool: nope, "
              "reason: typo}\n")
    pr.push({".tooldiff.yml": config})
    assert run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               fail_on="never") == 0
    notes = json.loads((pr.repo / "tooldiff-report.json").read_text())["notes"]
    assert "paths: 'agnet/*.json' matches no tool file." in notes
    assert "ignores: intent-overlap on 'nope' matches no finding." in notes


def test_an_audit_of_a_generated_file_that_is_not_committed_says_so(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An earlier step wrote dist/tools.json: "no such file or folder in the checkout" while `ls` shows it."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    (pr.repo / "dist").mkdir()
    (pr.repo / "dist" / "tools.json").write_text(json.dumps(helpdesk("head")), encoding="utf-8")
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               paths="dist/tools.json")
    out = capsys.readouterr().out
    assert code == 2 and "dist/tools.json: in the workspace but not committed at " in out
    assert "head-tools" in out


def test_an_audit_of_an_absolute_path_is_not_said_to_be_in_the_workspace(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`paths: /etc` is read as `etc` of the commit: the container's own /etc is no file of the workspace,
    and "commit it, or give it as `head-tools`" sent the author the wrong way."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head, paths="/etc")
    out = capsys.readouterr().out
    assert code == 2 and "etc: no such file or folder in the checkout" in out
    assert "in the workspace but not committed" not in out


def test_a_pr_run_reads_a_rooted_or_workspace_path_as_the_audit_does(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`paths: /tools.json` and `paths: <workspace>/tools.json` name the repository's file in a PR run as in
    an audit; the PR run said the file was outside the repository and to give BASE_PATH HEAD_PATH."""
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    named = ("/tools.json", str(pr.repo / "tools.json"))
    for path in named:
        code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, paths=path)
        out = capsys.readouterr().out
        assert code == 1 and "::warning file=tools.json" in out and "BASE_PATH" not in out, out
    for path in named:  # the dispatch event takes the PR event's place
        event = dispatch_event(tmp_path)
        code = run(fake, tmp_path, "workflow_dispatch", event, pr.repo, pr.head, paths=path)
        assert code == 1 and "::warning file=tools.json" in capsys.readouterr().out


def test_an_audit_of_generated_tools_given_as_a_dump_is_no_paths_typo(
        fake: FakeGitHub, tmp_path: Path) -> None:
    """`paths: [build/tools/*.json]` names tools a build writes, and the audit gets them as `head-tools`:
    that is not a pass on nothing, and an ignore of a dumped tool's finding matches it."""
    pr = PullRequest(tmp_path, fake)
    config = ("paths: ['build/tools/*.json']\nignores:\n  - {code: missing-description, tool: math.sum, "
              "reason: generated}\n")
    pr.push({".tooldiff.yml": config})
    (pr.repo / "dumps").mkdir()
    dump = {"name": "math.sum", "description": "Add two numbers and return the sum.",
            "input_schema": {"type": "object", "properties": {"a": {"type": "number"}}}}
    (pr.repo / "dumps" / "head.json").write_text(json.dumps([dump]))
    code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
               head_tools="dumps/head.json", fail_on="never")
    assert code == 0
    report = json.loads((pr.repo / "tooldiff-report.json").read_text())
    assert [f["status"] for f in report["findings"] if f["code"] == "missing-description"] == ["ignored"]
    assert not [n for n in report["notes"] if n.startswith(("ignores:", "paths:"))], report["notes"]


def test_a_pr_whose_tools_are_all_generated_compares_the_dumps_under_a_paths_config(
        fake: FakeGitHub, tmp_path: Path) -> None:
    """`paths` names the generated files only (never committed): with both dumps given, the PR compares
    them, where the config's globs must not make it exit 2 nor leave the dumps unread."""
    pr = PullRequest(tmp_path, fake)
    config = "paths: ['build/tools/*.json']\ntoolsets:\n  - {name: agent, files: ['agnet/*']}\n"
    pr.push({".tooldiff.yml": config})
    tool = {"name": "math.sum", "description": "Add two numbers and return the sum.",
            "input_schema": {"type": "object", "properties": {"a": {"type": "number", "description": "A."}}}}
    (pr.repo / "dumps").mkdir()
    (pr.repo / "dumps" / "base.json").write_text("[]")
    (pr.repo / "dumps" / "head.json").write_text(json.dumps([tool]))
    code = run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment="off",
               fail_on="never", json_file="report.json", base_tools="dumps/base.json",
               head_tools="dumps/head.json")
    assert code == 0
    report = json.loads((pr.repo / "report.json").read_text())
    assert [(t["name"], t["change"]) for t in report["tools"]] == [("math.sum", "added")]
    assert not [n for n in report["notes"] if n.startswith("paths:")], report["notes"]
    assert any(n.startswith("toolsets: 'agent' holds no tools") for n in report["notes"]), report["notes"]


def test_the_run_s_own_notice_takes_one_of_the_ten_notice_annotations(
        fake: FakeGitHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pr = PullRequest(tmp_path, fake)
    props = {f"p{i}": {"type": "string"} for i in range(14)}  # 14 info findings: no descriptions
    tools = helpdesk("head")
    tools["tools"].append({"name": "fill_form", "description": "Fill the intake form of a new customer.",
                           "input_schema": {"type": "object", "properties": props}})
    pr.push({"tools.json": tools})
    run(fake, tmp_path, "pull_request", pr.event_dir / "event.json", pr.repo, pr.head, comment="off",
        fail_on="never", sarif_file="tooldiff.sarif", json_file="report.json")
    out = capsys.readouterr().out.splitlines()
    report = json.loads((pr.repo / "report.json").read_text())
    new_infos = sum(1 for f in report["findings"] if f["status"] == "new" and f["severity"] == "info")
    notices = [line for line in out if line.startswith("::notice")]
    assert len(notices) == 10 and "holds the findings of the changed tools" in notices[0]
    infos = sum(1 for line in out if line.startswith("::notice") and "missing-description" in line)
    left = next(line for line in out if "more new findings are not annotated" in line)
    assert new_infos > 10 and infos == 9 and left.startswith(f"tooldiff: {new_infos - 9} more")


def test_a_fork_cannot_pick_a_laxer_base_config_by_branching_from_an_old_commit(
        fake: FakeGitHub, tmp_path: Path) -> None:
    """Under pull_request_target the config and baseline are the base's: its branch's tip, not the merge
    base, which the fork chooses (branched from a commit whose config turned intent-overlap off and set
    `fail_on: never`, it passed)."""
    import copy

    from gitbuild import commit, init
    from prscenario import FIX, NUMBER

    repo = init(tmp_path / "ws")
    lax = "fail_on: never\nrules:\n  intent-overlap: {enabled: false}\n"
    old = commit(repo, {"tools.json": helpdesk("base"), ".tooldiff.yml": lax}, "old lax config")
    base = commit(repo, {".tooldiff.yml": "fail_on: warning\n"}, "strict config")
    git(repo, "checkout", "-q", "-b", "pr", old)
    head = commit(repo, {"tools.json": helpdesk("head")}, "pr on the old base")
    git(repo, "checkout", "-q", "main")  # pull_request_target checks out the base
    fake.add_pull(NUMBER, head, base, {"tools.json": None}, fork=True)
    event = json.loads((FIX / "pull_request.opened.payload.json").read_text())
    event["number"] = event["pull_request"]["number"] = NUMBER
    event["pull_request"]["head"]["sha"], event["pull_request"]["base"]["sha"] = head, base
    event["pull_request"]["head"]["repo"] = copy.deepcopy(event["pull_request"]["head"]["repo"])
    event["pull_request"]["head"]["repo"]["full_name"] = "stranger/Hello-World"
    (tmp_path / "event.json").write_text(json.dumps(event))
    code = run(fake, tmp_path, "pull_request_target", tmp_path / "event.json", repo, base, fail_on="",
               json_file="r.json", comment="off")
    report = json.loads((repo / "r.json").read_text())
    assert code == 1 and "intent-overlap" in {f["code"] for f in report["findings"] if f["status"] == "new"}


def test_a_tool_dump_must_stay_inside_the_workspace(fake: FakeGitHub, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`head-tools: ../x`, or a link the PR committed (`dump.json -> /etc/passwd`), read a file out of the
    checkout."""
    outside = tmp_path / "secret.json"
    outside.write_text("[]")
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    (pr.repo / "dump.json").symlink_to(outside)
    for name in ("../secret.json", "dump.json"):
        code = run(fake, tmp_path, "workflow_dispatch", dispatch_event(tmp_path), pr.repo, pr.head,
                   head_tools=name)
        assert code == 2 and "is outside the workspace" in capsys.readouterr().out, name
