"""Every source format, recognised by shape, with exact lines and pointers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooldiff.model import Tool
from tooldiff.parsers import parse_bytes
from tooldiff.positions import Locator

FORMATS = Path(__file__).parent / "fixtures" / "formats"


def parse(name: str) -> tuple[Tool, ...]:
    result = parse_bytes(name, (FORMATS / name).read_bytes())
    assert result.errors == ()
    return result.tools


def rows(name: str) -> list[tuple[str, str, int, int, str, str, str]]:
    return [
        (t.name, t.format, t.line, t.end_line, t.pointer, t.schema_pointer, t.schema_key) for t in parse(name)
    ]


def test_anthropic_under_tools_skips_server_tools() -> None:
    assert rows("anthropic.json") == [
        ("get_weather", "anthropic", 4, 17, "/tools/0", "/tools/0/input_schema", "input_schema"),
        ("get_time", "anthropic", 18, 18, "/tools/1", "/tools/1/input_schema", "input_schema"),
    ]
    weather = parse("anthropic.json")[0]
    assert weather.description == "Get the current weather in a given location"
    assert weather.input_schema["required"] == ["location"]


def test_openai_chat_keeps_strict() -> None:
    assert rows("openai-chat.json") == [
        ("get_weather", "openai-chat", 2, 18, "/0", "/0/function/parameters", "parameters"),
    ]
    assert parse("openai-chat.json")[0].strict is True


def test_openai_responses_flat_shape() -> None:
    assert rows("openai-responses.json") == [
        ("get_horoscope", "openai-responses", 5, 16, "/tools/1", "/tools/1/parameters", "parameters"),
    ]
    assert parse("openai-responses.json")[0].strict is False


def test_legacy_functions_and_jsonl() -> None:
    assert rows("functions-legacy.json") == [
        ("search_orders", "function", 3, 7, "/functions/0", "/functions/0/parameters", "parameters"),
        ("cancel_order", "function", 8, 12, "/functions/1", "/functions/1/parameters", "parameters"),
    ]
    # JSONL: the pointer's first token is the 0-based line; the blank line 2 is skipped.
    assert rows("functions.jsonl") == [
        ("add", "function", 1, 1, "/0", "/0/parameters", "parameters"),
        ("negate", "function", 3, 3, "/2", "/2/parameters", "parameters"),
    ]


def test_mcp_tools_list_keeps_title_annotations_output_schema() -> None:
    assert rows("mcp-tools-list.json") == [
        ("read_file", "mcp", 3, 14, "/tools/0", "/tools/0/inputSchema", "inputSchema"),
    ]
    tool = parse("mcp-tools-list.json")[0]
    assert tool.title == "Read File"
    assert tool.annotations == {"readOnlyHint": True}
    assert tool.output_schema == {"type": "object", "properties": {"content": {"type": "string"}}}


def test_mcp_inside_json_rpc_envelope() -> None:
    assert rows("mcp-jsonrpc.json") == [
        ("pods_list", "mcp", 6, 11, "/result/tools/0", "/result/tools/0/inputSchema", "inputSchema"),
        ("pods_delete", "mcp", 12, 17, "/result/tools/1", "/result/tools/1/inputSchema", "inputSchema"),
    ]


def test_mcp_records_in_yaml() -> None:
    assert rows("mcp-records.yaml") == [
        ("list_issues", "mcp", 2, 12, "/0", "/0/inputSchema", "inputSchema"),
        ("get_me", "mcp", 13, 15, "/1", "/1/inputSchema", "inputSchema"),
    ]


def test_gemini_declarations() -> None:
    assert rows("gemini.json") == [
        ("schedule_meeting", "gemini", 3, 14, "/functionDeclarations/0", "/functionDeclarations/0/parameters",
         "parameters"),
    ]


def test_gemini_nested_in_tools_yaml_with_json_schema_and_without_schema() -> None:
    base = "/tools/0/function_declarations"
    assert rows("gemini-tools.yaml") == [
        ("set_light_values", "gemini", 3, 10, f"{base}/0", f"{base}/0/parametersJsonSchema",
         "parametersJsonSchema"),
        ("lights_off", "gemini", 11, 12, f"{base}/1", f"{base}/1", ""),
    ]
    assert parse("gemini-tools.yaml")[1].input_schema is None


@pytest.mark.parametrize("name", ["not-tools.json", "not-tools.yaml"])
def test_files_without_tools_are_silent(name: str) -> None:
    result = parse_bytes(name, (FORMATS / name).read_bytes())
    assert result.tools == () and result.errors == ()


@pytest.mark.parametrize(
    ("name", "pointer", "line"),
    [
        ("anthropic.json", "/tools/0/input_schema/properties/location", 10),
        ("anthropic.json", "/tools/0/input_schema/properties/location/description", 12),
        ("anthropic.json", "/tools/0/input_schema/required", 15),
        ("anthropic.json", "/tools/1/input_schema", 18),
        ("openai-chat.json", "/0/function/parameters/properties/units", 11),
        ("openai-chat.json", "/0/function/strict", 16),
        ("mcp-jsonrpc.json", "/result/tools/1/inputSchema/required", 15),
        ("mcp-records.yaml", "/0/inputSchema/properties/owner/description", 9),
        ("mcp-records.yaml", "/0/inputSchema/required", 12),
        ("mcp-records.yaml", "/1", 13),
        ("gemini-tools.yaml", "/tools/0/function_declarations/0/parametersJsonSchema/properties/brightness",
         8),
        ("functions.jsonl", "/2/parameters/properties/a", 3),
        ("anthropic.json", "/tools/0/input_schema/properties/nope", None),
        ("anthropic.json", "/tools/9", None),
    ],
)
def test_locator_lines_of_properties(name: str, pointer: str, line: int | None) -> None:
    assert Locator(name, (FORMATS / name).read_bytes()).line(pointer) == line


def test_format_is_detected_by_shape_not_name() -> None:
    data = (FORMATS / "mcp-tools-list.json").read_bytes()
    for name in ("anthropic_tools.json", "openai.json", "tools.txt", "x"):
        tools = parse_bytes(name, data).tools
        assert [(t.name, t.format) for t in tools] == [("read_file", "mcp")]
    yaml_text = (FORMATS / "mcp-records.yaml").read_bytes()
    assert [t.name for t in parse_bytes("records", yaml_text).tools] == ["list_issues", "get_me"]


def test_single_tool_file_and_pointer_escaping() -> None:
    data = b'{\n  "name": "solo",\n  "inputSchema": {"type": "object", "properties": {"a/b~c": {}}}\n}\n'
    (tool,) = parse_bytes("solo.json", data).tools
    assert (tool.pointer, tool.schema_pointer, tool.line, tool.end_line) == ("", "/inputSchema", 1, 4)
    assert Locator("solo.json", data).line("/inputSchema/properties/a~1b~0c") == 3


def test_dict_of_toolsets_and_gemini_wrappers_in_lists() -> None:
    data = (b'{"math": [{"name": "add", "parameters": {}}],\n'
            b' "text": [\n  {"name": "upper", "parameters": {}}]}')
    tools = parse_bytes("sets.json", data).tools
    assert [(t.name, t.pointer, t.line) for t in tools] == [("add", "/math/0", 1), ("upper", "/text/0", 3)]


def test_broken_record_is_one_error_and_the_rest_still_parse() -> None:
    data = (b'{"tools": [\n {"input_schema": {}},\n {"name": 3, "input_schema": {}},\n'
            b' {"name": "ok", "input_schema": {}}\n]}')
    result = parse_bytes("t.json", data)
    assert [t.name for t in result.tools] == ["ok"]
    assert [(e.line, e.message) for e in result.errors] == [
        (2, "anthropic tool at /tools/0: `name` is missing"),
        (3, "anthropic tool at /tools/1: `name` is not a string"),
    ]


def test_description_must_be_text() -> None:
    result = parse_bytes("t.json", b'[{"name": "a", "description": ["x"], "parameters": {}}]')
    assert result.tools == () and "description" in result.errors[0].message


def test_null_description_is_empty() -> None:
    (tool,) = parse_bytes("t.json", b'[{"name": "a", "description": null, "parameters": {}}]').tools
    assert tool.description == ""


def test_yaml_timestamps_and_odd_keys_stay_json() -> None:
    data = b"- name: a\n  description: on 2024-01-01\n  parameters:\n    default: 2024-01-01\n    1: x\n"
    (tool,) = parse_bytes("t.yaml", data).tools
    assert tool.input_schema == {"default": "2024-01-01", "1": "x"}


def test_big_file_positions_are_linear_and_exact() -> None:
    import json

    tools = [{"name": f"t{i}", "description": "d", "parameters": {"type": "object"}} for i in range(10_000)]
    text = json.dumps({"tools": tools}, indent=1).encode()
    parsed = parse_bytes("big.json", text).tools
    assert len(parsed) == 10_000
    lines = text.decode().split("\n")
    for tool in parsed[::997]:
        assert lines[tool.line - 1].strip() == "{"
        assert f'"{tool.name}"' in lines[tool.line]
        assert lines[tool.end_line - 1].strip().startswith("}")


def test_gemini_openapi_type_names_read_as_json_schema_types(tmp_path: Path) -> None:
    """Gemini's `parameters` writes OBJECT, STRING, BOOLEAN (OpenAPI 3.0): every rule reads them as JSON
    Schema types, and the tool hashes as the same tool written with `parametersJsonSchema`."""
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.schemahash import schema_hash
    from tooldiff.sources import WorktreeSource

    [meeting] = parse("gemini.json")
    assert meeting.input_schema["type"] == "object"
    assert meeting.input_schema["properties"]["attendees"] == {"type": "array", "items": {"type": "string"}}
    params = {"type": "OBJECT", "properties": {
        "title": {"type": "STRING", "description": "The ticket's title"},
        "page_oncall": {"type": "BOOLEAN", "description": "Page the on-call engineer"},
        "kind": {"type": "Dict", "description": "Not a Gemini type: reported as written"},
    }, "required": ["title"]}
    decl = {"name": "create_ticket", "description": "Create a support ticket.", "parameters": params}
    (tmp_path / "g.json").write_text(json.dumps({"tools": [{"functionDeclarations": [decl]}]}))
    report = run_check(WorktreeSource(tmp_path), Config.default())
    codes = {f.code for f in report.findings}
    assert "root-not-object" not in codes and "escalation-flag" in codes
    [wrong] = [f for f in report.findings if f.code == "invalid-json-schema"]
    assert '"Dict"' in wrong.message
    lowered = json.dumps(params)
    for name in ("OBJECT", "STRING", "BOOLEAN"):
        lowered = lowered.replace(f'"{name}"', f'"{name.lower()}"')
    as_json_schema = {**decl, "parametersJsonSchema": json.loads(lowered)}
    del as_json_schema["parameters"]
    [tool] = parse_bytes("g.json", json.dumps({"functionDeclarations": [decl]}).encode()).tools
    [other] = parse_bytes("h.json", json.dumps({"functionDeclarations": [as_json_schema]}).encode()).tools
    assert schema_hash(tool) == schema_hash(other)


CALL = {"id": "call_1", "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Weather of a city.",
                                            "parameters": {"type": "object"}}}


def test_tool_calls_are_not_definitions() -> None:
    line = {"messages": [{"role": "assistant", "tool_calls": [CALL]},
                         {"role": "tool", "tool_call_id": "call_1", "content": "20C"}], "tools": [WEATHER]}
    tools = parse_bytes("finetune.jsonl", json.dumps(line).encode()).tools
    assert [(t.name, t.pointer) for t in tools] == [("get_weather", "/0/tools/0")]
    completion = {"id": "chatcmpl-1", "object": "chat.completion",
                  "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [CALL]}}]}
    result = parse_bytes("completion.json", json.dumps(completion, indent=1).encode())
    assert result.tools == () and result.errors == ()
    # A call without arguments yet (a stream's first chunk) still has its call id.
    no_args = {**CALL, "function": {"name": "get_weather"}}
    assert parse_bytes("log.json", json.dumps({"tool_calls": [no_args]}).encode()).tools == ()


AZURE = "name: $(Date:yyyyMMdd)\nparameters:\n  - name: environment\n    type: string\nsteps: []\n"
FLEX_TEMPLATE = {"name": "Streaming Beam SQL", "description": "A Dataflow Flex Template.",
                 "parameters": [{"name": "inputSubscription", "label": "Pub/Sub input"}]}
DATABRICKS_JOB = {"name": "nightly-etl", "tasks": [], "parameters": [{"name": "run_date", "default": "x"}]}
DISCOVERY = {"kind": "discovery#restDescription", "name": "storage", "description": "Google Cloud Storage.",
             "parameters": {"alt": {"type": "string", "location": "query"}}, "resources": {}}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("azure-pipelines.yml", AZURE),
        ("metadata.json", json.dumps(FLEX_TEMPLATE, indent=1)),
        ("job.json", json.dumps(DATABRICKS_JOB, indent=1)),
        ("storage-api.json", json.dumps(DISCOVERY, indent=1)),
    ],
    ids=["azure", "flex-template", "databricks", "discovery"],
)
def test_named_documents_with_parameters_are_not_tools(name: str, text: str) -> None:
    result = parse_bytes(name, text.encode())
    assert result.tools == () and result.errors == ()


def test_bare_function_parameters() -> None:
    whole = b'{"name": "solo", "description": "d",\n "parameters": {"type": "object"}}'
    assert [t.name for t in parse_bytes("solo.json", whole).tools] == ["solo"]
    assert [t.name for t in parse_bytes("empty.json", b'{"name": "e", "parameters": {}}').tools] == ["e"]
    # Among other records (a list, JSONL lines), corpora hold `null` and dicts of named parameters.
    named = {"name": "search", "parameters": {"query": {"type": "string", "required": True}}}
    lines = json.dumps(named) + "\n" + json.dumps({"name": "list", "parameters": None}) + "\n"
    assert [t.name for t in parse_bytes("t.jsonl", lines.encode()).tools] == ["search", "list"]
    assert [t.name for t in parse_bytes("t.json", json.dumps([named]).encode()).tools] == ["search"]
    # In an explicit tool list, a bad schema stays a tool (its rules report it).
    listed = {"functions": [{"name": "bad", "parameters": ["a"]}]}
    assert [t.name for t in parse_bytes("f.json", json.dumps(listed).encode()).tools] == ["bad"]


SBOM = {"bomFormat": "CycloneDX", "specVersion": "1.4",
        "metadata": {"tools": [{"vendor": "CycloneDX", "name": "cargo-cyclonedx", "version": "0.5.9"}]}}
GRAFANA = {"annotations": {"list": [{"builtIn": 1, "enable": True, "name": "Annotations & Alerts"}]},
           "editable": True, "panels": [], "title": "My dashboard", "uid": "abc"}
REPORT = {"tools": [{"name": "lookup", "file": "tools.json", "line": 3, "format": "anthropic"}]}


@pytest.mark.parametrize(("name", "value"), [("bom.cdx.json", SBOM), ("dashboard.json", GRAFANA),
                                             ("report.json", REPORT)], ids=["sbom", "grafana", "report"])
def test_named_records_that_are_not_tools_are_silent(name: str, value: object) -> None:
    result = parse_bytes(name, json.dumps(value, indent=2).encode())
    assert result.tools == () and result.errors == ()


def test_schemaless_tools_need_a_description_or_a_tool_beside_them() -> None:
    alone = {"tools": [{"name": "ping", "description": "Checks the server is up."}]}
    assert [t.name for t in parse_bytes("a.json", json.dumps(alone).encode()).tools] == ["ping"]
    beside = {"tools": [{"name": "ping"}, {"name": "add", "input_schema": {"type": "object"}}]}
    assert [t.name for t in parse_bytes("b.json", json.dumps(beside).encode()).tools] == ["ping", "add"]
    mcp = {"name": "ping", "annotations": {"readOnlyHint": True}}
    tools = parse_bytes("c.json", json.dumps(mcp).encode()).tools
    assert [(t.name, t.format) for t in tools] == [("ping", "mcp")]


@pytest.mark.parametrize("odd", ["\u2028", "\u0085", "\r"])
def test_yaml_lines_count_newlines_only(odd: str, tmp_path: Path) -> None:
    """PyYAML counts U+2028, U+0085 and a lone CR as line breaks; the file's lines are its `\\n`s."""
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    text = (f'tools:\n  - name: first\n    description: "Line one{odd}same line"\n    input_schema:\n'
            "      type: object\n  - name: second\n    description: Second tool.\n    input_schema:\n"
            "      type: object\n      properties:\n        city:\n          type: string\n")
    (tmp_path / "t.yaml").write_bytes(text.encode("utf-8"))
    report = run_check(WorktreeSource(tmp_path), Config.default())
    assert [(t.name, t.line) for t in report.tools] == [("first", 2), ("second", 6)]
    assert [(f.code, f.line) for f in report.findings] == [("missing-description", 11)]


