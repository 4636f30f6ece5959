"""A tool definition whose estimated token cost is above the budget.

## What it finds
A tool whose seed-002 estimate (characters of name + description + compact JSON schema, divided by
`chars_per_token`, default 4) is above `budget` (default 500 tokens). The verdict always uses the
estimate, so it does not depend on which tokenizers are installed.

## Why it matters
A definition is sent with every request. A 2,000-token tool in a 30-tool agent is paid for on every turn
of every conversation, and crowds out the context the model needs.

## Example
A tool with forty properties, each with a paragraph of description and a long enum.

## Use instead
Split the tool by task, trim descriptions, move rarely used options into a second tool.

## Options
- `budget` (default 500): estimated tokens above which a tool is reported; null turns the rule off.
- `chars_per_token` (default 4, from the config's `chars_per_token`): lower it to 3 for dense JSON.

## References
- Seed 002 (warnAboveTokens, charsPerToken)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tooldiff import tokens
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "heavy-definition"
SEVERITY: Severity = "warning"
KIND = "tool"
OPTIONS: dict[str, Any] = {"budget": 500, "chars_per_token": 4}
# What each option may be (JSON Schema), checked when the config loads.
OPTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "budget": {"type": ["integer", "null"], "minimum": 1},
    "chars_per_token": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
}

_PROPS = {
    f"field_{i}": {"type": "string", "description": "A field the report can filter on. " * 3}
    for i in range(20)
}
EXAMPLE = [
    {
        "name": "export_report",
        "description": "Export the report.",
        "input_schema": {"type": "object", "properties": _PROPS},
    }
]
FIXED = [
    {
        "name": "export_report",
        "description": "Export the report.",
        "input_schema": {"type": "object", "properties": {"fmt": {"type": "string"}}},
    }
]


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    budget = ctx.options.get("budget", 500)
    if budget is None:
        return
    cpt = float(ctx.options.get("chars_per_token", 4) or 4)
    n = tokens.estimate(tool, cpt)
    if n > int(budget):
        yield Problem(
            message=f"Estimated {n} tokens per call (budget {budget}).",
            fix="Trim descriptions and enums, or split the tool by task.",
            pointer="",
            targets=tuple(t.name for t in ctx.targets),
            evidence={"tokens": n, "budget": int(budget), "method": "estimate", "chars_per_token": cpt},
        )
