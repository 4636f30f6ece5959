"""The Publisher against the fake GitHub API (through `responses`; the socket server for timing tests).

Every request is validated against GitHub's OpenAPI description; `fake.errors` must stay empty.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import responses

from fakegithub import FakeGitHub
from tooldiff.github import GitHubError, LineComment, Publisher, comment_marker, finding_marker, make_client

TOKEN = "ghs_PLANTEDsecretVALUE0123456789abcdef"
BOT = "github-actions[bot]"
MARK = comment_marker("default")
PATCH = '@@ -1,3 +1,6 @@\n {\n+  "name": "find_document",\n+  "x": 1,\n+  "y": 2,\n   "a": 1\n }'


@pytest.fixture
def fake(shared_dir: Path) -> Iterator[FakeGitHub]:
    gh = FakeGitHub()
    gh.token = TOKEN
    gh.add_pull(7, "a" * 40, "b" * 40, {"tools/a.json": PATCH, "README.md": None})
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        gh.install(mock)
        yield gh
    assert gh.errors == []


def publisher(fake: FakeGitHub, logs: list[str] | None = None, comment_id: str = "default") -> Publisher:
    client = make_client(fake.base, TOKEN, retries=3, backoff=0, secondary_wait=0, max_wait=2)
    sink = logs if logs is not None else []
    return Publisher(client, fake.repository, bot_login=BOT, comment_id=comment_id, log=sink.append,
                     retry_wait=0)


def test_nothing_is_sent_before_it_is_needed(fake: FakeGitHub) -> None:
    publisher(fake)
    assert fake.requests == []


def test_creates_one_comment_with_the_marker(fake: FakeGitHub) -> None:
    result = publisher(fake).upsert_comment(7, "## verdict")
    assert result.action == "created"
    [comment] = fake.bot_comments(7)
    assert comment["body"].startswith(MARK + "\n")
    assert [r.operation for r in fake.requests] == [
        "issues/list-comments",
        "issues/create-comment",
        "issues/list-comments",
    ]


def test_edits_in_place_in_two_requests(fake: FakeGitHub) -> None:
    fake.add_comment(7, "looks good", login="octocat")
    old = fake.add_comment(7, MARK + "\nold verdict")
    result = publisher(fake).upsert_comment(7, MARK + "\nnew verdict")
    assert result.action == "updated"
    assert fake.comments[old["id"]]["body"] == MARK + "\nnew verdict"
    assert [r.operation for r in fake.requests] == ["issues/list-comments", "issues/update-comment"]
    assert len(fake.requests) <= 5  # the figure for this run


def test_same_body_sends_no_edit(fake: FakeGitHub) -> None:
    fake.add_comment(7, MARK + "\nsame")
    assert publisher(fake).upsert_comment(7, MARK + "\nsame").action == "unchanged"
    assert len(fake.requests) == 1


def test_never_touches_a_comment_someone_else_wrote_even_with_the_marker(fake: FakeGitHub) -> None:
    forged = fake.add_comment(7, MARK + "\nforged by a stranger", login="mallory")
    publisher(fake).upsert_comment(7, "real verdict", recreate=True)
    assert fake.comments[forged["id"]]["body"] == MARK + "\nforged by a stranger"
    assert [c["body"] for c in fake.bot_comments(7)] == [MARK + "\nreal verdict"]
    assert not [r for r in fake.requests if r.path.endswith(f"/comments/{forged['id']}")]


def test_bot_login_is_matched_as_github_matches_logins_without_case(fake: FakeGitHub) -> None:
    # "My-App[bot]" as the app's settings page writes it: the comments are by "my-app[bot]", and every run
    # posted another verdict.
    fake.actor = "my-app[bot]"
    client = make_client(fake.base, TOKEN, retries=0, backoff=0)
    for verdict in ("first", "second"):
        pub = Publisher(client, fake.repository, bot_login="My-App[bot]", comment_id="default")
        pub.upsert_comment(7, verdict)
    assert [c["body"] for c in fake.bot_comments(7)] == [MARK + "\nsecond"]


def test_a_bot_login_that_is_not_the_token_s_account_is_said(fake: FakeGitHub) -> None:
    logs: list[str] = []
    client = make_client(fake.base, TOKEN, retries=0, backoff=0)
    Publisher(client, fake.repository, bot_login="my-app", comment_id="default",
              log=logs.append).upsert_comment(7, "verdict")
    assert any("bot-login" in line and "github-actions[bot]" in line for line in logs), logs


def test_other_comment_ids_are_left_alone(fake: FakeGitHub) -> None:
    other = fake.add_comment(7, comment_marker("docs") + "\nanother run's verdict")
    publisher(fake).upsert_comment(7, "mine")
    assert other["id"] in fake.comments and len(fake.bot_comments(7)) == 2


def test_finds_the_marker_on_the_fifth_page(fake: FakeGitHub) -> None:
    for i in range(420):
        fake.add_comment(7, f"chatter {i}", login="octocat")
    target = fake.add_comment(7, MARK + "\nold")
    result = publisher(fake).upsert_comment(7, "new")
    assert result.action == "updated" and fake.comments[target["id"]]["body"] == MARK + "\nnew"
    pages = [r.query.get("page", "1") for r in fake.calls("GET")]
    assert pages == ["1", "2", "3", "4", "5"]
    assert len(fake.bot_comments(7)) == 1


def test_clean_pr_without_comment_posts_nothing_but_updates_an_old_one(fake: FakeGitHub) -> None:
    assert publisher(fake).upsert_comment(7, "no tools", allow_create=False).action == "skipped"
    assert fake.calls("POST") == []
    old = fake.add_comment(7, MARK + "\nhad findings")
    assert publisher(fake).upsert_comment(7, "now clean", allow_create=False).action == "updated"
    assert fake.comments[old["id"]]["body"].endswith("now clean")


def test_a_comment_deleted_since_the_listing_is_posted_again(fake: FakeGitHub) -> None:
    """Deleted between our listing and our edit (by hand, or by a racing run's `recreate`): the 404 is about
    the comment, not the pull request, and the PR must not be left without a verdict."""
    old = fake.add_comment(7, MARK + "\nold verdict")

    def delete_first(method: str, path: str) -> None:
        if method == "PATCH" and old["id"] in fake.comments:
            del fake.comments[old["id"]]

    fake.hooks.append(delete_first)
    result = publisher(fake).upsert_comment(7, "new verdict", allow_create=False)
    assert result.action == "created"
    assert [c["body"] for c in fake.bot_comments(7)] == [MARK + "\nnew verdict"]


def test_recreate_deletes_then_posts(fake: FakeGitHub) -> None:
    old = fake.add_comment(7, MARK + "\nold")
    assert publisher(fake).upsert_comment(7, "fresh", recreate=True).action == "created"
    assert old["id"] not in fake.comments
    assert [c["body"] for c in fake.bot_comments(7)] == [MARK + "\nfresh"]


def test_a_racing_run_leaves_one_comment(fake: FakeGitHub) -> None:
    """Another run creates its copy between our listing and our create: both tidy to the oldest."""
    raced = []

    def racer(method: str, path: str) -> None:
        if method == "POST" and path.endswith("/issues/7/comments") and not raced:
            raced.append(fake._new_comment(7, MARK + "\nother run", BOT))

    fake.hooks.append(racer)
    publisher(fake).upsert_comment(7, "ours")
    [kept] = fake.bot_comments(7)
    assert kept["id"] == raced[0]["id"] and kept["body"] == MARK + "\nours"
    # The other run's tidy, arriving late, finds one comment and does nothing more.
    before = len(fake.comments)
    publisher(fake).upsert_comment(7, "ours")
    assert len(fake.comments) == before


def test_leftover_duplicates_are_tidied_on_the_next_run(fake: FakeGitHub) -> None:
    first = fake.add_comment(7, MARK + "\nA")
    fake.add_comment(7, MARK + "\nB")
    result = publisher(fake).upsert_comment(7, "C")
    assert result.removed == 1
    assert [c["id"] for c in fake.bot_comments(7)] == [first["id"]]


def test_fork_pr_403_is_a_clear_error(fake: FakeGitHub) -> None:
    fake.pulls[7].fork = True
    with pytest.raises(GitHubError) as err:
        publisher(fake).upsert_comment(7, "verdict")
    assert err.value.status == 403 and "creating the comment" in str(err.value)


def test_closed_or_deleted_pr_404(fake: FakeGitHub) -> None:
    with pytest.raises(GitHubError) as err:
        publisher(fake).upsert_comment(99, "verdict")
    assert err.value.status == 404


def line(n: int, fp: str) -> LineComment:
    return LineComment("tools/a.json", n, f"finding {fp}\n\n{finding_marker(fp)}", fp)


def test_review_posts_once_across_two_runs(fake: FakeGitHub) -> None:
    comments = [line(2, "ab" * 16), line(3, "cd" * 16)]
    first = publisher(fake).post_review(7, "a" * 40, comments, "tooldiff: 2 new findings")
    assert len(first.posted) == 2 and len(fake.reviews) == 1
    assert fake.calls("POST", "pulls/create-review")[0].body["event"] == "COMMENT"
    second = publisher(fake).post_review(7, "a" * 40, comments, "tooldiff: 2 new findings")
    assert second.posted == [] and second.already == 2 and len(fake.reviews) == 1


def test_review_422_drops_only_the_bad_comment(fake: FakeGitHub) -> None:
    logs: list[str] = []
    comments = [line(2, "ab" * 16), line(40, "ef" * 16), line(4, "cd" * 16)]
    result = publisher(fake, logs).post_review(7, "a" * 40, comments, "tooldiff")
    assert result.dropped == ["ef" * 16] and len(result.posted) == 2
    assert sorted(c["line"] for c in fake.review_comments.values()) == [2, 4]
    assert any("tools/a.json:40" in m for m in logs)
    assert [r.status for r in fake.calls("POST")] == [422, 201, 422, 201]


def test_5xx_that_goes_away_is_retried(fake: FakeGitHub) -> None:
    fake.fail("GET", r"/issues/7/comments$", 502, times=2)
    fake.fail("POST", r"/issues/7/comments$", 503, times=1)
    assert publisher(fake).upsert_comment(7, "verdict").action == "created"
    assert len(fake.bot_comments(7)) == 1


@pytest.mark.parametrize("times", [1, 100])
def test_a_comment_made_before_github_answered_5xx_is_posted_once(fake: FakeGitHub, times: int) -> None:
    """GitHub can make the comment and answer 502 all the same (a gateway timing out): sent again, it made a
    copy per retry, five verdicts on the PR. The listing says whether it is there."""
    fake.fail("POST", r"/issues/7/comments$", 502, times=times, after=True)
    result = publisher(fake).upsert_comment(7, "verdict")
    assert result.action == "created"
    [comment] = fake.bot_comments(7)
    assert comment["body"].endswith("verdict") and result.url == comment["html_url"]
    assert len(fake.calls("POST", "issues/create-comment")) == 1


def test_a_comment_github_did_not_make_is_sent_again(fake: FakeGitHub) -> None:
    fake.fail("POST", r"/issues/7/comments$", 502, times=2)
    assert publisher(fake).upsert_comment(7, "verdict").action == "created"
    assert len(fake.bot_comments(7)) == 1 and len(fake.calls("POST", "issues/create-comment")) == 3
    fake.fail("POST", r"/issues/8/comments$", 502, times=100)
    fake.add_pull(8, "c" * 40, "d" * 40, {"tools/a.json": PATCH})
    with pytest.raises(GitHubError) as err:
        publisher(fake).upsert_comment(8, "verdict")
    assert err.value.status == 502 and fake.bot_comments(8) == []


def test_5xx_that_stays_fails_after_bounded_retries(fake: FakeGitHub) -> None:
    fake.fail("GET", r"/issues/7/comments$", 502, times=100)
    with pytest.raises(GitHubError) as err:
        publisher(fake).upsert_comment(7, "verdict")
    assert err.value.status == 502
    assert len(fake.requests) == 4  # one try and three retries


def test_check_run_annotations_go_fifty_a_request(fake: FakeGitHub) -> None:
    notes = [
        {
            "path": "tools/a.json",
            "start_line": i,
            "end_line": i,
            "annotation_level": "warning",
            "message": f"m{i}",
        }
        for i in range(1, 121)
    ]
    ok = publisher(fake).check_run(
        "a" * 40, name="tooldiff", conclusion="failure", title="t", summary="s", annotations=notes
    )
    assert ok
    assert [r.operation for r in fake.requests] == ["checks/create", "checks/update", "checks/update"]
    [run_id] = fake.check_runs
    assert [a["start_line"] for a in fake.annotations[run_id]] == list(range(1, 121))


def test_check_run_403_is_skipped(fake: FakeGitHub) -> None:
    fake.fail("POST", r"/check-runs$", 403, body={"message": "Resource not accessible by integration"})
    assert not publisher(fake).check_run(
        "a" * 40, name="tooldiff", conclusion="success", title="t", summary="s", annotations=[]
    )


def test_check_run_rate_limited_403_is_an_error_not_a_missing_permission(fake: FakeGitHub) -> None:
    fake.fail("POST", r"/check-runs$", 403, times=10, headers={"X-RateLimit-Remaining": "0"},
              body={"message": "API rate limit exceeded for installation ID 1."})
    with pytest.raises(GitHubError) as err:
        publisher(fake).check_run("a" * 40, name="tooldiff", conclusion="success", title="t", summary="s",
                                  annotations=[])
    assert err.value.status == 403 and err.value.rate_limited


def test_no_secret_in_logs(
    fake: FakeGitHub, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    logs: list[str] = []
    fake.fail("GET", r"/issues/7/comments$", 502, times=1)
    fake.pulls[7].fork = True
    pub = publisher(fake, logs)
    with pytest.raises(GitHubError) as err:
        pub.upsert_comment(7, "verdict")
    out = capsys.readouterr()
    text = caplog.text + out.out + out.err + "\n".join(logs) + str(err.value) + repr(err.value) + repr(pub)
    assert TOKEN not in text and TOKEN[4:20] not in text


# -- the socket front: real sleeps ---------------------------------------------------------------------
@pytest.fixture
def served(shared_dir: Path) -> Iterator[FakeGitHub]:
    gh = FakeGitHub(prefix="/api/v3")  # a GitHub Enterprise style base URL
    gh.token = TOKEN
    gh.add_pull(7, "a" * 40, "b" * 40, {"tools/a.json": PATCH})
    gh.start()
    yield gh
    gh.stop()
    assert gh.errors == []


def test_secondary_rate_limit_honours_retry_after(served: FakeGitHub) -> None:
    served.secondary_rate_limit("POST", r"/issues/7/comments$", retry_after=1)
    start = time.monotonic()
    result = publisher(served).upsert_comment(7, "verdict")
    assert result.action == "created" and time.monotonic() - start >= 1.0
    assert [r.status for r in served.calls("POST")] == [403, 201]
    assert all(r.path.startswith("/repos/") for r in served.requests)  # prefix stripped: GHE paths work


def test_a_long_retry_after_is_capped(served: FakeGitHub) -> None:
    served.secondary_rate_limit("GET", r"/issues/7/comments$", retry_after=3600)
    start = time.monotonic()
    assert publisher(served).upsert_comment(7, "verdict").action == "created"
    assert 1.0 <= time.monotonic() - start < 10  # max_wait=2 in these tests, never an hour


def test_a_review_says_how_many_comments_it_posts_not_how_many_findings_there_are(fake: FakeGitHub) -> None:
    publisher(fake).post_review(7, "a" * 40, [line(2, "ab" * 16)], lambda n: f"tooldiff: {n} new")
    more = [line(2, "ab" * 16), line(3, "cd" * 16)]  # the next push adds one finding
    publisher(fake).post_review(7, "a" * 40, more, lambda n: f"tooldiff: {n} new")
    assert [r.body["body"] for r in fake.calls("POST", "pulls/create-review")] == ["tooldiff: 1 new"] * 2


def test_a_review_or_check_run_post_answered_5xx_is_not_sent_again(fake: FakeGitHub) -> None:
    # GitHub may have made the review before it answered 502: a retry would post it, and its line comments,
    # twice. The issue comment may be retried: the next listing finds and removes a second copy.
    fake.fail("POST", r"/pulls/7/reviews$", 502, times=1)
    with pytest.raises(GitHubError) as err:
        publisher(fake).post_review(7, "a" * 40, [line(2, "ab" * 16)], "tooldiff")
    assert err.value.status == 502 and len(fake.calls("POST", "pulls/create-review")) == 1
    fake.fail("POST", r"/check-runs$", 503, times=1)
    with pytest.raises(GitHubError):
        publisher(fake).check_run("a" * 40, name="tooldiff", conclusion="success", title="t", summary="s",
                                  annotations=[])
    assert len(fake.calls("POST", "checks/create")) == 1


def test_a_check_run_update_answered_5xx_is_not_sent_again(fake: FakeGitHub) -> None:
    # Each update appends its 50 annotations: GitHub took the first send before it answered 502, and the
    # retry showed those 50 twice.
    notes = [{"path": "tools/a.json", "start_line": i, "end_line": i, "annotation_level": "warning",
              "message": f"m{i}"} for i in range(1, 121)]
    fake.fail("PATCH", r"/check-runs/\d+$", 502, times=1, after=True)
    with pytest.raises(GitHubError) as err:
        publisher(fake).check_run("a" * 40, name="tooldiff", conclusion="failure", title="t", summary="s",
                                  annotations=notes)
    assert err.value.status == 502
    [run_id] = fake.check_runs
    starts = [a["start_line"] for a in fake.annotations[run_id]]
    assert len(starts) == len(set(starts)) == 100
