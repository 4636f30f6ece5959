"""What every format module yields: the raw fields of one tool record, before validation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

# Keys that hold a list of tool records in every format we read.
CONTAINER_KEYS = frozenset({"tools", "functions", "functionDeclarations", "function_declarations"})
GEMINI_CONTAINERS = frozenset({"functionDeclarations", "function_declarations"})
# The `container` of a record that is a whole JSON or YAML document: no sibling records vouch for it.
WHOLE_FILE = "/"


class Fields(NamedTuple):
    """`body` is where name/description/schema live relative to the record (OpenAI Chat: `function`)."""

    format: str
    body: Mapping[str, Any]
    body_path: tuple[str, ...] = ()
    schema_key: str = ""
    strict: Any = None
    title: Any = None
    annotations: Any = None
    output_schema: Any = None

    @property
    def schema_path(self) -> tuple[str, ...]:
        """The schema's keys from `body`: one, or several for a key such as Bedrock's `inputSchema/json`."""
        return tuple(self.schema_key.split("/")) if self.schema_key else ()


def plain_fields(fmt: str, record: Mapping[str, Any], schema_key: str) -> Fields:
    """Fields of a flat record (everything at its top level): the hot path of big files, built without
    NamedTuple's keyword-binding `__new__`."""
    get = record.get
    extras = (get("strict"), get("title"), get("annotations"), get("outputSchema"))
    return tuple.__new__(Fields, (fmt, record, (), schema_key, *extras))


def first_key(obj: Mapping[str, Any], keys: Sequence[str]) -> str:
    """The first of `keys` present in obj, else ""."""
    for key in keys:
        if key in obj:
            return key
    return ""
