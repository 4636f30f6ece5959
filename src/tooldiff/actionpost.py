"""Posting an action run to GitHub: the PR comment, the review and the check run, in that order.

A token may allow one and not another (`checks: write` without `pull-requests: write`), so one refusal
never stops the other steps. No answer from the API or a rate limit stops the steps left, and a pull
request that is gone the review; the note names the steps not tried.

What decides the exit code: a refusal for want of permission (a fork's read-only token), a PR gone or no
token at all leave it to the findings, with a notice; GitHub failing for good after the retries (5xx, no
answer, a rate limit) exits 1, because the PR's verdict comment may now be stale and a re-run fixes it.
"""

from __future__ import annotations

from collections.abc import Callable

from tooldiff import actionout, gha
from tooldiff.eventplan import Plan
from tooldiff.github import GitHubError, Publisher
from tooldiff.model import Report
from tooldiff.settings import Settings

CHECK_NAME = "tooldiff"
PR_STEPS = ("PR comment", "review")
NO_TOKEN = ("Nothing was posted to GitHub (no PR comment, review or check run): no token was given "
            "(`github-token` is empty and GITHUB_TOKEN unset). A secret passed as `github-token` is empty "
            "on a fork's pull request.")

Say = Callable[[str], None]
Step = Callable[[], str | None]


def _comment(settings: Settings, pr: int, report: Report, body: str, publisher: Publisher,
             say: Say) -> str | None:
    from tooldiff.render.view import touches_tools

    res = publisher.upsert_comment(pr, body, recreate=settings.comment == "recreate",
                                   allow_create=touches_tools(report))
    say(f"tooldiff: PR comment {res.action}" + (f": {res.url}" if res.url else ""))
    return None


def _review(pr: int, head: str, report: Report, publisher: Publisher, say: Say) -> str | None:
    comments = actionout.line_comments(report, publisher.pr_lines(pr))
    review = publisher.post_review(pr, head, comments,
                                   lambda n: f"tooldiff: {n} new finding(s) on changed lines.")
    say(f"tooldiff: review comments: {len(review.posted)} posted, {review.already} posted before, "
        f"{len(review.dropped)} refused by GitHub")
    return None


def _check_run(settings: Settings, plan: Plan, head: str, report: Report, body: str, publisher: Publisher,
               failing: int) -> str | None:
    name = CHECK_NAME if settings.comment_id == "default" else f"{CHECK_NAME} ({settings.comment_id})"
    title = f"{failing} new finding(s) at or above {settings.fail_on}" if failing else "No failing findings"
    annotations = actionout.check_annotations(report)
    if len(annotations) > actionout.MAX_CHECK_ANNOTATIONS:
        title += (f"; the {actionout.MAX_CHECK_ANNOTATIONS:,} most severe of {len(annotations):,} "
                  "are annotated")
        annotations = annotations[:actionout.MAX_CHECK_ANNOTATIONS]
    ok = publisher.check_run(head, name=name, conclusion="failure" if failing else "success", title=title,
                             summary=body, annotations=annotations)
    if ok:
        return None
    if plan.fork and plan.trusted_head:  # `pull_request` from a fork: no permission the workflow sets helps
        return ("The check run was skipped: GitHub refuses writes from a pull request from a fork under "
                "`pull_request` (a read-only token, whatever the job's `permissions`). This job's own status "
                "carries the verdict.")
    return ("The check run was skipped: this token lacks `checks: write`; add it to the job's "
            "`permissions`.")


def _failed(step: str, exc: GitHubError) -> tuple[str, str, bool]:
    """(workflow command, note, hard failure) for a step GitHub did not take."""
    if exc.rate_limited:
        return "error", (f"No {step} was posted: GitHub's API rate limit was reached ({exc}). "
                         "Re-run the job once it resets."), True
    if exc.status == 403:
        return "notice", (f"No {step} was posted: GitHub refused it ({exc}). The token may not write here: a "
                          "pull request from a fork gets a read-only token under `pull_request`, and other "
                          "runs need `pull-requests: write`. The findings are in this summary and the "
                          "annotations."), False
    if exc.status == 404:
        if step not in PR_STEPS:  # the check run is on a commit
            return "notice", (f"No {step} was posted: GitHub did not find the commit or the repository "
                              f"({exc}); it may have been force-pushed away."), False
        return "notice", f"The pull request was not found ({exc}); it may have been closed or deleted.", False
    return "error", f"Posting to GitHub failed ({step}): {exc}", True


def publish(settings: Settings, plan: Plan, report: Report, body: str, publisher: Publisher, failing: int,
            say: Say) -> tuple[bool, list[str]]:
    """Comment, review and check run, as the settings ask. Returns (hard failure, notes for the summary)."""
    if not settings.token:
        say(gha.command("warning", NO_TOKEN))
        return False, [NO_TOKEN]
    head = plan.head or settings.sha
    steps: list[tuple[str, Step]] = []
    pr = plan.pr
    if pr is not None and settings.comment != "off":
        steps.append(("PR comment", lambda: _comment(settings, pr, report, body, publisher, say)))
    if pr is not None and settings.review_comments:
        steps.append(("review", lambda: _review(pr, head, report, publisher, say)))
    if settings.check_run and head:
        steps.append(("check run",
                      lambda: _check_run(settings, plan, head, report, body, publisher, failing)))
    hard, notes, skip = False, list[str](), set[str]()
    for i, (step, do) in enumerate(steps):
        if step in skip:
            continue
        try:
            note, level = do(), "notice"
        except GitHubError as exc:
            level, note, failed = _failed(step, exc)
            hard = hard or failed
            rest = [s for s, _ in steps[i + 1:]]
            if exc.status == 404:
                rest = [s for s in rest if s in PR_STEPS]  # the check run is on a commit, not on the PR
            elif not (exc.status == 0 or exc.rate_limited):
                rest = []  # a refusal or a lasting 5xx of one step says nothing about the next
            if rest:
                skip.update(rest)  # every later request would meet the same wall
                note += f" Not tried for the same reason: the {' and the '.join(rest)}."
        if note:
            say(gha.command(level, ("tooldiff: " if level == "error" else "") + note))
            notes.append(note)
    return hard, notes
