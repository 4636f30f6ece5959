"""Target merging, junk schemas, recursion and deep nesting in the lint rules."""

from __future__ import annotations

import importlib
import json
import math
from types import ModuleType
from typing import Any

import pytest

from tooldiff import schemawalk
from tooldiff.model import Problem, Tool, Toolset
from tooldiff.rules import LINT_MODULES
from tooldiff.rules.base import Context
from tooldiff.targets import TARGETS, resolve

# The lint rules that judge one tool (toolset rules and parse-error are left out).
TOOL_RULES = tuple(
    n for n in LINT_MODULES if importlib.import_module(f"tooldiff.rules.{n}").KIND == "tool"
)


def tool(
    schema: Any,
    name: str = "do_it",
    description: str = "Do it.",
    fmt: str = "anthropic",
    key: str = "input_schema",
) -> Tool:
    return Tool(
        name=name,
        description=description,
        input_schema=schema,
        format=fmt,
        file="t.json",
        line=1,
        pointer="/0",
        schema_pointer="/0/input_schema",
        schema_key=key,
    )


# The targets these tests were written about; anthropic-strict has its own (`test_anthropic_strict_...`).
FOUR = ("openai-strict", "openai", "anthropic", "google")


def check(rule: str, t: Tool, targets: tuple[str, ...] = FOUR) -> list[Problem]:
    mod: ModuleType = importlib.import_module(f"tooldiff.rules.{rule}")
    return list(mod.check(t, Context(targets=resolve(targets), options=dict(getattr(mod, "OPTIONS", {})))))


def test_a_problem_shared_by_targets_is_one_problem_listing_them() -> None:
    found = check("invalid_name", tool({"type": "object"}, name="math.sum"))
    assert len(found) == 1
    assert found[0].targets == ("openai-strict", "openai", "anthropic")  # Google allows dots
    found = check("unsupported_keyword", tool({"type": "object", "properties": {"a": {"not": {}}}}))
    assert [(p.pointer, p.targets) for p in found] == [
        ("/input_schema/properties/a/not", ("openai-strict", "google"))
    ]


def test_an_unsupported_keyword_without_a_known_rewrite_says_what_to_do_once() -> None:
    schema = {"type": "object", "propertyNames": {"pattern": "^a"}}
    [found] = check("unsupported_keyword", tool(schema), ("google",))
    assert found.fix == "Remove propertyNames: express the constraint in the description instead."


def test_google_name_rule_differs() -> None:
    assert check("invalid_name", tool({}, name="ns.tool:v1"), ("google",)) == []
    assert check("invalid_name", tool({}, name="9lives"), ("google",))[0].targets == ("google",)
    assert check("invalid_name", tool({}, name="9lives"), ("anthropic",)) == []
    assert check("invalid_name", tool({}, name="x" * 129), ("anthropic",))


def test_names_up_to_128_characters_pass_anthropic_and_google_but_not_openai() -> None:
    """Anthropic's Define tools page ("Must match the regex ^[a-zA-Z0-9_-]{1,128}$") and Google's
    FunctionDeclaration.name ("with a maximum length of 128") now allow 128 characters; OpenAI keeps 64."""
    # An MCP gateway's server-prefixed name: 81 characters.
    name = "mcp__atlassian_confluence__search_pages_by_space_key_label_and_last_modified_date"
    [found] = check("invalid_name", tool({"type": "object"}, name=name))
    assert found.targets == ("openai-strict", "openai")
    [found] = check("invalid_name", tool({"type": "object"}, name=name + "_" + "x" * 47))  # 129
    assert found.targets == ("openai-strict", "openai", "anthropic", "google")


@pytest.mark.parametrize(
    "schema",
    [
        None,
        True,
        False,
        0,
        "object",
        [],
        [1, {"type": "object"}],
        {"type": "dict", "properties": {"a": {"type": "float"}}},
        {"type": ["object", 3], "properties": {"a": "junk", "b": None, "c": True}, "required": "a"},
        {"properties": [], "$defs": 5, "anyOf": {"type": "x"}, "items": [True, 1], "enum": "abc", "$ref": 7},
        {"$ref": "#/%zz/~2"},
        {"type": "object", "properties": {1: {"type": "string"}}},
    ],
)
def test_junk_schemas_never_raise(schema: Any) -> None:
    t = tool(schema)
    for rule in TOOL_RULES:
        for p in check(rule, t):
            assert isinstance(p.message, str)


def test_deep_nesting_does_not_recurse() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(20_000):
        schema = {"type": "object", "properties": {"x": schema}}
    t = tool(schema)
    for rule in TOOL_RULES:
        if rule != "invalid_json_schema":  # the Rust validator has its own depth handling
            check(rule, t)
    depth = check("schema_limit", t, ("openai-strict",))
    assert depth and depth[0].evidence["value"] >= 10_000


