"""Bad and hostile input: each is exactly one ParseError with file and line, never an exception."""

from __future__ import annotations

import time

import pytest

from tooldiff.parsers import parse_bytes

GOOD_TOOL = b'{"name": "ok", "description": "fine", "input_schema": {"type": "object"}}'


def one_error(path: str, data: bytes, **kw: int) -> tuple[int, str]:
    result = parse_bytes(path, data, **kw)
    assert result.tools == ()
    assert len(result.errors) == 1, result.errors
    (error,) = result.errors
    assert error.file == path
    return error.line, error.message


@pytest.mark.parametrize(
    ("path", "data", "line"),
    [
        ("a.json", b'{"tools": [\n  {"name": "x",\n   "input_schema": {]\n]}', 3),
        ("a.json", b'{"tools": []}\n{"tools": [', 2),
        ("a.json", b"[1, 2,]\n", 1),
        ("a.json", b'{"a": NaN}', 1),
        ("a.json", b"", 1),
        ("a.yaml", b"tools:\n  - name: x\n    input_schema: {type: object\n  - name: y\n", 4),
        ("a.yaml", b"a: b\n c: d\n", 2),
        ("a.yaml", b"tools: [\n", 1),  # the file has one line: PyYAML points past it
    ],
)
def test_malformed_json_and_yaml(path: str, data: bytes, line: int) -> None:
    got_line, message = one_error(path, data)
    assert got_line == line
    assert message.startswith(("invalid JSON", "invalid YAML"))


def test_truncated_at_every_position_never_raises() -> None:
    text = b'{"tools": [{"name": "a", "description": "d\xc3\xa9", "input_schema": {"type": "object"}}]}'
    for cut in range(len(text)):
        result = parse_bytes("t.json", text[:cut])
        assert result.tools == () and len(result.errors) == 1
        assert 1 <= result.errors[0].line <= 1


def test_jsonl_bad_line_is_reported_and_other_lines_kept() -> None:
    data = GOOD_TOOL + b"\n{oops\n" + GOOD_TOOL + b"\n"
    result = parse_bytes("t.jsonl", data)
    assert [t.line for t in result.tools] == [1, 3]
    assert [(e.line, e.message[:25]) for e in result.errors] == [(2, "invalid JSON on line 2: E")]


def test_not_utf8() -> None:
    assert one_error("t.json", b'{"name": "caf\xe9"}')[1].startswith("not UTF-8")
    assert one_error("t.json", b'{\n\n"name": "\xff"}')[0] == 3


def test_utf16_bom() -> None:
    data = '{"name": "x", "input_schema": {}}'.encode("utf-16")
    line, message = one_error("t.json", data)
    assert (line, message.startswith("not UTF-8")) == (1, True)


def test_utf8_bom_is_fine() -> None:
    assert [t.name for t in parse_bytes("t.json", b"\xef\xbb\xbf" + GOOD_TOOL).tools] == ["ok"]


def test_nul_byte() -> None:
    line, message = one_error("t.json", b'{"name": "x",\n"input_schema": {"a": "\x00"}}')
    assert line == 2 and "NUL" in message


def test_over_size_limit() -> None:
    line, message = one_error("t.json", GOOD_TOOL, max_bytes=10)
    assert line == 1 and "over the limit" in message


@pytest.mark.parametrize("path", ["deep.json", "deep.jsonl"])
def test_nesting_100k_deep(path: str) -> None:
    start = time.monotonic()
    line, message = one_error(path, b"[" * 100_000 + b"]" * 100_000)
    assert line == 1 and "too deep" in message
    assert time.monotonic() - start < 10


def test_nesting_100k_deep_yaml() -> None:
    start = time.monotonic()
    line, message = one_error("deep.yaml", b"[" * 100_000 + b"]" * 100_000)
    assert line == 1 and "nesting" in message
    assert time.monotonic() - start < 10


