"""MCP `tools/list` records: `{name, title, description, inputSchema, outputSchema, annotations}`.

https://modelcontextprotocol.io/specification/2025-06-18/server/tools
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import CONTAINER_KEYS, Fields, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"inputSchema", "outputSchema", "annotations"})
FORMAT = "mcp"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    if "input_schema" in record or "type" in record:
        return False
    if "inputSchema" in record:
        return True
    # outputSchema/annotations alone mark MCP only when no other schema key claims the record, and when it
    # is named or in a tool list (a Grafana dashboard has top-level `annotations`).
    if "parameters" in record or ("name" not in record and container not in CONTAINER_KEYS):
        return False
    return "outputSchema" in record or "annotations" in record


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, "inputSchema" if "inputSchema" in record else "")
