"""Pointer -> line: the structural walk, the fast parse, the lazy Locator, YAML marks."""

from __future__ import annotations

import json
import time

import pytest

from tooldiff.model import Tool
from tooldiff.parsers import parse_bytes
from tooldiff.parsers.fastjson import FastJson
from tooldiff.parsers.load import FAST_DEPTH
from tooldiff.positions import JsonSpans, LineIndex, Locator, split_pointer, to_pointer

TEXT = '{\n "a": [\n  1,\n  {"b": {"c~/d": [true, null]}},\n  "x"\n ],\n "a": [0, {"b": 2}]\n}\n'


def test_pointer_escaping_round_trips() -> None:
    path = ("a/b", "c~d", "", "0")
    assert to_pointer(path) == "/a~1b/c~0d//0"
    assert split_pointer(to_pointer(path)) == path
    assert split_pointer("") == ()


def test_spans_follow_json_loads_on_duplicate_keys() -> None:
    # json.loads keeps the last "a"; positions must point at that one too.
    spans = JsonSpans(TEXT).spans([("a", "1", "b"), ("a",)])
    index = LineIndex(TEXT)
    assert index.line(spans[("a",)][0]) == 7
    assert index.line(spans[("a", "1", "b")][0]) == 7
    assert json.loads(TEXT)["a"][1]["b"] == 2


def test_locator_json() -> None:
    text = TEXT.replace('\n "a": [0, {"b": 2}]', "").replace("],", "]").encode()
    loc = Locator("x.json", text)
    assert [loc.line(p) for p in ("", "/a", "/a/0", "/a/1/b/c~0~1d/1", "/a/2", "/a/3", "/b")] == [
        1, 2, 3, 4, 5, None, None]


def test_locator_on_a_scalar_or_bad_index_is_none() -> None:
    loc = Locator("x.json", b'{"a": 1, "l": [1]}')
    assert loc.line("/a/b") is None and loc.line("/l/x") is None and loc.line("/l/-1") is None


def test_locator_yaml_points_at_the_key() -> None:
    text = b"tools:\n  - name: a\n    input_schema:\n      properties:\n        x: {type: string}\n"
    loc = Locator("t.yml", text)
    schema = "/tools/0/input_schema"
    pointers = ("/tools", "/tools/0", schema, f"{schema}/properties/x", "/tools/1")
    assert [loc.line(p) for p in pointers] == [1, 2, 3, 5, None]


def test_locator_yaml_follows_merge_keys_to_where_a_key_is_written() -> None:
    text = (b"x-paging: &paging\n"                 # 1
            b"  limit: {type: integer}\n"           # 2
            b"tools:\n"                             # 3
            b"  - name: a\n"                        # 4
            b"    input_schema:\n"                  # 5
            b"      type: object\n"                 # 6
            b"      properties:\n"                  # 7
            b"        <<: *paging\n"                # 8
            b"        query: {type: string}\n"      # 9
            b"        limit: {type: number}\n")     # 10: written here, it wins over the merged one
    loc = Locator("t.yaml", text)
    props = "/tools/0/input_schema/properties"
    assert [loc.line(f"{props}/{k}") for k in ("query", "limit")] == [9, 10]
    merged = text.replace(b"        limit: {type: number}\n", b"")
    assert Locator("t.yaml", merged).line(f"{props}/limit") == 2


def test_locator_on_broken_yaml_is_none() -> None:
    assert Locator("t.yaml", b"a: [\n").line("/a") is None


def test_locator_jsonl() -> None:
    loc = Locator("t.jsonl", b'{"a": 1}\n\n{"a": {"b": 2}}\n')
    assert [loc.line(p) for p in ("/0/a", "/2/a/b", "/2/c", "/1", "/7")] == [1, 3, None, None, None]


def test_fast_parse_equals_json_loads_and_records_item_spans() -> None:
    value = {"x": [{"name": "a"}, [1, {"y": [2, 3]}], "s"], "z": {"w": [{"tools": [{"k": 1}]}]}}
    text = json.dumps(value, indent=2)
    fast = FastJson(text, lambda item: "name" not in item, FAST_DEPTH, json.JSONDecoder())
    assert fast.parse() == json.loads(text)
    lines = text.split("\n")
    first, last = fast.lines(("z", "w", "0", "tools", "0")) or (0, 0)
    assert json.loads("\n".join(lines[first - 1 : last])) == {"k": 1}
    assert fast.lines(("x", "1", "1")) is not None and fast.lines(("x", "9")) is None
    assert fast.lines(()) == (1, len(lines))


def test_fast_parse_rejects_what_json_rejects() -> None:
    for bad in ('{"a": 1,}', "[1 2]", '{"a" 1}', "[1] x", '{"a": [1}'):
        with pytest.raises((ValueError, StopIteration, IndexError)):
            FastJson(bad, lambda item: True, FAST_DEPTH, json.JSONDecoder()).parse()


