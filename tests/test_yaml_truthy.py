"""YAML 1.1 reads `on`, `off`, `yes` and `no` as booleans: `yaml-truthy` says where, with the right line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooldiff.cli import main
from tooldiff.parsers import parse_bytes

LIGHTS = """\
tools:
  - name: set_light
    description: Turn the light of one room on or off.
    input_schema:
      type: object
      properties:
        room: {type: string, description: The room's name}
        state:
          type: string
          enum: [on, off]
          description: The wanted state
        on:
          type: boolean
          description: Whether the light is on
        dimmed: {type: boolean, default: yes, description: Whether to dim it}
        quoted: {type: string, enum: ["on", 'off', true], description: Quoted words stay strings}
      required: [room, state]
"""


def findings(capsys: pytest.CaptureFixture[str], path: Path) -> list[dict[str, object]]:
    main(["check", str(path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    return [f for f in report["findings"] if f["code"] == "yaml-truthy"]


def test_every_yaml_boolean_word_in_a_schema_is_found_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tools.yaml"
    path.write_text(LIGHTS, encoding="utf-8")
    found = findings(capsys, path)
    got = sorted((f["line"], f["pointer"], f["evidence"]["word"]) for f in found)  # type: ignore[index]
    assert got == [
        (10, "/input_schema/properties/state/enum/0", "on"),
        (10, "/input_schema/properties/state/enum/1", "off"),
        (12, "/input_schema/properties/true", "on"),
        (15, "/input_schema/properties/dimmed/default", "yes"),
    ]
    assert all(f["severity"] == "warning" and f["status"] == "new" for f in found)
    key = next(f for f in found if f["line"] == 12)
    assert '"true"' in str(key["message"]) and "key" in str(key["message"])
    assert '"on"' in str(key["fix"])


def test_quoted_words_and_json_files_are_silent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixed = LIGHTS.replace("[on, off]", '["on", "off"]').replace("        on:", '        "on":')
    fixed = fixed.replace("default: yes", "default: true")
    path = tmp_path / "tools.yaml"
    path.write_text(fixed, encoding="utf-8")
    assert findings(capsys, path) == []
    as_json = tmp_path / "tools.json"
    as_json.write_text(json.dumps({"tools": [{
        "name": "set_light", "description": "Turn the light of one room on or off.",
        "input_schema": {"type": "object", "properties": {"on": {"type": "string", "enum": ["on", "off"]}}},
    }]}), encoding="utf-8")
    assert findings(capsys, as_json) == []


def test_the_key_read_as_true_is_located_at_its_own_line() -> None:
    from tooldiff.positions import Locator

    loc = Locator("t.yaml", LIGHTS.encode())
    assert loc.line("/tools/0/input_schema/properties/true") == 12
    assert loc.line("/tools/0/input_schema/properties/true/description") == 14


def test_words_are_kept_on_the_tool_relative_to_its_schema() -> None:
    (tool,) = parse_bytes("t.yaml", LIGHTS.encode()).tools
    assert ("/input_schema/properties/true", "on", True, 12) in tool.yaml_words
    assert ("/input_schema/properties/state/enum/0", "on", False, 10) in tool.yaml_words
    assert all(not p.startswith("/input_schema/properties/quoted") for p, _, _, _ in tool.yaml_words)


def test_two_keys_that_load_as_one_are_each_found_at_their_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `on:` and `yes:` both load as the key "true": one pointer, which finds only the last of them.
    path = tmp_path / "tools.yaml"
    path.write_text("tools:\n  - name: a\n    description: A.\n    input_schema:\n      type: object\n"
                    "      properties:\n        on: {type: string, description: On.}\n"
                    "        yes: {type: string, description: Yes.}\n", encoding="utf-8")
    got = sorted((f["line"], f["evidence"]["word"]) for f in findings(capsys, path))  # type: ignore[index]
    assert got == [(7, "on"), (8, "yes")]
