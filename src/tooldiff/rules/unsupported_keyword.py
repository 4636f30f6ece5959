"""A JSON Schema keyword the target rejects or ignores.

## What it finds
Keywords in schema position that a target lists as unsupported. OpenAI strict: `allOf`, `oneOf` (use
`anyOf`), `not`, `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`, `patternProperties`,
`propertyNames`, `unevaluatedProperties`. Google: the same without `oneOf`. Anthropic strict tool use:
numeric and length bounds (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
`minLength`, `maxLength`, `maxItems`, `uniqueItems`) and `minItems` above 1. A `format` that a strict
target does not list: OpenAI strict takes `date-time`, `time`, `date`, `duration`, `email`, `hostname`,
`ipv4`, `ipv6` and `uuid` (and answers 400 "'uri' is not a valid format" to others); Anthropic strict
also takes `uri`. Anthropic and non-strict OpenAI accept the schema as written. The lists live in
`data/targets/*.json`.

Whatever the targets, a Gemini function declaration's `parameters` is Google's OpenAPI subset, not JSON
Schema: a key it does not define (`additionalProperties`, `$schema`, `$ref`, `const`, `oneOf`, ...) or a
list of types fails the request. `parametersJsonSchema` takes JSON Schema and is not limited this way.
The fields live in `data/formats.json`.

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
- https://developers.openai.com/api/docs/guides/structured-outputs#supported-properties
- https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations
- https://ai.google.dev/api/caching#Schema
- https://ai.google.dev/api/caching#FunctionDeclaration
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from tooldiff import formats, schemawalk
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


class _Setup(NamedTuple):
    rejecting: list[tuple[str, frozenset[str]]]  # targets with the keywords they reject or ignore
    formats: list[tuple[str, tuple[str, ...]]]  # targets with the only `format` values they take
    min_items: list[tuple[str, int]]  # targets with the largest `minItems` they take
    watched: frozenset[str]  # every keyword any of the above looks at


def _setup(ctx: Context) -> _Setup:
    rejecting = [(t.name, t.unsupported_keywords | t.ignored_keywords) for t in ctx.targets]
    rejecting = [(n, kws) for n, kws in rejecting if kws]
    formats = [(t.name, t.supported_formats) for t in ctx.targets if t.supported_formats is not None]
    min_items = [(t.name, t.max_min_items) for t in ctx.targets if t.max_min_items is not None]
    watched = frozenset().union(*(kws for _, kws in rejecting))
    watched |= {"format"} if formats else set()
    watched |= {"minItems"} if min_items else set()
    return _Setup(rejecting, formats, min_items, watched)


def _memo(ctx: Context) -> _Setup:
    setup = ctx.memo.get(CODE)
    if setup is None:
        setup = ctx.memo[CODE] = _setup(ctx)
    return setup


def applies(ctx: Context) -> bool:
    return bool(_memo(ctx).watched) or formats.limits_fields()


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    setup = _memo(ctx)
    watched = setup.watched
    fields = formats.schema_fields(tool.format, tool.schema_key)
    if (not watched and fields is None) or not schemawalk.has_schema(tool):
        return
    for node in schemawalk.nodes(tool):
        s = node.schema
        if not isinstance(s, dict):
            continue
        if fields is not None:
            yield from _fields(tool, s, node.pointer, fields)
        if watched.isdisjoint(s):
            continue
        for keyword in s:
            if keyword not in watched or (fields is not None and keyword not in fields):
                continue  # not a field of the format's schema at all: told above, whatever the targets
            pointer = f"{node.pointer}/{schemawalk.escape(keyword)}"
            targets = tuple(n for n, kws in setup.rejecting if keyword in kws)
            if targets:
                hint = _HINTS.get(keyword, "express the constraint in the description instead")
                yield Problem(
                    message=f"The keyword `{keyword}` is not supported by {', '.join(targets)}.",
                    fix=f"Remove {keyword}: {hint}.",
                    pointer=pointer,
                    targets=targets,
                    evidence={"keyword": keyword},
                )
            elif keyword == "format":
                yield from _format(s[keyword], pointer, setup.formats)
            elif keyword == "minItems":
                yield from _min_items(s[keyword], pointer, setup.min_items)


def _fields(tool: Tool, schema: dict[str, object], at: str, fields: frozenset[str]) -> Iterator[Problem]:
    """Keys the format's schema object does not define (Gemini's `parameters`), and lists of types. They
    fail the request before any target's rules apply, so the finding names no target."""
    own = formats.facts(tool.format)
    label, refused = (own.label, own.refused_by) if own is not None else (tool.format, "")
    where = f"{label}'s `{tool.schema_key}`"
    for key, value in schema.items():
        pointer = f"{at}/{schemawalk.escape(key)}"
        if key not in fields:
            yield Problem(
                message=f"`{key}` is not a field of {where} schema (an OpenAPI subset): {refused}.",
                fix=f"Remove {key}, or send the schema as parametersJsonSchema, which takes JSON Schema.",
                pointer=pointer,
                evidence={"keyword": key},
            )
        elif key == "type" and isinstance(value, list):
            yield Problem(
                message=f"`type` lists several types, which {where} schema does not take (one type per "
                        'schema): the API refuses the whole request (400 "Proto field is not repeating, '
                        'cannot start list").',
                fix='Give one type: "nullable": true for null (["string", "null"] is "type": "string", '
                    '"nullable": true), anyOf for several; or send the schema as parametersJsonSchema.',
                pointer=pointer,
                evidence={"keyword": "type", "value": value},
            )


def _format(value: object, pointer: str, formats: list[tuple[str, tuple[str, ...]]]) -> Iterator[Problem]:
    if not isinstance(value, str):
        return  # not a format name: invalid-json-schema's to report
    refusing = [(n, taken) for n, taken in formats if value not in taken]
    if refusing:  # what every refusing target takes, in the first one's (the provider's) order
        taken = [f for f in refusing[0][1] if all(f in t for _, t in refusing)]
        yield _refused("format", value, pointer, [n for n, _ in refusing], f"`{value}`", ", ".join(taken),
                       f"Remove format: {value}, and say the expected form in the property's description "
                       "instead.")


def _min_items(value: object, pointer: str, limits: list[tuple[str, int]]) -> Iterator[Problem]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    refusing = [(n, most) for n, most in limits if value > most]
    if refusing:
        most = min(m for _, m in refusing)
        yield _refused("minItems", value, pointer, [n for n, _ in refusing], f"of {value}",
                       " or ".join(str(k) for k in range(most + 1)),
                       f"Remove minItems (or set it to {most}), and say how many items are needed in the "
                       "description.")


def _refused(keyword: str, value: object, pointer: str, names: list[str], shown: str, taken: str,
             fix: str) -> Problem:
    """A keyword's value that the named targets do not take, with what they take instead."""
    takes = "takes" if len(names) == 1 else "take"
    return Problem(
        message=f"The {keyword} {shown} is not supported by {', '.join(names)}, which {takes} only {taken}.",
        fix=fix,
        pointer=pointer,
        targets=tuple(names),
        evidence={"keyword": keyword, "value": value},
    )