def test_a_yaml_set_is_the_mapping_it_is_written_as() -> None:
    # `!!set {red, green}` is a mapping to nulls; as a Python set its text changed order with the hash seed,
    # so the schemaHash changed from run to run.
    text = b"tools:\n  - name: paint\n    description: Paint it.\n    input_schema:\n      type: object\n" \
           b"      properties:\n        colour: {type: string, enum: !!set {red, green, blue}}\n"
    (t,) = parse_bytes("t.yaml", text).tools
    assert t.input_schema["properties"]["colour"]["enum"] == {"red": None, "green": None, "blue": None}


ENDS = """\
shared: &str {type: string, description: A string.}
base: &base
  input_schema: {type: object}
tools:
  - name: a
    description: A tool that ends in an alias.
    input_schema:
      type: object
      properties:
        p: *str
  - name: b
    description: |
      A tool that ends in a block scalar.

    # a comment after it

  - name: c
    description: A tool that ends in a merge.
    <<: *base
  - {name: d, description: A flow tool,
     input_schema: {type: object}
    }
"""


@pytest.mark.parametrize("odd", ["", "\u2028"])
def test_a_yaml_tool_ends_at_its_last_token(odd: str) -> None:
    """An alias ends at its `*name`, not where its anchor's node ends; a block scalar at its last line of
    text, not past the blank lines and comments after it; a flow mapping at its closing brace."""
    text = ENDS.replace("A tool that ends in an alias.", f'"A tool that ends in{odd} an alias."')
    tools = parse_bytes("t.yaml", text.encode()).tools
    assert [(t.name, t.line, t.end_line) for t in tools] == [
        ("a", 5, 10), ("b", 11, 13), ("c", 17, 19), ("d", 20, 22)]
