"""Google Gemini function declarations: `functionDeclarations` / `function_declarations` entries with
`parameters` (OpenAPI subset) or `parametersJsonSchema` (JSON Schema), also nested in
`tools: [{functionDeclarations: [...]}]`.

https://ai.google.dev/api/caching#FunctionDeclaration
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import GEMINI_CONTAINERS, Fields, first_key, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"parametersJsonSchema", "parameters_json_schema", "name"})
FORMAT = "gemini"
SCHEMA_KEYS = ("parametersJsonSchema", "parameters_json_schema", "parameters")


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    if "parametersJsonSchema" in record or "parameters_json_schema" in record:
        return True
    return container in GEMINI_CONTAINERS and "name" in record


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, first_key(record, SCHEMA_KEYS))
