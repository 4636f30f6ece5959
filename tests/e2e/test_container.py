"""The real image against the fake GitHub API on 127.0.0.1, run the way the Actions runner runs it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fakegithub import FakeGitHub
from prscenario import TOKEN, PullRequest, dispatch_event, environment, fixed_head, helpdesk
from tooldiff.github import FINDING_MARK, comment_marker

pytestmark = pytest.mark.e2e
Run = Callable[..., Any]


def pr_env(fake: FakeGitHub, pr: PullRequest, **inputs: str) -> dict[str, str]:
    return environment("pull_request", fake.base, "", "", "", pr.head, **inputs)


def check(ran: Any) -> None:
    assert TOKEN not in ran.stdout.replace(f"::add-mask::{TOKEN}", "") and TOKEN not in ran.stderr
    assert ran.seconds < 30
    assert ran.rooted == []  # nothing left in the checkout that the runner's user cannot clean


def test_overlap_gets_one_comment_and_the_fix_edits_it(fake: FakeGitHub, tmp_path: Path,
                                                       run_action: Run) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    ran = run_action(pr.repo, pr.event_dir, pr_env(fake, pr))
    assert ran.code == 1, ran.stdout + ran.stderr
    check(ran)
    assert fake.bot_comments(2), ran.stdout + ran.stderr + str(fake.requests)
    [first] = [dict(c) for c in fake.bot_comments(2)]
    assert first["body"].startswith(comment_marker("default")) and "find" in first["body"]
    assert "::warning file=tools.json" in ran.stdout and "new-findings<<ghadelimiter_" in ran.outputs
    assert ran.summary.strip()

    pr.push({"tools.json": fixed_head()})
    fake.requests.clear()
    ran = run_action(pr.repo, pr.event_dir, pr_env(fake, pr))
    assert ran.code == 0, ran.stdout + ran.stderr
    [again] = fake.bot_comments(2)
    assert again["id"] == first["id"] and again["_edits"] == 1 and again["body"] != first["body"]
    assert len(fake.requests) <= 5, [r.operation for r in fake.requests]


def test_fork_pr_403_falls_back_to_the_summary(fake: FakeGitHub, tmp_path: Path, run_action: Run) -> None:
    pr = PullRequest(tmp_path, fake, fork=True)
    pr.push({"tools.json": helpdesk("head")})
    ran = run_action(pr.repo, pr.event_dir, pr_env(fake, pr))
    assert ran.code == 1, ran.stdout + ran.stderr  # decided by the warning and fail-on: warning
    check(ran)
    assert fake.comments == {} and [r.status for r in fake.calls("POST")] == [403]
    assert "read-only token" in ran.summary and "::notice::No PR comment was posted" in ran.stdout


def test_workflow_dispatch_audit_writes_sarif(fake: FakeGitHub, tmp_path: Path, run_action: Run) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    dispatch_event(tmp_path)
    env = environment("workflow_dispatch", fake.base, "", "", "", pr.head, fail_on="never")
    ran = run_action(pr.repo, pr.event_dir, env)
    assert ran.code == 0, ran.stdout + ran.stderr
    sarif = json.loads((pr.repo / "tooldiff.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    assert "sarif<<ghadelimiter_" in ran.outputs and "tooldiff.sarif" in ran.outputs
    assert fake.requests == []


def test_pr_touching_no_tools_posts_nothing(fake: FakeGitHub, tmp_path: Path, run_action: Run) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"README.md": "# helpdesk\n\nMore words.\n"})
    ran = run_action(pr.repo, pr.event_dir, pr_env(fake, pr))
    assert ran.code == 0, ran.stdout + ran.stderr
    assert fake.calls("POST") == [] and fake.calls("PATCH") == [] and fake.comments == {}


def test_review_comments_post_once_across_two_runs(fake: FakeGitHub, tmp_path: Path, run_action: Run) -> None:
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    env = pr_env(fake, pr, review_comments="true", comment="off")
    assert run_action(pr.repo, pr.event_dir, env).code == 1
    posted = {c["id"]: FINDING_MARK.findall(c["body"]) for c in fake.review_comments.values()}
    assert posted and all(len(marks) == 1 for marks in posted.values())
    assert len({m[0] for m in posted.values()}) == len(posted)  # one comment per finding
    assert len(fake.reviews) == 1 and fake.reviews[0]["commit_id"] == pr.head
    assert run_action(pr.repo, pr.event_dir, env).code == 1
    assert len(fake.reviews) == 1 and set(fake.review_comments) == set(posted)
    assert fake.calls("POST", "issues/create-comment") == []


def test_what_the_container_writes_in_the_checkout_belongs_to_its_owner(fake: FakeGitHub, tmp_path: Path,
                                                                        run_action: Run) -> None:
    # The runner's user owns the checkout; the container runs as root. Root-owned files left in the
    # workspace (git objects, reports) break a self-hosted runner's next checkout.
    pr = PullRequest(tmp_path, fake)
    pr.push({"tools.json": helpdesk("head")})
    ran = run_action(pr.repo, pr.event_dir, pr_env(fake, pr, json_file="report.json", comment="off"))
    assert ran.code == 1, ran.stdout + ran.stderr
    assert (pr.repo / "report.json").exists() and ran.rooted == []
