"""A repository scan reads only tool files: the data, manifests and templates that sit beside them (and
look like tools at a glance, or fail to parse) give no tool and no finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooldiff.config import Config
from tooldiff.discover import discover
from tooldiff.parsers import parse_bytes
from tooldiff.sources import WorktreeSource

TOOL = {"name": "get_weather", "description": "Get the current weather for a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}

HELM_TEMPLATE = b"""apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: {{ include "app.fullname" . }}
provisioner: kubernetes.io/aws-ebs
parameters:
  type: gp2
"""

CLOUDFORMATION = b"""AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Doc:
    Type: AWS::SSM::Document
    Properties:
      Name: !Sub '${AWS::StackName}-doc'
      Tags: !Split [",", "a,b"]
      Content:
        schemaVersion: "2.2"
        description: Run a script
        parameters:
          commands: {type: String}
"""

N8N_WORKFLOW = {"name": "My workflow", "nodes": [
    {"parameters": {}, "id": "a", "name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1,
     "position": [240, 300]},
    {"parameters": {"url": "https://example.com"}, "id": "b", "name": "HTTP Request",
     "type": "n8n-nodes-base.httpRequest", "typeVersion": 4, "position": [460, 300]}], "connections": {}}

HELM_VALUES = b"""ingresses:
  - name: public
    annotations:
      cert-manager.io/cluster-issuer: letsencrypt
serviceAccounts:
  - name: worker
    annotations: {eks.amazonaws.com/role-arn: x}
"""

HELM_CHART = b"""apiVersion: v2
name: mychart
description: A Helm chart
version: 0.1.0
annotations:
  category: Database
"""

SOLIDITY_ABI = [
    {"inputs": [{"internalType": "address", "name": "account", "type": "address"}], "name": "balanceOf",
     "outputs": [{"internalType": "uint256", "name": "", "type": "uint256"}], "stateMutability": "view",
     "type": "function"},
    {"inputs": [], "name": "totalSupply", "outputs": [], "stateMutability": "view", "type": "function"},
]

TREE_SITTER = [{"type": "function_declaration", "named": True,
                "fields": {"parameters": {"multiple": False, "required": True, "types": []}}},
               {"type": "function", "named": False}]

MCP_RESOURCES = {"resources": [{"uri": "file:///x", "name": "main.rs", "description": "Main file",
                                "mimeType": "text/x-rust", "annotations": {"priority": 0.8}}]}

EXPERIMENTS = b"""experiments:
  - name: baseline
    parameters: {learning_rate: 0.001}
reports:
  - name: Monthly revenue
    query: r.sql
    parameters: {month: "2024-01"}
"""

NOISE: dict[str, bytes] = {
    "chart/templates/storageclass.yaml": HELM_TEMPLATE,
    "infra/stack.yaml": CLOUDFORMATION,
    "workflows/n8n.json": json.dumps(N8N_WORKFLOW).encode(),
    "chart/values.yaml": HELM_VALUES,
    "chart/Chart.yaml": HELM_CHART,
    "abi/ERC20.json": json.dumps(SOLIDITY_ABI).encode(),
    "grammar/src/node-types.json": json.dumps(TREE_SITTER).encode(),
    "captures/resources.json": json.dumps(MCP_RESOURCES).encode(),
    "ml/experiments.yaml": EXPERIMENTS,
    "appsettings.json": '{"Logging": {"LogLevel": {"Default": "Information"}}}'.encode("utf-16"),
}


@pytest.mark.parametrize("path", sorted(NOISE))
def test_a_file_that_is_no_tool_file_gives_nothing(tmp_path: Path, path: str) -> None:
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(NOISE[path])
    (tmp_path / "tools.json").write_text(json.dumps([TOOL]))
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert [t.name for ts in found.toolsets for t in ts.tools] == ["get_weather"]
    assert found.errors == []


def test_a_wide_file_that_holds_tool_keys_is_still_reported(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_bytes(json.dumps([TOOL]).encode("utf-16"))
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert [(e.file, "UTF-16" in e.message) for e in found.errors] == [("tools.json", True)]


def test_yaml_local_tags_and_the_value_key_are_read_as_plain_values() -> None:
    # CloudFormation's `!Ref`, a bare `=` (PyYAML's 1.1 "value" type): a tool file may hold either.
    text = b"""- name: compare
  description: !Sub "Compare two numbers with an operator."
  input_schema:
    type: object
    properties:
      op: {type: string, enum: [=, "!=", <, ">"]}
