"""A property that is not listed in `required`, where strict mode rejects the tool.

## What it finds
For targets that require every property to be required (OpenAI with `strict: true`), each property of
each object schema that is missing from that object's `required` list.

## Why it matters
OpenAI Structured Outputs refuses the whole request when any field is optional: "all fields or function
parameters must be specified as required". The tool fails on the first call, not at review time.

## Example
An OpenAI tool with `strict: true` (only that target requires every property):
```json
{"type": "function", "name": "save_facts", "description": "Save facts about the user.", "strict": true,
 "parameters": {"type": "object", "additionalProperties": false, "required": ["fact"],
                "properties": {"fact": {"type": "string"}, "note": {"type": "string"}}}}
```

## Use instead
List the property in `required` and let it be null when the model has nothing to say:
```json
{"type": "function", "name": "save_facts", "description": "Save facts about the user.", "strict": true,
 "parameters": {"type": "object", "additionalProperties": false, "required": ["fact", "note"],
                "properties": {"fact": {"type": "string"}, "note": {"type": ["string", "null"]}}}}
```
This is expected to produce `optional-forced-required` (info).

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#all-fields-must-be-required
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, targets_where

CODE = "optional-not-required"
SEVERITY: Severity = "error"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas

_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {"fact": {"type": "string"}}}
_TOOL = {"type": "function", "name": "save_facts", "description": "Save facts about the user.",
         "strict": True}
EXAMPLE = [
    {
        **_TOOL,
        "parameters": {
            **_SCHEMA,
            "required": ["fact"],
            "properties": {"fact": {"type": "string"}, "note": {"type": "string"}},
        },
    }
]
FIXED = [
    {
        **_TOOL,
        "parameters": {
            **_SCHEMA,
            "required": ["fact", "note"],
            "properties": {"fact": {"type": "string"}, "note": {"type": ["string", "null"]}},
        },
    }
]


def _targets(ctx: Context) -> tuple[str, ...]:
    return targets_where(ctx, CODE, lambda t: t.all_properties_required)


def applies(ctx: Context) -> bool:
    return bool(_targets(ctx))


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    targets = _targets(ctx)
    if not targets or not schemawalk.has_schema(tool):
        return
    for prop in schemawalk.object_properties(tool):
        if prop.name in prop.required:
            continue
        enum = ", and add null to its enum (an enum without null refuses it)" if _enum(prop.schema) else ""
        yield Problem(
            message=f'Property "{prop.name}" is not in required; strict mode rejects optional fields.',
            fix=f'Add "{prop.name}" to required and allow null in its type if it is truly optional{enum}.',
            pointer=prop.pointer,
            targets=targets,
            evidence={"property": prop.name, "required": sorted(prop.required)},
        )


def _enum(schema: object) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("enum"), list) and None not in schema["enum"]
