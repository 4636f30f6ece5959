"""Two tools in one toolset with the same name.

## What it finds
A name defined more than once among the tools offered together.

## Why it matters
Providers reject a request whose tools repeat a name, and where they do not, the model's call can only
reach one of them: the other is dead weight, or worse, the wrong one runs.

## Example
```json
[{"name": "search", "description": "Search support tickets.", "input_schema": {"type": "object"}},
 {"name": "search", "description": "Search product documentation.", "input_schema": {"type": "object"}}]
```

## Use instead
```json
[{"name": "search_tickets", "description": "Search support tickets.", "input_schema": {"type": "object"}},
 {"name": "search_docs", "description": "Search product documentation.", "input_schema": {"type": "object"}}]
```

## References
- https://docs.anthropic.com/en/api/messages#body-tools
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff.model import Problem, Severity, Toolset
from tooldiff.rules.base import Context
from tooldiff.targets import ordered

CODE = "duplicate-name"
SEVERITY: Severity = "error"
KIND = "toolset"

_SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}}}
EXAMPLE = [
    {"name": "search", "description": "Search support tickets.", "input_schema": _SCHEMA},
    {"name": "search", "description": "Search product documentation.", "input_schema": _SCHEMA},
]
FIXED = [
    {"name": "search_tickets", "description": "Search support tickets.", "input_schema": _SCHEMA},
    {"name": "search_docs", "description": "Search product documentation.", "input_schema": _SCHEMA},
]


def check(toolset: Toolset, ctx: Context) -> Iterator[Problem]:
    where: dict[str, list[tuple[str, str]]] = {}
    for tool in toolset.tools:
        where.setdefault(tool.name, []).append((f"{tool.file}:{tool.line}", tool.pointer or "/"))
    for name, found in where.items():
        if len(found) < 2:
            continue
        lines = [line for line, _ in found]
        # One line for two tools (a minified file, a JSON Lines line): their pointers tell them apart.
        places = lines if len(set(lines)) == len(lines) else [f"{line} ({at})" for line, at in found]
        targets: set[str] = set()
        if ctx.targets_of is not None:
            for tool in toolset.tools:
                if tool.name == name:
                    targets.update(t.name for t in ctx.targets_of(tool))
        yield Problem(
            message=(
                f'The name "{name}" is defined {len(places)} times in this toolset: {", ".join(places)}.'
            ),
            fix="Give each tool a distinct name, or remove the duplicate.",
            pointer="/name",
            tools=(name,),
            targets=ordered(targets),
            evidence={"name": name, "count": len(places), "locations": places},
        )
