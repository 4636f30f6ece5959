"""Amazon Bedrock Converse tools: `{"toolSpec": {name, description, inputSchema: {"json": {...}}}}`, in
`toolConfig.tools` or a list of their own.

https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import Fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"toolSpec"})
FORMAT = "bedrock"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    return isinstance(record.get("toolSpec"), dict)  # without a name: reported, not dropped


def fields(record: Mapping[str, Any]) -> Fields:
    body = record["toolSpec"]
    wrapper = body.get("inputSchema")
    # The schema is the `json` member of `inputSchema` (ToolInputSchema is a union of one member): an
    # `inputSchema` that is the schema itself has none, which `root-not-object` reports (data/formats.json).
    key = "inputSchema/json" if isinstance(wrapper, dict) and "json" in wrapper else ""
    return Fields(FORMAT, body, ("toolSpec",), schema_key=key, strict=body.get("strict"))
