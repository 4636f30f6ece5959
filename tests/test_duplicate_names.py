"""Two tools of one name in a toolset (a `duplicate-name` error) are still two tools: each keeps its own
schemaHash, targets and tokens, and the toolset's total counts both, whatever the number of processes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.discover import group_toolsets
from tooldiff.engine import analyse
from tooldiff.parsers import parse_bytes
from tooldiff.sources import WorktreeSource


def _tool(name: str, text: str, prop: str) -> dict[str, object]:
    return {"name": name, "description": text,
            "input_schema": {"type": "object", "properties": {prop: {"type": "string", "description": "x"}}}}


def test_each_duplicate_keeps_its_own_hash_and_tokens(tmp_path: Path) -> None:
    short = _tool("create_object", "Create an object in the bucket store.", "a")
    long = _tool("create_object", "Create a record in the CRM, with a much longer description text.", "bb")
    (tmp_path / "dup.json").write_text(json.dumps([short, long]))
    report = run_check(WorktreeSource(tmp_path), Config.default())
    first, second = report.tools
    assert first.schema_hash != second.schema_hash
    assert first.tokens["estimate"]["head"] < second.tokens["estimate"]["head"]
    [toolset] = report.toolsets
    total = first.tokens["estimate"]["head"] + second.tokens["estimate"]["head"]  # type: ignore[operator]
    assert toolset.tokens["estimate"]["head"] == total
    assert "duplicate-name" in {f.code for f in report.findings}


@pytest.mark.skipif(sys.platform != "linux", reason="workers fork only on Linux")
def test_duplicates_in_a_sliced_toolset_give_one_report_whatever_the_jobs() -> None:
    # 2,400 tools: the toolset's tool rules are dealt out in slices of 1,000, and the duplicates of each name
    # fall in different slices.
    tools = [_tool(f"tool_{i % 1200}", f"Do thing {i} for the user, version {i // 1200}.", f"p{i}")
             for i in range(2400)]
    parsed = parse_bytes("big.json", json.dumps(tools).encode())
    toolsets = group_toolsets([parsed], Config.default())
    one = analyse(toolsets, Config.default(), {}, jobs=1)
    two = analyse(toolsets, Config.default(), {}, jobs=2)
    assert one.hashes == two.hashes and one.tokens == two.tokens and len(one.hashes) == 2400


def test_duplicates_on_one_line_are_told_apart_by_their_pointers() -> None:
    from tooldiff.model import Toolset
    from tooldiff.parsers import parse_bytes
    from tooldiff.rules import duplicate_name
    from tooldiff.rules.base import Context

    minified = b'{"tools":[{"name":"get_order","input_schema":{}},{"name":"get_order","input_schema":{}}]}'
    tools = parse_bytes("tools.json", minified).tools
    [p] = duplicate_name.check(Toolset(id="tools.json", files=("tools.json",), tools=tools), Context())
    assert "tools.json:1 (/tools/0), tools.json:1 (/tools/1)" in p.message


ALIASED = """\
tools:
  - &search
    name: search
    description: Search the catalogue for products by keyword.
    input_schema:
      type: object
  - name: fetch
    description: Fetch one product page by its URL.
    input_schema:
      type: object
  # the same tool again
  - *search
"""


def test_a_tool_offered_again_through_an_alias_is_at_the_alias(tmp_path: Path) -> None:
    # The composed alias is the anchored node: its line was the anchor's, so both duplicates said line 2.
    assert [(t.name, t.line, t.end_line) for t in parse_bytes("t.yaml", ALIASED.encode()).tools] == [
        ("search", 2, 6), ("fetch", 7, 10), ("search", 12, 12)]
    (tmp_path / "t.yaml").write_text(ALIASED)
    report = run_check(WorktreeSource(tmp_path), Config.default())
    (dup,) = [f for f in report.findings if f.code == "duplicate-name"]
    assert "t.yaml:2, t.yaml:12." in dup.message


def test_alias_lines_in_a_later_document_of_a_stream() -> None:
    # The first document has no alias, the second does: each document's aliases are its own.
    text = "tools:\n  - {name: a, description: A tool., input_schema: {}}\n---\n" + ALIASED
    tools = parse_bytes("t.yaml", text.encode()).tools
    assert [(t.pointer, t.line) for t in tools] == [
        ("/0/tools/0", 2), ("/1/tools/0", 5), ("/1/tools/1", 10), ("/1/tools/2", 15)]
