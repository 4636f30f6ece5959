"""A boolean or enum argument that switches an ordinary tool into a higher blast radius (seed 001).

## What it finds
An argument such as `create_ticket(page_oncall: true)`, `notify_all`, `force`, `allowDestructive`,
`deleteLocalData`, `dropTarget`, or a `priority` enum whose `P1` value pages someone: one value of it turns
an everyday call into one that wakes a person, reaches everyone, skips a check or destroys state. On a tool
named for deleting (`delete`, `remove`, `rm`, `purge`, `cleanup`, ...), so is a flag that widens what one
call reaches: `recursive`, `allNamespaces`, `all_projects`. A boolean
counts when its name or description says so; an enum counts when it offers a top severity (P0, P1, SEV1,
critical) and the tool or the argument says that it pages or notifies. A tool whose name is led by a read
verb (`list_alerts(severity: critical)`, or `github_list_alerts` whose description opens "List" and names
GitHub), or that its
author marks read-only (`readOnlyHint: true`, or `blast: read` in the config), reads: its arguments filter
what it reads, and none is reported.
Nor is a `force` that only makes the tool redo its work (`force_rebuild`, `forceRefresh`, "Force re-index
all docs even if unchanged"), or keeps a missing path from failing the call (`rm -f`: "Suppress errors if
path doesn't exist"): it overwrites nothing the call would not. Nor is an undescribed `force` on a tool
whose words say it writes nothing (`event_count`, "Count valid events in the files").

## Why it matters
The model reaches the dangerous behaviour from the ordinary path by setting one value, and the only guard is
the sentence that says when to set it. In seed 001 a merged `create_ticket(page_oncall)` paged 11 times where
a human triager agreed with 4; the false pages came from users typing "urgent", "down" or "asap".

## Example
`create_ticket(title, body, priority, page_oncall: boolean)`: "Create a support ticket. Set page_oncall when
the issue is urgent."

## Use instead
Move the behaviour into its own tool (`escalate_ticket`) and gate it with a permission, so a user without the
scope never sees it, with a confirmation step, a rate limit and an audit trail (seed 001's `TOOL_POLICY`).

## References
- Seed 001, "The pair somebody will propose merging".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from tooldiff.blast import Blast, assess, read_lead
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context
from tooldiff.terms import CAMEL_BOUNDARY

CODE = "escalation-flag"
SEVERITY: Severity = "warning"
KIND = "tool"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target

# Flag names (split on _ and case) that raise the blast radius when set.
_FLAG = re.compile(
    r"(?:^|_)(paging|oncall|on_call|notify|notify_all|alert|broadcast|everyone|all_users|escalate"
    r"|force|skip_(?:checks?|review|approval|confirmation|hooks|verification)|no_verify|bypass(?!_cache)|override"
    r"|permanent(?:ly)?|hard_delete|purge|send_email|send_sms|charge|auto_deploy|deploy"
    r"|allow_(?:writes?|deletes)|destructive|dangerous|delete(?:_\w+)?"  # allow_delete(_x): delete
    r"|drop_target|drop_existing)(?:_|$)",
    re.I,
)
_FLAG_DESC = re.compile(
    r"\b(page[sd]? the|on-?call|notif(?:y|ies|ied)|everyone|@channel|skips? the"
    r"|bypass(?! (?:the )?\w* ?cache)"
    r"|every (?:employee|member|user|customer|subscriber)|all (?:staff|members|users|employees|customers)"
    r"|without (?:confirmation|review)|permanently)\b",
    re.I,
)
# `force` that only makes the tool redo its work (rebuild an index, refresh fresh data) destroys nothing: by
# its name (force_rebuild, forceRefresh) or its description ("Force re-index all docs even if unchanged").
_REDO_NAME = re.compile(r"(?:^|_)force_?re(?:build|fresh|load|index|compute|generate|fetch|scan|sync)", re.I)
_REDO_DESC = re.compile(
    r"\beven if (?:the |its |it |data |\w+ ){0,3}(?:is |are |was |has |have )?(?:been )?(?:fresh|unchanged"
    r"|up[- ]to[- ]date|cached|current|already (?:indexed|built|synced|cached|computed))\b",
    re.I,
)
# `rm -f`: a force whose whole description is about a missing target not failing the call changes nothing
# the call would not do. Any more words (kill, overwrite, even when unmerged) and it is judged as any force.
_MISSING_OK = re.compile(
    r"\s*(?:suppress|ignore|silence|skip)(?:es|s)? (?:the )?errors? (?:if|when) (?:the )?"
    r"(?:it|(?:target |given )?(?:path|file|directory|folder|target|entry))"
    r" (?:does(?: not|n't) exist|is missing|is not found|is absent|is already gone)\.?\s*",
    re.I,
)
# Flags that widen what one call reaches, and the names of tools for which that is an escalation.
_WIDER = re.compile(
    r"^(?:recursive(?:ly)?|all_(?:namespaces|projects|accounts|tenants|clusters|regions|repositories|repos"
    r"|orgs|workspaces|branches|versions))$"
)
_DESTROYS = re.compile(
    r"(?:^|_|\.)(?:delete|remove|rm|rmdir|purge|clean|cleanup|drop|destroy|wipe|erase|prune|uninstall)(?:_|$)"
)
# "Set to false to skip the form": the dangerous value is false.
# A word before the danger that makes it the safe choice: soft_delete, non_destructive, skip_delete.
_SAFER = re.compile(r"(?:^|_)(?:no|non|not|skip|prevent|soft|safe|dry)_(?:delete|destructive|dangerous)")
_FALSE_TRIGGERS = re.compile(r"\bfalse\b[^.]{0,20}\b(?:skip|bypass|without)", re.I)
_TOP_SEVERITY = re.compile(r"^(p0|p1|sev[-_ ]?[01]|critical|emergency|urgent)$", re.I)
_PAGES = re.compile(r"\b(page[sd]?\b|paging|on-?call|notif(?:y|ies|ied)|alert(?:s|ed)?|wake)", re.I)

_TICKET = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "body": {"type": "string"},
        "priority": {"enum": ["P4", "P3", "P2", "P1"]},
        "page_oncall": {"type": "boolean", "default": False},
    },
    "required": ["title", "body", "priority"],
}
EXAMPLE = [
    {
        "name": "create_ticket",
        "description": "Create a support ticket. Set page_oncall when the issue is urgent.",
        "input_schema": _TICKET,
    }
]
FIXED = [
    {
        "name": "create_ticket",
        "description": "Create a support ticket.",
        "input_schema": {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "body": {"type": "string"},
                "priority": {"enum": ["P4", "P3", "P2"]},
            },
            "required": ["title", "body", "priority"],
        },
    }
]


@cache
def _snake(name: str) -> str:
    """`forceRefresh`, `force-refresh` -> force_refresh (argument names repeat across tools)."""
    return CAMEL_BOUNDARY.sub("_", name).lower().replace("-", "_")


def _flag_name(name: str) -> bool:
    """Whether a boolean of this name raises the blast radius (`softDelete`, `non_destructive` lower it)."""
    snake = _snake(name)
    return bool(_FLAG.search(snake)) and not _SAFER.search(snake)


def _redo(name: str, desc: str, tool_name: str = "") -> bool:
    """A force flag that only makes the tool redo work it would skip: no state is overwritten or lost."""
    plain = _snake(name)
    if "force" not in plain:  # `purge` "even if cached" still purges
        return False
    if plain == "force" and _DESTROYS.search(_snake(tool_name)) and _MISSING_OK.fullmatch(desc):
        return True  # `rm -f`: a plain force on a removal, not `force_overwrite`, not `git_push(force)`
    return bool(_REDO_NAME.search(plain) or (_REDO_DESC.search(desc) and not _FLAG_DESC.search(desc)))


def _why(name: str, prop: dict[str, Any], tool_text: str, tool_name: str = "") -> str | None:
    desc = prop.get("description", "") if isinstance(prop.get("description"), str) else ""
    if prop.get("type") == "boolean" and (_flag_name(name) or _FLAG_DESC.search(desc)):
        if _redo(name, desc, tool_name):
            return None
        return f"setting {name} to {'false' if _FALSE_TRIGGERS.search(desc) else 'true'}"
    values = prop.get("enum")
    if isinstance(values, list):
        top = [v for v in values if isinstance(v, str) and _TOP_SEVERITY.match(v)]
        if top and _PAGES.search(f"{tool_text} {desc}"):
            return f"choosing {name}: {top[0]}"
    return None


def _flag_or_choice(prop: object) -> bool:
    return isinstance(prop, dict) and (prop.get("type") == "boolean" or "enum" in prop)


def check(tool: Tool, ctx: Context) -> Iterable[Problem]:
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    props = schema.get("properties")
    if not isinstance(props, dict) or not any(_flag_or_choice(p) for p in props.values()):
        return  # `_why` answers only for a flag or a choice of values: most tools have neither
    if read_lead(tool.name, tool.description or ""):
        return  # a read (`list_alerts(severity: critical)`): its arguments filter what it reads
    text = f"{tool.name.replace('_', ' ')} {tool.description or ''}"
    blast: Blast | None = None  # assessed only once a property would be reported: most tools have none
    for name, prop in props.items():
        if not isinstance(prop, dict) or not isinstance(name, str):
            continue
        if prop.get("type") != "boolean" and "enum" not in prop:
            continue  # `_why` answers only for a flag or a choice of values: most properties are neither
        why = _why(name, prop, text, tool.name)
        # A whole tree, every namespace: where one was meant, only a tool named for destroying what it
        # reaches makes that an escalation (`watch_directory(recursive)` watches more, that is all).
        widens = why is None and prop.get("type") == "boolean" and _WIDER.search(_snake(name))
        if widens and _DESTROYS.search(_snake(tool.name)):
            why = f"setting {name} to true"
        if why is None:
            continue
        blast = blast or assess(tool, ctx.tool_settings)
        if blast.level == "read" and blast.evidence in ("annotations", "config"):
            return  # its author says it reads: `readOnlyHint: true`, or `blast: read` in the config
        if _snake(name) == "force" and not prop.get("description") and blast.level == "read":
            continue  # dftracer's `event_count(force)`: no word says the tool writes; forcing raises nothing
        yield Problem(
            message=(
                f"{why} switches {tool.name} into a higher blast radius: the only guard is the sentence "
                "that says when to do it, and the model sets it from the user's tone."
            ),
            fix=(
                f"Move that behaviour into its own tool beside {tool.name} and gate it with a permission "
                "(a scope the ordinary user lacks, a confirmation step, a rate limit, an audit trail), "
                "so it is "
                "unreachable rather than discouraged."
            ),
            pointer=f"/input_schema/properties/{name.replace('~', '~0').replace('/', '~1')}",
            evidence={"argument": name, "trigger": why},
        )
