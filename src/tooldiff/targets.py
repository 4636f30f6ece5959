"""Provider facts as data: one table per target in `data/targets/<name>.json`.

Every fact is `{"value": ..., "source": URL | null, "note": "..."}`; a null source is allowed only for a fact
the provider does not document (its value is then null or empty, and the note says so). Rules read these
tables and never branch on a target's name.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from tooldiff.model import Tool

TARGET_NAMES: tuple[str, ...] = ("openai-strict", "openai", "anthropic-strict", "anthropic", "google")

# Fact name -> the Python type its non-null value must have.
FACT_TYPES: dict[str, type | tuple[type, ...]] = {
    "name_pattern": str,
    "name_max_length": int,
    "name_rule": str,
    "unsupported_keywords": list,
    "ignored_keywords": list,
    "supported_formats": list,
    "max_min_items": int,
    "all_properties_required": bool,
    "additional_properties_false_required": bool,
    "root_must_be_object": bool,
    "root_type_required": bool,
    "root_refused_keywords": list,
    "max_tools": int,
    "max_request_optional_params": int,
    "max_request_union_params": int,
    "tool_description_max_chars": int,
    "property_description_max_chars": int,
    "recursive_refs": bool,
    "max_nesting_depth": int,
    "max_total_properties": int,
    "max_total_enum_values": int,
    "large_enum_threshold": int,
    "max_large_enum_string_chars": int,
    "max_total_string_chars": int,
    "request_overhead_tokens": int,
    "strict_when_unset_formats": list,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    name: str
    provider: str
    label: str
    name_pattern: re.Pattern[str]
    name_max_length: int
    name_rule: str
    unsupported_keywords: frozenset[str]
    ignored_keywords: frozenset[str]
    supported_formats: tuple[str, ...] | None  # in the provider's order; None: any `format` passes
    max_min_items: int | None  # the largest `minItems` taken
    all_properties_required: bool
    additional_properties_false_required: bool
    root_must_be_object: bool
    root_type_required: bool  # the root must say "type": "object" itself (properties alone are refused)
    root_refused_keywords: tuple[str, ...]  # keywords refused at the root of the input schema, in order
    max_tools: int | None
    # Over every tool of the target in one request: parameters not in `required`, and parameters that
    # take `anyOf` or a list of types (Anthropic's strict tool use compiles them into one grammar).
    max_request_optional_params: int | None
    max_request_union_params: int | None
    tool_description_max_chars: int | None
    property_description_max_chars: int | None
    # None means "not documented", which the rules treat as unsupported.
    recursive_refs: bool | None
    max_nesting_depth: int | None
    max_total_properties: int | None
    max_total_enum_values: int | None
    large_enum_threshold: int | None
    max_large_enum_string_chars: int | None
    max_total_string_chars: int | None
    request_overhead_tokens: int | None
    # Source formats whose tools, without `strict`, are made strict where the schema allows it.
    strict_when_unset_formats: frozenset[str]
    sources: Mapping[str, str | None]
    notes: Mapping[str, str]

    def source(self, fact: str) -> str | None:
        return self.sources.get(fact)


class TargetDataError(ValueError):
    pass


def _raw(name: str) -> bytes:
    return resources.files("tooldiff").joinpath(f"data/targets/{name}.json").read_bytes()


def fact_value(name: str, fact: str, entry: Any, types: Mapping[str, type | tuple[type, ...]] = FACT_TYPES
               ) -> Any:
    """A fact's value, checked: `{value, source, note}`, the value of its type, a source or a note saying why
    there is none. Target tables and `data/formats.json` are read through it."""
    if not isinstance(entry, dict) or "value" not in entry or "source" not in entry:
        raise TargetDataError(f"{name}: fact {fact!r} needs 'value' and 'source'")
    value, source = entry["value"], entry["source"]
    if value is not None and not isinstance(value, types[fact]):
        raise TargetDataError(f"{name}: fact {fact!r} has the wrong type")
    if source is None and value not in (None, []):
        raise TargetDataError(f"{name}: documented fact {fact!r} has no source")
    if source is None and not entry.get("note"):
        raise TargetDataError(f"{name}: undocumented fact {fact!r} needs a note saying so")
    return value


def load_target(name: str, data: Mapping[str, Any]) -> Target:
    facts = data.get("facts")
    if not isinstance(facts, dict) or set(facts) != set(FACT_TYPES):
        missing = set(FACT_TYPES) ^ set(facts or {})
        raise TargetDataError(f"{name}: facts must be exactly the known ones (differs on {sorted(missing)})")
    v = {fact: fact_value(name, fact, facts[fact]) for fact in FACT_TYPES}
    return Target(
        name=name,
        provider=str(data.get("provider", "")),
        label=str(data.get("label", "")),
        name_pattern=re.compile(v["name_pattern"]),
        name_max_length=v["name_max_length"],
        name_rule=v["name_rule"],
        unsupported_keywords=frozenset(v["unsupported_keywords"] or ()),
        ignored_keywords=frozenset(v["ignored_keywords"] or ()),
        supported_formats=None if v["supported_formats"] is None else tuple(v["supported_formats"]),
        max_min_items=v["max_min_items"],
        all_properties_required=bool(v["all_properties_required"]),
        additional_properties_false_required=bool(v["additional_properties_false_required"]),
        root_must_be_object=bool(v["root_must_be_object"]),
        root_type_required=bool(v["root_type_required"]),
        root_refused_keywords=tuple(v["root_refused_keywords"] or ()),
        max_tools=v["max_tools"],
        max_request_optional_params=v["max_request_optional_params"],
        max_request_union_params=v["max_request_union_params"],
        tool_description_max_chars=v["tool_description_max_chars"],
        property_description_max_chars=v["property_description_max_chars"],
        recursive_refs=v["recursive_refs"],
        max_nesting_depth=v["max_nesting_depth"],
        max_total_properties=v["max_total_properties"],
        max_total_enum_values=v["max_total_enum_values"],
        large_enum_threshold=v["large_enum_threshold"],
        max_large_enum_string_chars=v["max_large_enum_string_chars"],
        max_total_string_chars=v["max_total_string_chars"],
        request_overhead_tokens=v["request_overhead_tokens"],
        strict_when_unset_formats=frozenset(v["strict_when_unset_formats"] or ()),
        sources={fact: facts[fact]["source"] for fact in FACT_TYPES},
        notes={fact: facts[fact]["note"] for fact in FACT_TYPES if facts[fact].get("note")},
    )


@cache
def _load_all() -> dict[str, Target]:
    out: dict[str, Target] = {}
    for name in TARGET_NAMES:
        data = json.loads(_raw(name))
        if data.get("name") != name:
            raise TargetDataError(f"{name}.json names itself {data.get('name')!r}")
        out[name] = load_target(name, data)
    return out


TARGETS: dict[str, Target] = _load_all()

# Default targets by source format (issue 2). OpenAI's and Anthropic's own formats split on `strict`.
_OPENAI_FORMATS = frozenset({"openai-chat", "openai-responses"})
_FORMAT_TARGETS: dict[str, tuple[str, ...]] = {
    "anthropic": ("anthropic",),
    "gemini": ("google",),
    # MCP clients relay to any provider; bare records could go anywhere. Strict mode is opt-in, so not it.
    "mcp": ("anthropic", "openai", "google"),
    "function": ("anthropic", "openai", "google"),
}


def default_targets(tool: Tool) -> tuple[str, ...]:
    if tool.format in _OPENAI_FORMATS:
        return ("openai-strict",) if tool.strict is True else ("openai",)
    if tool.format == "anthropic" and tool.strict is True:  # strict tool use: structured outputs' subset
        return ("anthropic-strict",)
    return _FORMAT_TARGETS.get(tool.format, ("anthropic", "openai", "google"))


def resolve(names: tuple[str, ...] | list[str]) -> tuple[Target, ...]:
    """Target names -> Target objects, in TARGET_NAMES order; unknown names are skipped."""
    wanted = set(names)
    return tuple(TARGETS[n] for n in TARGET_NAMES if n in wanted)


def ordered(names: set[str] | frozenset[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Target names in the canonical order, so merged findings list them the same way everywhere."""
    return tuple(n for n in TARGET_NAMES if n in names)


@cache
def target_data_hash() -> str:
    """SHA-256 over every target table's bytes: a change means every tool must be re-linted."""
    h = hashlib.sha256()
    for name in TARGET_NAMES:
        h.update(name.encode() + b"\0" + _raw(name) + b"\0")
    return h.hexdigest()
