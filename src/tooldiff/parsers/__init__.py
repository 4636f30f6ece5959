"""Bytes of one file -> its tools and parse errors. One module per source format; `detect` picks by shape."""

from __future__ import annotations

from typing import Any

from tooldiff.model import ParsedFile, ParseError, Tool
from tooldiff.parsers.detect import Found, find, is_wrapper
from tooldiff.parsers.load import Document, JsonlErrors, LoadError, decode, load_documents
from tooldiff.positions import LineIndex, to_pointer

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
        except JsonlErrors as exc:
            docs = exc.docs
            errors = [ParseError(file=path, line=e.line, message=e.message) for e in exc.errors]
        tools, bad = _tools(path, text, docs)
        return ParsedFile(path=path, tools=tuple(tools), errors=(*errors, *bad))
    except LoadError as exc:
        return _failed(path, exc.line, exc.message)
    except RecursionError:
        return _failed(path, 1, "nesting too deep to parse")
    except Exception as exc:  # a crash here would hide every other file's findings
        return _failed(path, 1, f"could not read the file ({type(exc).__name__})")


def _failed(path: str, line: int, message: str) -> ParsedFile:
    return ParsedFile(path=path, errors=(ParseError(file=path, line=line, message=message),))


def _tools(path: str, text: str, docs: list[Document]) -> tuple[list[Tool], list[ParseError]]:
    tools: list[Tool] = []
    errors: list[ParseError] = []
    index = LineIndex(text) if any(d.kind == "json" for d in docs) else None
    for doc in docs:
        found = list(find(doc.value))
        if not found:
            continue
        lines = doc.lines([f.path for f in found], index)
        for hit in found:
            first, last = lines.get(hit.path, (1, 1))
            tool, message = _build(path, doc, hit, first, last)
            if tool is not None:
                tools.append(tool)
            else:
                errors.append(ParseError(file=path, line=first, message=message))
    return tools, errors


def _build(path: str, doc: Document, hit: Found, line: int, end_line: int) -> tuple[Tool | None, str]:
    fields = hit.fields
    body = fields.body
    name = body.get("name")
    pointer = to_pointer((*doc.prefix, *hit.path))
    if not isinstance(name, str):
        what = "missing" if name is None else "not a string"
        return None, f"{fields.format} tool at {pointer or '/'}: `name` is {what}"
    description: Any = body.get("description")
    if description is None:
        description = ""
    if not isinstance(description, str):
        return None, f"{fields.format} tool at {pointer or '/'} ({name}): `description` is not a string"
    body_pointer = pointer + to_pointer(fields.body_path) if fields.body_path else pointer
    schema_pointer = f"{body_pointer}/{fields.schema_key}" if fields.schema_key else body_pointer
    strict = fields.strict if isinstance(fields.strict, bool) else None
    return Tool(
        name=name,
        description=description,
        input_schema=body[fields.schema_key] if fields.schema_key else None,
        format=fields.format,
        file=path,
        line=line,
        end_line=end_line,
        pointer=pointer,
        schema_pointer=schema_pointer,
        strict=strict,
        title=fields.title if isinstance(fields.title, str) else None,
        annotations=fields.annotations if isinstance(fields.annotations, dict) else None,
        output_schema=fields.output_schema,
        schema_key=fields.schema_key,
    ), ""
