"""A tool or property without a description.

## What it finds
A tool whose description is empty, only punctuation ("-"), or only its name again ("Book business travel"
for `bookBusinessTravel`) (warning), and a property under `properties` with no `description`, or one that
only repeats its name (`"offset": "Offset"`) (info; properties that are only a `$ref` are skipped, their
description lives with the definition).

## Why it matters
The description is the only place the model learns what a tool is for and when not to use it. Without
one it guesses from the name, and picks the wrong tool or fills the wrong argument.

## Example
```json
{"name": "get_weather", "description": "", "input_schema": {"type": "object",
 "properties": {"city": {"type": "string"}}}}
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for a city. Not for forecasts.",
 "input_schema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}}
```

## References
- https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#best-practices-for-tool-definitions
- https://platform.openai.com/docs/guides/function-calling#best-practices-for-defining-functions
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, targets_where

CODE = "missing-description"
SEVERITY: Severity = "warning"
SEVERITY_NOTE = "info on a property"  # a property's gap costs less than a tool's: see `check`
KIND = "tool"

EXAMPLE = [
    {
        "name": "get_weather",
        "description": "",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
]
FIXED = [
    {
        "name": "get_weather",
        "description": "Current weather for a city. Not for forecasts.",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name"}},
        },
    }
]


def _targets(ctx: Context) -> tuple[str, ...]:
    return targets_where(ctx, CODE, lambda _: True)  # every target


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    yield from check_tool(tool, ctx)
    yield from check_schema(tool, ctx)


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")  # in any script


def _letters(text: str) -> str:
    return "".join(_LETTER_OR_DIGIT.findall(text)).lower()


def check_tool(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The tool's own description (the part of `check` that reads the tool's text)."""
    text = tool.description
    if not _LETTER_OR_DIGIT.search(text):  # empty, blank, or punctuation ("-")
        message = f'The tool "{tool.name}" has no description.'
    elif len(text) <= 2 * len(tool.name) + 8 and _letters(text) == _letters(tool.name):
        message = f'The description of "{tool.name}" only repeats its name.'  # "Book business travel"
    else:
        return
    yield Problem(
        message=message,
        fix="Say what the tool does, when to use it and when not to.",
        pointer="/description",
        targets=_targets(ctx),
        severity="warning",
    )


def check_schema(tool: Tool, ctx: Context) -> Iterator[Problem]:
    """The properties (the part of `check` that reads the schema alone; see `rules.base`)."""
    if not schemawalk.has_schema(tool):
        return
    targets = _targets(ctx)
    for node in schemawalk.nodes(tool):
        s = node.schema
        if node.via != "properties" or not isinstance(s, dict) or "$ref" in s:
            continue
        text = s.get("description")
        if not isinstance(text, str) or not _LETTER_OR_DIGIT.search(text):
            message = f'The property "{node.key}" has no description.'
        elif len(text) <= 2 * len(str(node.key)) + 8 and _letters(text) == _letters(str(node.key)):
            message = f'The description of the property "{node.key}" only repeats its name.'  # "Offset"
        else:
            continue
        yield Problem(
            message=message,
            fix="Describe the value the model should put here, with an example.",
            pointer=node.pointer,
            targets=targets,
            evidence={"property": node.key},
            severity="info",
        )
