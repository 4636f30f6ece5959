"""Argument shape: what a tool's input schema says about how a call is routed.

Argument names are folded through the lexicon's argument synonyms (query/question, limit/top_k, from/to and
start/end), so two tools that take the same inputs under different names have the same shape.
A *routing* argument is an identifier that exists only once the conversation holds one (`document_id`, `url`,
`thread_ts`); an *ambient* argument is a handle that every call of a session carries (`pageId`,
`connectionId`, `owner`/`repo`) and routes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from tooldiff.lexicon import lexicon
from tooldiff.terms import fold_plural, normalise_name_word, split_identifier


# Not frozen (see `model`): one per argument of every tool the pair rules compare. Hashable as before.
@dataclass(slots=True, unsafe_hash=True)
class Arg:
    name: str
    key: str  # canonical name after the argument synonyms
    kind: str  # string, number, boolean, array, object, enum, any
    required: bool
    description: str
    routing: bool
    ambient: bool


def _kind(prop: Any) -> str:
    if not isinstance(prop, dict):
        return "any"
    if "enum" in prop:
        return "enum"
    t = prop.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "any")
    if t in ("integer", "number", "float", "int"):
        return "number"
    return t if isinstance(t, str) else "any"


def canonical_arg(name: str) -> str:
    lex = lexicon()
    parts = split_identifier(name)
    snake = "_".join(parts)
    if snake in lex.arg_synonyms:
        return lex.arg_synonyms[snake]
    folded = "_".join([*parts[:-1], fold_plural(parts[-1])]) if parts else snake
    return lex.arg_synonyms.get(folded, folded)


@cache
def _name_info(name: str) -> tuple[str, bool, bool]:
    """Argument name -> (canonical key, ambient, routing); names repeat across tools, so once each."""
    lex = lexicon()
    parts = split_identifier(name)
    snake = "_".join(parts)
    ambient = snake in lex.ambient_args or snake.replace("_", "") in lex.ambient_args
    routing = not ambient and (
        snake in lex.routing_words or (len(parts) > 1 and parts[-1] in lex.routing_suffixes)
    )
    return canonical_arg(name), ambient, routing


@cache
def named_thing(name: str) -> str | None:
    """`job_name` -> the term 'job', `name` -> '': an argument that names the one thing a call is about.

    Not a routing argument by itself: `hotel_name` and `hotel` are one input under two spellings. `overlap`
    lets it route only against a tool that returns many of that thing (get_job against get_jobs). Else None.
    """
    parts = split_identifier(name)
    if not parts or parts[-1] not in lexicon().naming_suffixes:
        return None
    return (normalise_name_word(parts[-2]) or None) if len(parts) > 1 else ""


@cache
def arg_terms(name: str) -> frozenset[str]:
    """The name terms of an argument name (`library_id` -> library): what thing it is about."""
    return frozenset(filter(None, map(normalise_name_word, split_identifier(name))))


def parse_args(schema: Any) -> tuple[Arg, ...]:
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return ()
    required = schema.get("required")
    if not isinstance(required, list):
        required = []
    out: list[Arg] = []
    for name, prop in schema["properties"].items():
        if not isinstance(name, str):
            continue
        key, ambient, routing = _name_info(name)
        desc = prop.get("description", "") if isinstance(prop, dict) else ""
        out.append(
            Arg(
                name=name,
                key=key,
                kind=_kind(prop),
                required=name in required,
                description=" ".join(desc.lower().split()) if isinstance(desc, str) else "",
                routing=routing,
                ambient=ambient,
            )
        )
    return tuple(out)


def required_shape(schema: Any) -> frozenset[str]:
    """`shape_keys(parse_args(schema))`, reading only the required arguments (the candidate search's need)."""
    if not isinstance(schema, dict):
        return _NONE
    props, required = schema.get("properties"), schema.get("required")
    if not isinstance(props, dict) or not isinstance(required, list) or not required:
        return _NONE
    req: list[str] = []
    for name in dict.fromkeys(n for n in required if isinstance(n, str)):
        if name in props:
            key, ambient, _ = _name_info(name)
            if not ambient:
                req.append(f"{key}:{_kind(props[name])}")
    return frozenset({"shape:" + ",".join(sorted(req))}) if req else _NONE


_NONE: frozenset[str] = frozenset()  # shared: long-lived empty sets cost the garbage collector


def _matches(x: Arg, others: Sequence[Arg]) -> bool:
    for y in others:
        if y.ambient:
            continue
        if x.key == y.key:
            return True
        if x.description and x.description == y.description and x.kind == y.kind:
            return True
    return False


def unmatched_required(a: Sequence[Arg], b: Sequence[Arg]) -> tuple[Arg, ...]:
    """Required, non-ambient arguments of `a` that no argument of `b` corresponds to."""
    return tuple(x for x in a if x.required and not x.ambient and not _matches(x, b))


def shape_keys(args: Sequence[Arg]) -> frozenset[str]:
    """Index keys for the candidate search: the required shape, so synonym-named twins meet."""
    req = sorted(f"{a.key}:{a.kind}" for a in args if a.required and not a.ambient)
    return frozenset({"shape:" + ",".join(req)}) if req else frozenset()
