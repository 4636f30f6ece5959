"""A Responses API tool without `strict`, whose optional properties the API may make required.

## What it finds
A tool in a format whose API makes a tool strict when `strict` is left out (OpenAI's Responses API: its
`strict` defaults to true), with at least one optional property. Chat Completions tools are not affected:
there an omitted `strict` means best effort.

## Why it matters
Without `strict`, the Responses API normalises the schema into strict mode where it can: every property
becomes required, so the model must fill the optional ones on every call, with empty strings, zeros or made-up
values, and the tool receives them as if the user had asked. Where the schema cannot be made strict, the same
tool silently gets best-effort calling instead. Which of the two happens is decided by the API, not by the
file, and moving a tool from Chat Completions to Responses changes it without any edit (several agent
frameworks shipped this bug in 2026).

## Example
```json
{"type": "function", "name": "search_orders", "description": "Search the customer's orders.",
 "parameters": {"type": "object", "required": ["query"],
                "properties": {"query": {"type": "string"}, "status": {"type": "string"}}}}
```

## Use instead
Say which mode you want. `"strict": false` keeps `status` optional (best-effort calling); `"strict": true`
needs every property in `required`, with null allowed where it is optional, and `additionalProperties:
false` (then `optional-not-required` and `missing-additional-properties-false` check it):
```json
{"type": "function", "name": "search_orders", "description": "Search the customer's orders.", "strict": false,
 "parameters": {"type": "object", "required": ["query"],
                "properties": {"query": {"type": "string"}, "status": {"type": "string"}}}}
```

## References
- https://developers.openai.com/api/docs/guides/function-calling#strict-mode ("If you omit strict, the
  default depends on the API: Responses requests will attempt to normalize your schema into strict mode when
  possible, and will fall back to non-strict, best-effort function calling if the schema cannot be made
  compatible with strict mode.")
- https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools (function tool,
  `strict`: "Default true")
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context
from tooldiff.targets import TARGETS

CODE = "implicit-strict"
SEVERITY: Severity = "warning"
KIND = "tool"

_PARAMETERS = {"type": "object", "required": ["query"],
               "properties": {"query": {"type": "string"}, "status": {"type": "string"}}}
_TOOL = {"type": "function", "name": "search_orders", "description": "Search the customer's orders."}
EXAMPLE = [{**_TOOL, "parameters": _PARAMETERS}]
FIXED = [{**_TOOL, "strict": False, "parameters": _PARAMETERS}]


# Every format any target makes strict when `strict` is unset: a cheap first test for the other 99% of tools.
_FORMATS = frozenset().union(*(t.strict_when_unset_formats for t in TARGETS.values()))


def applies(ctx: Context) -> bool:
    return any(t.strict_when_unset_formats for t in ctx.targets)


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    if tool.format not in _FORMATS or tool.strict is not None or not schemawalk.has_schema(tool):
        return
    targets = tuple(t.name for t in ctx.targets if tool.format in t.strict_when_unset_formats)
    if not targets:
        return
    optional = [p.name for p in schemawalk.object_properties(tool) if p.name not in p.required]
    if not optional:
        return
    shown = ", ".join(f'"{name}"' for name in optional[:3])
    more = f" and {len(optional) - 3} more" if len(optional) > 3 else ""
    them = "them" if len(optional) > 1 else "it"
    yield Problem(
        message=(f"strict is not set, so the API makes this schema strict where it can: the optional "
                 f"{shown}{more} would then be required, and the model would fill {them} on every call; "
                 f"where it cannot, calls fall back to best effort."),
        fix=(f'Set "strict": false to keep {them} optional, or "strict": true with every property in '
             "required (null allowed where optional) and additionalProperties false."),
        pointer="",
        targets=targets,
        evidence={"optional": optional},
    )