def test_walk_visits_shared_subtrees_once_and_stops_at_the_cap() -> None:
    shared: dict[str, Any] = {"type": "object", "properties": {}}
    shared["properties"]["self"] = shared  # a YAML alias can build a cycle
    nodes = schemawalk.walk({"type": "object", "properties": {"a": shared, "b": shared}})
    assert len(nodes) <= 5
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(50)}}
    assert len(schemawalk.walk(wide, max_nodes=10)) == 10


def test_pointers_escape_property_names() -> None:
    t = tool({"type": "object", "additionalProperties": False, "properties": {"a/b~c": {"type": "string"}}})
    [p] = check("optional_not_required", t, ("openai-strict",))
    assert p.pointer == "/input_schema/properties/a~1b~0c"


def test_recursion_is_legal_only_where_the_target_documents_it() -> None:
    schema = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}
    assert check("unresolved_ref", tool(schema), ("openai-strict",)) == []
    assert check("unresolved_ref", tool(schema), ("openai",)) == []  # the guide documents it for OpenAI
    [p] = check("unresolved_ref", tool(schema), ("openai-strict", "anthropic", "google"))
    assert p.targets == ("anthropic", "google")
    assert p.pointer == "/input_schema/properties/children/items/$ref"


def test_indirect_cycles_and_anchors() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/a"}, "n": {"$ref": "#node"}},
        "$defs": {
            "a": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}},
            "b": {"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}},
            "node": {"$anchor": "node", "type": "string"},
        },
    }
    found = check("unresolved_ref", tool(schema), ("anthropic",))
    assert sorted(p.pointer for p in found) == [
        "/input_schema/$defs/a/properties/b/$ref",
        "/input_schema/$defs/b/properties/a/$ref",
    ]
    assert all(p.evidence["reason"] == "recursive" for p in found)


def test_percent_encoded_and_escaped_refs_resolve() -> None:
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/a~1b%20c"}}, "$defs": {"a/b c": {}}}
    assert check("unresolved_ref", tool(schema), ("anthropic",)) == []


def test_parameterless_tools_are_not_root_not_object() -> None:
    assert check("root_not_object", tool(None, fmt="function", key="")) == []
    assert check("root_not_object", tool({}, fmt="function", key="")) == []
    # declared but empty: OpenAI rejects it
    assert check("root_not_object", tool({}, fmt="function", key="parameters"))


def test_a_null_schema_is_no_schema_where_the_format_makes_it_optional() -> None:
    # OpenAI and Gemini make the schema optional, and a bare record's `parameters: null` is for the client
    # to convert (Anthropic's own record requires it: test_an_anthropic_tool_needs_an_input_schema...).
    assert check("root_not_object", tool(None, fmt="function", key="parameters")) == []


def test_gemini_openapi_types_are_not_invalid() -> None:
    from tooldiff.parsers import parse_bytes

    schema = {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}}
    for key, invalid in (("parameters", False), ("parametersJsonSchema", True)):
        decl = {"functionDeclarations": [{"name": "weather", "description": "Weather.", key: schema}]}
        [parsed] = parse_bytes("g.json", json.dumps(decl).encode()).tools
        assert bool(check("invalid_json_schema", parsed, ("google",))) is invalid


@pytest.mark.parametrize(
    ("written", "message", "fix"),
    [
        ("str", '"str" is not a JSON Schema type', 'Write "string" instead of "str".'),
        ("dict", "not a JSON Schema type", 'Write "object" instead of "dict".'),
        ("STRING", "not a JSON Schema type", 'Write "string" instead of "STRING".'),
        ("strng", "not a JSON Schema type", 'Write "string" instead of "strng".'),
        (["string", "nul"], '"nul" is not a JSON Schema type', 'Write "null" instead of "nul".'),
        ("any", "not a JSON Schema type", "Leave `type` out"),
        ("ENUM", "not a JSON Schema type", 'list the values under "enum"'),  # not "number", a near spelling
        ("string | null", "not a JSON Schema type", 'Write the types as a list: ["string", "null"].'),
        ("DATE (YYYY-MM-DD)", "not a JSON Schema type", "say the format in the description"),
    ],
)
def test_a_type_that_names_no_json_schema_type_gets_a_plain_message_and_the_type_to_write(
    written: Any, message: str, fix: str
) -> None:
    (found,) = check("invalid_json_schema", tool({"type": "object", "properties": {"a": {"type": written}}}))
    assert message in found.message and "anyOf" not in found.message and fix in found.fix
    assert found.pointer == "/input_schema/properties/a/type"


def test_a_property_named_type_keeps_the_validators_message() -> None:
    (found,) = check("invalid_json_schema", tool({"type": "object", "properties": {"type": "str"}}))
    assert "not a JSON Schema type" not in found.message
    assert found.fix == "Fix the schema so it validates against its draft's meta-schema."


def test_unknown_meta_schema_is_never_fetched() -> None:
    schema = {"$schema": "https://example.invalid/meta", "type": "object"}
    assert check("invalid_json_schema", tool(schema)) == []


def test_missing_description_severities() -> None:
    found = check(
        "missing_description",
        tool({"type": "object", "properties": {"a": {"type": "string"}}}, description=""),
    )
    assert [(p.pointer, p.severity) for p in found] == [
        ("/description", "warning"),
        ("/input_schema/properties/a", "info"),
    ]


