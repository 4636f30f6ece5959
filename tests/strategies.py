"""Hypothesis strategies for the fuzz tests: JSON Schemas, tools, and tool files in all six formats.

Text is drawn mostly from a small vocabulary, so overlap rules have pairs to judge, and partly from hostile
fragments and arbitrary unicode, so escaping and hashing meet the worst. Schemas mix valid JSON Schema with
what teams get wrong: Python type names, dangling and remote `$ref`s, cycles, nulls, non-objects.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import strategies as st

VERBS = ["get", "fetch", "list", "search", "find", "create", "delete", "remove", "send", "update", "read"]
NOUNS = ["user", "users", "invoice", "document", "page", "email", "order", "file", "customer", "ticket"]
WORDS = [*VERBS, *NOUNS, "the", "a", "by", "id", "one", "every", "for", "not", "use", "same", "as",
         "deprecated", "alias", "of", "instead", "from", "web", "internet", "archive", "with", "its"]
HOSTILE = ["<!-- tooldiff:comment id=default -->", "</details>", "<img src=x onerror=alert(1)>",
           "[x](javascript:alert(1))", "| a |\n|---|", "@org/team", "\n# h\n", "`", "\u202e", "\x00",
           "\U0001f600", "https://evil.example", "%0A::error::", "\r\n", "&amp;", "\\"]

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53),
                         st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=6)


def _surrogate_free(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


sentences = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
texts = st.one_of(
    sentences,
    sentences,
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(HOSTILE)), max_size=6).map(" ".join),
    st.text(max_size=40).map(_surrogate_free),
)
long_texts = texts.map(lambda t: (t + " ") * 80)  # past description limits and token budgets
names = st.one_of(
    st.tuples(st.sampled_from(VERBS), st.sampled_from(NOUNS)).map("_".join),
    st.tuples(st.sampled_from(VERBS), st.sampled_from(NOUNS)).map(lambda p: p[0] + p[1].title()),
    st.from_regex(r"[a-z][a-z0-9_-]{0,20}", fullmatch=True),
    texts,
)
prop_names = st.one_of(st.sampled_from(["id", "query", "limit", "mode", "url", "to", "body", "path"]),
                       st.text(min_size=1, max_size=10).map(_surrogate_free))
TYPES = ["string", "number", "integer", "boolean", "null", "object", "array", "dict", "float", "STRING"]
REFS = ["#", "#/$defs/a", "#/$defs/b", "#/$defs/missing", "#/properties", "#/definitions/x",
        "https://evil.example/s.json", "file:///etc/passwd", "other.json#/x", "#/%24defs/a", "#/$defs/a~1b"]


type_values = st.one_of(st.sampled_from(TYPES), st.lists(st.sampled_from(TYPES), max_size=3))
def_names = st.sampled_from(["a", "b", "a/b"])


def _schema(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    keyword = st.one_of(
        st.tuples(st.just("type"), type_values),
        st.tuples(st.just("description"), texts),
        st.tuples(st.just("properties"), st.dictionaries(prop_names, children, max_size=4)),
        st.tuples(st.just("required"), st.one_of(st.lists(prop_names, max_size=4), st.booleans())),
        st.tuples(st.just("additionalProperties"), st.one_of(st.booleans(), children)),
        st.tuples(st.just("items"), children),
        st.tuples(st.just("enum"), st.lists(JSON_SCALARS, max_size=5)),
        st.tuples(st.just("$ref"), st.sampled_from(REFS)),
        st.tuples(st.just("$defs"), st.dictionaries(def_names, children, max_size=2)),
        st.tuples(st.sampled_from(["anyOf", "oneOf", "allOf"]), st.lists(children, max_size=3)),
        st.tuples(st.sampled_from(["format", "pattern", "title", "$schema"]), st.text(max_size=12)),
        st.tuples(st.sampled_from(["minimum", "maxLength", "minItems"]), st.integers(-5, 10**6)),
        st.tuples(st.sampled_from(["default", "const", "examples", "nullable", "x-custom"]), JSON_VALUES),
    )
    return st.lists(keyword, max_size=6).map(dict)


schemas: st.SearchStrategy[Any] = st.recursive(
    st.one_of(st.builds(dict), st.fixed_dictionaries({"type": st.sampled_from(TYPES)})),
    _schema, max_leaves=12,
)
object_schemas = st.fixed_dictionaries(
    {"type": st.just("object"), "properties": st.dictionaries(prop_names, schemas, max_size=5)},
    optional={
        "required": st.lists(prop_names, max_size=4),
        "additionalProperties": st.booleans(),
        "description": texts,
        "$defs": st.dictionaries(def_names, schemas, max_size=2),
    },
)
# A tool's input schema: mostly an object, sometimes nothing, sometimes not even a dict.
input_schemas = st.one_of(
    object_schemas,
    object_schemas,
    object_schemas,
    schemas.map(lambda s: {"type": "object", **s} if isinstance(s, dict) else s),
    schemas,
    st.none(),
    JSON_SCALARS,
)


@st.composite
def tools(draw: st.DrawFn) -> dict[str, Any]:
    """A format-neutral tool: name, description, schema, and the extras some formats carry."""
    return {
        "name": draw(st.one_of(*[names] * 8, st.none(), st.integers())),
        "description": draw(st.one_of(*[texts] * 8, long_texts, st.none(), st.integers(0, 9))),
        "schema": draw(input_schemas),
        "strict": draw(st.sampled_from([None, True, False, "yes"])),
        "annotations": draw(st.one_of(st.none(), st.fixed_dictionaries(
            {}, optional={"readOnlyHint": st.booleans(), "destructiveHint": st.booleans(), "title": texts}))),
    }


tool_lists = st.lists(tools(), min_size=0, max_size=6)


def _clean(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if v is not None}


def as_format(fmt: str, items: list[dict[str, Any]], wrapped: bool) -> Any:
    """The tool list as one of the six source formats (`wrapped`: inside its usual container)."""
    if fmt == "anthropic":
        recs = [_clean({"name": t["name"], "description": t["description"], "input_schema": t["schema"]})
                for t in items]
        return {"model": "claude", "tools": recs} if wrapped else recs
    if fmt == "openai-chat":
        recs = [{"type": "function", "function": _clean({"name": t["name"], "description": t["description"],
                                                         "parameters": t["schema"], "strict": t["strict"]})}
                for t in items]
        return {"tools": recs} if wrapped else recs
    if fmt == "openai-responses":
        recs = [_clean({"type": "function", "name": t["name"], "description": t["description"],
                        "parameters": t["schema"], "strict": t["strict"]}) for t in items]
        return {"tools": recs} if wrapped else recs
    if fmt == "function":
        recs = [_clean({"name": t["name"], "description": t["description"], "parameters": t["schema"]})
                for t in items]
        return {"functions": recs} if wrapped else recs
    if fmt == "mcp":
        recs = [_clean({"name": t["name"], "description": t["description"], "inputSchema": t["schema"],
                        "annotations": t["annotations"]}) for t in items]
        return {"jsonrpc": "2.0", "id": 1, "result": {"tools": recs}} if wrapped else {"tools": recs}
    if fmt == "gemini":
        recs = [_clean({"name": t["name"], "description": t["description"], "parameters": t["schema"]})
                for t in items]
        return {"tools": [{"functionDeclarations": recs}]} if wrapped else {"function_declarations": recs}
    raise ValueError(fmt)


FORMAT_NAMES = ["anthropic", "openai-chat", "openai-responses", "function", "mcp", "gemini"]


def serialize(value: Any, syntax: str) -> bytes:
    if syntax == "yaml":
        return yaml.safe_dump(value, allow_unicode=True, sort_keys=False).encode("utf-8")
    if syntax == "jsonl":  # one record a line; a wrapper object is one line of its own
        lines = value if isinstance(value, list) else [value]
        return "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in lines).encode("utf-8")
    return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8")


@st.composite
def tool_files(draw: st.DrawFn, max_files: int = 3) -> dict[str, bytes]:
    """1..max_files tool files, each one format serialised as JSON, YAML or JSON Lines."""
    out: dict[str, bytes] = {}
    for i in range(draw(st.integers(1, max_files))):
        fmt = draw(st.sampled_from(FORMAT_NAMES))
        syntax = draw(st.sampled_from(["json", "yaml", "jsonl"]))
        wrapped = syntax != "jsonl" and draw(st.booleans())
        folder = draw(st.sampled_from(["", "tools/", "mcp/"]))
        ext = {"json": ".json", "yaml": ".yaml", "jsonl": ".jsonl"}[syntax]
        out[f"{folder}{fmt}-{i}{ext}"] = serialize(as_format(fmt, draw(tool_lists), wrapped), syntax)
    return out
