"""Token counts of a tool definition, each labelled by the method that produced it.

- `estimate` (seed 002): characters of name + description + compact JSON schema, divided by
  `chars_per_token` (default 4) and rounded up. Offline, instant, always present, and the only number the
  `heavy-definition` and `token-budget` verdicts use, so a verdict never depends on what is installed.
- `openai-o200k`: OpenAI's `namespace functions` rendering counted with o200k_base (see `tokens_openai`).
- `claude-ctok`: only where the `ctok` package imports; it is an unofficial reconstruction of Claude's
  tokenizer, not Anthropic's.

Counts are cached by schemaHash (and chars_per_token), so an unchanged tool is never counted twice.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from tooldiff import tokens_openai
from tooldiff.model import Tool
from tooldiff.schemahash import schema_hash, schema_json
from tooldiff.schemawalk import has_schema

# How each method is named under a token table; ctok must always say it is unofficial.
METHOD_NOTES: dict[str, str] = {
    "estimate": "characters ÷ 4, an offline estimate that can be off by tens of percent",
    "claude-ctok": "an unofficial reconstruction of Claude's tokenizer",
}

# Tokens a request pays once, however many tools it carries. They are the same at base and head, so they
# cancel out of every delta; they matter only for an absolute toolset figure.
# - estimate: seed 002 counts the definition alone.
# - openai-o200k: the `namespace functions { ... }` wrapper (tokens_openai.namespace_overhead()).
# - claude-ctok: Anthropic's tool-use system prompt, 346 tokens on Claude 4 models with tool_choice auto
#   (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview#pricing).
REQUEST_OVERHEAD: dict[str, int] = {"estimate": 0, "openai-o200k": 13, "claude-ctok": 346}


def estimate(tool: Tool, chars_per_token: float = 4) -> int:
    schema_chars = utf16_units(schema_json(tool.input_schema)) if has_schema(tool) else 0
    chars = utf16_units(tool.name) + utf16_units(tool.description) + schema_chars
    return math.ceil(chars / chars_per_token) if chars_per_token > 0 else chars


def utf16_units(text: str) -> int:
    """Length in UTF-16 units, as seed 002's (JavaScript) library counts characters: a character beyond
    U+FFFF (most emoji) is two."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@cache
def _ctok_counter() -> Callable[[str], int] | None:
    try:
        import ctok
    except Exception:
        return None
    for name in ("count_tokens", "count"):
        fn = getattr(ctok, name, None)
        if callable(fn):
            counter: Callable[[str], Any] = fn
            return lambda text: int(counter(text))
    return None


def _ctok_text(tool: Tool) -> str:
    return json.dumps(
        {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema},
        ensure_ascii=False,
        default=str,
    )


@cache
def available_methods() -> tuple[str, ...]:
    methods = ["estimate"]
    if tokens_openai.encoding() is not None:
        methods.append("openai-o200k")
    if _ctok_counter() is not None:
        methods.append("claude-ctok")
    return tuple(methods)


def methods_counted(methods: Iterable[str] | None = None) -> tuple[str, ...]:
    """The methods a count with `methods` produces: always the estimate, then those available."""
    if isinstance(methods, tuple):
        return _methods_counted(methods)  # asked once per tool: remembered
    return _methods_counted(None if methods is None else tuple(methods))


@cache
def _methods_counted(methods: tuple[str, ...] | None) -> tuple[str, ...]:
    wanted = available_methods() if methods is None else ("estimate", *methods)
    if all(m == "estimate" for m in wanted):
        # Asking which tokenizers exist loads o200k (about 12 bare parses of the 20k corpus): skip it.
        return ("estimate",)
    return tuple(m for m in available_methods() if m in wanted)


_COUNTS: dict[tuple[str, float, tuple[str, ...]], dict[str, int]] = {}


def count_tool(
    tool: Tool,
    *,
    chars_per_token: float = 4,
    methods: Iterable[str] | None = None,
    hash_: str | None = None,
) -> dict[str, int]:
    """Tokens per method (default: every available one) for one tool, cached by schemaHash."""
    wanted = methods_counted(methods)
    key = (hash_ or schema_hash(tool), chars_per_token, wanted)
    hit = _COUNTS.get(key)
    if hit is not None:
        return dict(hit)
    out = {"estimate": estimate(tool, chars_per_token)}
    if "openai-o200k" in wanted:
        out["openai-o200k"] = tokens_openai.count_tool(tool)
    counter = _ctok_counter()
    if counter is not None and "claude-ctok" in wanted:
        out["claude-ctok"] = counter(_ctok_text(tool))
    _COUNTS[key] = out
    return dict(out)


def sum_counts(rows: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Per-method counts summed; the per-request overhead is left out (it cancels in a delta)."""
    total: dict[str, int] = {}
    for row in rows:
        for method, n in row.items():
            total[method] = total.get(method, 0) + n
    return total


def count_toolset(tools: Iterable[Tool], *, chars_per_token: float = 4) -> dict[str, int]:
    """Sum over the tools, per method."""
    return sum_counts(count_tool(t, chars_per_token=chars_per_token) for t in tools)


def toolset_estimate(tools: Iterable[Tool], chars_per_token: float = 4) -> int:
    """Seed 002's estimate for a whole toolset: what `token-budget` judges."""
    return sum(estimate(t, chars_per_token) for t in tools)