def test_heavy_definition_uses_the_configured_budget_and_rate() -> None:
    t = tool({"type": "object"}, description="x" * 400)
    mod = importlib.import_module("tooldiff.rules.heavy_definition")
    ctx = Context(targets=resolve(("anthropic",)), options={"budget": 100, "chars_per_token": 4})
    assert [p.evidence["tokens"] for p in mod.check(t, ctx)] == [106]  # ceil((5 + 400 + 17) / 4)
    ctx = Context(targets=resolve(("anthropic",)), options={"budget": 200, "chars_per_token": 4})
    assert list(mod.check(t, ctx)) == []


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "properties",
                    "required",
                    "items",
                    "$ref",
                    "anyOf",
                    "enum",
                    "$defs",
                    "additionalProperties",
                    "description",
                    "not",
                    "x",
                ]
            )
            | st.text(max_size=3),
            inner,
            max_size=5,
        )
    ),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_any_json_value_as_a_schema_never_raises(schema: Any) -> None:
    t = tool(schema)
    for rule in TOOL_RULES:
        check(rule, t)


def test_key_order_never_changes_a_schema_rule_finding() -> None:
    # Two errors: the one reported must not depend on the order the keys were written in (the engine
    # shares the problems of schemas with equal canonical JSON).
    first = {"type": "object", "properties": {"b": {"type": "NUMBER"}, "a": {"type": "str"}}}
    second = {"properties": {"a": {"type": "str"}, "b": {"type": "NUMBER"}}, "type": "object"}
    for rule in [m for m in TOOL_RULES if getattr(importlib.import_module(f"tooldiff.rules.{m}"),
                                                  "SCHEMA_ONLY", False)]:
        one, two = check(rule, tool(first)), check(rule, tool(second))
        assert sorted(map(repr, one)) == sorted(map(repr, two)), rule
    got = check("invalid_json_schema", tool(second))
    assert [p.pointer for p in got] == ["/input_schema/properties/a/type"]


def test_schema_parts_never_read_the_name_or_text_and_the_parts_make_the_whole() -> None:
    from tooldiff.rules import tool_rule_parts

    schema = {"type": "object", "properties": {"q": {"type": "str", "$ref": "#/nowhere"}, "n": {}}, "if": {}}
    split = 0
    for rule in TOOL_RULES:
        module = importlib.import_module(f"tooldiff.rules.{rule}")
        schema_part, rest = tool_rule_parts(module)
        ctx = Context(targets=resolve(tuple(TARGETS)), options=dict(getattr(module, "OPTIONS", {})))
        for t in (tool(schema), tool(schema, name="x", description="")):
            parts = [*(rest(t, ctx) if rest else ()), *(schema_part(t, ctx) if schema_part else ())]
            assert sorted(map(repr, parts)) == sorted(map(repr, module.check(t, ctx))), rule
        if schema_part is None:
            continue
        split += rest is not None
        plain = list(schema_part(tool(schema), ctx))
        renamed = tool(schema, name="other_tool", description="Something else entirely.")
        other = list(schema_part(renamed, ctx))
        assert plain == other, rule
    assert split == 2  # missing- and oversized-description: their property parts are checked once per schema