def test_tools_deeper_than_the_fast_walk_still_get_exact_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    import tooldiff.parsers.load as load

    deep = [{"name": "deep", "input_schema": {}}, {"name": "x", "input_schema": {}}]
    value = {"functions": [{"name": "top", "parameters": {}}], "a": {"b": {"c": {"tools": deep}}}}
    text = json.dumps(value, indent=1)
    expected = [(t.name, t.line, t.end_line) for t in parse_bytes("d.json", text.encode()).tools]
    monkeypatch.setattr(load, "FAST_DEPTH", 1)  # positions now come from the structural walk
    slow = [(t.name, t.line, t.end_line) for t in parse_bytes("d.json", text.encode()).tools]
    assert slow == expected
    lines = text.split("\n")
    assert [n for n, *_ in slow] == ["top", "deep", "x"]
    for name, line, end in slow:
        assert f'"{name}"' in lines[line] and lines[end - 1].strip().startswith("}")


def test_locator_is_linear_over_many_findings() -> None:
    schema = {"properties": {"p": {"type": "string"}}}
    tools = [{"name": f"t{i}", "parameters": schema} for i in range(10_000)]
    text = json.dumps(tools, indent=1).encode()
    loc = Locator("big.json", text)
    start = time.monotonic()
    lines = [loc.line(f"/{i}/parameters/properties/p") for i in range(0, 10_000)]
    assert time.monotonic() - start < 10
    source = text.decode().split("\n")
    assert all(source[n - 1].strip().startswith('"p"') for n in lines[::500] if n is not None)
    assert None not in lines


def test_tool_records_know_where_they_start_and_their_findings_lines_match_the_file_walk() -> None:
    from tooldiff.engine import _Locations

    tools = [
        {"type": "function", "function": {"name": f"t{i}", "description": "Do it.", "parameters": {
            "type": "object", "properties": {"a": {"type": "str"}, "b": {"type": "string"}}}}}
        for i in range(4)
    ]
    text = json.dumps({"tools": tools}, indent=2)
    data = text.encode()
    parsed = parse_bytes("t.json", data).tools
    assert len(parsed) == 4
    for tool in parsed:
        assert tool.offset >= 0 and text[tool.offset] == "{"
        assert json.JSONDecoder().raw_decode(text, tool.offset)[0]["function"]["name"] == tool.name
    pointers = ("/input_schema/properties/a/type", "/input_schema/properties/b",
                "/input_schema/properties/nowhere", "/description")
    wanted = [(t, p) for t in parsed for p in pointers]
    fast = _Locations({"t.json": data}).lines(wanted)
    assert fast == _file_walk_lines(data, wanted)
    assert len(set(fast)) > 4  # property lines, not just the tools' own


def test_findings_on_properties_keep_their_lines_whatever_else_the_record_holds() -> None:
    # The record walk jumps to a property whose name is a key only once in the record; everything else
    # (a name used twice, a duplicate key, \u escapes, a name JSON may escape) must still give the line
    # the full walk of the file gives, and the record's end must be where its text ends.
    from tooldiff.engine import _Locations

    def tool(name: str, props: str) -> str:
        return f'{{"name": "{name}", "description": "Do it.",\n "input_schema": {{"type": "object",\n' \
               f' "properties": {{{props}}}}}}}'

    records = [
        tool("plain", '\n"a": {"type": "str"},\n"b": {"type": "string"}'),
        tool("nested", '\n"a": {"type": "object", "properties": {\n"b": {"type": "str"}}},\n'
                       '"b": {"type": "x"}'),
        tool("twice", '\n"b": {"type": "str"},\n"a": {"type": "int"},\n"b": {"type": "float"}'),
        tool("escaped", '\n"\\u0061": {"type": "str"},\n"b": {"type": "str", "description": "caf\\u00e9"}'),
        tool("odd", '\n"a/b": {"type": "str"},\n"a\\"q": {"type": "int"},\n"b": {"type": "str"}'),
        tool("quoted", '\n"a": {"type": "str", "description": "use \\"b\\": 1"},\n"b": {"type": "int"}'),
    ]
    text = "[\n" + ",\n".join(records) + "\n]\n"
    data = text.encode()
    parsed = parse_bytes("t.json", data).tools
    assert [t.name for t in parsed] == ["plain", "nested", "twice", "escaped", "odd", "quoted"]
    for t in parsed:
        value, end = json.JSONDecoder().raw_decode(text, t.offset)
        assert value["name"] == t.name and end == t.end_offset
    pointers = ("/input_schema/properties/a/type", "/input_schema/properties/b",
                "/input_schema/properties/b/type", "/input_schema/properties/a/properties/b/type",
                "/input_schema/properties/a~1b/type", '/input_schema/properties/a"q/type')
    wanted = [(t, p) for t in parsed for p in pointers]
    fast = _Locations({"t.json": data}).lines(wanted)
    assert fast == _file_walk_lines(data, wanted)
    lines = text.split("\n")
    twice_b = fast[next(k for k, (t, p) in enumerate(wanted) if t.name == "twice" and p.endswith("/b"))]
    assert '"float"' in lines[twice_b - 1]  # the last of a duplicate key, as json.loads keeps it


