"""What a workflow event asks of the action: a diff (which refs, which PR) or an audit (which ref).

Pure: reads the event payload GitHub wrote to `$GITHUB_EVENT_PATH`, never the network or git.
Note that `github.sha` of a `pull_request` run is the test merge commit, not the PR head: the head is
`pull_request.head.sha`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tooldiff.settings import Settings, SettingsError

PR_EVENTS = ("pull_request", "pull_request_target")
AUDIT_EVENTS = ("workflow_dispatch", "schedule", "push")
NULL_SHA = "0" * 40


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    kind: Literal["diff", "audit"]
    head: str | None
    base: str | None = None
    pr: int | None = None
    # False under pull_request_target: the head is a stranger's code, read as data only.
    trusted_head: bool = True
    fork: bool = False
    publish: bool = True
    # Why this plan is not what the `mode` input asked for, to be shown to the user.
    note: str | None = None

    def describe(self) -> str:
        if self.kind == "audit":
            return f"{(self.head or 'HEAD')[:12]}"
        what = f"PR #{self.pr} " if self.pr is not None else ""
        return f"{what}{(self.base or '?')[:12]}...{(self.head or '?')[:12]}"


def _get(data: Mapping[str, Any], *keys: str) -> Any:
    node: Any = data
    for key in keys:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node


def _sha(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"the event payload lacks {what}")
    return value.strip()


def _no_base(name: str, before: Any, ref: str | None, deleted: bool = False) -> str:
    """Why `mode: diff` fell back to an audit."""
    if name != "push":
        why = f"a {name} event has no earlier commit to compare with"
    elif deleted:  # `before` is the deleted ref's commit; GITHUB_SHA the default branch's: no PR between them
        why = "this push deleted a branch or tag, so no commit came after its `before`"
    elif before == NULL_SHA:
        why = "this push created the branch or tag (its `before` is all zeros)"
    elif not ref:
        why = "this push names no commit after it, and GITHUB_SHA is empty"
    else:
        why = "this push event names no `before` commit"
    return f"`mode: diff` was asked, but {why}: an audit of {(ref or 'HEAD')[:12]} ran instead."


def plan_event(settings: Settings, event: Mapping[str, Any]) -> Plan | str:
    """A Plan, or a sentence saying why this event needs nothing."""
    name = settings.event_name
    if name in PR_EVENTS:
        pr = event.get("pull_request") or {}
        if event.get("action") == "closed":  # merged or abandoned: a verdict now would change nothing
            return f"pull request #{pr.get('number') or event.get('number') or '?'} was closed"
        head = _sha(_get(pr, "head", "sha"), "pull_request.head.sha")
        number = pr.get("number") or event.get("number")
        fork = _get(pr, "head", "repo", "full_name") != _get(pr, "base", "repo", "full_name")
        trusted = name == "pull_request"
        if settings.mode == "audit":
            # The base is kept for its config and baseline when the head is untrusted.
            return Plan(kind="audit", head=head, base=_get(pr, "base", "sha"),
                        pr=int(number) if number else None, trusted_head=trusted, fork=fork)
        return Plan(kind="diff", head=head, base=_sha(_get(pr, "base", "sha"), "pull_request.base.sha"),
                    pr=int(number) if number else None, trusted_head=trusted, fork=fork)
    if name == "merge_group":
        group = event.get("merge_group") or {}
        head = _sha(group.get("head_sha"), "merge_group.head_sha")
        if settings.mode == "audit":
            return Plan(kind="audit", head=head, publish=settings.check_run)
        return Plan(kind="diff", head=head, base=_sha(group.get("base_sha"), "merge_group.base_sha"),
                    publish=settings.check_run)
    if name in AUDIT_EVENTS:
        after = event.get("after") if name == "push" else None
        ref = after if isinstance(after, str) and after != NULL_SHA else (settings.sha or None)
        before = event.get("before") if name == "push" else None
        deleted = name == "push" and (event.get("deleted") is True or after == NULL_SHA)
        if settings.mode == "diff" and isinstance(before, str) and before != NULL_SHA and ref and not deleted:
            return Plan(kind="diff", head=ref, base=before, publish=settings.check_run)
        note = _no_base(name, before, ref, deleted) if settings.mode == "diff" else None
        return Plan(kind="audit", head=ref, publish=settings.check_run, note=note)
    return f"the event {name or '(none)'!r} is not one tooldiff handles"