"""
    parsed = parse_bytes("ops.yaml", text)
    assert not parsed.errors
    [tool] = parsed.tools
    assert tool.description == "Compare two numbers with an operator."
    assert tool.input_schema["properties"]["op"]["enum"] == ["=", "!=", "<", ">"]


def test_a_tool_list_wrapped_in_an_agent_config_is_read_through_it() -> None:
    agent = {"name": "invoice-extractor", "model": "gpt-4.1",
             "outputSchema": {"type": "object", "properties": {"total": {"type": "number"}}},
             "tools": [{"type": "function", "name": "lookup_customer", "description": "Look up a customer.",
                        "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}}]}
    names = [t.name for t in parse_bytes("agent.json", json.dumps(agent).encode()).tools]
    assert names == ["lookup_customer"]
    listed = {"agents": [agent]}
    assert [t.name for t in parse_bytes("a.json", json.dumps(listed).encode()).tools] == ["lookup_customer"]


def test_a_named_group_of_tools_in_a_tool_list_is_read_through() -> None:
    group = {"tools": [{"name": "github", "description": "Tools for GitHub", "tools": [
        {"name": "create_issue", "description": "Create an issue", "input_schema": {"type": "object"}},
        {"name": "close_issue", "description": "Close an issue", "input_schema": {"type": "object"}}]}]}
    names = [t.name for t in parse_bytes("g.json", json.dumps(group).encode()).tools]
    assert names == ["create_issue", "close_issue"]


def test_a_tool_shared_through_a_yaml_anchor_is_one_definition() -> None:
    text = b"""x-common-tools: &common
  - name: search_docs
    description: Search the product documentation for an answer
    input_schema: {type: object, properties: {query: {type: string, description: q}}}
agents:
  support:
    tools: *common
  sales:
    tools: *common
  ops:
    tools:
      - *search
      - &search
        name: restart_service
        description: Restart one service
        input_schema: {type: object}
"""
    text = text.replace(b"      - *search\n      - &search", b"      - &search")  # an anchor before its alias
    text += b"  audit:\n    tools: [*search]\n"
    parsed = parse_bytes("agents.yaml", text)
    assert [(t.name, t.line) for t in parsed.tools] == [("search_docs", 2), ("restart_service", 12)]


def test_a_vs_code_language_model_tool_is_described_by_its_model_description() -> None:
    manifest = {"contributes": {"languageModelTools": [
        {"name": "myext_tabCount", "displayName": "Tab count", "userDescription": "Counts tabs",
         "modelDescription": "The number of active tabs in a tab group.",
         "inputSchema": {"type": "object", "properties": {}}}]}}
    [tool] = parse_bytes("package.json", json.dumps(manifest).encode()).tools
    assert tool.description == "The number of active tabs in a tab group."


def test_tools_nested_in_an_environment_config_are_found() -> None:
    doc = {"environments": {"prod": {"agents": [{"id": "support", "llm": {"request": {"tools": [TOOL]}}}]}}}
    found = parse_bytes("env.json", json.dumps(doc).encode())
    assert [(t.name, t.pointer) for t in found.tools] == [
        ("get_weather", "/environments/prod/agents/0/llm/request/tools/0")]


def names(path: str, doc: object) -> list[str]:
    data = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return [t.name for t in parse_bytes(path, data).tools]


def test_undescribed_tools_beside_described_ones_are_still_tools() -> None:
    responses = [{"type": "function", "name": "get_weather", "description": "Get the weather",
                  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
                 {"type": "function", "name": "hang_up"}]
    assert names("r.json", responses) == ["get_weather", "hang_up"]
    assert names("r.json", {"available_tools": responses}) == ["get_weather", "hang_up"]
    assert names("r.jsonl", b'{"type": "function", "name": "get_time"}\n') == ["get_time"]
    bare = b"""- name: search
  description: Search the docs
  parameters: {type: object, properties: {query: {type: string}}}
