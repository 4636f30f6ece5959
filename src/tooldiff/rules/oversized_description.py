"""A tool or property description longer than the configured limit.

## What it finds
A tool description over 1,024 characters, or a property description over 512 (options `tool_max_chars`
and `property_max_chars`, or the config's `description_limits`): a property's, or any other in the schema
(an array's `items`, an `anyOf` branch, a `$defs` entry), as each is sent on every call. A target's own
documented limit, where it has one, wins if it is lower. Characters are counted as seed 002's JavaScript
library counts them, and as the token estimate does: in UTF-16 units, so a character beyond U+FFFF (most
emoji) is two.

## Why it matters
Descriptions are sent on every call and paid for on every call. Past a point they dilute what the model
needs to choose the tool, and some providers truncate or reject them.

## Example
A tool description of 1,500 characters of usage notes and changelog.

## Use instead
Keep the description to what the tool does, when to use it and when not to; move the rest to docs.

## Options
- `tool_max_chars` (default 1024): longest tool description.
- `property_max_chars` (default 512): longest property description.

## References
- Seed 002 (maxDescriptionChars, maxPropertyDescriptionChars)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context
from tooldiff.tokens import utf16_units

CODE = "oversized-description"
SEVERITY: Severity = "warning"
KIND = "tool"
OPTIONS: dict[str, Any] = {"tool_max_chars": 1024, "property_max_chars": 512}
# What each option may be (JSON Schema), checked when the config loads.
OPTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "tool_max_chars": {"type": "integer", "minimum": 1},
    "property_max_chars": {"type": "integer", "minimum": 1},
}

EXAMPLE = [
    {
        "name": "export_report",
        "description": "Export the report. " * 60,
        "input_schema": {
            "type": "object",
            "properties": {"fmt": {"type": "string", "description": "x" * 600}},
        },
    }
]
FIXED = [
    {
        "name": "export_report",
        "description": "Export the monthly report as PDF or CSV.",
        "input_schema": {
            "type": "object",
            "properties": {"fmt": {"type": "string", "description": "pdf or csv"}},
        },
    }
]


def _limit(option: Any, documented: list[int | None]) -> int:
    limits = [int(option)] + [d for d in documented if d is not None]
    return min(limits)


def _setup(ctx: Context) -> tuple[tuple[str, ...], int, int]:
    tool_max = _limit(
        ctx.options.get("tool_max_chars", 1024), [t.tool_description_max_chars for t in ctx.targets]
    )
    prop_max = _limit(
        ctx.options.get("property_max_chars", 512), [t.property_description_max_chars for t in ctx.targets]
    )
    return tuple(t.name for t in ctx.targets), tool_max, prop_max


def _settings(ctx: Context) -> tuple[tuple[str, ...], int, int]:
    setup = ctx.memo.get(CODE)
    if setup is None:
        setup = ctx.memo[CODE] = _setup(ctx)
    return setup


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    yield from check_tool(tool, ctx)
    yield from check_schema(tool, ctx)


def check_tool(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The tool's own description (the part of `check` that reads the tool's text)."""
    targets, tool_max, _ = _settings(ctx)
    chars = utf16_units(tool.description)
    if chars > tool_max:
        yield Problem(
            message=f"The tool description is {chars} characters, over the limit {tool_max}.",
            fix="Shorten it to what the tool does and when to use it; move the rest to documentation.",
            pointer="/description",
            targets=targets,
            evidence={"chars": chars, "limit": tool_max},
        )


def check_schema(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The descriptions inside the schema, the root's aside (the part of `check` that reads the schema
    alone; see `rules.base`)."""
    if not schemawalk.has_schema(tool):
        return
    targets, _, prop_max = _settings(ctx)
    for node in schemawalk.nodes(tool):
        s = node.schema
        if not node.via or not isinstance(s, dict):  # the root's description is the tool's to say
            continue
        text = s.get("description")
        if isinstance(text, str) and (chars := utf16_units(text)) > prop_max:
            # Reached through `items`, `anyOf` or `$defs`, it is sent and paid for all the same.
            what = f'"{node.key}"' if node.via == "properties" else f"the schema at {node.pointer}"
            yield Problem(
                message=f"The description of {what} has {chars} characters, over {prop_max}.",
                fix="Shorten the property description; it is sent on every call.",
                pointer=f"{node.pointer}/description",
                targets=targets,
                evidence={"chars": chars, "limit": prop_max,
                          **({"property": node.key} if node.via == "properties" else {})},
            )
