"""One iterative walk over a tool's input schema, shared by every lint rule.

Schemas come from strangers: they may be booleans, lists, BFCL's `type: "dict"`, YAML-shared subtrees or
nested ten thousand deep. The walk never recurses, never raises, visits a shared subtree once and stops
after `MAX_NODES` nodes. The engine runs every rule on one tool in a row, so the node list of the last few
schemas is cached by identity.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from tooldiff.model import Tool

MAX_NODES = 100_000

# Keywords whose value is one subschema, a map of subschemas, or a list of subschemas (all drafts).
ONE = (
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)
MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
# BFCL and some generators write Python's names for JSON types; read them leniently when walking.
OBJECT_TYPES = frozenset({"object", "dict"})


class Node(NamedTuple):
    pointer: str  # relative to the tool: "/input_schema/properties/x"
    schema: Any  # a dict for real schemas; anything else is junk the rules skip
    depth: int  # object schemas on the path from the root, this one included
    via: str  # keyword that led here ("" for the root)
    key: str | None  # property or definition name when `via` is a map keyword


def escape(token: object) -> str:
    """RFC 6901 reference token (YAML may give non-string keys; they are written as text)."""
    if not isinstance(token, str):
        token = str(token)
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def types_of(schema: Mapping[str, Any]) -> frozenset[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return frozenset((t,))
    if isinstance(t, list):
        return frozenset(x for x in t if isinstance(x, str))
    return frozenset()


def is_object(schema: Any) -> bool:
    """An object schema: typed object (or BFCL's dict), or untyped with properties."""
    if not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if isinstance(t, str):  # the common case, without building the set types_of would
        return t in OBJECT_TYPES
    types = types_of(schema)
    if types:
        return bool(types & OBJECT_TYPES)
    return isinstance(schema.get("properties"), dict)


def admits_null(schema: Any) -> bool:
    """Whether a property's schema lets the model send null (type list, anyOf branch or OpenAPI nullable)."""
    if not isinstance(schema, dict):
        return False
    enum = schema.get("enum")
    if isinstance(enum, list) and None not in enum:
        return False  # the enum refuses null, whatever the type allows
    if "null" in types_of(schema) or schema.get("nullable") is True:
        return True
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and any(
            isinstance(b, dict) and "null" in types_of(b) for b in branches
        ):
            return True
    return isinstance(enum, list)  # and null is in it


def properties_of(schema: Mapping[str, Any]) -> dict[Any, Any]:
    # Keys typed Any: YAML loads `31:` as an int, and a compiled caller (Makefile: COMPILED) checks a str.
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def required_of(schema: Mapping[str, Any]) -> frozenset[str]:
    req = schema.get("required")
    if isinstance(req, list):
        return frozenset(r for r in req if isinstance(r, str))
    return frozenset()


# Keyword -> how its value holds subschemas. "items" is a list or one schema, so it is both.
_MAP, _LIST, _ONE, _LIST_OR_ONE = 1, 2, 3, 4
_KINDS: dict[str, int] = {
    **{kw: _ONE for kw in ONE},
    **{kw: _LIST for kw in LISTS},
    **{kw: _MAP for kw in MAPS},
    "items": _LIST_OR_ONE,
}
_NO_SUBSCHEMAS = frozenset(_KINDS).isdisjoint
_SUBSCHEMA = (dict, bool)  # a tuple: `dict | bool` written in the call builds a union on every call


# A Node built as the tuple it is: `Node(...)` calls a Python-level `__new__` (a frame per node).
_new_node = tuple.__new__


def _child_depth(depth: int, sub: Any) -> int:
    """`depth + is_object(sub)`, with the common case (a dict with a string `type`) inlined."""
    if type(sub) is dict:
        t = sub.get("type")
        if type(t) is str:
            return depth + 1 if t in OBJECT_TYPES else depth
    return depth + is_object(sub)


def walk(schema: Any, base: str = "/input_schema", max_nodes: int = MAX_NODES) -> list[Node]:
    """Every subschema in document order (depth first), as Nodes. Never raises, never recurses."""
    out: list[Node] = []
    seen: set[int] = set()
    stack: list[Node] = [Node(base, schema, 1 if is_object(schema) else 0, "", None)]
    kinds = _KINDS.get
    new, depth_of = _new_node, _child_depth
    while stack and len(out) < max_nodes:
        node = stack.pop()
        out.append(node)
        s = node[1]
        if not isinstance(s, dict) or _NO_SUBSCHEMAS(s) or id(s) in seen:
            continue  # a leaf (most properties): no keyword of it can hold a subschema
        seen.add(id(s))
        children: list[Node] = []
        add = children.append
        pointer, depth = node[0], node[2]
        for kw, value in s.items():
            kind = kinds(kw) if isinstance(kw, str) else None
            if kind is None:
                continue
            if kind == _MAP:
                if isinstance(value, dict):
                    prefix = f"{pointer}/{kw}/"
                    for name, sub in value.items():
                        if isinstance(sub, _SUBSCHEMA):
                            key = name if isinstance(name, str) else str(name)
                            token = key if "~" not in key and "/" not in key else escape(key)
                            add(new(Node, (prefix + token, sub, depth_of(depth, sub), kw, key)))
            elif kind != _ONE and isinstance(value, list):
                prefix = f"{pointer}/{kw}/"
                for i, sub in enumerate(value):
                    add(new(Node, (f"{prefix}{i}", sub, depth_of(depth, sub), kw, None)))
            elif kind != _LIST and isinstance(value, _SUBSCHEMA):
                add(new(Node, (f"{pointer}/{kw}", value, depth_of(depth, value), kw, None)))
        if children:
            stack.extend(reversed(children))
    return out


_CACHE: dict[int, tuple[Any, list[Node]]] = {}
_CACHE_SIZE = 8


def nodes(tool: Tool) -> list[Node]:
    """`walk(tool.input_schema)`, cached by the schema's identity for the few most recent tools."""
    schema = tool.input_schema
    hit = _CACHE.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    result = walk(schema)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    # Holding the schema keeps its id from being reused while the entry lives.
    _CACHE[id(schema)] = (schema, result)
    return result


class Prop(NamedTuple):
    pointer: str  # of the property, relative to the tool
    name: Any  # a str, but a YAML key may load as a number
    schema: Any
    required: frozenset[str]  # the `required` of the object that holds it


def object_properties(tool: Tool) -> Iterator[Prop]:
    """Every property of every object schema in the tool's input schema, with its object's `required`."""
    for node in nodes(tool):
        if not is_object(node.schema):
            continue
        required = required_of(node.schema)
        for name, prop in properties_of(node.schema).items():
            yield Prop(f"{node.pointer}/properties/{escape(name)}", name, prop, required)


def has_schema(tool: Tool) -> bool:
    """False when the source gave no input schema (a parameterless tool): absent, null, or {} filled in."""
    if tool.input_schema is None:
        return False
    return bool(tool.schema_key) or tool.input_schema != {}