def test_yaml_alias_bomb() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    start = time.monotonic()
    line, message = one_error("bomb.yaml", "\n".join(lines).encode())
    assert "out of proportion" in message
    assert 1 <= line <= 10
    assert time.monotonic() - start < 10


def test_yaml_aliases_of_a_long_string_are_a_bomb_too() -> None:
    """One 400 KB string aliased by 2,000 tools is 1.6 GB of text from a 625 KB file (335 s in the Action):
    the text an alias repeats counts, not only its nodes."""
    long = "x" * 400_000
    tools = "\n".join(f"  - {{name: t{i}, description: *s}}" for i in range(2_000))
    data = f"s: &s {long}\ntools:\n{tools}\n".encode()
    line, message = one_error("bomb.yaml", data)
    assert line == 3  # the list whose items repeat the string past the limit
    assert "out of proportion" in message and "characters" in message


def test_yaml_modest_aliases_are_fine() -> None:
    data = b"x: &s {type: string}\ntools:\n  - name: a\n    input_schema: {properties: {p: *s}}\n"
    (tool,) = parse_bytes("t.yaml", data).tools
    assert tool.input_schema["properties"]["p"] == {"type": "string"}


def test_yaml_recursive_alias() -> None:
    _, message = one_error("t.yaml", b"a: &x\n  b: *x\n")
    assert "cycle" in message or "invalid YAML" in message


def test_yaml_unhashable_key() -> None:
    one_error("t.yaml", b"? [a, b]\n: c\n")


def test_json_duplicate_keys_last_wins_like_every_json_parser() -> None:
    (tool,) = parse_bytes("t.json", b'[{"name": "a", "name": "b", "parameters": {}}]').tools
    assert tool.name == "b"


def test_long_name_and_odd_characters() -> None:
    name = "x" * 5000
    data = ('[{"name": "' + name + '", "parameters": {}}]').encode()
    (tool,) = parse_bytes("we ird\nname ü.json", data).tools
    assert tool.name == name and tool.file == "we ird\nname ü.json"


def test_many_tools_file() -> None:
    body = ",\n".join(f'{{"name": "t{i}", "input_schema": {{"type": "object"}}}}' for i in range(10_000))
    start = time.monotonic()
    result = parse_bytes("many.json", ("[\n" + body + "\n]").encode())
    assert len(result.tools) == 10_000 and result.tools[-1].line == 10_001
    assert time.monotonic() - start < 10


def test_lone_surrogate_escape() -> None:
    line, message = one_error("t.json", b'[\n{"name": "\\ud800x", "parameters": {}}]')
    assert line == 2 and "lone surrogate" in message
    (tool,) = parse_bytes("t.json", b'[{"name": "\\ud83d\\ude00", "parameters": {}}]').tools  # a valid pair
    assert tool.name == "\U0001f600"


def test_huge_integer() -> None:
    data = b'[{"name": "a", "parameters": {"default": ' + b"9" * 5000 + b"}}]"
    assert "invalid JSON" in one_error("t.json", data)[1]


def test_jsonl_lone_surrogate_is_one_bad_line() -> None:
    data = GOOD_TOOL + b"\n" + b'{"name": "bad\\udc00", "parameters": {}}\n' + GOOD_TOOL + b"\n"
    result = parse_bytes("t.jsonl", data)
    assert [t.line for t in result.tools] == [1, 3]
    assert [(e.line, "lone surrogate" in e.message) for e in result.errors] == [(2, True)]


def test_json_file_of_json_lines_keeps_good_lines() -> None:
    data = GOOD_TOOL + b"\n" + GOOD_TOOL + b"\n{oops\n" + GOOD_TOOL + b"\n"
    result = parse_bytes("t.json", data)
    assert [t.line for t in result.tools] == [1, 2, 4]
    assert [e.line for e in result.errors] == [3]
    # Pretty-printed JSON with something after it is not JSON Lines: one error where the extra data is.
    line, message = one_error("t.json", b'[\n 1,\n 2\n]\n]\n')
    assert (line, message.startswith("invalid JSON: Extra data")) == (5, True)


