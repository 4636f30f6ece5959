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
    if "inputSchema" in record and "parameters" not in record:
        return False  # the AI SDK's function tool (`LanguageModelV2FunctionTool`): its schema is MCP's key
    # Outside a tool list, Solidity ABI entries and tree-sitter node types are `"type": "function"` too: a
    # tool has a name or a tool's own keys (a nameless one is reported), and no ABI entry's keys.
    if container in CONTAINER_KEYS:
        return True
    abi = "parameters" not in record and not _ABI_KEYS.isdisjoint(record)
    return not abi and (isinstance(record.get("name"), str) or not _OWN_KEYS.isdisjoint(record))


_OWN_KEYS = frozenset({"parameters", "description", "strict"})
_ABI_KEYS = frozenset({"inputs", "stateMutability", "constant", "payable", "anonymous"})


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, "parameters" if "parameters" in record else "")
