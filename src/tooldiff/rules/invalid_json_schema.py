"""The input schema fails its JSON Schema meta-schema.

## What it finds
An input schema that is not a valid JSON Schema under the draft its `$schema` names (draft 4, 6, 7,
2019-09 or 2020-12), or under 2020-12 when it names none or one tooldiff does not know. Typical finds:
`"type": "dict"` or `"float"` (Python names, common in BFCL), `"required": true` on a property, a string
where a schema belongs. A `type` that names no JSON Schema type gets a plain message and the type to write
instead (`str` -> `string`, `dict` -> `object`, `STRING` -> `string`; `any`: leave `type` out).

Gemini's `parameters` is an OpenAPI 3.0 Schema whose types are written `STRING`, `OBJECT` ...; the parser
reads those seven names as JSON Schema's (so every rule, the tokens and the schemaHash see `string`,
`object` ...), and any other `type` there is checked as written (`parametersJsonSchema` is JSON Schema).

A number JSON cannot carry (YAML's `.inf`, `-.inf` or `.nan`, anywhere in the schema: a bound, a default,
an enum value) is reported first, by its own name. The SDKs serialize it as `Infinity` or `NaN`, which no
JSON parser accepts (RFC 8259, section 6), so the provider refuses the whole request; the meta-schema check
alone would call it `null`, or miss it in a `default`.

With several errors, the one reported is the first in canonical (RFC 8785) key order, so reordering keys
or reformatting the file never changes the finding, just as it never changes the schemaHash.

## Why it matters
Providers validate schemas before use and reject the request, or the SDKs silently drop what they cannot
read; either way the model never sees the contract you wrote. Nothing is ever fetched: an unknown
`$schema` is not downloaded.

## Example
```json
{"type": "object", "properties": {"weight": {"type": "float"}}}
```

## Use instead
```json
{"type": "object", "properties": {"weight": {"type": "number"}}}
```

## References
- https://www.rfc-editor.org/rfc/rfc8259#section-6 (numbers: Infinity and NaN are not permitted)
- https://json-schema.org/specification
- https://json-schema.org/draft/2020-12/schema
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import jsonschema_rs

from tooldiff import schemahash, schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "invalid-json-schema"
SEVERITY: Severity = "error"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas

EXAMPLE = [
    {
        "name": "bmi",
        "description": "Body mass index from weight and height.",
        "input_schema": {"type": "dict", "properties": {"weight": {"type": "float"}}},
    }
]
FIXED = [
    {
        "name": "bmi",
        "description": "Body mass index from weight and height.",
        "input_schema": {"type": "object", "properties": {"weight": {"type": "number"}}},
    }
]

_DRAFTS = ("draft-04", "draft-06", "draft-07", "draft/2019-09", "draft/2020-12")
# Meta-schema URIs jsonschema-rs ships; anything else would make it try the network.
KNOWN_SCHEMAS = frozenset(
    f"{scheme}://json-schema.org/{d}/schema{hash_}"
    for scheme in ("http", "https")
    for d in _DRAFTS
    for hash_ in ("", "#")
)
DEFAULT_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


def _pointer(path: Any) -> str:
    parts = [schemawalk.escape(str(p)) for p in (path or [])]
    return "/input_schema" + "".join("/" + p for p in parts)


def _canonical_order(schema: Any) -> Any:
    """The schema with its keys in canonical order: the validator reports errors in key order."""
    try:
        return json.loads(schemahash.schema_json(schema))  # made already for the schemaHash
    except (ValueError, TypeError, RecursionError):
        return schema  # non-finite numbers: validated as written


JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
# Other languages' names for JSON Schema's types, as tool files write them: in the 20k-tool corpus, `str`,
# `dict`, `float` and `int` are four of the five commonest invalid types.
TYPE_ALIASES = {
    "str": "string", "text": "string", "int": "integer", "long": "integer", "float": "number",
    "double": "number", "decimal": "number", "dict": "object", "map": "object", "list": "array",
    "tuple": "array", "arraylist": "array", "bool": "boolean", "none": "null", "nonetype": "null",
    "char": "string", "hashmap": "object",
}
# Keys under which a name is a property or definition, not a keyword: `properties: {type: ...}`.
_NAMED = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def _type_error(path: Sequence[Any] | None, instance: Any) -> tuple[str, str] | None:
    """(message, fix) for the commonest error, a `type` that names no JSON Schema type, in place of the
    validator's "is not valid under any of the schemas listed in the 'anyOf' keyword"."""
    if not path or path[-1] != "type" or (len(path) > 1 and path[-2] in _NAMED):
        return None
    if isinstance(instance, str):
        return None if instance in JSON_TYPES else _wrong_type(instance)
    if not isinstance(instance, list) or not all(isinstance(n, str) for n in instance):
        return None
    wrong = [n for n in instance if n not in JSON_TYPES]
    return _wrong_type(wrong[0]) if wrong else None  # valid names: the error is elsewhere (a duplicate)


