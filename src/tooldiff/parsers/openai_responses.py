"""OpenAI Responses API tools: `{"type": "function", name, description, parameters, strict}` (flat).

https://platform.openai.com/docs/api-reference/responses/create
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import CONTAINER_KEYS, Fields, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"type"})
FORMAT = "openai-responses"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    if record.get("type") != "function" or "function" in record:
        return False
    # Outside a tool list, a tool says more than its type: Solidity ABIs and tree-sitter grammars are lists
    # of `"type": "function"` entries too.
    return container in CONTAINER_KEYS or not _OWN_KEYS.isdisjoint(record)


_OWN_KEYS = frozenset({"parameters", "description", "strict"})


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, "parameters" if "parameters" in record else "")
