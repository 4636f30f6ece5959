"""A finding on a key of a tool's record (`/name`, `/description`, `/title`, `/annotations/...`, `/strict`)
sits on that key's line, in every format and in JSON, JSON Lines and YAML; a key the record does not write
(a default filled in) stays on the tool's first line, as does the tool itself."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.engine import _Locations
from tooldiff.model import Tool
from tooldiff.parsers import parse_bytes
from tooldiff.sources import WorktreeSource

HOSTILE = Path(__file__).parent / "hostile"


def _line(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth occurrence of needle."""
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1


def _lines(path: str, text: str, pointers: tuple[str, ...]) -> tuple[Tool, dict[str, int]]:
    """The one tool in `text`, and the line of each pointer: in one go (`lines`) and one by one (`line`),
    which must agree."""
    data = text.encode()
    parsed = parse_bytes(path, data)
    assert not parsed.errors, parsed.errors
    (tool,) = parsed.tools
    wanted = [(tool, p) for p in pointers]
    together = _Locations({path: data}).lines(wanted)
    alone = [_Locations({path: data}).line(tool, p) for p in pointers]
    assert together == alone
    return tool, dict(zip(pointers, together, strict=True))


def _pretty(value: object) -> str:
    return json.dumps(value, indent=2) + "\n"


SCHEMA = {"type": "object", "properties": {"q": {"type": "string", "description": "Query."}}}

# format -> (file name, text, tool-relative pointer -> the text its line starts with)
CASES = {
    "anthropic": ("a.json", _pretty({"tools": [{
        "input_schema": SCHEMA, "name": "search", "description": "Search the docs."}]}),
        {"/name": '"name"', "/description": '"description": "Search'}),
    "openai-chat": ("c.json", _pretty({"tools": [{"type": "function", "function": {
        "parameters": SCHEMA, "name": "search", "description": "Search the docs.", "strict": True}}]}),
        {"/name": '"name"', "/description": '"description": "Search', "/strict": '"strict"'}),
    "openai-responses": ("r.json", _pretty([{
        "type": "function", "parameters": SCHEMA, "name": "search", "description": "Search.",
        "strict": True}]),
        {"/name": '"name"', "/description": '"description": "Search', "/strict": '"strict"'}),
    "function": ("f.json", _pretty({"functions": [{
        "parameters": SCHEMA, "name": "search", "description": "Search the docs."}]}),
        {"/name": '"name"', "/description": '"description": "Search'}),
    "mcp": ("m.json", _pretty({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{
        "inputSchema": SCHEMA, "name": "search", "title": "Search", "description": "Search the docs.",
        "annotations": {"title": "Search", "readOnlyHint": True}, "outputSchema": SCHEMA}]}}),
        {"/name": '"name"', "/description": '"description": "Search', "/title": '"title"',
         "/annotations/readOnlyHint": '"readOnlyHint"', "/outputSchema/properties/q": '"q"'}),
    "gemini": ("g.json", _pretty({"tools": [{"functionDeclarations": [{
        "parameters": SCHEMA, "name": "search", "description": "Search the docs."}]}]}),
        {"/name": '"name"', "/description": '"description": "Search'}),
}
# The record's `title` comes before the annotations' one; the input schema's `q` before the output schema's.


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_a_record_key_has_its_own_line_in_json(fmt: str) -> None:
    path, text, keys = CASES[fmt]
    tool, lines = _lines(path, text, (*keys, "", "/nowhere"))
    assert tool.format == fmt
    assert tool.line == text.count("\n", 0, tool.offset) + 1  # the tool's own line: its record's brace
    for pointer, needle in keys.items():
        nth = 2 if pointer == "/outputSchema/properties/q" else 1  # the input schema's `q` comes first
        assert lines[pointer] == _line(text, needle, nth), pointer
    assert lines[""] == lines["/nowhere"] == tool.line


def test_a_missing_description_stays_on_the_tools_first_line() -> None:
    text = _pretty({"tools": [{"input_schema": SCHEMA, "name": "search"}]})
    tool, lines = _lines("t.json", text, ("/description", "/annotations/readOnlyHint"))
    assert lines == {"/description": tool.line, "/annotations/readOnlyHint": tool.line}


