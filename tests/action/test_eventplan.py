"""Which refs each event compares, from real webhook payloads (octokit/webhooks, in tests/fixtures)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tooldiff.eventplan import Plan, plan_event
from tooldiff.settings import SettingsError, from_env

FIX = Path(__file__).parents[1] / "fixtures" / "github"


def payload(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIX / name).read_text())
    return data


def settings(event: str, **inputs: str) -> Any:
    env = {"GITHUB_EVENT_NAME": event, "GITHUB_REPOSITORY": "Codertocat/Hello-World", "GITHUB_SHA": "c" * 40}
    env.update({f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()})
    return from_env(env)


def test_pull_request_head_is_the_pr_head_not_the_merge_commit() -> None:
    event = payload("pull_request.opened.payload.json")
    plan = plan_event(settings("pull_request"), event)
    assert isinstance(plan, Plan)
    assert plan.kind == "diff" and plan.pr == 2 and plan.trusted_head and not plan.fork
    assert (
        plan.head == event["pull_request"]["head"]["sha"]
        and plan.base == event["pull_request"]["base"]["sha"]
    )


def test_fork_under_pull_request_target_is_untrusted() -> None:
    event = payload("pull_request.opened.payload.json")
    fork = copy.deepcopy(event)
    fork["pull_request"]["head"]["repo"]["full_name"] = "stranger/Hello-World"
    plan = plan_event(settings("pull_request_target"), fork)
    assert isinstance(plan, Plan) and plan.fork and not plan.trusted_head


def test_merge_group_diffs_without_a_comment() -> None:
    event = {"merge_group": {"base_sha": "a" * 40, "head_sha": "b" * 40}}
    plan = plan_event(settings("merge_group"), event)
    assert isinstance(plan, Plan) and (plan.base, plan.head, plan.pr, plan.publish) == (
        "a" * 40,
        "b" * 40,
        None,
        False,
    )


@pytest.mark.parametrize(
    ("event", "file"),
    [
        ("workflow_dispatch", "workflow_dispatch.payload.json"),
        ("push", "push.payload.json"),
        ("schedule", None),
    ],
)
def test_audit_events(event: str, file: str | None) -> None:
    plan = plan_event(settings(event), payload(file) if file else {})
    assert isinstance(plan, Plan) and plan.kind == "audit" and plan.pr is None
    assert plan.head == "c" * 40  # the push example deletes a tag: `after` is all zeros, GITHUB_SHA wins


def test_a_push_that_deletes_a_ref_is_not_diffed() -> None:
    """`mode: diff` compared the deleted tag's commit with the default branch (GITHUB_SHA): unrelated commits,
    findings "new" that no push made."""
    plan = plan_event(settings("push", mode="diff"), payload("push.payload.json"))
    assert isinstance(plan, Plan) and plan.kind == "audit" and plan.head == "c" * 40
    assert plan.note is not None and "deleted a branch or tag" in plan.note


def test_mode_input_forces_audit_on_a_pr() -> None:
    plan = plan_event(settings("pull_request", mode="audit"), payload("pull_request.opened.payload.json"))
    assert isinstance(plan, Plan) and plan.kind == "audit"


def test_other_events_are_named_and_skipped() -> None:
    assert "issue_comment" in str(plan_event(settings("issue_comment"), {}))


def test_broken_payload_is_a_clear_error() -> None:
    with pytest.raises(SettingsError, match=r"head\.sha"):
        plan_event(settings("pull_request"), {"pull_request": {"base": {"sha": "x"}}})


@pytest.mark.parametrize("event", ["pull_request", "pull_request_target"])
def test_a_closed_pull_request_needs_nothing(event: str) -> None:
    plan = plan_event(settings(event), payload("pull_request.closed.payload.json"))
    assert isinstance(plan, str) and "closed" in plan


def test_merge_group_honours_mode_audit() -> None:
    event = {"merge_group": {"base_sha": "a" * 40, "head_sha": "b" * 40}}
    plan = plan_event(settings("merge_group", mode="audit"), event)
    assert isinstance(plan, Plan) and (plan.kind, plan.head, plan.note) == ("audit", "b" * 40, None)


@pytest.mark.parametrize(
    ("event", "data", "why"),
    [
        ("workflow_dispatch", payload("workflow_dispatch.payload.json"), "workflow_dispatch"),
        ("schedule", {}, "schedule"),
        ("push", {"before": "0" * 40, "after": "d" * 40}, "created"),
        ("push", {"after": "d" * 40}, "before"),
    ],
)
def test_mode_diff_that_cannot_be_honoured_says_an_audit_ran(event: str, data: dict[str, Any],
                                                             why: str) -> None:
    plan = plan_event(settings(event, mode="diff"), data)
    assert isinstance(plan, Plan) and plan.kind == "audit" and plan.note
    assert "mode: diff" in plan.note and "audit" in plan.note and why in plan.note


def test_push_with_a_before_commit_honours_mode_diff() -> None:
    plan = plan_event(settings("push", mode="diff"), {"before": "a" * 40, "after": "d" * 40})
    assert isinstance(plan, Plan) and (plan.kind, plan.base, plan.head, plan.note) == (
        "diff", "a" * 40, "d" * 40, None)
