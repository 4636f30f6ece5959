"""The input schema is not an object schema.

## What it finds
A tool whose input schema (Anthropic `input_schema`, OpenAI and Gemini `parameters`, MCP `inputSchema`) is
present but is not an object schema: not a mapping, typed as something other than `object`, or an untyped
schema without `properties` (such as a bare `anyOf` at the root). Also, for the targets whose API says so:
- an object schema that does not say `"type": "object"` at its root (OpenAI, Anthropic);
- `oneOf`, `anyOf` or `allOf` at the root, even beside `"type": "object"` (OpenAI and Anthropic; OpenAI also
  refuses `enum` and `not` there). zod unions give MCP servers such roots.
Where the tool's own format requires an object schema (MCP's `inputSchema`, Anthropic's `input_schema`;
`data/formats.json`), a missing or null schema, or one without `"type": "object"`, is one for every target:
the MCP SDK clients refuse the whole `tools/list` result, and the Messages API the whole request.

## Why it matters
Every provider expects the arguments to be one JSON object. A root `string` or `anyOf` is rejected, or the
adapters send the tool with no parameters at all (seed 002). A refused root fails every request that offers
the tool, not only calls to it: Anthropic answers "input_schema does not support oneOf, allOf, or anyOf at
the top level", OpenAI "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at
the top level". Tools with no schema at all are fine where their format allows it: they take no arguments.

## Example
```json
{"name": "search", "description": "Search the catalogue.", "input_schema": {"type": "string"}}
```

## Use instead
```json
{"name": "search", "description": "Search the catalogue.",
 "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}
```

Alternatives at the root (`"oneOf": [{"required": ["yaml"]}, {"required": ["dir"]}]`) become optional
properties, and the description says which one to send; the tool's code checks it.

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#root-objects-must-not-be-anyof-and-must-be-an-object
- https://docs.anthropic.com/en/api/messages#body-tools
- The API errors for a refused root, as users met them: https://github.com/anthropics/claude-code/issues/5319,
  https://github.com/nspady/google-calendar-mcp/issues/39
- https://modelcontextprotocol.io/specification/2025-06-18/schema#tool
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tooldiff import formats, schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, targets_where
from tooldiff.targets import Target

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
    if not targets or not schemawalk.has_schema(tool):
        return
    schema = tool.input_schema
    if not schemawalk.is_object(schema):
        yield _not_object(schema, targets)
        return
    untyped = targets_where(ctx, f"{CODE}/typed", lambda t: t.root_must_be_object and t.root_type_required)
    if untyped and "type" not in schema:
        yield Problem(
            message='The input schema has properties but no "type": "object" at its root, and these targets '
                    "refuse it (the request fails, not only this tool).",
            fix='Add "type": "object" at the root of the input schema.',
            pointer="/input_schema",
            targets=untyped,
            evidence={"found": "untyped"},
        )
    for keyword in _refused_order(ctx):
        if keyword in schema:
            refused = targets_where(ctx, f"{CODE}/{keyword}", _refusing(keyword))
            yield Problem(
                message=f"The input schema uses `{keyword}` at its root, which these targets refuse at the "
                        "top level: every request that offers this tool fails.",
                fix=_REFUSED_FIX,
                pointer=f"/input_schema/{schemawalk.escape(keyword)}",
                targets=refused,
                evidence={"found": keyword},
            )


_REFUSED_FIX = ("Keep the root a plain object schema: make the alternatives optional properties, say in the "
                "description which combination to send, and check it in the tool's code (or put the "
                "alternatives inside one property, not at the root).")


def _refusing(keyword: str) -> Callable[[Target], bool]:
    return lambda t: t.root_must_be_object and keyword in t.root_refused_keywords


def _refused_order(ctx: Context) -> tuple[str, ...]:
    """Every keyword some target refuses at the root, once, in the order the tables list them (worked out
    once per context, as `targets_where` works out the targets)."""
    order: tuple[str, ...] | None = ctx.memo.get(f"{CODE}/order")
    if order is None:
        order = ctx.memo[f"{CODE}/order"] = tuple(dict.fromkeys(
            k for t in ctx.targets if t.root_must_be_object for k in t.root_refused_keywords))
    return order


def _combined(schema: dict[str, object]) -> str:
    """The keyword that combines alternatives at the root, if any: the usual reason a root is no object."""
    return next((k for k in ("anyOf", "oneOf", "allOf") if k in schema), "")


def _not_object(schema: object, targets: tuple[str, ...]) -> Problem:
    combined = ""
    if isinstance(schema, dict):
        types = sorted(schemawalk.types_of(schema))
        found = " or ".join(types) if types else "an untyped schema without properties"
        combined = _combined(schema)
    else:
        found = type(schema).__name__
    fix = 'Wrap the arguments in {"type": "object", "properties": {...}}.'
    if combined:
        found = f"{found} (its root is an `{combined}`)"
        fix = ('Write one {"type": "object", "properties": {...}} holding every argument of the '
               f"alternatives, optional where they differ: the `{combined}` goes inside a property, not at "
               "the root, where providers refuse it.")
    return Problem(
        message=f"The input schema is {found}, not an object schema.",
        fix=fix,
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
    elif isinstance(schema, dict) and "type" not in schema and own.type_required and (
            schemawalk.is_object(schema) or not _combined(schema)):
        found, what = "untyped", f'`{key}` has no "type": "object"'
    else:
        return None  # an object schema, or one the target rules report (a root `anyOf` says more there)
    return Problem(
        message=f"{what}: {own.label} requires an object schema there, even for a tool without parameters, "
                f"and {own.refused_by}.",
        fix='Give {"type": "object", "properties": {...}}; {"type": "object"} for a tool without parameters.',
        pointer="/input_schema",
        targets=(),
        evidence={"found": found},
    )
