"""A `mode`, `action` or `operation` enum that selects behaviours which would be separate tools (seed 001).

## What it finds
An argument named `mode`, `action`, `operation` (or `op`, `action_type`, `operation_type`, in any case, in
camelCase or with `-`) whose `enum` offers two or more values. Each value picks a different behaviour of the
tool.

## Why it matters
Keeping two behaviours and adding a mode argument to choose between them moves the coin flip from tool
selection to argument selection and changes nothing else: it is a rename, not a merge. The model still has to
decide between the behaviours, now with less text to go on (each value has no description of its own).

## Example
`search_docs(query, mode: "keyword" | "question")`, where keyword runs the old search_docs and question the
old find_document.

## Use instead
Decide which behaviour you want. If the two are one behaviour, keep one and delete the other (one argument
name, one meaning). If they are really different, make them separate tools with descriptions that say when
each applies.

## References
- Seed 001: "A merge is only finished when the second tool is deleted."
"""

from __future__ import annotations

from collections.abc import Iterable

from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "mode-argument"
SEVERITY: Severity = "info"
KIND = "tool"

# Compared with `_` and `-` dropped and lower-cased: actionType, action_type and action-type are one name.
_NAMES = frozenset({"mode", "action", "operation", "op", "actiontype", "operationtype"})

EXAMPLE = [
    {
        "name": "search_docs",
        "description": "Search documentation.",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "mode": {"enum": ["keyword", "question"]}},
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
        if name.lower().replace("_", "").replace("-", "") not in _NAMES:
            continue
        values = prop.get("enum")
        if not isinstance(values, list) or len(values) < 2:
            continue
        shown = ", ".join(str(v) for v in values[:6])
        yield Problem(
            message=(
                f"{tool.name}.{name} selects between behaviours ({shown}): the model now chooses by argument "
                "instead of by tool, which is a rename, not a merge."
            ),
            fix=(
                "Keep one behaviour with one meaning and delete the rest, or make each value its own tool "
                "whose "
                "description says when it applies."
            ),
            pointer=f"/input_schema/properties/{name}",
            evidence={"argument": name, "values": [str(v) for v in values]},
        )