- name: fetch
  parameters: {url: string}
"""
    assert names("f.yaml", bare) == ["search", "fetch"]  # `fetch`'s shorthand schema is then reported


def test_a_vercel_ai_sdk_function_tool_is_read_with_its_input_schema() -> None:
    tool = {"type": "function", "name": "weather", "description": "Get the weather",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    [found] = parse_bytes("v.json", json.dumps({"tools": [tool]}).encode()).tools
    assert found.input_schema == tool["inputSchema"] and found.schema_pointer == "/tools/0/inputSchema"


def test_the_tools_a_tool_choice_allows_are_not_definitions() -> None:
    doc = {"tools": [{"type": "function", "name": "get_weather", "description": "Get the weather",
                      "parameters": {"type": "object", "properties": {}}}],
           "tool_choice": {"type": "allowed_tools", "mode": "auto",
                           "tools": [{"type": "function", "name": "get_weather"}]}}
    assert names("req.json", doc) == ["get_weather"]


def test_a_broken_tool_file_is_reported_unless_the_break_is_a_template(tmp_path: Path) -> None:
    promptfoo = b"""prompts:
  - 'What is the weather in {{city}}?'
providers:
  - id: openai:chat:gpt-4o-mini
    config:
      tools:
        - type: function
          function:
            name: get_weather
            parameters:
              type: object
              properties:
                city: {type: string}
               required: [city]
"""
    (tmp_path / "promptfooconfig.yaml").write_bytes(promptfoo)
    jsonc = (b'// tools\n[{"type":"function","function":{"name":"get_weather",'
             b'"parameters":{"type":"object"}}},]\n')
    (tmp_path / "tools.json").write_bytes(jsonc)
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "sc.yaml").write_bytes(HELM_TEMPLATE)
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert sorted(e.file for e in found.errors) == ["promptfooconfig.yaml", "tools.json"]


def test_a_tool_that_names_the_tools_it_delegates_to_is_a_tool() -> None:
    schema = {"type": "object", "properties": {"task": {"type": "string"}}}
    doc = {"tools": [{"name": "search", "description": "Search the web.", "input_schema": schema},
                     {"name": "research_agent", "description": "Delegate research.", "input_schema": schema,
                      "tools": ["search", "fetch"]}]}
    assert names("a.json", doc) == ["search", "research_agent"]
    rpc = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "plan", "description": "Plan a task.", "inputSchema": schema, "tools": []}]}}
    assert names("m.json", rpc) == ["plan"]


def test_a_broken_undescribed_function_file_is_still_reported(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text('[{"name": "fetch", "parameters": {"type": "object"}},]')
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert [e.file for e in found.errors] == ["tools.json"]


def test_a_request_per_json_lines_line_offers_its_tools_once() -> None:
    weather = {"type": "function", "function": {"name": "get_weather", "description": "Get the weather.",
                                                "parameters": {"type": "object", "properties": {}}}}
    line = {"messages": [{"role": "user", "content": "Paris?"}], "tools": [weather]}
    renamed = {**weather, "function": {**weather["function"], "name": "x"}}
    other = {"messages": [], "tools": [weather, renamed]}
    data = "\n".join(json.dumps(d) for d in (line, line, other)).encode() + b"\n"
    parsed = parse_bytes("train.jsonl", data)
    assert [(t.name, t.line) for t in parsed.tools] == [("get_weather", 1), ("x", 3)]


def test_bedrock_converse_tool_specs_are_read_with_their_json_schema(tmp_path: Path) -> None:
    text = """{
  "toolConfig": {
    "tools": [
      {
        "toolSpec": {
          "name": "sum_calc",
          "description": "Sum the numbers of an expression.",
          "inputSchema": {
            "json": {
              "type": "object",
              "properties": {
                "expression": {"type": "string"}
              },
              "required": ["expression"]
            }
          }
        }
      }
    ]
  }
}
"""
    [tool] = parse_bytes("converse.json", text.encode()).tools
    assert (tool.name, tool.format, tool.line) == ("sum_calc", "bedrock", 4)
    assert tool.schema_pointer == "/toolConfig/tools/0/toolSpec/inputSchema/json"
    assert tool.input_schema["required"] == ["expression"]
    (tmp_path / "converse.json").write_text(text, encoding="utf-8")
    from tooldiff.check import run_check

    report = run_check(WorktreeSource(tmp_path), Config.default())
    [finding] = [f for f in report.findings if f.code == "missing-description"]
    assert (finding.line, finding.pointer) == (12, "/input_schema/properties/expression")


def test_one_definition_in_several_lists_is_one_tool_and_twice_in_one_list_is_two() -> None:
    tool = {"name": "search_docs", "description": "Search the docs.", "input_schema": {"type": "object"}}
    # Written out in full for each agent (as a YAML alias expands): one definition, as with the alias.
    agents = {"agents": [{"name": "support", "tools": [tool]}, {"name": "sales", "tools": [tool]}]}
    assert names("agents.json", agents) == ["search_docs"]
    # The same name twice in one request is refused: both stay, for duplicate-name.
    assert names("twice.json", {"tools": [tool, tool]}) == ["search_docs", "search_docs"]
    aliased = b"""tools:
  - &search
    name: search_docs
    description: Search the docs.
    input_schema: {type: object}
  - *search
