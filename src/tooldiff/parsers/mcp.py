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
    if "input_schema" in record or ("type" in record and record["type"] != "function"):
        return False
    if "inputSchema" in record:
        return True
    # outputSchema/annotations alone mark MCP only when no other schema key claims the record, and when it
    # is named or in a tool list (a Grafana dashboard has top-level `annotations`). Kubernetes objects,
    # Helm charts and MCP resources have `annotations` too: a tool's are hints, and its outputSchema is one.
    if "parameters" in record or ("name" not in record and container not in CONTAINER_KEYS):
        return False
    if "uri" in record or "uriTemplate" in record:  # an MCP resource
        return False
    if container in CONTAINER_KEYS:  # a tool list vouches for it
        return True
    if isinstance(record.get("outputSchema"), dict):
        return True
    notes = record.get("annotations")
    return isinstance(notes, dict) and not TOOL_ANNOTATIONS.isdisjoint(notes)


# MCP's ToolAnnotations (https://modelcontextprotocol.io/specification/2025-06-18/schema#toolannotations).
TOOL_ANNOTATIONS = frozenset({"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, "inputSchema" if "inputSchema" in record else "")
