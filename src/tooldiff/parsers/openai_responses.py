"""OpenAI Responses API tools: `{"type": "function", name, description, parameters, strict}` (flat).

https://platform.openai.com/docs/api-reference/responses/create
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import Fields, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"type"})
FORMAT = "openai-responses"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    return record.get("type") == "function" and "function" not in record


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, "parameters" if "parameters" in record else "")
