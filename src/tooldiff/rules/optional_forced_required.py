"""A property that is required but nullable, so the model must fill it on every call.

## What it finds
For targets where every property must be required (OpenAI with `strict: true`), a property listed in
`required` whose schema admits null (`type: ["string", "null"]`, a null `anyOf` branch, `nullable`).

## Why it matters
This is how strict mode spells "optional", and it is what the fix for `optional-not-required` produces, so
it is expected on corrected schemas. It is still worth knowing: the model writes the field, often as
null, on every call, which costs output tokens and invites made-up values (seed 002).

## Example
```json
{"type": "object", "additionalProperties": false, "required": ["fact", "note"],
 "properties": {"fact": {"type": "string"}, "note": {"type": ["string", "null"]}}}
```

## Use instead
Keep it if the field is genuinely optional; otherwise drop `null` from its type, or drop the field.

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#all-fields-must-be-required
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, targets_where

CODE = "optional-forced-required"
SEVERITY: Severity = "info"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas

_BASE = {"type": "object", "additionalProperties": False, "required": ["fact", "note"]}
EXAMPLE = [
    {
        "name": "save_facts",
        "description": "Save facts about the user.",
        "input_schema": {
            **_BASE,
            "properties": {"fact": {"type": "string"}, "note": {"type": ["string", "null"]}},
        },
    }
]
FIXED = [
    {
        "name": "save_facts",
        "description": "Save facts about the user.",
        "input_schema": {**_BASE, "properties": {"fact": {"type": "string"}, "note": {"type": "string"}}},
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
        if prop.name in prop.required and schemawalk.admits_null(prop.schema):
            yield Problem(
                message=(
                    f'Property "{prop.name}" is required and nullable, so the model must fill it on '
                    "every call, with null when it has nothing."
                ),
                fix="Keep it if the field is truly optional; otherwise make it non-nullable.",
                pointer=prop.pointer,
                targets=targets,
                evidence={"property": prop.name},
            )