def _file_walk_lines(data: bytes, wanted: list[tuple[Tool, str]]) -> list[int]:
    """The line of each (tool, pointer) the slow way: the file walk of `Locator.line` from the top, and the
    nearest ancestor that has a line (a record key: in the body, then the record), else the tool's own."""
    from tooldiff.engine import _Locations

    loc = Locator("t.json", data)
    out = []
    for tool, pointer in wanted:
        chain = _Locations._candidates(tool, pointer)
        line = next((n for n in map(loc.line, chain) if n is not None), None)
        out.append(tool.line if line is None else line)
    return out


def test_many_findings_below_one_property_walk_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # 300 anyOf branches of 10 undescribed keys under one property `q`, the only key written once: each of
    # the 3,000 findings was found by a walk of all of `q` from its key, 3,000 x 300 branches (a 150 KB file
    # took 11 s). The findings below one key share one walk.
    import tooldiff.positions as positions
    from tooldiff.engine import _Locations

    branches = [{"type": "object", "properties": {f"k{j}": {"type": "string"} for j in range(10)}}
                for _ in range(300)]
    record = {"name": "t", "description": "Do it.", "input_schema": {
        "type": "object", "properties": {"q": {"anyOf": branches}}}}
    data = json.dumps({"tools": [record]}, indent=1).encode()
    (tool,) = parse_bytes("t.json", data).tools
    wanted = [(tool, f"/input_schema/properties/q/anyOf/{i}/properties/k{j}") for i in range(300)
              for j in range(10)]
    calls = 0
    scan = positions._scan_end

    def counted(s: str, i: int) -> int:
        nonlocal calls
        calls += 1
        return scan(s, i)

    monkeypatch.setattr(positions, "_scan_end", counted)
    fast = _Locations({"t.json": data}).lines(wanted)
    assert calls < 10 * len(branches)
    monkeypatch.setattr(positions, "_scan_end", scan)
    assert fast[::97] == _file_walk_lines(data, wanted[::97])


def test_yaml_locator_reads_each_mapping_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A YAML tool of 2,000 undescribed properties: each finding's line read every key of `properties`
    # again, with the square of their count (8,000 took 17 s). One read of a mapping serves every lookup.
    import tooldiff.positions as positions

    text = "name: t\ninput_schema:\n  type: object\n  properties:\n" + "".join(
        f"    p{i}:\n      type: string\n" for i in range(2000))
    calls = 0
    loaded = positions._loaded_key

    def counted(key: object) -> tuple[object, str]:
        nonlocal calls
        calls += 1
        return loaded(key)  # type: ignore[arg-type]

    monkeypatch.setattr(positions, "_loaded_key", counted)
    loc = Locator("t.yaml", text.encode())
    lines = [loc.line(f"/input_schema/properties/p{i}") for i in range(2000)]
    assert lines[::500] == [5, 1005, 2005, 3005]
    assert loc.line("/input_schema/properties/p1999/type") == 4004
    assert calls < 10 * 2000


def test_jsonl_locator_walks_each_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # JSONL tools of 300 undescribed properties each: every finding's line walked its whole line again, with
    # the square of the properties (8,000 took 68 s). A line's findings share one walk.
    import tooldiff.positions as positions

    lines = [json.dumps({"name": f"t{n}", "input_schema": {"type": "object", "properties": {
        f"p{i}": {"type": "string"} for i in range(300)}}}) for n in range(2)]
    pointers = [f"/{n}/input_schema/properties/p{i}" for n in range(2) for i in range(300)]
    calls = 0
    scan = positions._scan_value

    def counted(s: str, i: int) -> tuple[object, int]:
        nonlocal calls
        calls += 1
        return scan(s, i)  # type: ignore[no-any-return]

    monkeypatch.setattr(positions, "_scan_value", counted)
    loc = Locator("t.jsonl", ("\n".join(lines) + "\n").encode())
    found = loc.lines([*pointers, "/1/input_schema/properties/nowhere", "/7/name", "/x"])
    assert calls < 10 * len(pointers)
    assert [found[p] for p in pointers] == [1] * 300 + [2] * 300
    assert found["/1/input_schema/properties/nowhere"] is None and found["/7/name"] is None
    monkeypatch.setattr(positions, "_scan_value", scan)
    assert Locator("t.jsonl", ("\n".join(lines) + "\n").encode()).line(pointers[-1]) == 2
