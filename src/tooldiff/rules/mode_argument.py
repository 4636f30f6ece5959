"""A `mode`, `action` or `operation` enum that selects behaviours which would be separate tools (seed 001).

## What it finds
An argument named `action` or `operation` (or `op`, `action_type`, `operation_type`, in any case, in
camelCase or with `-`) whose `enum` offers two or more values that name operations (`create_issue` /
`close_issue`, `listIssues` / `createIssue`, `get` / `set`, `left_click` / `type`): each value picks a
different behaviour of the tool. Values that name no operation (`allow` / `deny` on `create_intention`,
`accept` / `dismiss` on `handle_dialog`) are a setting of the one thing the tool does.

A `mode` is more often a setting of one behaviour: travel modes (`driving`, `walking`), output formats
(`raw`, `markdown`), cipher modes (`CBC`, `GCM`), an appliance's modes (`cool`, `heat`); every `mode` enum in
the 20k-tool corpus is one. So a `mode` counts only when two of its values name different operations
tooldiff's lexicon knows, each by its first word and no other (`list`, `create`, `create_issue`; not
`read_only` or `read_write`), or when its description says the values are behaviours, tools, operations or
actions ("keyword uses the old search_docs behaviour").

## Why it matters
Keeping two behaviours and adding a mode argument to choose between them moves the coin flip from tool
selection to argument selection and changes nothing else: it is a rename, not a merge. The model still has to
decide between the behaviours, now with less text to go on (each value has no description of its own).

## Example
`search_docs(query, mode: "keyword" | "question")`, where the argument's description says that keyword runs
the old search_docs behaviour and question the old find_document behaviour.

## Use instead
Decide which behaviour you want. If the two are one behaviour, keep one and delete the other (one argument
name, one meaning). If they are really different, make them separate tools with descriptions that say when
each applies.

## References
- Seed 001: "A merge is only finished when the second tool is deleted."
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from tooldiff.lexicon import lexicon
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context
from tooldiff.terms import normalise_name_word, split_identifier

CODE = "mode-argument"
SEVERITY: Severity = "info"
KIND = "tool"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target

# Compared with `_` and `-` dropped and lower-cased: actionType, action_type and action-type are one name.
_NAMES = frozenset({"mode", "action", "operation", "op", "actiontype", "operationtype"})
# The description of a `mode` that selects behaviours, in the words it uses for them.
_SAYS_BEHAVIOURS = re.compile(r"\b(?:behaviou?rs?|tools?|operations?|actions?)\b", re.IGNORECASE)


def _selects_behaviours(name: str, prop: dict[str, Any], values: list[Any]) -> bool:
    """An `action` or `operation` enum whose values name operations (two of them, each by one of its words:
    `create_issue`, `listIssues`, `get` / `set`, `left_click`); `action: allow | deny` names no operation:
    it is a field of the one thing the tool does. A `mode` when two values are operations outright, or its
    description says the values are behaviours."""
    if name != "mode":
        return sum(1 for v in values if isinstance(v, str) and _names_operation(v)) >= 2
    # A mode's values are settings unless two name operations by their first word alone (`list`,
    # `create_issue`): `read_only` / `read_write`, `fast_search` / `deep_search` set how one behaviour runs.
    if len({t for v in values if isinstance(v, str) and (t := _mode_operation(v))}) >= 2:
        return True
    description = prop.get("description")
    return isinstance(description, str) and bool(_SAYS_BEHAVIOURS.search(description))


# Verbs of `action` values that the pair rules' lexicon leaves out (there `set` is mostly a noun).
_MORE_VERBS = frozenset({"set", "unset", "toggle", "enable", "disable", "screenshot"})


def _mode_operation(value: str) -> str | None:
    """The operation a `mode` value names, by its first word, when no other word of it is an operation or
    `only` (`create_issue`, `listIssues`; not `read_only` or `read_write`: they set how one behaviour
    runs)."""
    actions = lexicon().action_classes
    words = [w.lower() for w in split_identifier(value)]
    first = normalise_name_word(words[0]) if words else None
    if first not in actions or any(w == "only" or normalise_name_word(w) in actions for w in words[1:]):
        return None
    return first


def _names_operation(value: str) -> bool:
    actions = lexicon().action_classes
    for word in split_identifier(value):
        w = word.lower()
        if w in _MORE_VERBS or normalise_name_word(w) in actions:
            return True
    return False


EXAMPLE = [
    {
        "name": "search_docs",
        "description": "Search documentation.",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "mode": {
                "enum": ["keyword", "question"],
                "description": "keyword: the old search_docs behaviour; question: find_document's behaviour.",
            }},
            "required": ["query", "mode"],
        },
    }
]
FIXED = [
    {
        "name": "search_docs",
        "description": "Search documentation with a question or keywords.",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
        },
    }
]


def check(tool: Tool, ctx: Context) -> Iterable[Problem]:
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    for name, prop in props.items():
        if not isinstance(name, str) or not isinstance(prop, dict):
            continue
        plain = name.lower().replace("_", "").replace("-", "")
        if plain not in _NAMES:
            continue
        values = prop.get("enum")
        if not isinstance(values, list) or len(values) < 2 or not _selects_behaviours(plain, prop, values):
            continue
        shown = ", ".join(str(v) for v in values[:6])
        yield Problem(
            message=(
                f"{tool.name}.{name} selects between behaviours ({shown}): the model picks one by argument "
                "value instead of by tool, with less to go on (no value has a description of its own). Tools "
                "folded into such an argument are renamed, not merged."
            ),
            fix=(
                "Keep one behaviour with one meaning and delete the rest, or make each value its own tool "
                "whose "
                "description says when it applies."
            ),
            pointer=f"/input_schema/properties/{name}",
            evidence={"argument": name, "values": [str(v) for v in values]},
        )
