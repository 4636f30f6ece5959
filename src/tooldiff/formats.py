"""What a tool format itself requires, whatever provider its tools reach: data in `data/formats.json`.

Every fact is `{"value": ..., "source": URL | null, "note": "..."}`, as in the target tables (`targets`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True, slots=True)
class FormatFacts:
    label: str
    required_object_schema_key: str | None  # must hold an object schema typed "object", even without params
    refused_by: str  # what refuses a definition that breaks the requirement


@cache
def _table() -> dict[str, FormatFacts]:
    raw = json.loads(resources.files("tooldiff").joinpath("data/formats.json").read_bytes())
    return {
        fmt: FormatFacts(facts["label"]["value"], facts["required_object_schema_key"]["value"],
                         facts["refused_by"]["value"])
        for fmt, facts in raw.items() if not fmt.startswith("_")
    }


def facts(fmt: str) -> FormatFacts | None:
    """The format's own requirements; None for a format that sets none."""
    return _table().get(fmt)
