"""The input schema is not an object schema.

## What it finds
A tool whose input schema (Anthropic `input_schema`, OpenAI and Gemini `parameters`, MCP `inputSchema`) is
present but is not an object schema: not a mapping, typed as something other than `object`, or an untyped
schema without `properties` (such as a bare `anyOf` at the root). Where a target requires the schema
(Anthropic's `input_schema`), a schema key that holds `null` is also one: null is not leaving the key out.
Where the tool's own format requires an object schema (MCP's `inputSchema`, `data/formats.json`), a
missing or null schema, or one without `"type": "object"`, is one for every target: the MCP SDK clients
refuse the whole `tools/list` result before any provider sees it.

## Why it matters
Every provider expects the arguments to be one JSON object. A root `string` or `anyOf` is rejected, or the
adapters send the tool with no parameters at all (seed 002). Tools with no schema at all are fine where
their format allows it: they take no arguments.

## Example
```json
{"name": "search", "description": "Search the catalogue.", "input_schema": {"type": "string"}}
```

## Use instead
```json
{"name": "search", "description": "Search the catalogue.",
 "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
```

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#root-objects-must-not-be-anyof-and-must-be-an-object
- https://docs.anthropic.com/en/api/messages#body-tools
- https://modelcontextprotocol.io/specification/2025-06-18/schema#tool
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff import formats, schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, targets_where

CODE = "root-not-object"
SEVERITY: Severity = "error"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas

EXAMPLE = [{"name": "search", "description": "Search the catalogue.", "input_schema": {"type": "string"}}]
FIXED = [
    {
        "name": "search",
        "description": "Search the catalogue.",
        "input_schema": {
            "type": "object",
            "properties": {"query": {"type": "string"}},
            "required": ["query"],
        },
    }
]


def _targets(ctx: Context) -> tuple[str, ...]:
    return targets_where(ctx, CODE, lambda t: t.root_must_be_object)


def applies(ctx: Context) -> bool:
    return bool(_targets(ctx))


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    own = _format_problem(tool)
    if own is not None:
        yield own
        return
    targets = _targets(ctx)
    if not targets:
        return
    if tool.input_schema is None and tool.schema_key:  # the key is there, holding null
        required = tuple(t.name for t in ctx.targets if tool.schema_key in t.required_schema_keys)
        if required:
            yield Problem(
                message=f"`{tool.schema_key}` is null: this key must hold an object schema, even for a tool "
                "without parameters.",
                fix='Give {"type": "object", "properties": {}} for a tool without parameters.',
                pointer="/input_schema",
                targets=required,
                evidence={"found": "null"},
            )
        return
    if not schemawalk.has_schema(tool):
        return
    schema = tool.input_schema
    if schemawalk.is_object(schema):
        return
    if isinstance(schema, dict):
        types = sorted(schemawalk.types_of(schema))
        found = " or ".join(types) if types else "an untyped schema without properties"
    else:
        found = type(schema).__name__
    yield Problem(
        message=f"The input schema is {found}, not an object schema.",
        fix='Wrap the arguments in {"type": "object", "properties": {...}}.',
        pointer="/input_schema",
        targets=targets,
        evidence={"found": found},
    )


def _format_problem(tool: Tool) -> Problem | None:
    """A format that requires an object schema (`data/formats.json`) and has none: null, missing, or an
    object without `"type": "object"`. Fails before any provider sees it, so it names no target."""
    own = formats.facts(tool.format)
    key = own.required_object_schema_key if own is not None else None
    if own is None or key is None:  # both, for the type checker's sake
        return None
    schema = tool.input_schema
    if not tool.schema_key:
        found, what = "missing", f"`{key}` is missing"
    elif schema is None:
        found, what = "null", f"`{key}` is null"
    elif isinstance(schema, dict) and "type" not in schema:
        found, what = "untyped", f'`{key}` has no "type": "object"'
    else:
        return None  # an object schema, or one the target rules below report as not an object
    return Problem(
        message=f"{what}: {own.label} requires an object schema there, even for a tool without parameters, "
                f"and {own.refused_by}.",
        fix='Give {"type": "object", "properties": {...}}; {"type": "object"} for a tool without parameters.',
        pointer="/input_schema",
        targets=(),
        evidence={"found": found},
    )
