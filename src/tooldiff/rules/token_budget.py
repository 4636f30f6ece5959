"""A toolset whose estimated token cost is over the configured toolset budget.

## What it finds
A toolset whose seed-002 estimate (the sum of its tools' estimates) is above its budget: the toolset's own
`budget` in the config's `toolsets`, else the `budget` option (the config's `budgets.toolset_tokens`).
Silent when no budget is set.

## Why it matters
Every tool in a toolset is sent on every request. A budget makes growth a reviewed decision instead of a
slow drift that eats context and money.

## Example
A toolset of 60 tools estimated at 24,000 tokens with a budget of 15,000.

## Use instead
Trim or split the toolset, or raise the budget knowingly in `.tooldiff.yml`.

## Options
- `budget` (default none): the toolset token budget; the rule is silent without one. A toolset's own
  `budget` (`toolsets: [{name, files, budget}]`) wins over it.
- `chars_per_token` (default 4, from the config's `chars_per_token`).

## References
- Seed 002 (estimateInputTokens)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tooldiff import tokens
from tooldiff.model import Problem, Severity, Toolset
from tooldiff.rules.base import Context
from tooldiff.targets import ordered

CODE = "token-budget"
SEVERITY: Severity = "warning"
KIND = "toolset"
OPTIONS: dict[str, Any] = {"budget": None, "chars_per_token": 4}
# What each option may be (JSON Schema), checked when the config loads.
OPTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "budget": {"type": ["integer", "null"], "minimum": 1},
    "chars_per_token": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
}

_PROPS = {
    f"field_{i}": {"type": "string", "description": "A field the search can filter on."} for i in range(10)
}
EXAMPLE = [
    {
        "name": f"search_{i}",
        "description": "Search one of the indexes.",
        "input_schema": {"type": "object", "properties": _PROPS},
    }
    for i in range(5)
]
FIXED = EXAMPLE[:1]
EXAMPLE_OPTIONS: dict[str, Any] = {"budget": 500}


def check(toolset: Toolset, ctx: Context) -> Iterator[Problem]:
    budget = ctx.options.get("budget")
    if not budget:
        return
    cpt = float(ctx.options.get("chars_per_token", 4) or 4)
    total = tokens.toolset_estimate(toolset.tools, cpt)
    if total <= int(budget):
        return
    targets: set[str] = set()
    if ctx.targets_of is not None:
        for tool in toolset.tools:
            targets.update(t.name for t in ctx.targets_of(tool))
    yield Problem(
        message=f"The toolset is estimated at {total} tokens per request, over its budget of {budget}.",
        fix="Trim or split the toolset, or raise the budget in .tooldiff.yml.",
        pointer="",
        targets=ordered(targets),
        evidence={"tokens": total, "budget": int(budget), "tools": len(toolset.tools), "method": "estimate"},
    )