"""
    assert names("twice.yaml", aliased) == ["search_docs", "search_docs"]
    line = json.dumps({"messages": [], "tools": [tool, tool]}).encode()
    assert names("req.jsonl", line + b"\n") == ["search_docs", "search_docs"]
    # A prompt-caching marker is no part of the definition.
    cached = {**tool, "cache_control": {"type": "ephemeral"}}
    lines = [json.dumps({"messages": [], "tools": [t]}).encode() for t in (tool, cached)]
    assert names("batch.jsonl", b"\n".join(lines) + b"\n") == ["search_docs"]
    # A different definition under the same name in another list is still told (duplicate-name).
    other = {**tool, "description": "Search the product docs."}
    assert names("two.json", {"a": {"tools": [tool]}, "b": {"tools": [other]}}) == ["search_docs"] * 2


def test_bedrock_tool_specs_without_a_name_or_with_a_bare_schema_are_reported() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    nameless = {"toolConfig": {"tools": [{"toolSpec": {"Name": "x", "inputSchema": {"json": schema}}}]}}
    parsed = parse_bytes("t.json", json.dumps(nameless).encode())
    assert not parsed.tools and "`name` is missing" in parsed.errors[0].message
    bare = [{"toolSpec": {"name": "get_weather", "description": "Weather.", "inputSchema": schema,
                          "strict": True}}]
    [tool] = parse_bytes("b.json", json.dumps(bare).encode()).tools
    assert tool.input_schema is None and tool.schema_key == "" and tool.strict is True
    from tooldiff.rules import root_not_object
    from tooldiff.rules.base import Context

    [p] = root_not_object.check(tool, Context())
    assert p.evidence["found"] == "missing" and "inputSchema/json" in p.message


def test_an_argo_template_cut_short_below_its_template_line_is_no_tool_file(tmp_path: Path) -> None:
    (tmp_path / "wf.yaml").write_text("""apiVersion: argoproj.io/v1alpha1
