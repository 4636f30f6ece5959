"""Bare function records `{name, description, parameters}`: legacy OpenAI `functions: [...]`, plain lists,
JSONL, and most research corpora.

https://platform.openai.com/docs/api-reference/chat/create#chat-create-functions
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import Fields, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"parameters"})
FORMAT = "function"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    # Both keys: `parameters` alone is too common (OpenAPI operations, CI configs) to call a tool.
    return "parameters" in record and "name" in record


def fields(record: Mapping[str, Any]) -> Fields:
    # MCP extras survive when a converter renamed inputSchema to parameters.
    return plain_fields(FORMAT, record, "parameters")
