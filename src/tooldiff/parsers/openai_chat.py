"""OpenAI Chat Completions tools: `{"type": "function", "function": {name, description, parameters, strict}}`.

https://platform.openai.com/docs/guides/function-calling
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import Fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"function"})
FORMAT = "openai-chat"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    body = record.get("function")
    if record.get("type") != "function" or not isinstance(body, dict):
        return False
    # Same envelope, but a call (assistant `tool_calls` in chat logs, fine-tuning data): not a definition.
    return "arguments" not in body and "id" not in record


def fields(record: Mapping[str, Any]) -> Fields:
    body = record["function"]
    key = "parameters" if "parameters" in body else ""
    return Fields(FORMAT, body, ("function",), schema_key=key, strict=body.get("strict"))
