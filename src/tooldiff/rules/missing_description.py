"""A tool or property without a description.

## What it finds
A tool whose description is empty (warning), and a property under `properties` with no `description`
(info; properties that are only a `$ref` are skipped, their description lives with the definition).

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

from collections.abc import Iterator

from tooldiff import schemahash, schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "missing-description"
SEVERITY: Severity = "warning"
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


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    targets = ctx.memo.get(CODE)
    if targets is None:
        targets = ctx.memo[CODE] = tuple(t.name for t in ctx.targets)
    if not tool.description.strip():
        yield Problem(
            message=f'The tool "{tool.name}" has no description.',
            fix="Say what the tool does, when to use it and when not to.",
            pointer="/description",
            targets=targets,
            severity="warning",
        )
    if not schemawalk.has_schema(tool):
        return
    # The property findings depend on the schema alone, and equal schemas are common: once each.
    key = (CODE, schemahash.schema_json(tool.input_schema))
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = tuple(_undescribed_properties(tool, targets))
    yield from found


def _undescribed_properties(tool: Tool, targets: tuple[str, ...]) -> Iterator[Problem]:
    for node in schemawalk.nodes(tool):
        s = node.schema
        if node.via != "properties" or not isinstance(s, dict) or "$ref" in s:
            continue
        text = s.get("description")
        if not isinstance(text, str) or not text.strip():
            yield Problem(
                message=f'The property "{node.key}" has no description.',
                fix="Describe the value the model should put here, with an example.",
                pointer=node.pointer,
                targets=targets,
                evidence={"property": node.key},
                severity="info",
            )
