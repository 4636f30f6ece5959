"""`tooldiff github` in-process on a real git repository (the whole pipeline) against the fake API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fakegithub import FakeGitHub
from gitbuild import git
from prscenario import TOKEN, PullRequest, dispatch_event, environment, fixed_head, helpdesk
from tooldiff import action
from tooldiff.github import comment_marker, make_client

FIX = Path(__file__).parents[1] / "fixtures" / "github"


def run(fake: FakeGitHub, tmp_path: Path, event: str, event_path: Path, workspace: Path, sha: str,
        **inputs: str) -> int:
    files = tmp_path / "files"
    files.mkdir(exist_ok=True)
    env = environment(event, fake.base, str(workspace), str(event_path), str(files), sha, **inputs)
    return action.main([], env, make_client(fake.base, TOKEN, retries=1, backoff=0))


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
    assert "intent-overlap" not in trusted["body"] and not marker.exists()


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
