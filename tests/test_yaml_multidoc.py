"""Multi-document YAML (`---`): a Kubernetes manifest is not a tool file; tools in any document are found."""

from __future__ import annotations

from pathlib import Path

from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.parsers import parse_bytes
from tooldiff.positions import Locator
from tooldiff.sources import WorktreeSource

MANIFEST = b"apiVersion: v1\nkind: Service\n---\napiVersion: apps/v1\nkind: Deployment\n"
TOOLS = b"""kind: notes
---
tools:
  - name: search_docs
    description: Search the documentation.
    input_schema:
      type: object
      properties:
        query: {type: string}
---
tools:
  - name: find_document
    description: Find documents.
    input_schema:
      type: object
      properties:
        question: {type: string}
"""


def test_a_manifest_with_several_documents_is_silently_not_a_tool_file() -> None:
    parsed = parse_bytes("deploy/k8s.yaml", MANIFEST)
    assert parsed.tools == () and parsed.errors == ()


def test_tools_in_later_documents_are_found_with_lines_and_pointers() -> None:
    parsed = parse_bytes("tools.yaml", TOOLS)
    assert parsed.errors == ()
    by_name = {t.name: t for t in parsed.tools}
    assert set(by_name) == {"search_docs", "find_document"}
    first, second = by_name["search_docs"], by_name["find_document"]
    assert (first.line, second.line) == (4, 12)
    assert first.pointer == "/1/tools/0" and second.pointer == "/2/tools/0"
    loc = Locator("tools.yaml", TOOLS)
    assert loc.line(second.schema_pointer + "/properties/question") == 17


def test_one_document_keeps_plain_pointers() -> None:
    text = b"tools:\n  - name: a\n    description: b\n    input_schema: {type: object}\n"
    parsed = parse_bytes("one.yaml", text)
    assert [t.pointer for t in parsed.tools] == ["/tools/0"]


BROKEN_LAST = """tools:
  - name: get_thing
    description: Get a thing by its key.
    input_schema:
      type: object
---
tools:
  - name: put_thing
    description: Store a thing under its key.
    input_schema: {type: object, properties: [
"""


def test_a_broken_later_document_keeps_the_ones_before_it() -> None:
    # Bad input never hides other results: the first document's tools are analysed, the second reported.
    parsed = parse_bytes("tools.yaml", BROKEN_LAST.encode())
    assert [(t.name, t.pointer, t.line) for t in parsed.tools] == [("get_thing", "/0/tools/0", 2)]
    (error,) = parsed.errors
    assert error.line == 10 and "invalid YAML" in error.message  # the file's last line, not one past it


def test_a_broken_only_document_is_reported_on_a_line_of_the_file() -> None:
    parsed = parse_bytes("tools.yaml", BROKEN_LAST.split("---\n")[1].encode())
    assert parsed.tools == () and [e.line for e in parsed.errors] == [4]


def test_a_broken_later_document_leaves_the_earlier_ones_their_lines(tmp_path: Path) -> None:
    text = "\n".join([
        "name: get_weather", "description: Get the current weather for a city", "input_schema:",
        "  type: object", "  properties:", "    units:", "      type: string", "      description: Units",
        "    city:", "      type: string", "---", "name: get_time", "description: [unclosed", ""])
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    report = run_check(WorktreeSource(tmp_path), Config.default())
    found = sorted((f.code, f.line, f.pointer) for f in report.findings)
    assert found == [("missing-description", 6, "/input_schema/properties/units"),  # "Units": the name
                     ("missing-description", 9, "/input_schema/properties/city"), ("parse-error", 13, "")]
