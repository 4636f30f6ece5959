"""Anthropic Messages API tools: `{name, description, input_schema}`, as a list or under `tools`.

https://docs.anthropic.com/en/docs/build-with-claude/tool-use
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldiff.parsers.record import Fields, plain_fields

# `matches` can only be true when one of these keys is present (a cheap pre-filter).
TRIGGERS = frozenset({"input_schema"})
FORMAT = "anthropic"


def matches(record: Mapping[str, Any], container: str | None) -> bool:
    return "input_schema" in record and "inputSchema" not in record


def fields(record: Mapping[str, Any]) -> Fields:
    return plain_fields(FORMAT, record, "input_schema")