kind: Workflow
spec:
  arguments:
    parameters:
      - name: image
        value: latest
      {{- if .Values.extra }}
      - name: extra
        value: "yes"
      {{- end }}
""", encoding="utf-8")
    (tmp_path / "tools.json").write_text(json.dumps([TOOL]), encoding="utf-8")
    assert discover(WorktreeSource(tmp_path), Config.default()).errors == []


def test_copies_that_differ_or_repeat_in_their_own_list_are_all_kept() -> None:
    tool = {"name": "search_docs", "description": "Search the docs.", "input_schema": {"type": "object"}}
    other = {"name": "get_page", "description": "Get a page.", "input_schema": {"type": "object"}}
    # `sales` offers the name twice in one request, though `support` offered it first.
    twice = {"agents": [{"tools": [tool]}, {"tools": [tool, tool]}]}
    assert names("a.json", twice) == ["search_docs"] * 3
    # A copy that differs in anything a rule reads (`strict`) is its own definition.
    strict = {**tool, "strict": True}
    assert names("b.json", {"agents": [{"tools": [tool]}, {"tools": [strict, other]}]}) == [
        "search_docs", "search_docs", "get_page"]
    # JSON Lines lines that are each a list of tools are each a request.
    lines = b"\n".join(json.dumps(x).encode() for x in ([tool, other], [tool])) + b"\n"
    assert names("requests.jsonl", lines) == ["search_docs", "get_page"]


def test_a_template_in_a_description_above_a_break_is_no_template(tmp_path: Path) -> None:
    (tmp_path / "functions.json").write_text("""{"functions": [
  {"name": "render_greeting",
   "description": "Greet the user with the template Hello {{name}}.",
   "parameters": {"type": "object", "properties": {"name": {"type": "string", "description": "User name."}}}
   "required": []
  }
]}
""", encoding="utf-8")
    assert [e.file for e in discover(WorktreeSource(tmp_path), Config.default()).errors] == ["functions.json"]


def test_review_cases_of_what_is_a_tool_and_a_tool_file(tmp_path: Path) -> None:
    city = {"type": "STRING", "description": "City"}
    decl = {"name": "get_weather", "description": "Get the weather for a city",
            "parameters": {"type": "OBJECT", "properties": {"city": city}}}
    # One Gemini request: its tools[] entries are one list, so the same name twice is told.
    request = {"tools": [{"functionDeclarations": [decl]}, {"functionDeclarations": [decl]}]}
    assert names("request.json", request) == ["get_weather", "get_weather"]
    # A provider's built-in tool, or a record without parameters, is not vouched for by a function beside it.
    listed = {"tools": [{"name": "search", "description": "Search", "parameters": {"type": "object"}},
                        {"type": "bash_20250124", "name": "bash"}]}
    assert names("t.json", listed) == ["search"]
    assert names("l.json", [{"name": "search", "description": "S", "parameters": {"type": "object"}},
                            {"name": "changelog", "version": "1.2.0"}]) == ["search"]
    # A plain `<<` is a value, as `=` is.
    calc = b"""tools:
  - name: bitwise
    description: Apply a bitwise operator
    parameters:
      type: object
      properties:
        op: {type: string, description: op, enum: ["|", ^, <<, ">>"]}
"""
    [tool] = parse_bytes("calc.yaml", calc).tools
    assert tool.input_schema["properties"]["op"]["enum"] == ["|", "^", "<<", ">>"]
    # An agent whose `parameters` are model settings is read through to its tools.
    agents = b"""agents:
  - name: researcher
    description: Researches a topic
    parameters: {temperature: 0.2}
    tools:
      - name: web_search
        description: Search the web
        input_schema: {type: object, properties: {q: {type: string, description: q}}}
