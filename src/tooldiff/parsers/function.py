"""Bare function records `{name, description, parameters}`: legacy OpenAI `functions: [...]`, plain lists,
JSONL, and most research corpora.

https://platform.openai.com/docs/api-reference/chat/create#chat-create-functions
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import CONTAINER_KEYS, WHOLE_FILE, Fields, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"parameters"})
FORMAT = "function"
# A JSON Schema object has one of these, or is `{}`.
SCHEMA_KEYWORDS = frozenset({
    "type", "properties", "$ref", "anyOf", "oneOf", "allOf", "required", "items", "enum", "$schema",
    "additionalProperties", "$defs", "definitions",
})


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    # Both keys: `parameters` alone is too common (OpenAPI operations, CI configs) to call a tool.
    if "parameters" not in record or "name" not in record:
        return False
    params = record["parameters"]
    if container in CONTAINER_KEYS:
        return True  # an explicit tool list: a bad schema is reported, not hidden
    if container == WHOLE_FILE:  # Google API Discovery documents have named parameters too: want a schema
        return isinstance(params, dict) and (not params or not SCHEMA_KEYWORDS.isdisjoint(params))
    # A record among others: corpora hold `null` and dicts of named parameters; a list is a CI config's.
    if params is not None and not isinstance(params, dict):
        return False
    if isinstance(record.get("description"), str):
        return True
    # Undescribed, it must look like a tool's: a workflow node's empty `parameters` beside a `type` of its
    # own, an experiment's or a report's values (`{"learning_rate": 0.001}`) are no schema.
    if not params:
        return "type" not in record
    return looks_like_schema(params)


def looks_like_schema(params: Mapping[str, Any]) -> bool:
    """A JSON Schema, `{}`, or named parameters (each a schema or a type name), not a dict of values."""
    return not params or not SCHEMA_KEYWORDS.isdisjoint(params) or all(
        isinstance(v, dict) or (isinstance(v, str) and v in SHORTHAND_TYPES)  # a list is unhashable
        for v in params.values())


# `{"city": "string"}`: a parameter's type written alone, as corpora and quick prototypes do.
SHORTHAND_TYPES = frozenset({"string", "str", "number", "integer", "int", "float", "boolean", "bool",
                             "object", "dict", "array", "list"})


def fields(record: Mapping[str, Any]) -> Fields:
    # MCP extras survive when a converter renamed inputSchema to parameters.
    return plain_fields(FORMAT, record, "parameters")