def test_lone_surrogate_line_is_the_offending_escape() -> None:
    data = (b'[\n{"name": "a\\ud83d\\ude00", "parameters": {}},\n{"name": "b\\\\ud800", "parameters": {}},\n'
            b'{"name": "c\\udc00", "parameters": {}}]')
    line, message = one_error("t.json", data)
    assert line == 4 and "lone surrogate" in message
    assert one_error("t.json", b'[\n"\\ud800\\ud800\\udc00"\n]')[0] == 2


NINES = "9" * 5000  # over Python's 4300-digit limit for int()


@pytest.mark.parametrize(
    ("path", "text", "line"),
    [
        ("t.json", '[\n {"name": "a", "description": "NaN Infinity",\n  "parameters": {"default": NaN}}]', 3),
        ("t.json", '{\n "name": "a",\n "parameters": {"maximum": -Infinity}\n}', 3),
        ("t.json", f'{{\n "name": "a", "description": "{NINES}",\n "parameters": {{"x": 1.{NINES},\n'
                   f'  "default": {NINES}}}\n}}', 4),
        ("t.yaml", f"tools:\n  - name: a\n    input_schema:\n      maximum: {NINES}\n", 4),
        # Written in hex, binary, octal or base 60, a YAML integer escapes the decimal limit when read and
        # failed later, as text: a traceback in schemaHash, or in config validation
        ("t.yaml", "tools:\n  - name: a\n    input_schema:\n      maxLength: 0x" + "f" * 3600 + "\n", 4),
        ("t.yaml", "tools:\n  - name: a\n    input_schema:\n      maxLength: 0b" + "1" * 15000 + "\n", 4),
        ("t.yaml", "tools:\n  - name: a\n    input_schema:\n      maxLength: 0" + "7" * 5000 + "\n", 4),
        ("t.yaml", "tools:\n  - name: a\n    input_schema:\n      maxLength: 1" + ":59" * 2500 + "\n", 4),
        ("t.yaml", "tools:\n  - name: a\n    input_schema:\n      ? 0x" + "f" * 4000 + "\n      : 1\n", 4),
    ],
    ids=["nan", "infinity", "long-int-json", "long-int-yaml", "hex", "binary", "octal", "sexagesimal",
         "hex-key"],
)
def test_refused_values_are_reported_on_their_line(path: str, text: str, line: int) -> None:
    got, message = one_error(path, text.encode())
    assert got == line and message.startswith(("invalid JSON", "invalid YAML"))


@pytest.mark.parametrize(("path", "data", "line"), [
    ("tools.json", b'\n{"jsonrpc": "2.0", "id": 1,\n "error": {"code": -32601, '
                   b'"message": "Method not found"}}', 2),
    ("tools.yaml", b'jsonrpc: "2.0"\nid: 1\nerror: {code: -32601, message: Method not found}\n', 1),
    ("tools.jsonl", GOOD_TOOL + b'\n{"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, '
                                b'"message": "Method not found"}}\n', 2),
])
def test_a_json_rpc_error_response_is_a_failed_capture(path: str, data: bytes, line: int) -> None:
    # A captured tools/list that failed is not a file without tools: a diff would read every tool removed.
    result = parse_bytes(path, data)
    (error,) = result.errors
    assert error.line == line
    assert "JSON-RPC error response (-32601 Method not found), not a tools/list result" in error.message
    assert not parse_bytes("r.json", b'{"jsonrpc": "2.0", "id": 1, "result": {"content": []}}').errors


