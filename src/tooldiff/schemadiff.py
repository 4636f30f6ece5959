"""What changed inside a modified tool, property by property, as oasdiff names each changed parameter.

`details(old, new)` gives short phrases for the diff's tables and JSON: `max_count: added, optional`,
`repo_path: now required`, `order: enum +"random" −"oldest"`, `destructiveHint: true → false`. Property
names are tool text: renderers escape them like any other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tooldiff.model import Tool
from tooldiff.schemahash import lenient_json

MAX_DETAILS = 10  # in the JSON report, then "and N more" (`capped`): a list of changes, not the schema
MAX_DEPTH = 8  # nested properties deeper than this are "changed" as a whole
_VALUE_CHARS = 40
_NAME_CHARS = 40  # a property name longer than this is cut, so the change after it still shows

# Keywords shown as "old → new"; the rest of a schema that differs is named ("anyOf changed").
_SCALARS = ("type", "format", "pattern", "const", "default", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
            "minProperties", "maxProperties", "multipleOf", "nullable")
_WALKED = frozenset({*_SCALARS, "properties", "required", "items", "enum", "description", "title",
                     "additionalProperties"})


def details(old: Tool, new: Tool) -> tuple[str, ...]:
    """The changes from `old` to `new`: the format and `strict` (which choose the default targets), then
    inside the input schema and the annotations (with the title)."""
    out: list[str] = []
    if old.format != new.format:
        out.append(f"format: {old.format} → {new.format}")
    if old.strict != new.strict:
        out.append(f"strict: {_flag(old.strict)} → {_flag(new.strict)}")
    if lenient_json(old.input_schema) != lenient_json(new.input_schema):
        _schema(old.input_schema, new.input_schema, "", out, 0)
    a, b = dict(old.annotations or {}), dict(new.annotations or {})
    for key in sorted(a.keys() | b.keys()):
        if key not in a or key not in b or lenient_json(a[key]) != lenient_json(b[key]):
            out.append(f"{key}: {_shown(a, key)} → {_shown(b, key)}")
    if old.title != new.title:
        out.append(f"title: {_maybe(old.title)} → {_maybe(new.title)}")
    return tuple(out)


def _flag(value: bool | None) -> str:
    return "unset" if value is None else str(value).lower()


def capped(found: tuple[str, ...], most: int = MAX_DETAILS) -> list[str]:
    """`found` for an output: the first `most`, then "and N more" for the rest (none cut to name one)."""
    if len(found) <= most + 1:
        return list(found)
    return [*found[:most], f"and {len(found) - most} more"]


def _schema(o: Any, n: Any, at: str, out: list[str], depth: int) -> None:
    def say(what: str) -> None:
        out.append(f"{at}: {what}" if at else what)

    def moved(key: str, old: str, new: str) -> None:  # "x: maximum unset → 50"; at the root "key: ..."
        out.append(f"{at}: {key} {old} → {new}" if at else f"{key}: {old} → {new}")

    if not isinstance(o, Mapping) or not isinstance(n, Mapping) or depth > MAX_DEPTH:
        say("changed" if at else "the schema replaced")
        return
    for key in _SCALARS:
        if _differ(o, n, key):
            moved(key, _shown(o, key), _shown(n, key))
    if _differ(o, n, "enum"):
        say(_enum(o.get("enum"), n.get("enum")))
    if _differ(o, n, "description"):
        say("description changed" if at else "the schema's description changed")
    if _differ(o, n, "title"):
        say("title changed")
    if _differ(o, n, "additionalProperties"):
        extra_o, extra_n = o.get("additionalProperties"), n.get("additionalProperties")
        if isinstance(extra_o, Mapping) and isinstance(extra_n, Mapping):
            _schema(extra_o, extra_n, f"{at}{{*}}", out, depth + 1)
        else:
            key = "additionalProperties"
            moved(key, _shown(o, key), _shown(n, key))
    _properties(o, n, at, out, depth)
    if _differ(o, n, "items"):
        if isinstance(o.get("items"), Mapping) and isinstance(n.get("items"), Mapping):
            _schema(o["items"], n["items"], f"{at}[]", out, depth + 1)
        else:
            say("items changed")
    for key in sorted((o.keys() | n.keys()) - _WALKED):
        if _differ(o, n, key):
            say(f"{key} changed")


def _properties(o: Mapping[str, Any], n: Mapping[str, Any], at: str, out: list[str], depth: int) -> None:
    op, np = o.get("properties"), n.get("properties")
    op, np = (op if isinstance(op, Mapping) else {}), (np if isinstance(np, Mapping) else {})
    o_req, n_req = _required(o), _required(n)

    def path(name: str) -> str:
        short = name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1] + "…"
        return f"{at}.{short}" if at else short

    for name in sorted(np.keys() - op.keys()):
        out.append(f"{path(name)}: added, {'required' if name in n_req else 'optional'}")
    for name in sorted(op.keys() - np.keys()):
        out.append(f"{path(name)}: removed")
    for name in sorted((n_req ^ o_req) - op.keys() - np.keys()):  # required, with no property of its own
        out.append(f"{path(name)}: now {'required' if name in n_req else 'optional'}")
    for name in sorted(op.keys() & np.keys()):
        if name in n_req and name not in o_req:
            out.append(f"{path(name)}: now required")
        elif name in o_req and name not in n_req:
            out.append(f"{path(name)}: now optional")
        if lenient_json(op[name]) != lenient_json(np[name]):
            _schema(op[name], np[name], path(name), out, depth + 1)


def _required(schema: Mapping[str, Any]) -> set[str]:
    names = schema.get("required")
    return {x for x in names if isinstance(x, str)} if isinstance(names, list) else set()


def _enum(o: Any, n: Any) -> str:
    if not isinstance(o, list) or not isinstance(n, list):
        return f"enum {_maybe(o)} → {_maybe(n)}"
    old, new = [lenient_json(v) for v in o], [lenient_json(v) for v in n]
    old_set, new_set = set(old), set(new)
    added = [_value(v) for v, c in zip(n, new, strict=True) if c not in old_set]
    gone = [_value(v) for v, c in zip(o, old, strict=True) if c not in new_set]
    words = [f"+{v}" for v in added[:3]] + [f"−{v}" for v in gone[:3]]
    more = len(added) + len(gone) - len(words)
    if not words:  # the same values: moved, or a repeat dropped or added
        return "enum reordered" if sorted(old) == sorted(new) else "enum changed"
    return "enum " + " ".join(words) + (f" and {more} more" if more > 0 else "")


def _differ(o: Mapping[str, Any], n: Mapping[str, Any], key: str) -> bool:
    if key in o and key in n:
        return lenient_json(o[key]) != lenient_json(n[key])
    return (key in o) != (key in n)


def _shown(schema: Mapping[str, Any], key: str) -> str:
    return _value(schema[key]) if key in schema else "unset"


def _maybe(v: Any) -> str:
    return "unset" if v is None else _value(v)


def _value(v: Any) -> str:
    try:
        text = json.dumps(v, ensure_ascii=False, allow_nan=True, default=str)
    except (ValueError, RecursionError):
        text = "…"
    return text if len(text) <= _VALUE_CHARS else text[: _VALUE_CHARS - 1] + "…"
