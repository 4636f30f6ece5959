"""`tooldiff github` end to end in-process: settings, event, report, fake GitHub API over a socket.

The analysis is replaced by hand-built reports, so these tests pin the GitHub side alone; the container
tests in tests/e2e run the real pipeline.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reports import diff_report, finding

from fakegithub import FakeGitHub
from tooldiff import action, actionreport
from tooldiff.github import comment_marker, make_client
from tooldiff.model import Report
from tooldiff.settings import from_env

TOKEN = "ghs_PLANTEDsecretVALUE0123456789abcdef"
FIX = Path(__file__).parents[1] / "fixtures" / "github"
PATCH = '@@ -10,2 +10,5 @@\n   {\n+    "name": "find_document",\n+    "a": 1,\n+    "b": 2\n   }'
OVERLAP = finding("intent-overlap", ("find_document", "search_docs"), 11)


@pytest.fixture
def fake(shared_dir: Path) -> Iterator[FakeGitHub]:
    gh = FakeGitHub(repository="Codertocat/Hello-World")
    gh.token = TOKEN
    event = json.loads((FIX / "pull_request.opened.payload.json").read_text())
    gh.add_pull(
        2, event["pull_request"]["head"]["sha"], event["pull_request"]["base"]["sha"], {"tools/a.json": PATCH}
    )
    gh.start()
    yield gh
    gh.stop()
    assert gh.errors == []


def go(
    fake: FakeGitHub,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    report: Report,
    event: str = "pull_request",
    event_path: Path = FIX / "pull_request.opened.payload.json",
    **inputs: str,
) -> int:
    monkeypatch.setattr(actionreport, "analyse_plan", lambda settings, plan: report)
    env = {
        "GITHUB_EVENT_NAME": event,
        "GITHUB_REPOSITORY": fake.repository,
        "GITHUB_WORKSPACE": str(tmp_path),
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_API_URL": fake.base,
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "INPUT_GITHUB-TOKEN": TOKEN,
        "INPUT_FAIL-ON": "error",
        "INPUT_COMMENT": "update",
        "GITHUB_RUN_ID": "42",
    }
    env.update({f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()})
    settings = from_env(env)
    event_data: dict[str, Any] = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text())
    client = make_client(fake.base, TOKEN, retries=2, backoff=0, secondary_wait=0, max_wait=1)
    return action.run(settings, event_data, client)


def summary(tmp_path: Path) -> str:
    return (tmp_path / "summary.md").read_text()


def test_pr_with_a_new_error_gets_one_comment_and_fails(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert go(fake, tmp_path, monkeypatch, diff_report(OVERLAP)) == 1
    [comment] = fake.bot_comments(2)
    assert comment["body"].startswith(comment_marker("default"))
    out = capsys.readouterr().out
    assert "::error file=tools/a.json,line=11" in out and TOKEN not in out
    outputs = (tmp_path / "output").read_text()
    assert "new-errors<<ghadelimiter_" in outputs and "find_document" in outputs
    assert summary(tmp_path).strip()


def test_second_run_edits_the_same_comment_in_at_most_five_requests(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    go(fake, tmp_path, monkeypatch, diff_report(OVERLAP))
    [first] = [dict(c) for c in fake.bot_comments(2)]
    fake.requests.clear()
    assert go(fake, tmp_path, monkeypatch, diff_report()) == 0
    [again] = fake.bot_comments(2)
    assert again["id"] == first["id"] and again["_edits"] == 1 and again["body"] != first["body"]
    assert len(fake.requests) <= 5, [r.operation for r in fake.requests]
    assert [r.operation for r in fake.requests] == ["issues/list-comments", "issues/update-comment"]


def test_pr_touching_no_tools_posts_nothing(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert go(fake, tmp_path, monkeypatch, diff_report(touched=False)) == 0
    assert fake.calls("POST") == [] and fake.calls("PATCH") == []


def test_fork_403_falls_back_to_the_summary(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.pulls[2].fork = True
    assert go(fake, tmp_path, monkeypatch, diff_report(OVERLAP)) == 1  # the finding decides
    assert (
        "read-only token" in summary(tmp_path)
        and "::notice::No PR comment was posted" in capsys.readouterr().out
    )
    fake.requests.clear()
    assert go(fake, tmp_path, monkeypatch, diff_report()) == 0


def test_closed_pr_404_is_a_message_and_exit_0(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    del fake.pulls[2]
    assert go(fake, tmp_path, monkeypatch, diff_report()) == 0
    assert "not found" in summary(tmp_path)


def test_github_down_fails_clearly_but_still_writes_the_summary(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.fail("GET", r"/comments$", 503, times=100)
    assert go(fake, tmp_path, monkeypatch, diff_report()) == 1
    assert len(fake.requests) == 3  # bounded: one try, two retries
    assert "Posting to GitHub failed" in summary(tmp_path)
    assert "::error::tooldiff: Posting to GitHub failed (PR comment)" in capsys.readouterr().out


def test_review_comments_post_once_across_two_runs(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        go(fake, tmp_path, monkeypatch, diff_report(OVERLAP), review_comments="true", comment="off")
    assert len(fake.reviews) == 1 and [c["line"] for c in fake.review_comments.values()] == [11]
    assert fake.calls("POST", "issues/create-comment") == []


def test_check_run_without_permission_is_skipped_with_a_notice(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.fail("POST", r"/check-runs$", 403, body={"message": "Resource not accessible by integration"})
    assert go(fake, tmp_path, monkeypatch, diff_report(), check_run="true", comment="off") == 0
    assert "lacks `checks: write`" in capsys.readouterr().out


def test_other_events_exit_0(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert go(fake, tmp_path, monkeypatch, diff_report(), event="issue_comment") == 0
    out = capsys.readouterr().out
    assert "not one tooldiff handles" in out and fake.requests == []
    # A required check wired to the wrong event must not pass without a word where people look.
    assert "::notice::tooldiff: the event 'issue_comment' is not one tooldiff handles" in out
    assert "nothing was analysed" in (tmp_path / "summary.md").read_text()


def test_a_pr_gone_names_the_review_not_tried_and_still_makes_the_check_run(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    del fake.pulls[2]
    assert go(fake, tmp_path, monkeypatch, diff_report(), review_comments="true", check_run="true") == 0
    out = capsys.readouterr().out
    assert "The pull request was not found" in out and "Not tried for the same reason: the review." in out
    assert fake.reviews == [] and len(fake.check_runs) == 1


def test_a_404_on_the_check_run_names_the_commit_not_the_pull_request() -> None:
    from tooldiff.actionpost import _failed
    from tooldiff.github import GitHubError

    level, note, hard = _failed("check run", GitHubError("create check run", 404, "Not Found"))
    assert (level, hard) == ("notice", False) and "commit" in note and "pull request" not in note
    assert "pull request was not found" in _failed("PR comment", GitHubError("list", 404, "Not Found"))[1]


def test_check_run_annotations_are_capped_and_the_title_says_so(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 50 annotations a request: 5,000 findings were 100 content-creating requests in a row, past GitHub's
    # secondary rate limit (80 a minute, 500 an hour), and the job failed on the rate limit.
    many = [finding("missing-description", (f"t{i}",), i + 1, "warning") for i in range(5_000)]
    assert go(fake, tmp_path, monkeypatch, diff_report(*many), check_run="true", comment="off") == 0
    [run_id] = fake.check_runs
    assert len(fake.calls("POST")) + len(fake.calls("PATCH")) <= 20
    assert len(fake.annotations[run_id]) == 1_000
    title = fake.check_runs[run_id]["output"]["title"]
    assert "1,000 most severe of 5,000" in title


def test_the_actions_own_notices_come_before_the_finding_annotations(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The runner keeps the first 10 annotations of each level in a step and drops the rest: printed after
    # ten finding notices, the notice that says why a fork PR got no comment never showed as an annotation.
    fake.pulls[2].fork = True
    infos = [finding("missing-description", (f"t{i}",), i + 1, "info") for i in range(12)]
    assert go(fake, tmp_path, monkeypatch, diff_report(*infos)) == 0
    notices = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::notice")]
    assert notices[0].startswith("::notice::No PR comment was posted"), notices[:2]


@pytest.mark.parametrize("payload", [b"not json", b"\xff\xfe{}"])
def test_an_event_file_that_is_not_json_names_github_event_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], payload: bytes
) -> None:
    event = tmp_path / "event.json"
    event.write_bytes(payload)
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "o/r", "GITHUB_WORKSPACE": str(tmp_path),
           "GITHUB_EVENT_PATH": str(event), "INPUT_GITHUB-TOKEN": TOKEN}
    assert action.main(env=env) == 2
    err = capsys.readouterr().err
    assert "GITHUB_EVENT_PATH" in err and str(event) in err and "not JSON" in err


def test_a_fork_prs_refused_check_run_is_not_blamed_on_a_missing_permission(
    fake: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fork's pull request gets a read-only token under `pull_request`: "this token lacks `checks: write`"
    sent the maintainer to add a permission that GitHub withholds from forks whatever the workflow says."""
    event = json.loads((FIX / "pull_request.opened.payload.json").read_text())
    event["pull_request"]["head"]["repo"]["full_name"] = "stranger/tools"
    forked = tmp_path / "fork-event.json"
    forked.write_text(json.dumps(event))
    fake.fail("POST", r"/check-runs$", 403, body={"message": "Resource not accessible by integration"})
    assert go(fake, tmp_path, monkeypatch, diff_report(), check_run="true", comment="off",
              event_path=forked) == 0
    out = capsys.readouterr().out
    assert "from a fork" in out and "lacks `checks: write`" not in out
