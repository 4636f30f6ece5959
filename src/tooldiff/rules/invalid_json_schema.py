"""The input schema fails its JSON Schema meta-schema.

## What it finds
An input schema that is not a valid JSON Schema under the draft its `$schema` names (draft 4, 6, 7,
2019-09 or 2020-12), or under 2020-12 when it names none or one tooldiff does not know. Typical finds:
`"type": "dict"` or `"float"` (Python names, common in BFCL), `"required": true` on a property, a string
where a schema belongs.

Gemini's `parameters` is an OpenAPI 3.0 Schema whose types are written `STRING`, `OBJECT` ...; for Gemini
tools read from `parameters` the type names are lower-cased before the check (`parametersJsonSchema` is
checked as written).

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
- https://json-schema.org/specification
- https://json-schema.org/draft/2020-12/schema
"""

from __future__ import annotations

import json
from collections.abc import Iterator
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


# (format, schema keyword) pairs whose schema is OpenAPI's upper-case-typed dialect, not JSON Schema.
OPENAPI_DIALECT = frozenset({("gemini", "parameters")})


def _lower_types(schema: Any) -> Any:
    """A copy of an OpenAPI-dialect schema with JSON Schema's lower-case type names."""
    copy = json.loads(json.dumps(schema, default=str))
    for node in schemawalk.walk(copy):
        s = node.schema
        if isinstance(s, dict) and isinstance(s.get("type"), str):
            s["type"] = s["type"].lower()
    return copy


def _pointer(path: Any) -> str:
    parts = [schemawalk.escape(str(p)) for p in (path or [])]
    return "/input_schema" + "".join("/" + p for p in parts)


def _canonical_order(schema: Any) -> Any:
    """The schema with its keys in canonical order: the validator reports errors in key order."""
    try:
        return json.loads(schemahash.schema_json(schema))  # made already for the schemaHash
    except (ValueError, TypeError, RecursionError):
        return schema  # non-finite numbers: validated as written


def _validate(schema: Any) -> tuple[str, str, str] | None:
    """None when valid, else (message, pointer, draft used)."""
    draft = DEFAULT_SCHEMA
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
        first = str(getattr(err, "message", "") or err).splitlines()[0]
        return first, _pointer(getattr(err, "instance_path", None)), draft
    except Exception as err:  # junk that the validator cannot even load
        return f"not a JSON Schema ({type(err).__name__})", "/input_schema", draft
    return "fails its meta-schema", "/input_schema", draft


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    if not schemawalk.has_schema(tool):
        return
    schema = tool.input_schema
    if (tool.format, tool.schema_key) in OPENAPI_DIALECT:
        schema = _lower_types(schema)
    result = _validate(schema)
    if result is None:
        return
    message, pointer, draft = result
    yield Problem(
        message=f"The input schema is not valid JSON Schema: {message}.",
        fix="Fix the schema so it validates against its draft's meta-schema.",
        pointer=pointer,
        targets=tuple(t.name for t in ctx.targets),
        evidence={"meta_schema": draft, "error": message},
    )