def test_a_rule_that_says_it_does_not_apply_finds_nothing() -> None:
    # The engine leaves a rule out for a target set where its `applies` is False; that must lose nothing.
    import json
    from itertools import combinations
    from pathlib import Path

    records: list[dict[str, Any]] = []
    for path in sorted((Path(__file__).resolve().parents[1] / "fixtures" / "lint").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        records += case["bad"] + case["good"]
    for rule in TOOL_RULES:
        module = importlib.import_module(f"tooldiff.rules.{rule}")
        records += module.EXAMPLE + module.FIXED
    tools = [tool(r.get("input_schema"), r["name"], r.get("description", "")) for r in records]
    target_sets = [c for n in (1, 2, 3) for c in combinations(sorted(TARGETS), n)]
    seen_false = 0
    for rule in TOOL_RULES:
        module = importlib.import_module(f"tooldiff.rules.{rule}")
        if not hasattr(module, "applies"):
            continue
        for names in target_sets:
            ctx = Context(targets=resolve(names), options=dict(getattr(module, "OPTIONS", {})))
            if module.applies(ctx):
                continue
            seen_false += 1
            assert [p for t in tools for p in module.check(t, ctx)] == [], (rule, names)
    assert seen_false  # the default targets of MCP and bare records leave the strict-mode rules out


def test_implicit_strict_only_where_the_api_makes_an_unset_strict_strict(tmp_path: Any) -> None:
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    params = {"type": "object", "required": ["city"],
              "properties": {"city": {"type": "string"}, "units": {"type": "string"}}}
    flat = {"type": "function", "name": "get_weather", "description": "Current weather for a city.",
            "parameters": params}
    files = {
        "responses.json": [flat],  # Responses API, strict left out: fires
        "responses_off.json": [{**flat, "strict": False}],  # says what it wants: silent
        "chat.json": [{"type": "function", "function": {k: v for k, v in flat.items() if k != "type"}}],
        "all_required.json": [{**flat, "parameters": {**params, "required": ["city", "units"]}}],
    }
    for name, doc in files.items():
        (tmp_path / name).write_text(json.dumps(doc))
    report = run_check(WorktreeSource(tmp_path), Config.default())
    found = [(f.file, f.targets, f.evidence) for f in report.findings if f.code == "implicit-strict"]
    assert found == [("responses.json", ("openai",), {"optional": ["units"]})]
    # One optional property is "it", not "them".
    message, fix = next((f.message, f.fix) for f in report.findings if f.code == "implicit-strict")
    assert 'the optional "units" would then be required, and the model would fill it on every' in message
    assert fix.startswith('Set "strict": false to keep it optional')


def test_google_accepts_512_function_declarations_and_openai_128() -> None:
    """Gemini Enterprise Agent Platform, Tool.functionDeclarations: "Maximum 512 function declarations can be
    provided." (128 before); OpenAI Chat Completions tools: "A max of 128 functions are supported."."""
    mod: ModuleType = importlib.import_module("tooldiff.rules.too_many_tools")

    def toolset(n: int, fmt: str) -> Toolset:
        schema = {"type": "object", "properties": {"id": {"type": "string"}}}
        tools = tuple(tool(schema, name=f"crm_get_record_{i}", fmt=fmt) for i in range(n))
        return Toolset(id="functions.json", files=("functions.json",), tools=tools)

    def over(n: int, fmt: str, targets: tuple[str, ...]) -> list[Problem]:
        return list(mod.check(toolset(n, fmt), Context(targets=resolve(targets))))

    assert over(200, "gemini", ("google",)) == []  # an MCP gateway merging a few servers
    [found] = over(513, "gemini", ("google",))
    assert found.evidence == {"counts": {"google": 513}, "limits": {"google": 512}}
    [found] = over(129, "openai-chat", ("openai",))
    assert found.evidence == {"counts": {"openai": 129}, "limits": {"openai": 128}}


@pytest.mark.parametrize(
    ("name", "description", "says"),
    [  # combined corpus: 262 descriptions only restate the name, 3 are a dash
        ("bookBusinessTravel", "Book business travel", "only repeats its name"),
        ("metrics", "metrics", "only repeats its name"),
        ("list_items", "-", "has no description"),
        ("version", "  ", "has no description"),
    ],
)
def test_a_description_that_says_nothing_beyond_the_name_is_missing(
    name: str, description: str, says: str
) -> None:
    [found] = check("missing_description", tool({"type": "object"}, name=name, description=description))
    assert says in found.message and found.pointer == "/description", found


def test_a_description_that_starts_with_the_name_and_says_more_is_kept() -> None:
    t = tool({"type": "object"}, name="book_travel",
             description="Book travel: a flight and a hotel for one trip.")
    assert check("missing_description", t) == []


def test_a_property_description_that_only_repeats_its_name_is_missing() -> None:
    schema = {"type": "object", "properties": {
        "offset": {"type": "integer", "description": "Offset"},
        "task_id": {"type": "string", "description": "Task ID"},
        "city": {"type": "string", "description": "City name, e.g. Paris"},
        "tag": {"type": "string", "description": "-"},
    }}
    found = check("missing_description", tool(schema, description="Page through the tasks of one project."))
    assert [(p.pointer, p.severity, "repeats" in p.message) for p in found] == [
        ("/input_schema/properties/offset", "info", True),
        ("/input_schema/properties/task_id", "info", True),
        ("/input_schema/properties/tag", "info", False),
    ]


@pytest.mark.parametrize(("schema", "key", "found"), [
    (None, "inputSchema", "null"),
    (None, "", "missing"),
    ({"properties": {"id": {"type": "string"}}}, "inputSchema", "untyped"),
])
def test_an_mcp_tool_needs_an_input_schema_of_type_object(schema: Any, key: str, found: str) -> None:
    # MCP's Tool.inputSchema is required and typed "object": the SDK clients refuse the whole tools/list
    # result otherwise, whatever provider the tools were meant for (github-mcp-server shipped a null once).
    problems = check("root_not_object", tool(schema, fmt="mcp", key=key), ("anthropic", "openai", "google"))
    assert [(p.pointer, p.targets, p.evidence["found"]) for p in problems] == [("/input_schema", (), found)]
    assert "inputSchema" in problems[0].message and "tools/list" in problems[0].message
    ok = {"type": "object", "properties": {}}
    assert check("root_not_object", tool(ok, fmt="mcp", key="inputSchema")) == []
    # In a bare record, only the targets that require "type": "object" refuse an untyped root.
    bare = check("root_not_object", tool(schema, fmt="function", key="parameters" if key else ""))
    refusing = [("openai-strict", "openai", "anthropic")] if found == "untyped" else []
    assert [p.targets for p in bare] == refusing


@pytest.mark.parametrize(("tool_name", "flag"), [
    ("reelier_replay", "allowDestructive"),  # the misses of a review of ../shared/corpora/mcp
    ("reelier_replay", "allowWrites"),
    ("puppeteer_navigate", "allowDangerous"),
    ("node_management", "deleteLocalData"),
    ("rename-collection", "dropTarget"),
])
def test_a_flag_named_for_writes_or_deletes_escalates(tool_name: str, flag: str) -> None:
    schema = {"type": "object", "properties": {flag: {"type": "boolean"}}}
    found = check("escalation_flag", tool(schema, name=tool_name, description="Run it."))
    assert [p.pointer for p in found] == [f"/input_schema/properties/{flag}"]
    plain = {"type": "object", "properties": {"include_deleted": {"type": "boolean"}}}
    assert check("escalation_flag", tool(plain, name="sync_files", description="Sync the files.")) == []



@pytest.mark.parametrize("flag",
                         ["softDelete", "non_destructive", "skip_delete", "noDelete", "preventDelete"])
def test_a_flag_that_makes_the_call_safer_does_not_escalate(flag: str) -> None:
    schema = {"type": "object", "properties": {flag: {"type": "boolean"}}}
    assert check("escalation_flag", tool(schema, name="update_record", description="Update a record.")) == []


def test_oversized_description_counts_characters_as_the_token_estimate_does() -> None:
    """Seed 002's library is JavaScript: a character beyond U+FFFF (an emoji) is two, in the 1,024 limit as in
    the four characters per token. 617 code points, 1,217 UTF-16 units: over."""
    module = importlib.import_module("tooldiff.rules.oversized_description")
    ctx = Context(targets=(TARGETS["anthropic"],), options=dict(module.OPTIONS))
    emoji = tool({"type": "object", "properties": {}}, description="Get the weather. " + "\U0001F600" * 600)
    [problem] = list(module.check(emoji, ctx))
    assert problem.evidence["chars"] == 1217 and "1217 characters" in problem.message
    plain = tool({"type": "object", "properties": {}}, description="é" * 1024)  # one unit each: not over
    assert list(module.check(plain, ctx)) == []


def test_oversized_description_reads_every_description_in_the_schema() -> None:
    """Seed 002's property limit: a description reached through `items`, an `anyOf` branch or `$defs` is
    sent on every call as a property's is. The root's is the tool's description's business, not this."""
    module = importlib.import_module("tooldiff.rules.oversized_description")
    ctx = Context(targets=(TARGETS["anthropic"],), options=dict(module.OPTIONS))
    long = {"type": "string", "description": "x" * 600}
    schema = {"type": "object", "description": "y" * 600, "properties": {
        "tags": {"type": "array", "items": long},
        "when": {"anyOf": [long, {"type": "null"}]},
        "ref": {"$ref": "#/$defs/d"}}, "$defs": {"d": long}}
    problems = list(module.check(tool(schema), ctx))
    assert sorted(p.pointer for p in problems) == [
        "/input_schema/$defs/d/description", "/input_schema/properties/tags/items/description",
        "/input_schema/properties/when/anyOf/0/description"]
    assert all("600 characters, over 512" in p.message for p in problems)


@pytest.mark.parametrize(("keyword", "refused_by"), [
    ("oneOf", ("openai-strict", "openai", "anthropic")),
    ("anyOf", ("openai-strict", "openai", "anthropic")),
    ("allOf", ("openai-strict", "openai", "anthropic")),
    ("not", ("openai-strict", "openai")),
])
def test_a_root_that_combines_schemas_is_refused_where_the_api_refuses_it(
    keyword: str, refused_by: tuple[str, ...]
) -> None:
    # zod unions give MCP servers a root `oneOf`: Anthropic answers 400 "input_schema does not support oneOf,
    # allOf, or anyOf at the top level" and OpenAI "schema must have type 'object' and not have
    # 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level", for the whole request.
    sub = {"required": ["yaml"]} if keyword == "not" else [{"required": ["yaml"]}, {"required": ["dir"]}]
    schema = {"type": "object", "properties": {"yaml": {"type": "string"}, "dir": {"type": "string"}},
              keyword: sub}
    found = check("root_not_object", tool(schema, fmt="mcp", key="inputSchema"))
    assert [(p.pointer, p.targets, p.evidence["found"]) for p in found] == [
        (f"/input_schema/{keyword}", refused_by, keyword)]
    assert f"`{keyword}`" in found[0].message
    inside = {"type": "object", "properties": {"source": {keyword: sub}}}
    assert check("root_not_object", tool(inside, fmt="mcp", key="inputSchema")) == []


def test_the_fix_for_a_root_any_of_is_not_another_refused_root() -> None:
    # root-not-object's fix for a bare root `anyOf` must not lead to {"type": "object", "anyOf": [...]}.
    [p] = check("root_not_object", tool({"anyOf": [{"type": "object"}, {"type": "object"}]}, fmt="function",
                                        key="parameters"))
    assert "`anyOf`" in p.message and "not at the root" in p.fix


def test_an_untyped_root_with_properties_needs_type_object_where_the_api_says_so() -> None:
    # OpenAI: "schema must be a JSON Schema of 'type: "object"', got 'type: "None"'"; Anthropic:
    # "input_schema.type: Field required". Gemini documents neither.
    schema = {"properties": {"city": {"type": "string"}}, "required": ["city"]}
    found = check("root_not_object", tool(schema, fmt="function", key="parameters"))
    assert [(p.pointer, p.targets, p.evidence["found"]) for p in found] == [
        ("/input_schema", ("openai-strict", "openai", "anthropic"), "untyped")]
    typed = tool({"type": "object", **schema}, fmt="function", key="parameters")
    assert check("root_not_object", typed) == []


@pytest.mark.parametrize(("schema", "key", "found"), [
    (None, "input_schema", "null"),
    (None, "", "missing"),
    ({"properties": {"id": {"type": "string"}}}, "input_schema", "untyped"),
])
def test_an_anthropic_tool_needs_an_input_schema_of_type_object(schema: Any, key: str, found: str) -> None:
    # The Messages API answers "tools.0.custom.input_schema: Field required" and "...input_schema.type:
    # Field required": Anthropic's own record shape requires both, even for a tool without parameters.
    problems = check("root_not_object", tool(schema, key=key), ("anthropic", "openai", "google"))
    assert [(p.pointer, p.targets, p.evidence["found"]) for p in problems] == [("/input_schema", (), found)]
    assert "input_schema" in problems[0].message


def test_an_enum_without_null_is_not_nullable_and_the_fix_says_to_add_null_to_it() -> None:
    # {"type": ["string", "null"], "enum": ["c", "f"]} refuses null: the enum decides, whatever the type says.
    units = {"type": "string", "enum": ["c", "f"]}
    loose = {"type": "object", "properties": {"units": units}, "required": []}
    [p] = check("optional_not_required", tool(loose, fmt="openai-chat", key="parameters"), ("openai-strict",))
    assert "add null to its enum" in p.fix
    half = {"type": "object", "properties": {"units": {**units, "type": ["string", "null"]}},
            "required": ["units"]}
    assert check("optional_forced_required", tool(half, fmt="openai-chat", key="parameters"),
                 ("openai-strict",)) == []
    fixed = {"type": "object", "required": ["units"],
             "properties": {"units": {"type": ["string", "null"], "enum": ["c", "f", None]}}}
    assert check("optional_forced_required", tool(fixed, fmt="openai-chat", key="parameters"),
                 ("openai-strict",))
    plain = {"type": "object", "properties": {"note": {"type": "string"}}, "required": []}
    [q] = check("optional_not_required", tool(plain, fmt="openai-chat", key="parameters"), ("openai-strict",))
    assert "enum" not in q.fix


def test_a_nullable_large_string_enum_is_measured_as_a_string_enum() -> None:
    values: list[object] = [f"{i:03d}" + "x" * 60 for i in range(260)]
    for enum in (values, [*values, None]):
        schema = {"type": "object", "properties": {"e": {"type": ["string", "null"], "enum": enum}},
                  "required": ["e"], "additionalProperties": False}
        found = check("schema_limit", tool(schema, fmt="openai-chat", key="parameters"), ("openai-strict",))
        assert [p.pointer for p in found] == ["/input_schema/properties/e/enum"], enum[-1]


def test_anthropic_strict_tool_use_closes_every_object_and_drops_bounds() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "description": "N."},
                                               "note": {"type": "string", "description": "A note."}},
              "required": ["n"]}
    strict = ("anthropic-strict",)
    assert [p.pointer for p in check("missing_additional_properties_false", tool(schema), strict)] == [
        "/input_schema"]
    assert [p.pointer for p in check("unsupported_keyword", tool(schema), strict)] == [
        "/input_schema/properties/n/minimum"]
    assert check("optional_not_required", tool(schema), strict) == []  # optional fields are allowed
    closed = {**schema, "additionalProperties": False,
              "properties": {**schema["properties"], "n": {"type": "integer", "description": "N, from 1."}}}
    described = tool(closed, description="Count the notes of a ticket from the given number on.")
    assert not any(check(rule, described, strict) for rule in TOOL_RULES)
    plain = ("anthropic",)
    assert check("missing_additional_properties_false", tool(schema), plain) == []
    assert check("unsupported_keyword", tool(schema), plain) == []


