"""Bytes of one file -> its tools and parse errors. One module per source format; `detect` picks by shape."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import yaml

from tooldiff.model import ParsedFile, ParseError, Tool
from tooldiff.parsers import gemini
from tooldiff.parsers.detect import NOT_A_TOOL, find, is_wrapper
from tooldiff.parsers.load import Document, DocumentErrors, LoadError, decode, load_documents
from tooldiff.parsers.record import GEMINI_CONTAINERS, Fields
from tooldiff.parsers.repeats import Repeat
from tooldiff.parsers.yamlwords import boolean_words
from tooldiff.positions import LineIndex, Path, escape, mark_line, split_pointer, to_pointer, yaml_node
from tooldiff.schemahash import lenient_json

DEFAULT_MAX_BYTES = 20_000_000


def parse_bytes(path: str, data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> ParsedFile:
    """Never raises: anything wrong with the file becomes a ParseError with the best line we have."""
    if len(data) > max_bytes:
        return _failed(path, 1, f"file is {len(data):,} bytes, over the limit of {max_bytes:,}")
    try:
        text = decode(data)
        errors: list[ParseError] = []
        try:
            docs = load_documents(path, text, is_wrapper)
        except DocumentErrors as exc:
            docs = exc.docs
            errors = [ParseError(file=path, line=e.line, message=e.message) for e in exc.errors]
        tools, bad, alone = _tools(path, text, docs)
        return ParsedFile(path=path, tools=tuple(tools), errors=(*errors, *bad), one_tool=alone)
    except LoadError as exc:
        return _failed(path, exc.line, exc.message)
    except RecursionError:
        return _failed(path, 1, "nesting too deep to parse")
    except Exception as exc:  # a crash here would hide every other file's findings
        return _failed(path, 1, f"could not read the file ({type(exc).__name__})")


def _failed(path: str, line: int, message: str) -> ParsedFile:
    return ParsedFile(path=path, errors=(ParseError(file=path, line=line, message=message),))


def _tools(path: str, text: str, docs: list[Document]) -> tuple[list[Tool], list[ParseError], bool]:
    """The tools, the records that are not tools, and whether the file defines one tool and nothing else."""
    tools: list[Tool] = []
    records = 0
    alone = False
    errors: list[ParseError] = []
    index = LineIndex(text)
    lists: list[tuple[Path, tuple[str, ...]]] = []  # the list each tool of `tools` sits in
    for doc in docs:
        found = list(find(doc.value, doc.kind != "jsonl"))
        if not found:
            errors.extend(_rpc_error(path, doc, text, index))
            continue
        records += len(found)
        alone = len(found) == 1 and _defines_only(doc.value, found[0].parent)
        pointers: dict[int, str] = {}  # by id of the parent tuple, shared by the records of one list
        claimed: set[tuple[Path, str]] = set()  # a repeated key above records: told at its first tool only
        near = _repeats_by_record(doc.repeated, {hit.path for hit in found}) if doc.repeated else {}
        lines, offsets = doc.item_lines(found, index), doc.item_offsets(found)
        for hit, (first, last), (offset, end) in zip(found, lines, offsets, strict=True):
            base = pointers.get(id(hit.parent))
            if base is None:
                base = pointers[id(hit.parent)] = to_pointer((*doc.prefix, *hit.parent))
            pointer = base if hit.at < 0 else f"{base}/{hit.at}"
            tool, message = _build(path, pointer, hit.fields, first, last, offset, end)
            if tool is not None:
                if doc.node is not None and tool.schema_key:
                    tool = _with_yaml_words(tool, doc.node, hit.path, index)
                if hit.path in near:
                    tool = _with_repeats(tool, doc.prefix, near[hit.path], hit.path, hit.fields, claimed)
                tools.append(tool)
                # Lines (or documents) that are each one record make one list; a line's own list is its own.
                lists.append((doc.prefix if hit.at >= 0 else (), _request_list(hit.parent)))
            else:
                errors.append(ParseError(file=path, line=first, message=message))
    tools = _once(tools, lists)
    return tools, errors, alone and records == 1 and len(tools) == 1


# Keys of a request or an agent, beside its `tools`: a file holding one offered its tools in that request.
REQUEST_KEYS = frozenset({"model", "messages", "contents", "input", "system", "systemInstruction",
                          "system_instruction", "instructions", "prompt"})


def _defines_only(document: Any, parent: Path) -> bool:
    """Whether a record under `parent` is a definition, not a tool offered in a request or by an agent: no
    object on its way down holds a model, messages, contents, input or instructions beside it (a request
    may sit deeper, as a Batch line's `body` or a proxy capture's `request`)."""
    node = document
    for key in parent:
        if isinstance(node, dict):
            if not REQUEST_KEYS.isdisjoint(node):
                return False
            node = node.get(key)
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return True
    return True


def _once(tools: list[Tool], lists: list[tuple[Path, tuple[str, ...]]]) -> list[Tool]:
    """One definition offered in several lists of a file (each agent's `tools`, a YAML alias of a shared
    tool, the request on every line of a JSON Lines file) is one tool, where it is first written. Only a
    copy that is word for word the same (everything a rule or a diff reads: format, `strict`, annotations,
    keys written twice, YAML's truthy words) and alone in its list is dropped: a list that holds it twice
    offers the name twice in one request (`duplicate-name`). Compared only for names the file repeats."""
    counts: dict[str, int] = {}
    for tool in tools:
        counts[tool.name] = counts.get(tool.name, 0) + 1
    if all(n == 1 for n in counts.values()):
        return tools
    keys = [_definition(t) if counts[t.name] > 1 else None for t in tools]
    in_list: dict[tuple[Any, ...], int] = {}
    for key, where in zip(keys, lists, strict=True):
        if key is not None:
            in_list[(where, key)] = in_list.get((where, key), 0) + 1
    first: dict[tuple[Any, ...], tuple[Path, tuple[str, ...]]] = {}
    out = []
    for tool, key, where in zip(tools, keys, lists, strict=True):
        if key is not None and first.setdefault(key, where) != where and in_list[(where, key)] == 1:
            continue
        out.append(tool)
    return out


def _request_list(parent: tuple[str, ...]) -> tuple[str, ...]:
    """The list a record is offered in: Gemini's `tools[i].functionDeclarations` are all one request's."""
    if len(parent) >= 2 and parent[-1] in GEMINI_CONTAINERS and parent[-2].isdigit():
        return parent[:-2]
    return parent


def _definition(tool: Tool) -> tuple[Any, ...]:
    return (tool.name, tool.description, tool.format, tool.schema_key, tool.strict, lenient_json(tool.title),
            lenient_json(tool.input_schema), lenient_json(tool.annotations), lenient_json(tool.output_schema),
            tool.repeated_keys, tuple(w[:3] for w in tool.yaml_words))  # a word's line is not what it says


def _rpc_error(path: str, doc: Document, text: str, index: LineIndex) -> list[ParseError]:
    """A JSON-RPC error response where a tools/list result was captured: the capture failed. Read as a file
    without tools, a diff would take every tool for removed."""
    value = doc.value
    if not (isinstance(value, dict) and "jsonrpc" in value and isinstance(value.get("error"), dict)
            and "result" not in value):
        return []
    what = " ".join(str(value["error"][k]) for k in ("code", "message") if value["error"].get(k) is not None)
    if doc.kind == "jsonl":
        line = doc.line_no
    elif doc.node is not None:
        line = mark_line(doc.node.start_mark, index)
    else:
        line = index.line(len(text) - len(text.lstrip()))
    return [ParseError(file=path, line=line,
                       message=f"a JSON-RPC error response ({what or 'no message'}), not a tools/list result",
                       fix="Capture the tools/list result again: the server answered with an error.")]


def _with_yaml_words(tool: Tool, root: yaml.Node, record: Path, index: LineIndex) -> Tool:
    node, _ = yaml_node(root, (*record, *split_pointer(tool.schema_pointer[len(tool.pointer):])))
    words = boolean_words(node) if node is not None else ()
    if not words:
        return tool
    return dataclasses.replace(tool, yaml_words=tuple((f"/input_schema{p}", w, k, mark_line(m, index))
                                                      for p, w, k, m in words))


def _repeats_by_record(repeated: Iterable[Repeat], records: set[Path]) -> dict[Path, list[Repeat]]:
    """The repeats each record may hold: in it, or above it on its path. Found by the record's own path, so
    a file with a repeat in every record costs one lookup per repeat, not every repeat for every record."""
    out: dict[Path, list[Repeat]] = {}
    longest = max(map(len, records), default=0)
    by_prefix: dict[Path, list[Path]] = {}  # (*object, key) above records -> those records
    for record in records:
        for k in range(1, len(record)):
            by_prefix.setdefault(record[:k], []).append(record)
    for repeat in repeated:
        obj, key, _ = repeat
        for k in range(min(len(obj), longest) + 1):
            if obj[:k] in records:
                out.setdefault(obj[:k], []).append(repeat)
        for record in by_prefix.get((*obj, key), ()):
            out.setdefault(record, []).append(repeat)
    return out


def _with_repeats(
    tool: Tool, prefix: Path, repeated: list[Repeat], record: Path, fields: Fields,
    claimed: set[tuple[Path, str]],
) -> Tool:
    """The keys written twice inside this tool's record, as (pointer from the tool, key, times written,
    ""): in the schema `/input_schema/...`; in the record `/name`, `/description`, `/input_schema` (the
    schema keyword itself), else the key's path from the record. A key above the record whose value holds
    it (`"tools"` twice: the first list is dropped) comes with the first tool under it, as ("", key, times,
    the file pointer of the object that repeats it)."""
    body = (*record, *fields.body_path)
    inner = fields.schema_path
    schema = (*body, *inner) if inner else None
    found: list[tuple[str, str, int, str]] = []
    for obj, key, times in repeated:
        if obj[: len(record)] != record:
            holds = len(obj) < len(record) and record[: len(obj)] == obj and record[len(obj)] == key
            if holds and (obj, key) not in claimed:
                claimed.add((obj, key))
                found.append(("", key, times, to_pointer((*prefix, *obj)) or "/"))
            continue
        if schema is not None and obj[: len(schema)] == schema:
            at = "/input_schema" + to_pointer(obj[len(schema):])
        elif inner and obj == (*body, *inner[:-1]) and key == inner[-1]:
            found.append(("/input_schema", key, times, ""))
            continue
        else:
            at = "" if obj == body else to_pointer(obj[len(record):])
        found.append((f"{at}/{escape(key)}", key, times, ""))
    return dataclasses.replace(tool, repeated_keys=tuple(found)) if found else tool


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    return "a string" if isinstance(value, str) else "a list"


def _member(body: Any, path: tuple[str, ...]) -> Any:
    """The member of `body` at the end of `path` (`Fields.schema_path`), or None."""
    for part in path:
        body = body.get(part) if isinstance(body, dict) else None
    return body


def _build(
    path: str, pointer: str, fields: Fields, line: int, end_line: int, offset: int = -1, end_offset: int = -1
) -> tuple[Tool | None, str]:
    body = fields.body
    if fields.format == NOT_A_TOOL:
        return None, f"item {pointer} of a tool list is {_kind(body['value'])}, not a tool object"
    name = body.get("name")
    if not isinstance(name, str):
        what = "missing" if name is None else "not a string"
        return None, f"{fields.format} tool at {pointer or '/'}: `name` is {what}"
    description: Any = body.get("description")
    if description is None:  # a VS Code language model tool tells the model its `modelDescription`
        model = body.get("modelDescription")
        description = model if isinstance(model, str) else ""
    elif not isinstance(description, str):
        return None, f"{fields.format} tool at {pointer or '/'} ({name}): `description` is not a string"
    key = fields.schema_key
    body_pointer = pointer + to_pointer(fields.body_path) if fields.body_path else pointer
    strict, title, annotations = fields.strict, fields.title, fields.annotations
    schema = _member(body, fields.schema_path) if key else None
    if key == "parameters" and fields.format == gemini.FORMAT:  # OpenAPI's dialect: read as JSON Schema
        schema = gemini.json_schema_types(schema)
    return Tool(
        name=name,
        description=description,
        input_schema=schema,
        format=fields.format,
        file=path,
        line=line,
        end_line=end_line,
        pointer=pointer,
        schema_pointer=f"{body_pointer}/{key}" if key else body_pointer,
        strict=strict if strict is True or strict is False else None,
        title=title if title is None or isinstance(title, str) else None,
        annotations=annotations if annotations is None or isinstance(annotations, dict) else None,
        output_schema=fields.output_schema,
        schema_key=key,
        offset=offset,
        end_offset=end_offset,
    ), ""