@pytest.mark.parametrize(("path", "data"), [
    ("t.json", b'{"tools": [\n  null,\n  5,\n  "x",\n  ' + GOOD_TOOL + b'\n]}'),
    ("t.yaml", b'tools:\n  - null\n  - 5\n  - x\n'
               b'  - {name: ok, description: fine, input_schema: {type: object}}\n'),
])
def test_an_item_of_a_tool_list_that_is_not_an_object_is_reported(path: str, data: bytes) -> None:
    # A provider refuses the request ("tools.0: Input should be a valid dictionary"); the tools are kept.
    parsed = parse_bytes(path, data)
    assert [t.name for t in parsed.tools] == ["ok"]
    assert [(e.line, e.message) for e in parsed.errors] == [
        (2, "item /tools/0 of a tool list is null, not a tool object"),
        (3, "item /tools/1 of a tool list is a number, not a tool object"),
        (4, "item /tools/2 of a tool list is a string, not a tool object"),
    ]


def test_lists_that_are_not_tool_lists_may_hold_anything() -> None:
    assert not parse_bytes("t.json", b'{"tools": ["a", "b"], "x": [null, ' + GOOD_TOOL + b']}').errors


def test_a_file_that_is_one_list_reports_its_items_that_are_not_objects() -> None:
    parsed = parse_bytes("t.json", b"[\n  " + GOOD_TOOL + b',\n  "oops",\n  null\n]')
    assert [t.name for t in parsed.tools] == ["ok"]
    assert [(e.line, e.message) for e in parsed.errors] == [
        (3, "item /1 of a tool list is a string, not a tool object"),
        (4, "item /2 of a tool list is null, not a tool object"),
    ]


def test_a_file_of_broken_lines_reports_the_first_hundred_and_counts_the_rest() -> None:
    """2,000,000 lines of `{` made 2,000,000 findings (1.7 GB and 43 s in the Action): the first lines say
    what is wrong, a count says how much more, and the good lines are still read."""
    from tooldiff.parsers.load import MAX_ERRORS_PER_FILE

    data = GOOD_TOOL + b"\n" + b"{\n" * (MAX_ERRORS_PER_FILE + 400) + GOOD_TOOL + b"\n"
    result = parse_bytes("t.jsonl", data)
    assert len(result.tools) == 2
    assert len(result.errors) == MAX_ERRORS_PER_FILE + 1
    last = result.errors[-1]
    assert last.line == MAX_ERRORS_PER_FILE + 2 and "400 more lines" in last.message


ODD = 'x: "a\u2028b\u2029c\x85d"\n'  # one line of the file; PyYAML's marks count four


@pytest.mark.parametrize(("text", "line"), [
    (ODD + "tools:\n  - name: t\n   description: T\n    input_schema: {}\n", 4),  # a syntax error
    (ODD + "tools:\n  - name: t\n    input_schema: &x\n      a: *x\n", 4),  # an alias cycle
    (ODD + "tools:\n  - name: t\n    input_schema:\n      maxLength: 0x" + "f" * 3600 + "\n", 5),
    (ODD.replace("\x85", "\r") + "y: 1\n" * 3 + "a: b\n c: d\n", 6),  # a lone CR
], ids=["syntax", "cycle", "long-int", "lone-cr"])
def test_yaml_error_lines_count_only_newlines(text: str, line: int) -> None:
    """U+2028, U+2029, NEL and a lone CR are line breaks to PyYAML's marks, not to the file's readers."""
    # Lines past the error: a shifted line past the end would be cut back to the last line, hiding it.
    got, message = one_error("t.yaml", (text + "# more\n" * 5).encode())
    assert got == line, message


def test_a_json_rpc_error_document_is_on_its_line_past_odd_breaks() -> None:
    data = ('tools:\n  - name: a\n    description: "x\u2028y\u2028z"\n    input_schema: {}\n---\n'
            'jsonrpc: "2.0"\nerror: {code: -32601, message: Method not found}\n').encode()
    (error,) = parse_bytes("t.yaml", data).errors
    assert error.line == 6