def test_jsonl_a_record_key_is_on_the_records_own_line() -> None:
    records = [{"name": f"t{i}", "description": "Do it.", "parameters": SCHEMA} for i in range(3)]
    text = "".join(json.dumps(r) + "\n" for r in records)
    data = text.encode()
    tools = parse_bytes("t.jsonl", data).tools
    wanted = [(t, p) for t in tools for p in ("/name", "/description", "/title")]
    assert _Locations({"t.jsonl": data}).lines(wanted) == [1, 1, 1, 2, 2, 2, 3, 3, 3]


@pytest.mark.parametrize("wrapped", [False, True])
def test_yaml_a_record_key_has_its_own_line(wrapped: bool) -> None:
    if wrapped:  # OpenAI Chat: the keys sit under `function`
        text = ("tools:\n  - type: function\n    function:\n      parameters: {type: object}\n"
                "      name: search\n      strict: true\n      description: Search the docs.\n")
    else:
        text = ("tools:\n  - input_schema: {type: object}\n    annotations:\n      readOnlyHint: true\n"
                "    name: search\n    strict: true\n    description: Search the docs.\n")
    tool, lines = _lines("t.yaml", text, ("/name", "/description", "/strict", "", "/title"))
    assert tool.line == 2
    assert lines == {"/name": 5, "/description": 7, "/strict": 6, "": 2, "/title": 2}


def test_a_key_written_twice_in_the_record_is_found_by_the_full_walk() -> None:
    # The record repeats a key: the first `name` in it need not be the one kept, so the walk reads it all.
    text = ('[{"type": "function",\n "function": {"name": "lost",\n  "parameters": {"type": "object"},\n'
            '  "name": "search", "description": "Search the docs."},\n "type": "function"}]\n')
    tool, lines = _lines("t.json", text, ("/name", "/description", "/type"))
    assert tool.name == "search" and tool.line == 1
    assert lines == {"/name": 4, "/description": 4, "/type": 5}


def test_duplicate_description_sits_on_the_description_kept() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("duplicate-keys.json", "duplicate-keys.yaml"):
            (Path(tmp) / name).write_bytes((HOSTILE / name).read_bytes())
        report = run_check(WorktreeSource(Path(tmp)), Config.default())
    found = {f.file: f for f in report.findings if f.code == "duplicate-key"}
    assert found["duplicate-keys.json"].pointer == "/description"
    assert found["duplicate-keys.json"].line == 7
    assert found["duplicate-keys.yaml"].line == 5
    tools = {(t.file, t.line) for t in report.tools}
    assert tools == {("duplicate-keys.json", 3), ("duplicate-keys.yaml", 2)}  # the tools' own lines stay


def test_invalid_name_sits_on_the_name() -> None:
    text = _pretty({"tools": [{"type": "function", "function": {
        "description": "Search the docs for a query.", "parameters": SCHEMA, "name": "search docs"}}]})
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "t.json").write_text(text, encoding="utf-8")
        report = run_check(WorktreeSource(Path(tmp)), Config.default())
    (found,) = [f for f in report.findings if f.code == "invalid-name"]
    assert found.pointer == "/name" and found.line == _line(text, '"name"')


def test_a_record_with_many_findings_gets_each_line_from_one_index_of_its_keys() -> None:
    """Many properties asked in one tool: their lines come from the record's keys indexed once (a search per
    finding grew with the square of the record) and agree with the one-by-one walk; a name also met inside
    a string ("p1" in the description) is still the key."""
    from tooldiff.positions import KEY_INDEX_FROM

    n = KEY_INDEX_FROM * 10
    props = ",\n".join(f'      "p{i}": {{"type": "string"}}' for i in range(n))
    text = ('[{"name": "wide", "description": "Set \\"p1\\": to one; p2 too.",\n  "input_schema": {\n'
            '    "type": "object",\n    "properties": {\n' + props + '\n    }\n  }\n}]\n')
    pointers = tuple(f"/input_schema/properties/p{i}" for i in range(n))
    _, got = _lines("t.json", text, pointers)
    assert got == {p: 5 + i for i, p in enumerate(pointers)}