def test_invalid_name_suggests_a_name_every_failing_target_takes() -> None:
    [p] = check("invalid_name", tool({"type": "object"}, name="über tool"), ("anthropic",))
    assert p.fix == 'Rename the tool, for example to "uber_tool".'
    long = "a" * 100 + "!"
    [q] = check("invalid_name", tool({"type": "object"}, name=long), ("anthropic",))
    assert f'"{"a" * 100}_"' in q.fix  # Anthropic takes 128 characters: no cut at OpenAI's 64
    [r] = check("invalid_name", tool({"type": "object"}, name=long), ("openai", "anthropic"))
    assert f'"{"a" * 64}"' in r.fix


def test_an_untyped_mcp_root_with_properties_and_any_of_is_the_format_s_finding() -> None:
    schema = {"properties": {"id": {"type": "string"}, "url": {"type": "string"}},
              "anyOf": [{"required": ["id"]}, {"required": ["url"]}]}
    found = check("root_not_object", tool(schema, fmt="mcp", key="inputSchema"), ("google",))
    assert [(p.targets, p.evidence["found"]) for p in found] == [((), "untyped")]


def test_a_recursive_ref_says_which_targets_refuse_it_and_which_do_not_say() -> None:
    schema = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}
    [p] = check("unresolved_ref", tool(schema), ("anthropic-strict", "anthropic", "google"))
    assert "anthropic-strict does not support recursive schemas" in p.message
    assert "anthropic, google do not document support" in p.message