"""
    assert names("agents.yaml", agents) == ["web_search"]
    # A broken tool file: minified JSON with a `{{` in a string.
    minified = ('[{"name":"render","description":"Hello {{name}}","parameters":{"type":"object"}},'
                '{"name":"send_email",,"parameters":{"type":"object"}}]')
    (tmp_path / "functions.json").write_text(minified, encoding="utf-8")
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert sorted(e.file for e in found.errors) == ["functions.json"]


def test_second_differential_review_cases(tmp_path: Path) -> None:
    weather = {"type": "function", "name": "get_weather", "description": "Get the weather for a city.",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    nameless = {"type": "function", "description": "Look up an order.", "parameters": {"type": "object"}}
    parsed = parse_bytes("t.json", json.dumps([weather, nameless]).encode())
    assert [t.name for t in parsed.tools] == ["get_weather"]
    assert "`name` is missing" in parsed.errors[0].message
    # A strict Responses tool with an extra key an ABI entry also has is still a Responses tool.
    outputs = {**weather, "strict": True, "outputs": {"temperature": "number"}}
    [tool] = parse_bytes("o.json", json.dumps([outputs]).encode()).tools
    assert tool.format == "openai-responses"
    handoff = {"name": "transfer_to_billing", "description": "Hand over to billing.", "parameters": {},
               "tools": ["refund", "invoice"]}
    assert names("h.json", [handoff, {**weather, "type": None}])[0] == "transfer_to_billing"
    shorthand = [{"name": "get_weather", "parameters": {"city": "string"}},
                 {"name": "search_docs", "parameters": {"query": "string"}}]
    assert names("s.json", shorthand) == ["get_weather", "search_docs"]
    audience = {"audience": ["user"]}
    ping = {"tools": [{"name": "ping", "description": "Check the server.", "annotations": audience}]}
    [tool] = parse_bytes("p.json", json.dumps(ping).encode()).tools
    assert tool.format == "mcp"
    # A YAML tool file broken on a line whose `{{user_name}}` is inside a description is reported.
    (tmp_path / "functions.yaml").write_text("""functions:
  - name: greet_user
    description: Say hello as "Hi {{user_name}}": keep it short
    parameters:
      type: object
""", encoding="utf-8")
    (tmp_path / "request.json").write_bytes(b'\xef\xbb\xbf{"system": "You are {{persona}}.", "functions": '
                                            b'[{"name": "w", "parameters": {"type": "object"}},]}')
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert sorted(e.file for e in found.errors) == ["functions.yaml", "request.json"]


def test_named_parameters_and_typed_schema_records_stay_tools() -> None:
    research = {"name": "research", "description": "Delegate research.",
                "parameters": {"topic": {"type": "string", "description": "Topic"}}, "functions": ["search"]}
    search = {"name": "search", "description": "Search.", "parameters": {"type": "object"}}
    assert names("r.json", [research, search]) == ["research", "search"]
    typed = [{"name": "get_weather", "type": "object", "parameters": {"type": "object", "properties": {}}}]
    assert names("t.json", typed) == ["get_weather"]


def test_parameters_holding_lists_do_not_break_recognition() -> None:
    odd = [{"name": "a", "parameters": {"x": [1, 2], "y": {"k": 1}}}, {"name": "b", "parameters": {"z": [3]}}]
    parsed = parse_bytes("odd.json", json.dumps(odd).encode())
    # Values, not schemas, and no description: no tool. A crash would be a "could not read" parse error.
    assert parsed.tools == () and parsed.errors == ()


def test_keys_written_twice_in_a_bedrock_schema_are_placed_under_its_json_member() -> None:
    text = (b'[{"toolSpec": {"name": "w", "description": "Weather for a city.", "inputSchema": '
            b'{"json": {"type": "object"}, "json": {"type": "object", "properties": '
            b'{"c": {"type": "string", "description": "City", "description": "City name"}}}}}}]')
    [tool] = parse_bytes("b.json", text).tools
    assert [(at, key) for at, key, _, _ in tool.repeated_keys] == [
        ("/input_schema", "json"), ("/input_schema/properties/c/description", "description")]
