"""A JSON Schema keyword the target rejects or ignores.

## What it finds
Keywords in schema position that a target lists as unsupported. OpenAI strict: `allOf`, `oneOf` (use
`anyOf`), `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, `patternProperties`,
`propertyNames`, `unevaluatedProperties`. Google: the same without `oneOf`. Anthropic strict tool use:
numeric and length bounds (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
`minLength`, `maxLength`, `maxItems`). Anthropic and non-strict OpenAI accept the schema as written. The
lists live in `data/targets/*.json`.

## Why it matters
A rejected keyword fails the request; an ignored one silently stops constraining the model, so the
arguments your code receives no longer match the schema you reviewed.

## Example
```json
{"type": "object", "properties": {"id": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}
```

## Use instead
```json
{"type": "object", "properties": {"id": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}
```

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas
- https://ai.google.dev/api/caching#Schema
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "unsupported-keyword"
SEVERITY: Severity = "warning"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas

EXAMPLE = [
    {
        "name": "get_order",
        "description": "Fetch one order by its id.",
        "input_schema": {
            "type": "object",
            "properties": {
                "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "filter": {"not": {"type": "null"}},
            },
        },
    }
]
FIXED = [
    {
        "name": "get_order",
        "description": "Fetch one order by its id.",
        "input_schema": {
            "type": "object",
            "properties": {
                "id": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "filter": {"type": "string"},
            },
        },
    }
]

_HINTS = {
    "oneOf": "use anyOf",
    "allOf": "merge the branches into one schema",
    "not": "describe the allowed values instead",
    "if": "split into separate tools or use anyOf",
}


def _setup(ctx: Context) -> tuple[list[tuple[str, frozenset[str]]], frozenset[str]]:
    rejecting = [(t.name, t.unsupported_keywords | t.ignored_keywords) for t in ctx.targets]
    rejecting = [(n, kws) for n, kws in rejecting if kws]
    return rejecting, frozenset().union(*(kws for _, kws in rejecting))


def _memo(ctx: Context) -> tuple[list[tuple[str, frozenset[str]]], frozenset[str]]:
    setup = ctx.memo.get(CODE)
    if setup is None:
        setup = ctx.memo[CODE] = _setup(ctx)
    return setup


def applies(ctx: Context) -> bool:
    return bool(_memo(ctx)[0])


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    rejecting, watched = _memo(ctx)
    if not rejecting or not schemawalk.has_schema(tool):
        return
    for node in schemawalk.nodes(tool):
        s = node.schema
        if not isinstance(s, dict) or watched.isdisjoint(s):
            continue
        for keyword in s:
            if keyword not in watched:
                continue
            targets = tuple(n for n, kws in rejecting if keyword in kws)
            hint = _HINTS.get(keyword, "express the constraint in the description instead")
            yield Problem(
                message=f"The keyword `{keyword}` is not supported by {', '.join(targets)}.",
                fix=f"Remove {keyword}: {hint}.",
                pointer=f"{node.pointer}/{schemawalk.escape(keyword)}",
                targets=targets,
                evidence={"keyword": keyword},
            )
