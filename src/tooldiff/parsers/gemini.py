"""Google Gemini function declarations: `functionDeclarations` / `function_declarations` entries with
`parameters` (OpenAPI subset) or `parametersJsonSchema` (JSON Schema), also nested in
`tools: [{functionDeclarations: [...]}]`.

https://ai.google.dev/api/caching#FunctionDeclaration
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from typing import Any

from tooldiff.parsers.record import GEMINI_CONTAINERS, Fields, first_key, plain_fields
from tooldiff.schemawalk import walk

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"parametersJsonSchema", "parameters_json_schema", "name"})
FORMAT = "gemini"
SCHEMA_KEYS = ("parametersJsonSchema", "parameters_json_schema", "parameters")


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    if "parametersJsonSchema" in record or "parameters_json_schema" in record:
        return True
    return container in GEMINI_CONTAINERS and "name" in record


# Gemini's `parameters` is an OpenAPI 3.0 Schema, whose `Type` enum is upper-case; JSON Schema's are these.
# Only the enum's own names are lower-cased: any other `type` stays as written, for the rules to report.
OPENAPI_TYPES = {t.upper(): t for t in ("string", "number", "integer", "boolean", "array", "object", "null")}


def json_schema_types(schema: Any) -> Any:
    """`schema` with OpenAPI's type names as JSON Schema's: a copy if any subschema has one, else itself.
    Only subschemas are touched (a `default` or `enum` value that looks like a schema is data)."""
    if not any(_openapi_type(n.schema) for n in walk(schema)):
        return schema
    copy = deepcopy(schema)
    for node in walk(copy):
        if _openapi_type(node.schema):
            node.schema["type"] = OPENAPI_TYPES[node.schema["type"]]
    return copy


def _openapi_type(schema: Any) -> bool:
    return isinstance(schema, dict) and isinstance(t := schema.get("type"), str) and t in OPENAPI_TYPES


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, first_key(record, SCHEMA_KEYS))