def test_strict_targets_refuse_formats_they_do_not_list_and_anthropic_min_items_over_one() -> None:
    """OpenAI strict mode answers 400 "'uri' is not a valid format" (its structured outputs accept nine
    formats); Anthropic's strict tool use lists ten formats and allows `minItems` of 0 or 1 only."""
    schema = {"type": "object", "additionalProperties": False, "required": ["url", "when", "tags"],
              "properties": {"url": {"type": "string", "format": "uri"},
                             "when": {"type": "string", "format": "date-time"},
                             "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                             "one": {"type": "array", "items": {"type": "string"}, "minItems": 1}}}
    found = check("unsupported_keyword", tool(schema, fmt="openai-chat", key="parameters"),
                  ("openai-strict", "anthropic-strict", "openai", "anthropic", "google"))
    assert [(p.pointer, p.targets) for p in found] == [
        ("/input_schema/properties/url/format", ("openai-strict",)),
        ("/input_schema/properties/tags/minItems", ("anthropic-strict",)),
    ]
    fmt, items = found
    assert "`uri`" in fmt.message and "date-time" in fmt.message and fmt.evidence["value"] == "uri"
    assert "0 or 1" in items.message and items.evidence == {"keyword": "minItems", "value": 2}
    assert check("unsupported_keyword", tool({"type": "object", "properties": {
        "d": {"type": "string", "format": "date"}, "x": {"format": 3}}}), ("openai-strict",)) == []


def test_anthropic_strict_takes_at_most_twenty_strict_tools_in_a_request() -> None:
    from tooldiff.rules import too_many_tools

    def toolset(n: int) -> Toolset:
        return Toolset(id="t.json", files=("t.json",), tools=tuple(
            tool({"type": "object"}, name=f"t{i}") for i in range(n)))

    ctx = Context(targets=resolve(("anthropic-strict",)), options={})
    [p] = list(too_many_tools.check(toolset(21), ctx))
    assert p.targets == ("anthropic-strict",) and "21 for anthropic-strict (max 20)" in p.message
    assert list(too_many_tools.check(toolset(20), ctx)) == []


def test_gemini_parameters_take_only_the_fields_of_google_s_schema_object() -> None:
    """`parameters` is Google's OpenAPI subset: the API answers 400 `Unknown name "additionalProperties"` to
    a key it does not define, and "Proto field is not repeating" to a list of types. `parametersJsonSchema`
    takes JSON Schema, so the same schema is fine there."""
    from tooldiff.parsers import parse_bytes

    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "additionalProperties": False, "required": ["mode"],
              "properties": {"mode": {"type": "string", "const": "fast"},
                             "note": {"type": ["string", "null"], "description": "A note."},
                             "tags": {"type": "array", "items": {"type": "string"}, "allOf": [{}]},
                             "size": {"type": "integer", "minimum": 1, "format": "int32"}}}
    for key, expected in (("parameters", [("$schema", ()), ("additionalProperties", ()),
                                          ("properties/mode/const", ()), ("properties/note/type", ()),
                                          ("properties/tags/allOf", ())]),
                          ("parametersJsonSchema", [("properties/tags/allOf", ("google",))])):
        decl = {"functionDeclarations": [{"name": "set_mode", "description": "Set the mode.", key: schema}]}
        [parsed] = parse_bytes("g.json", json.dumps(decl).encode()).tools
        found = check("unsupported_keyword", parsed, ("google",))
        assert [(p.pointer.removeprefix("/input_schema/"), p.targets) for p in found] == expected, key
    decl = {"functionDeclarations": [
        {"name": "set_mode", "description": "Set the mode.", "parameters": schema}]}
    [parsed] = parse_bytes("g.json", json.dumps(decl).encode()).tools
    by_pointer = {p.pointer: p for p in check("unsupported_keyword", parsed, ("openai",))}
    extra = by_pointer["/input_schema/additionalProperties"]
    assert "Gemini" in extra.message and "parametersJsonSchema" in extra.fix  # whatever the targets
    assert "nullable" in by_pointer["/input_schema/properties/note/type"].fix


def test_anthropic_strict_limits_optional_and_union_parameters_across_a_request() -> None:
    """Strict tool use compiles every strict schema of a request into one grammar: at most 24 optional
    parameters and 16 that take `anyOf` or a list of types, over all of them ("Schema is too complex")."""
    from tooldiff.rules import too_many_tools

    def strict_tool(i: int, optional: int, unions: int) -> Tool:
        props: dict[str, Any] = {f"o{k}": {"type": "string"} for k in range(optional)}
        props |= {f"u{k}": {"type": ["string", "null"]} for k in range(unions)}
        return tool({"type": "object", "properties": props, "required": [f"u{k}" for k in range(unions)]},
                    name=f"t{i}")

    ctx = Context(targets=resolve(("anthropic-strict",)), options={})
    heavy = Toolset(id="t.json", files=("t.json",), tools=tuple(strict_tool(i, 10, 6) for i in range(3)))
    [p] = list(too_many_tools.check(heavy, ctx))
    assert "30 optional parameters" in p.message and "(max 24)" in p.message
    assert "18 parameters with anyOf or a list of types" in p.message and "(max 16)" in p.message
    light = Toolset(id="t.json", files=("t.json",), tools=tuple(strict_tool(i, 8, 5) for i in range(3)))
    assert list(too_many_tools.check(light, ctx)) == []
    plain = Context(targets=resolve(("anthropic",)), options={})
    assert list(too_many_tools.check(heavy, plain)) == []


def test_invalid_name_suggestions_are_unique_in_the_toolset(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Following every suggestion must not make a duplicate-name: two long names cut to one prefix, and a
    dotted name whose plain form another tool already has, get names of their own."""
    from tooldiff.cli import main

    prefix = "a" * 128
    names = [prefix + "_one", prefix + "_two", "math.sum", "math_sum", "math:sum", prefix[:126] + "_2"]
    tools = [{"name": n, "description": "Do it.", "input_schema": {"type": "object"}} for n in names]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    main(["check", str(path), "--format", "json", "--select", "invalid-name"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    suggested = {f["tools"][0]: f["fix"].split('"')[1] for f in findings}
    assert set(suggested) == {prefix + "_one", prefix + "_two", "math.sum", "math:sum"}
    assert suggested["math.sum"] == "math_sum_2" and suggested["math:sum"] == "math_sum_3"
    assert suggested[prefix + "_one"] == prefix  # the first in the file keeps the plain cut
    assert len(set(suggested.values())) == len(suggested) and not set(suggested.values()) & set(names)
    assert all(len(s) <= 128 and TARGETS["anthropic"].name_pattern.fullmatch(s) for s in suggested.values())
    # Two limits cut the same name differently: each counts its own suffixes (a read-through's case).
    mod = importlib.import_module("tooldiff.rules.invalid_name")
    n = "n" * 64
    taken: set[str] = {n}
    tried: dict[tuple[str, int], int] = {}
    taken.add(mod._free(n, 128, taken, tried))
    assert taken == {n, n + "_2"}
    assert mod._free(n, 64, taken, tried) == n[:62] + "_2"
    # Alone, with no toolset to compare with, the rule suggests as before.
    [alone] = check("invalid_name", tool({"type": "object"}, name="math.sum"))
    assert alone.fix == 'Rename the tool, for example to "math_sum".'


@pytest.mark.parametrize(
    ("schema", "message", "pointer"),
    [
        ({"type": "number", "minimum": math.inf}, "`minimum` is infinity", "/input_schema/minimum"),
        ({"enum": [1, -math.inf]}, "a value of `enum` is minus infinity", "/input_schema/enum/1"),
        ({"type": "object", "properties": {"a": {"default": math.nan}}}, "`default` is NaN",
         "/input_schema/properties/a/default"),  # the meta-schema check alone passes it
        ([1, math.inf], "a value of the schema is infinity", "/input_schema/1"),
        (math.nan, "the schema is NaN", "/input_schema"),
    ],
)
def test_a_number_json_cannot_carry_is_named_not_called_null(schema: Any, message: str, pointer: str) -> None:
    (found,) = check("invalid_json_schema", tool(schema))
    assert message in found.message and "JSON cannot carry" in found.message and "null" not in found.message
    assert found.pointer == pointer and found.fix.startswith("Write a finite number")


def test_nan_and_infinity_as_words_are_no_such_number() -> None:
    schema = {"type": "object", "description": "NaN or Infinity", "properties": {"x": {"enum": ["NaN"]}}}
    assert check("invalid_json_schema", tool(schema)) == []


def test_yaml_inf_in_a_schema_is_reported_on_its_line(tmp_path: Any) -> None:
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    (tmp_path / "tools.yaml").write_text(
        "tools:\n  - name: set_rate\n    description: Set the rate.\n    input_schema:\n      type: object\n"
        "      properties:\n        rate:\n          type: number\n          maximum: .inf\n"
    )
    report = run_check(WorktreeSource(tmp_path), Config.default())
    (found,) = [f for f in report.findings if f.code == "invalid-json-schema"]
    assert found.line == 9 and "`maximum` is infinity" in found.message
