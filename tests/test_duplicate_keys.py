"""duplicate-key: a key written twice in one object of a tool's definition, whose first value every parser
drops without a word (JSON, JSON Lines and YAML alike); the file is still analysed."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.model import Finding
from tooldiff.parsers import parse_bytes
from tooldiff.sources import WorktreeSource

SCHEMA_TWICE = """\
{"tools": [
  {"name": "list_orders", "description": "List the orders of one customer.",
   "input_schema": {"type": "object", "properties": {"customer_id": {"type": "string"}}}},
  {
    "name": "refund_order",
    "description": "Refund one order in full.",
    "input_schema": {
      "type": "object",
      "properties": {
        "order_id": {"type": "string", "description": "The order."},
        "amount": {"type": "integer", "description": "Cents to refund.",
                   "type": "string"}
      },
      "required": ["order_id"]
    }
  }
]}
"""


def _findings(files: dict[str, str], code: str = "duplicate-key") -> list[Finding]:
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            (Path(tmp) / name).write_text(text, encoding="utf-8")
        report = run_check(WorktreeSource(Path(tmp)), Config.default())
    return [f for f in report.findings if f.code == code]


def test_a_schema_key_written_twice_is_reported_at_the_kept_one_and_the_file_still_analysed() -> None:
    (found,) = _findings({"tools.json": SCHEMA_TWICE})
    assert found.severity == "error" and found.tools == ("refund_order",)
    assert found.pointer == "/input_schema/properties/amount/type"
    assert found.line == 12  # the last "type", the one every parser keeps
    assert '"type"' in found.message and "2 times" in found.message
    assert found.evidence == {"key": "type", "times": 2, "object": "/input_schema/properties/amount"}
    parsed = parse_bytes("tools.json", SCHEMA_TWICE.encode())
    assert not parsed.errors and [t.name for t in parsed.tools] == ["list_orders", "refund_order"]
    amount = parsed.tools[1].input_schema["properties"]["amount"]
    assert amount["type"] == "string"  # what the model is sent


def test_record_keys_twice_in_json_jsonl_and_yaml() -> None:
    record = ('{"name": "send_email", "description": "Send one email.", "parameters": {"type": "object"}, '
              '"description": "Send to everyone."}')
    yaml_text = ("tools:\n  - name: send_email\n    description: Send one email.\n"
                 "    input_schema: {type: object}\n    description: Send to everyone.\n")
    for path, text in (("a.json", f"[{record}]"), ("b.jsonl", record + "\n"), ("c.yaml", yaml_text)):
        (found,) = _findings({path: text})
        assert found.pointer == "/description" and found.file == path, path
        assert found.evidence == {"key": "description", "times": 2, "object": ""}, path


def test_yaml_duplicates_no_longer_hide_the_file() -> None:
    text = ("tools:\n  - name: a_tool\n    description: First.\n    input_schema:\n      type: object\n"
            "      properties:\n        q: {type: string}\n        q: {type: integer}\n")
    parsed = parse_bytes("t.yaml", text.encode())
    assert not parsed.errors and [t.name for t in parsed.tools] == ["a_tool"]
    (found,) = _findings({"t.yaml": text})
    assert found.pointer == "/input_schema/properties/q" and found.line == 8
    assert not _findings({"t.yaml": text}, "parse-error")


def test_yaml_merge_keys_are_not_duplicates() -> None:
    text = ("base: &b {type: string}\ntools:\n  - name: a_tool\n    description: First.\n"
            "    input_schema:\n      type: object\n      properties:\n"
            "        q: {<<: *b, description: Q.}\n        r:\n          <<: *b\n          <<: {title: R}\n")
    assert _findings({"t.yaml": text}) == []
    parsed = parse_bytes("t.yaml", text.encode())
    assert not parsed.errors
    assert parsed.tools[0].input_schema["properties"]["r"] == {"type": "string", "title": "R"}


def test_outside_any_tool_record_is_not_reported() -> None:
    text = '{"meta": {"v": 1, "v": 2}, "tools": [{"name": "a_tool", "description": "First tool here."}]}'
    assert _findings({"t.json": text}) == []


def test_deeper_than_the_fast_parse_and_in_wrapped_records() -> None:
    deep: dict[str, Any] = {"type": "object", "properties": {}}
    node = deep
    for k in range(12):
        child: dict[str, Any] = {"type": "object", "properties": {}}
        node["properties"][f"p{k}"] = child
        node = child
    text = json.dumps({"tools": [{"type": "function", "function": {
        "name": "deep_tool", "description": "Deep.", "parameters": deep}}]}, indent=1)
    at = text.rindex('"properties": {}')  # the innermost object, 13 levels down
    text = text[:at] + '"properties": {}, ' + text[at:]
    (found,) = _findings({"d.json": text})
    assert found.pointer == "/input_schema" + "".join(f"/properties/p{k}" for k in range(12)) + "/properties"


def test_clean_files_carry_nothing() -> None:
    clean = SCHEMA_TWICE.replace(',\n                   "type": "string"', "")
    parsed = parse_bytes("tools.json", clean.encode())
    assert not parsed.errors and len(parsed.tools) == 2
    assert all(t.repeated_keys == () for t in parsed.tools)
    assert _findings({"tools.json": clean}) == []


def test_a_key_holding_tools_written_twice_is_told_once_at_the_first_tool_kept() -> None:
    text = ('{"tools": [{"name": "lost_tool", "description": "Never read by anyone.", "parameters": {}}],\n'
            ' "tools": [{"name": "kept_one", "description": "The first kept tool.", "parameters": {}},\n'
            '           {"name": "kept_two", "description": "The second kept tool.", "parameters": {}}]}\n')
    (found,) = _findings({"t.json": text})
    assert found.tools == ("kept_one",) and found.pointer == "" and found.line == 2
    assert found.evidence == {"key": "tools", "times": 2, "object": "/"}
    assert "dropped" in found.message


def test_yaml_keys_are_compared_as_loaded() -> None:
    """`0x1F` and `31` are one integer key to PyYAML, as `on` and `yes` are one boolean: written twice."""
    text = ("tools:\n  - name: a_tool\n    description: First.\n    input_schema:\n      type: object\n"
            "      properties:\n        q:\n          type: string\n"
            "        lights:\n          type: object\n          properties:\n"
            "            0x1F: {type: string}\n            31: {type: integer}\n"
            "            on: {type: string}\n            yes: {type: string}\n")
    found = sorted((f.pointer, f.line) for f in _findings({"t.yaml": text}))
    assert found == [("/input_schema/properties/lights/properties/31", 13),
                     ("/input_schema/properties/lights/properties/true", 15)]


def test_a_yaml_integer_key_has_its_own_line() -> None:
    text = ("tools:\n  - name: a_tool\n    description: First.\n    input_schema:\n      type: object\n"
            "      properties:\n        0x1F: {type: string}\n")
    (found,) = _findings({"t.yaml": text}, "missing-description")
    assert found.pointer == "/input_schema/properties/31" and found.line == 7


def test_a_yaml_anchor_written_in_a_tool_is_reported_there_whatever_aliases_it_later() -> None:
    text = ("tools:\n  - name: a_tool\n    description: First.\n    input_schema:\n      type: object\n"
            "      properties:\n        when: &when {type: string, type: integer, description: When.}\n"
            "meta:\n  copy: *when\n")
    (found,) = _findings({"t.yaml": text})
    assert found.tools == ("a_tool",) and found.pointer == "/input_schema/properties/when/type"
    assert found.line == 7


def test_every_tool_that_aliases_a_mapping_with_a_repeated_key_is_told() -> None:
    text = ("defs:\n  when: &when {type: string, type: integer, description: When.}\n"
            "tools:\n  - name: a_tool\n    description: First.\n"
            "    input_schema: {type: object, properties: {when: *when}}\n"
            "  - name: b_tool\n    description: Second.\n"
            "    input_schema: {type: object, properties: {at: *when}}\n")
    found = sorted((f.tools, f.pointer, f.line) for f in _findings({"t.yaml": text}))
    assert found == [(("a_tool",), "/input_schema/properties/when/type", 2),
                     (("b_tool",), "/input_schema/properties/at/type", 2)]


def test_a_key_repeated_in_a_mapping_merged_in_by_yaml_is_reported_where_it_is_merged() -> None:
    text = ("tools:\n  - name: a_tool\n    description: First.\n    input_schema:\n      type: object\n"
            "      properties:\n        when:\n          <<: {type: string, type: integer}\n"
            "          description: When.\n        at:\n          <<: {type: string, type: integer}\n"
            "          type: string\n")
    parsed = parse_bytes("t.yaml", text.encode())
    assert parsed.tools[0].input_schema["properties"]["when"]["type"] == "integer"  # what the model gets
    (found,) = _findings({"t.yaml": text})  # `at` writes its own type: the merged ones are not read
    assert found.pointer == "/input_schema/properties/when/type" and found.line == 8


def test_yaml_keys_python_holds_equal_load_as_one_key() -> None:
    """`true` and `1` (True == 1), `2.0` and `2` are one key of the loaded mapping, spelled as the first:
    the model gets the last value under that name."""
    text = ("tools:\n  - name: a_tool\n    description: First.\n    input_schema:\n      type: object\n"
            "      properties:\n        true: {type: string}\n        1: {type: integer}\n"
            "        2.0: {type: string}\n        2: {type: integer}\n        '2': {type: boolean}\n")
    parsed = parse_bytes("t.yaml", text.encode())
    properties = parsed.tools[0].input_schema["properties"]
    assert properties == {"true": {"type": "integer"}, "2.0": {"type": "integer"}, "2": {"type": "boolean"}}
    found = sorted((f.pointer, f.evidence["times"], f.line) for f in _findings({"t.yaml": text}))
    assert found == [("/input_schema/properties/2.0", 2, 10), ("/input_schema/properties/true", 2, 8)]


def test_a_failed_parse_keeps_no_noted_objects_alive() -> None:
    from tooldiff.parsers import repeats

    big = '{"name": "a", "name": "b", "blob": "' + "x" * 1000 + '"}'
    for path, text in (("bad.json", f"[{big}, {big},"), ("bad.jsonl", f"{big}\n{big}\n{{oops\n")):
        parsed = parse_bytes(path, text.encode())
        assert parsed.errors, path
        assert not repeats._SEEN, f"{path}: objects noted by a failed parse are still held"


def test_the_message_names_the_schema_by_the_key_the_file_uses() -> None:
    """A Gemini file's schema is `parameters`: "the object at /input_schema/properties" named a key the file
    does not have (the pointer stays in the normalised form the report schema describes)."""
    gemini = ('{"functionDeclarations": [{"name": "convert", "description": "Convert an amount.",\n'
              ' "parameters": {"type": "object", "properties": {"from": {"type": "string"},\n'
              ' "from": {"type": "string"}}}}]}\n')
    (found,) = _findings({"tools.json": gemini})
    assert "the object at /parameters/properties" in found.message
    assert found.pointer == "/input_schema/properties/from"