@cache  # a few names make most of them: str, dict, STRING...
def _wrong_type(wrong: str) -> tuple[str, str]:
    message = f'"{wrong}" is not a JSON Schema type ({", ".join(JSON_TYPES)})'
    low = wrong.strip().lower()
    if low == "any":
        return message, "Leave `type` out: a schema without it accepts any value."
    if low == "enum":
        return message, 'Write the values\' type ("string", usually) and list the values under "enum".'
    union = [_json_type(part) for part in low.split("|")] if "|" in low else []
    if union and all(union):
        return message, f"Write the types as a list: {json.dumps(union)}."
    meant = _json_type(low)
    if meant is None:
        return message, "Write one of the JSON Schema types, and say the format in the description."
    return message, f'Write "{meant}" instead of "{wrong}".'


def _json_type(name: str) -> str | None:
    """The JSON Schema type `name` stands for: an alias, another case, or a near spelling (`strng`)."""
    low = name.strip().lower()
    known = TYPE_ALIASES.get(low) or (low if low in JSON_TYPES else None)
    if known is not None:
        return known
    import difflib  # only for a misspelt type: not at every start

    close = difflib.get_close_matches(low, JSON_TYPES, n=1, cutoff=0.8)  # `enum` is not `number`
    return close[0] if close else None


NON_FINITE_FIX = "Write a finite number; for a range open at one end, leave that bound out."


def _non_finite(schema: Any) -> tuple[str, str, list[str]] | None:
    """The first number JSON cannot carry (infinity, NaN), in sorted key order: (what it is, the key it is
    under, its path); else None."""
    text = schemahash.schema_json(schema)  # made already for the schemaHash
    if "Infinity" not in text and "NaN" not in text:  # the common case, in C
        return None
    # No cycle to guard against: the YAML loader refuses an alias to itself, and JSON cannot make one.
    stack: list[tuple[Any, str, list[str]]] = [(schema, "", [])]
    while stack:
        value, key, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return ("NaN" if math.isnan(value) else "infinity" if value > 0 else "minus infinity"), key, path
        if isinstance(value, dict):
            for k in sorted(value, key=str, reverse=True):
                stack.append((value[k], str(k), [*path, str(k)]))
        elif isinstance(value, list):
            for i in range(len(value) - 1, -1, -1):
                stack.append((value[i], key, [*path, str(i)]))
    return None


def _where(key: str, path: list[str]) -> str:
    """How a message names the value at `path`, `key` being the nearest key above it: a list item is "a
    value of" that key."""
    if not path:
        return "the schema"
    if path[-1] == key:
        return f"`{key}`"
    return f"a value of `{key}`" if key else "a value of the schema"


def _validate(schema: Any) -> tuple[str, str, str, str | None] | None:
    """None when valid, else (message, pointer, draft used, a fix when the error has a known one)."""
    draft = DEFAULT_SCHEMA
    if (odd := _non_finite(schema)) is not None:
        what, key, at = odd
        message = f"{_where(key, at)} is {what}, a number JSON cannot carry (the request would not parse)"
        return message, _pointer(at), draft, NON_FINITE_FIX
    if isinstance(schema, dict) and "$schema" in schema:
        declared = schema["$schema"]
        if declared in KNOWN_SCHEMAS:
            draft = declared
        elif isinstance(declared, str):
            # Never fetched: an unknown meta-schema is checked as 2020-12 instead.
            schema = {k: v for k, v in schema.items() if k != "$schema"}
    try:
        if jsonschema_rs.meta.is_valid(schema):
            return None
        jsonschema_rs.meta.validate(_canonical_order(schema))
    except jsonschema_rs.ValidationError as err:
        path = getattr(err, "instance_path", None)
        known = _type_error(path, getattr(err, "instance", None))
        if known is not None:
            return known[0], _pointer(path), draft, known[1]
        first = str(getattr(err, "message", "") or err).splitlines()[0]
        return first, _pointer(path), draft, None
    except Exception as err:  # junk that the validator cannot even load
        return f"not a JSON Schema ({type(err).__name__})", "/input_schema", draft, None
    return "fails its meta-schema", "/input_schema", draft, None


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    if not schemawalk.has_schema(tool):
        return
    result = _validate(tool.input_schema)
    if result is None:
        return
    message, pointer, draft, fix = result
    yield Problem(
        message=f"The input schema is not valid JSON Schema: {message}.",
        fix=fix or "Fix the schema so it validates against its draft's meta-schema.",
        pointer=pointer,
        targets=tuple(t.name for t in ctx.targets),
        evidence={"meta_schema": draft, "error": message},
    )
