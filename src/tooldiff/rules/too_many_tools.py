"""More tools in one toolset than a target accepts in one request.

## What it finds
A toolset whose tools bound for a target outnumber that target's documented maximum: 128 for OpenAI
(`tools`: "A max of 128 functions are supported") and 512 function declarations for Google ("Maximum 512
function declarations can be provided", Gemini Enterprise Agent Platform, formerly Vertex AI). Anthropic
documents no maximum, except for strict tool use: at most 20 tools with `strict: true` in one request
(non-strict tools do not count).

## Why it matters
The request is rejected outright. Long before the limit, every tool is paid for on every call and the
model chooses worse among many near neighbours.

## Example
An MCP gateway exposing 140 tools from five servers to one OpenAI agent.

## Use instead
Split the toolset by task and load only what the task needs, or use a tool-search tool.

## References
- https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
- https://docs.cloud.google.com/gemini-enterprise-agent-platform/reference/rest/v1/projects.locations.cachedContents#Tool
- https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits
"""

from __future__ import annotations

from collections.abc import Iterator

from tooldiff.model import Problem, Severity, Toolset
from tooldiff.rules.base import Context
from tooldiff.targets import TARGETS, ordered

CODE = "too-many-tools"
SEVERITY: Severity = "error"
KIND = "toolset"

EXAMPLE = [
    {"name": f"tool_{i}", "description": f"Tool number {i}.", "input_schema": {"type": "object"}}
    for i in range(130)
]
FIXED = EXAMPLE[:20]


def check(toolset: Toolset, ctx: Context) -> Iterator[Problem]:
    counts: dict[str, int] = {}
    for tool in toolset.tools:
        targets = ctx.targets_of(tool) if ctx.targets_of is not None else ctx.targets
        for t in targets:
            counts[t.name] = counts.get(t.name, 0) + 1
    over = {
        name: n
        for name, n in counts.items()
        if TARGETS[name].max_tools is not None and n > (TARGETS[name].max_tools or 0)
    }
    if not over:
        return
    detail = ", ".join(f"{n} for {name} (max {TARGETS[name].max_tools})" for name, n in sorted(over.items()))
    yield Problem(
        message=f"This toolset offers too many tools in one request: {detail}.",
        fix="Split the toolset by task, or load tools on demand.",
        pointer="",
        targets=ordered(frozenset(over)),
        evidence={
            "counts": dict(sorted(over.items())),
            "limits": {name: TARGETS[name].max_tools for name in sorted(over)},
        },
    )
