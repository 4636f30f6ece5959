"""Everything tooldiff says to the GitHub REST API. The only module that imports PyGithub.

Objects are lazy (`Github(lazy=True)`): a `GITHUB_TOKEN` may not call `GET /user`, and each request
costs. A PR run that edits its comment sends two: list the comments, edit one.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ParamSpec, TypeVar

from github import Auth, Github, GithubException, GithubRetry
from urllib3.exceptions import MaxRetryError

from tooldiff.anchors import FileLines, diff_lines

# Annotations per check-run request: GitHub's documented limit.
ANNOTATIONS_PER_REQUEST = 50
# Line comments per review: more is noise; the rest stay in the summary and follow on later runs.
COMMENTS_PER_REVIEW = 50
FINDING_MARK = re.compile(r"<!-- tooldiff:finding fp=([0-9a-f]{8,64}) -->")
OS_ERROR = re.compile(r"\[Errno -?\d+\] [^'\")]+")
P = ParamSpec("P")
R = TypeVar("R")


class GitHubError(Exception):
    """A request failed for good. `status` is the HTTP status (0 when there was no answer).

    `rate_limited` tells a rate limit from a refusal: both can be a 403.
    """

    def __init__(self, what: str, status: int, message: str, *, rate_limited: bool = False) -> None:
        super().__init__(f"{what}: HTTP {status} {message}".strip() if status else f"{what}: {message}")
        self.status = status
        self.rate_limited = rate_limited


def _rate_limited(status: int, headers: dict[str, str], message: str) -> bool:
    """GitHub's documented signs: a 429, or a 403 with no requests left, a `retry-after` or a rate-limit
    message (https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api#rate-limit-errors)."""
    if status == 429:
        return True
    return status == 403 and (headers.get("x-ratelimit-remaining") == "0" or "retry-after" in headers
                              or "rate limit" in message.lower())


def _error(what: str, exc: GithubException) -> GitHubError:
    data = exc.data if isinstance(exc.data, dict) else {}
    message = str(data.get("message", ""))[:200]
    headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
    limited = _rate_limited(exc.status or 0, headers, message)
    reset = headers.get("x-ratelimit-reset", "")
    if limited and reset.isdigit():
        message += time.strftime("; the limit resets at %H:%M UTC", time.gmtime(int(reset)))
    return GitHubError(what, exc.status or 0, message, rate_limited=limited)


def _answered(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """No answer at all (refused connection, DNS, timeout) becomes a GitHubError with status 0."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return fn(*args, **kwargs)
            except OSError as exc:  # requests' ConnectionError and Timeout are OSErrors
                found = OS_ERROR.search(str(exc))
                reason = found.group(0) if found else type(exc).__name__
                raise GitHubError(what, 0, f"the GitHub API could not be reached ({reason})") from exc

        return call

    return wrap


def comment_marker(comment_id: str) -> str:
    return f"<!-- tooldiff:comment id={comment_id} -->"


def finding_marker(fingerprint: str) -> str:
    return f"<!-- tooldiff:finding fp={fingerprint[:32]} -->"


_NOT_REPEATED = re.compile(r"/pulls/\d+/(?:reviews|comments)$|/check-runs$|/issues/\d+/comments$")
# An update of a check run appends its annotations: sent again, they would show twice.
_APPENDS = re.compile(r"/check-runs/\d+$")


class CappedRetry(GithubRetry):
    """GithubRetry (5xx, 429, secondary rate limits) that never sleeps longer than `max_wait` at a time."""

    def __init__(self, max_wait: float = 60.0, **kwargs: Any) -> None:
        self.max_wait = max_wait
        super().__init__(**kwargs)

    def new(self, **kw: Any) -> CappedRetry:
        kw.setdefault("max_wait", self.max_wait)
        return super().new(**kw)

    def get_retry_after(self, response: Any) -> float | None:
        value = super().get_retry_after(response)
        return None if value is None else min(float(value), self.max_wait)

    def increment(self, method: str | None = None, url: str | None = None, *args: Any, **kwargs: Any) -> Any:
        # A review, check run or comment GitHub answered 5xx may exist all the same: sent again, it would
        # appear twice (a review's line comments too). The 5xx is the answer; `upsert_comment` lists the
        # comments to learn whether to send its own again.
        response = kwargs.get("response") or (args[0] if args else None)
        status = getattr(response, "status", 0) or 0
        # A read error (a timeout after the request went out) leaves the same doubt as a 5xx.
        failed = status >= 500 or (response is None and kwargs.get("error") is not None)
        path = (url or "").split("?")[0]
        if failed and ((method == "POST" and _NOT_REPEATED.search(path))
                       or (method == "PATCH" and _APPENDS.search(path))):
            raise MaxRetryError(kwargs.get("_pool"), url or "", None)  # type: ignore[arg-type]
        return super().increment(method, url, *args, **kwargs)


def make_client(api_url: str, token: str, *, retries: int = 4, backoff: float = 1.0,
                secondary_wait: float = 30.0, max_wait: float = 60.0) -> Callable[[], Any]:
    """A factory: nothing is created, and nothing is sent, until a publisher needs the API."""

    def factory() -> Any:
        if not token:  # PyGithub would fail an assert; the action checks first, this says why anyway
            raise GitHubError("signing in", 0, "no token was given")
        retry = CappedRetry(
            max_wait=max_wait, total=retries, backoff_factor=backoff, backoff_max=max_wait,
            secondary_rate_wait=secondary_wait, max_rate_limit_wait=max_wait,
            status_forcelist=[429, *range(500, 600)], raise_on_status=False,
            allowed_methods=frozenset({"GET", "POST", "PATCH", "PUT", "DELETE"}),
        )
        return Github(auth=Auth.Token(token), base_url=api_url, lazy=True, per_page=100, retry=retry,
                      seconds_between_requests=None, seconds_between_writes=None)

    return factory


@dataclass(frozen=True, slots=True)
class CommentResult:
    action: str  # created | updated | unchanged | skipped
    url: str | None = None
    removed: int = 0


@dataclass(frozen=True, slots=True)
class LineComment:
    path: str
    line: int
    body: str
    fingerprint: str


@dataclass(slots=True)
class ReviewResult:
    posted: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    already: int = 0


# Posts of the PR comment before giving up, each after a listing showed that the last one made nothing.
CREATE_TRIES = 3


class Publisher:
    """Posts to one repository as `bot_login`. Never touches a comment another author wrote."""

    def __init__(self, client: Callable[[], Any], repository: str, *, bot_login: str, comment_id: str,
                 log: Callable[[str], None] = print, retry_wait: float = 1.0) -> None:
        self._client = client
        self.retry_wait = retry_wait  # seconds before the second post of a comment; doubled for the third
        self.repository = repository
        self.bot_login = bot_login
        self.marker = comment_marker(comment_id)
        self.log = log

    @cached_property
    def repo(self) -> Any:
        return self._client().get_repo(self.repository)

    def _by_bot(self, item: Any) -> bool:
        # GitHub logins are case-insensitive: `My-App[bot]` is the same account as `my-app[bot]`.
        return item.user is not None and (item.user.login or "").lower() == self.bot_login.lower()

    # -- the summary comment -------------------------------------------------------------------------
    def _ours(self, number: int) -> list[Any]:
        """The bot's comments carrying our marker, oldest first, from every page."""
        try:
            return [c for c in self.repo.get_issue(number).get_comments()
                    if self._by_bot(c) and (c.body or "").lstrip().startswith(self.marker)]
        except GithubException as exc:
            raise _error("listing comments", exc) from exc

    def _delete(self, comments: Sequence[Any]) -> int:
        gone = 0
        for c in comments:
            try:
                c.delete()
            except GithubException as exc:
                if exc.status != 404:  # another run already tidied it
                    raise _error("deleting a duplicate comment", exc) from exc
            gone += 1
        return gone

    def _with_marker(self, body: str) -> str:
        if body.lstrip().startswith(self.marker):
            return body
        return self.marker + "\n" + body.replace(self.marker, "")

    @_answered("posting the comment")
    def upsert_comment(self, number: int, body: str, *, recreate: bool = False,
                       allow_create: bool = True) -> CommentResult:
        """List, then create or edit in place, then tidy extra copies a racing run made (lock-free).

        `allow_create=False` posts only in place of an earlier comment: a verdict already on the PR must be
        brought up to date, but a PR that never touched tools gets none.
        """
        body = self._with_marker(body)
        ours = self._ours(number)
        removed = 0
        if recreate and ours:
            removed += self._delete(ours)
            ours, allow_create = [], True  # the deleted verdict is replaced, whatever the new one says
        if ours:
            keep, extra = ours[0], ours[1:]
            removed += self._delete(extra)
            if keep.body == body:
                return CommentResult("unchanged", keep.html_url, removed)
            try:
                keep.edit(body)
                return CommentResult("updated", keep.html_url, removed)
            except GithubException as exc:
                if exc.status != 404:
                    raise _error("editing the comment", exc) from exc
            # Deleted since the listing (by hand, or by a racing run's `recreate`): a 404 about the comment,
            # not the pull request. The verdict it showed is gone, so the new one takes its place.
            allow_create = True
        if not allow_create:
            return CommentResult("skipped", None, removed)
        mine, now = self._create(number, body)
        if mine is not None and mine.user is not None and not self._by_bot(mine):
            # Never found again by `_ours`: every run would post one more verdict, without a word why.
            self.log(f"tooldiff: the comment was posted as {mine.user.login}, but bot-login is "
                     f"{self.bot_login}: set `bot-login: {mine.user.login}`, or the next run posts another")
        # A run racing us may have created its own copy meanwhile: everyone keeps the oldest one. No `mine`:
        # GitHub made it without saying so, and the listing holds it.
        if mine is None or len(now) > 1:
            keep = now[0]
            if keep.body != body:
                try:
                    keep.edit(body)
                except GithubException as exc:
                    raise _error("editing the comment", exc) from exc
            removed += self._delete(now[1:])
            return CommentResult("created", keep.html_url, removed)
        return CommentResult("created", mine.html_url, removed)

    def _create(self, number: int, body: str) -> tuple[Any | None, list[Any]]:
        """Post the comment; then our comments as listed. Without an answer, or with a 5xx, GitHub may have
        made it all the same: only when the listing does not show it is it sent again (`CREATE_TRIES`)."""
        tries = 0
        while True:
            try:
                mine = self.repo.get_issue(number).create_comment(body)
            except (GithubException, OSError) as exc:
                tries += 1
                if isinstance(exc, GithubException) and (exc.status or 0) < 500:
                    raise _error("creating the comment", exc) from exc
                now = self._ours(number)
                if now:
                    return None, now
                if tries == CREATE_TRIES:
                    if isinstance(exc, GithubException):
                        raise _error("creating the comment", exc) from exc
                    raise
                time.sleep(self.retry_wait * 2 ** (tries - 1))
                continue
            return mine, self._ours(number)

    # -- inline review comments ----------------------------------------------------------------------
    @_answered("listing the PR files")
    def pr_lines(self, number: int) -> dict[str, FileLines]:
        try:
            files = self.repo.get_pull(number).get_files()
            return diff_lines((f.filename, f.patch) for f in files)
        except GithubException as exc:
            raise _error("listing the PR files", exc) from exc

    def posted_fingerprints(self, number: int) -> set[str]:
        try:
            comments = self.repo.get_pull(number).get_review_comments()
            return {m for c in comments if self._by_bot(c) for m in FINDING_MARK.findall(c.body or "")}
        except GithubException as exc:
            raise _error("listing review comments", exc) from exc

    @_answered("posting the review")
    def post_review(self, number: int, head_sha: str, comments: Sequence[LineComment],
                    summary: str | Callable[[int], str]) -> ReviewResult:
        """One COMMENT review with the comments not posted before. A 422 falls back to one by one.
        `summary` may be given the number of comments this review posts."""
        result = ReviewResult()
        if not comments:
            return result
        seen = self.posted_fingerprints(number)
        todo = [c for c in comments if c.fingerprint[:32] not in seen]
        result.already = len(comments) - len(todo)
        todo = todo[:COMMENTS_PER_REVIEW]
        if not todo:
            return result
        pr = self.repo.get_pull(number)
        payload = [{"path": c.path, "line": c.line, "side": "RIGHT", "body": c.body} for c in todo]
        try:
            body = summary(len(todo)) if callable(summary) else summary
            pr.create_review(commit=self.repo.get_commit(head_sha), body=body, event="COMMENT",
                             comments=payload)
            result.posted = [c.fingerprint for c in todo]
            return result
        except GithubException as exc:
            if exc.status != 422:
                raise _error("creating the review", exc) from exc
        # GitHub rejects the whole review for one bad line; find it by posting each on its own.
        for c in todo:
            try:
                pr.create_review_comment(c.body, head_sha, c.path, line=c.line, side="RIGHT")
                result.posted.append(c.fingerprint)
            except GithubException as exc:
                if exc.status != 422:
                    raise _error("creating a review comment", exc) from exc
                result.dropped.append(c.fingerprint)
                where = c.path.replace("\r", "\\r").replace("\n", "\\n")  # a path must not forge a log line
                self.log(f"tooldiff: GitHub refused a line comment on {where}:{c.line}; "
                         "it stays in the summary")
        return result

    # -- check run -----------------------------------------------------------------------------------
    @_answered("creating the check run")
    def check_run(self, head_sha: str, *, name: str, conclusion: str, title: str, summary: str,
                  annotations: Sequence[dict[str, Any]]) -> bool:
        """A completed check run, its annotations sent 50 a request. False when the token may not."""
        batches = [list(annotations[i:i + ANNOTATIONS_PER_REQUEST])
                   for i in range(0, len(annotations), ANNOTATIONS_PER_REQUEST)] or [[]]
        output: dict[str, Any] = {"title": title, "summary": summary[:65_000]}
        try:
            run = self.repo.create_check_run(name=name, head_sha=head_sha, status="completed",
                                             conclusion=conclusion,
                                             output={**output, "annotations": batches[0]})
            for batch in batches[1:]:
                run.edit(output={**output, "annotations": batch})
        except GithubException as exc:
            error = _error("creating the check run", exc)
            if error.status == 403 and not error.rate_limited:
                return False
            raise error from exc
        return True
