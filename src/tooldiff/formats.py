"""What a tool format itself requires, whatever provider its tools reach: data in `data/formats.json`.

As in the target tables (`targets`), a format has a `label` and `facts`, each fact
`{"value": ..., "source": URL | null, "note": "..."}` and checked as theirs are (`targets.fact_value`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tooldiff.targets import TargetDataError, fact_value


@dataclass(frozen=True, slots=True)
class FormatFacts:
    label: str
    required_object_schema_key: str | None  # must hold an object schema, even without params
    refused_by: str  # what refuses a definition that breaks the requirement
    type_required: bool  # the schema there must say "type": "object" itself
    schema_fields_key: str | None  # the key whose schemas take only `schema_fields` (Gemini `parameters`)
    schema_fields: frozenset[str]


_TYPES: dict[str, type | tuple[type, ...]] = {
    "required_object_schema_key": str, "refused_by": str, "type_required": bool, "schema_fields_key": str,
    "schema_fields": list}


@cache
def _table() -> dict[str, FormatFacts]:
    raw = json.loads(resources.files("tooldiff").joinpath("data/formats.json").read_bytes())
    out = {}
    for fmt, data in raw.items():
        if fmt.startswith("_"):
            continue
        facts = data.get("facts") if isinstance(data, dict) else None
        if not isinstance(facts, dict) or set(facts) != set(_TYPES):
            raise TargetDataError(f"formats.json {fmt}: facts must be exactly {sorted(_TYPES)}")
        v = {fact: fact_value(f"formats.json {fmt}", fact, facts[fact], _TYPES) for fact in _TYPES}
        out[fmt] = FormatFacts(str(data.get("label", fmt)), v["required_object_schema_key"],
                               v["refused_by"] or "", bool(v["type_required"]), v["schema_fields_key"],
                               frozenset(v["schema_fields"] or ()))
    return out


def facts(fmt: str) -> FormatFacts | None:
    """The format's own requirements; None for a format that sets none."""
    return _table().get(fmt)


def schema_fields(tool_format: str, schema_key: str) -> frozenset[str] | None:
    """The only keys a schema node may have where the format limits them (Gemini `parameters`), else None."""
    own = _table().get(tool_format)
    if own is None or own.schema_fields_key is None or own.schema_fields_key != schema_key:
        return None
    return own.schema_fields


@cache
def limits_fields() -> bool:
    """Whether any format limits the keys of its schemas (a rule that checks them must always run)."""
    return any(own.schema_fields_key is not None for own in _table().values())
