"""Find tool records in a loaded value by shape, whatever the file is called.

Records are recognised as list items (or a whole-file object). Containers are searched a few levels deep:
`tools`, `functions` and `functionDeclarations` lists, JSON-RPC `result`, dicts of toolsets, and lists of
objects that hold such containers (Gemini's `tools: [{functionDeclarations: [...]}]`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any, NamedTuple

from tooldiff.parsers import anthropic, bedrock, function, gemini, mcp, openai_chat, openai_responses
from tooldiff.parsers.record import CONTAINER_KEYS, GEMINI_CONTAINERS, WHOLE_FILE, Fields

# Checked in order: the first shape that matches names the format.
FORMAT_MODULES: tuple[ModuleType, ...] = (
    openai_chat, openai_responses, anthropic, mcp, gemini, bedrock, function)
MAX_DEPTH = 10
NOT_A_TOOL = ""  # the format of an item of a tool list that is not an object: reported, never a tool
# Keys whose tool lists name tools defined elsewhere (`tool_choice: {type: allowed_tools, tools: [...]}`).
NOT_DEFINITIONS = frozenset({"tool_choice"})


class Found(NamedTuple):
    """A record at `parent[at]`, or the whole document when `at` is -1."""

    parent: tuple[str, ...]
    at: int
    fields: Fields

    @property
    def path(self) -> tuple[str, ...]:
        return self.parent if self.at < 0 else (*self.parent, str(self.at))


TRIGGERS: frozenset[str] = frozenset().union(*(m.TRIGGERS for m in FORMAT_MODULES))


_CANDIDATES: dict[frozenset[str], tuple[ModuleType, ...]] = {}


def classify(record: Mapping[str, Any], container: str | None) -> Fields | None:
    hits = TRIGGERS.intersection(record)
    if not hits or _holds_tools(record):
        return None
    modules = _CANDIDATES.get(hits)
    if modules is None:  # at most 2**len(TRIGGERS) distinct entries
        modules = _CANDIDATES[hits] = tuple(m for m in FORMAT_MODULES if not m.TRIGGERS.isdisjoint(hits))
    for module in modules:
        if module.matches(record, container):
            result: Fields = module.fields(record)
            return result
    return None


def _schemaless(record: Mapping[str, Any], container: str | None, siblings: Counter[str]) -> Fields | None:
    """A record in an explicit tool list that names itself but has no schema (allowed by most providers)."""
    if container is None or "name" not in record or "type" in record or _holds_tools(record):
        return None  # `type` without "function": a provider's built-in tool (web_search, bash, ...)
    if container in GEMINI_CONTAINERS:
        fmt = "gemini"
    elif not siblings and (not isinstance(record.get("description"), str) or "vendor" in record):
        return None  # no tool beside it: SBOM `tools: [{vendor, name, version}]`, reports listing tools
    elif "title" in record:
        fmt = "mcp"
    else:
        fmt = siblings.most_common(1)[0][0] if siblings else "function"
    return Fields(fmt, record)


def _vouched(record: Mapping[str, Any], siblings: Counter[str]) -> Fields | None:
    """A `{name, parameters}` record too plain to be a tool alone (no description, a shorthand schema) that
    sits among bare function records: one of them, whose schema the rules then report."""
    if (not siblings[function.FORMAT] or not isinstance(record.get("name"), str) or "parameters" not in record
            or "type" in record or _holds_tools(record)):  # `type`: a provider's built-in tool (bash)
        return None
    params = record["parameters"]
    return function.fields(record) if params is None or isinstance(params, dict) else None


def _holds_tools(record: Mapping[str, Any]) -> bool:
    """An agent's config or a named group of tools (`{name, outputSchema, tools: [...]}`) is read through,
    not taken for a tool. A record with an input schema of its own is a tool, whatever list it also holds
    (an agent tool that names the tools it delegates to)."""
    if CONTAINER_KEYS.isdisjoint(record) or not any(
            isinstance(record[k], list) for k in CONTAINER_KEYS.intersection(record)):
        return False
    params = record.get("parameters")  # a model's settings (`{temperature: 0.2}`) are no input schema
    schema = isinstance(params, dict) and function.looks_like_schema(params)
    return not schema and OWN_SCHEMA_KEYS.isdisjoint(record)


# The keys that hold a tool's own input schema (or its body: OpenAI Chat's `function`, Bedrock's `toolSpec`),
# `parameters` aside: an agent's may be its model's settings.
OWN_SCHEMA_KEYS = frozenset({"input_schema", "inputSchema", "parametersJsonSchema", "parameters_json_schema",
                             "function", "toolSpec"})


def is_wrapper(item: Mapping[str, Any]) -> bool:
    """Whether a list item object may hold records rather than be one: every record has a `name`
    (a nameless one is reported, and found again by the slower position walk)."""
    return "name" not in item and "function" not in item


def find(value: Any, whole_file: bool = True) -> Iterator[Found]:
    """Records in one document; `whole_file` is false for a JSONL line (one record of many)."""
    if isinstance(value, dict):
        fields = classify(value, WHOLE_FILE if whole_file else None)
        if fields is not None:
            yield Found((), -1, fields)
        else:
            yield from _in_dict(value, (), 0)
    elif isinstance(value, list):
        yield from _in_list(value, (), None, 0)


def _in_dict(obj: Mapping[str, Any], path: tuple[str, ...], depth: int) -> Iterator[Found]:
    if depth > MAX_DEPTH:
        return
    for key, child in obj.items():
        if key in NOT_DEFINITIONS:
            continue
        if isinstance(child, list):
            container = key if key in CONTAINER_KEYS else None
            yield from _in_list(child, (*path, key), container, depth + 1)
        elif isinstance(child, dict):
            yield from _in_dict(child, (*path, key), depth + 1)


def _in_list(
    items: list[Any], path: tuple[str, ...], container: str | None, depth: int
) -> Iterator[Found]:
    if depth > MAX_DEPTH:
        return
    hits: list[tuple[int, Fields]] = []
    rest: list[int] = []
    junk: list[int] = []  # not objects: in a list of tools, each is an item a provider refuses
    for index, item in enumerate(items):
        if isinstance(item, dict):
            fields = classify(item, container)
            if fields is None:
                rest.append(index)
            else:
                hits.append((index, fields))
        elif container is not None or not path:  # a tool list, or a file that is one list of records
            junk.append(index)
    if junk and hits:
        hits += [(index, Fields(NOT_A_TOOL, {"value": items[index]})) for index in junk]
        hits.sort(key=lambda hit: hit[0])
    if not rest:
        make = tuple.__new__  # skips NamedTuple's Python-level __new__: this loop runs once per tool
        for index, fields in hits:
            yield make(Found, (path, index, fields))
        return
    formats = Counter(f.format for _, f in hits if f.format != NOT_A_TOOL)
    found = dict(hits)
    for index in sorted((*found, *rest)):
        hit = found.get(index)
        if hit is None:
            hit = _schemaless(items[index], container, formats) or _vouched(items[index], formats)
        if hit is not None:
            yield Found(path, index, hit)
        else:
            yield from _in_dict(items[index], (*path, str(index)), depth + 1)
