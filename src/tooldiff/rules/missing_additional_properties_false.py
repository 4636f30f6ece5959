"""An object schema without `additionalProperties: false`, which strict mode requires.

## What it finds
For targets that require it (OpenAI and Anthropic with `strict: true`), every object schema, the root
included, whose `additionalProperties` is missing or anything but `false`.

## Why it matters
Structured Outputs only generates the keys you declared, so OpenAI makes you say so: "additionalProperties:
false must always be set in objects". Without it the request is rejected.

## Example
```json
{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
```

## Use instead
```json
{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
 "additionalProperties": false}
```

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#additionalproperties-false-must-always-be-set-in-objects
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, targets_where

CODE = "missing-additional-properties-false"
SEVERITY: Severity = "error"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas

_PROPS = {"city": {"type": "string"}}
EXAMPLE = [
    {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "input_schema": {"type": "object", "properties": _PROPS, "required": ["city"]},
    }
]
FIXED = [
    {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "input_schema": {
            "type": "object",
            "properties": _PROPS,
            "required": ["city"],
            "additionalProperties": False,
        },
    }
]


def _targets(ctx: Context) -> tuple[str, ...]:
    return targets_where(ctx, CODE, lambda t: t.additional_properties_false_required)


def applies(ctx: Context) -> bool:
    return bool(_targets(ctx))


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    targets = _targets(ctx)
    if not targets or not schemawalk.has_schema(tool):
        return
    for node in schemawalk.nodes(tool):
        s = node.schema
        if not schemawalk.is_object(s) or s.get("additionalProperties") is False:
            continue
        found = s.get("additionalProperties", "missing")
        yield Problem(
            message="This object does not set additionalProperties: false; strict mode rejects it.",
            fix='Add "additionalProperties": false to the object.',
            pointer=node.pointer,
            targets=targets,
            evidence={"additionalProperties": found if isinstance(found, bool | str) else "schema"},
        )
