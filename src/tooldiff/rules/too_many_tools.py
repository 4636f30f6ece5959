"""More tools in one toolset than a target accepts in one request, or more than it takes in their schemas.

## What it finds
A toolset whose tools bound for a target outnumber that target's documented maximum: 128 for OpenAI
(`tools`: "A max of 128 functions are supported") and 512 function declarations for Google ("Maximum 512
function declarations can be provided", Gemini Enterprise Agent Platform, formerly Vertex AI). Anthropic
documents no maximum, except for strict tool use: at most 20 tools with `strict: true` in one request
(non-strict tools do not count), and over all of them at most 24 optional parameters (each one not in its
object's `required`) and 16 parameters that take `anyOf` or a list of types ("Schema is too complex for
compilation" past them).

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
from typing import Any

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool, Toolset
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
    optional: dict[str, int] = {}
    unions: dict[str, int] = {}
    for tool in toolset.tools:
        targets = ctx.targets_of(tool) if ctx.targets_of is not None else ctx.targets
        weighed: tuple[int, int] | None = None  # the tool's (optional, union) parameters, counted once
        for t in targets:
            counts[t.name] = counts.get(t.name, 0) + 1
            if t.max_request_optional_params is None and t.max_request_union_params is None:
                continue
            weighed = weighed or _weigh(tool)
            optional[t.name] = optional.get(t.name, 0) + weighed[0]
            unions[t.name] = unions.get(t.name, 0) + weighed[1]
    over = {name: n for name, n in counts.items()
            if (most := TARGETS[name].max_tools) is not None and n > most}
    heavy = [(name, what, n, most) for name in ordered(frozenset(counts)) for what, n, most in (
        ("optional parameters", optional.get(name, 0), TARGETS[name].max_request_optional_params),
        ("parameters with anyOf or a list of types", unions.get(name, 0),
         TARGETS[name].max_request_union_params),
    ) if most is not None and n > most]
    if not over and not heavy:
        return
    said = []
    if over:
        detail = ", ".join(f"{n} for {name} (max {TARGETS[name].max_tools})"
                           for name, n in sorted(over.items()))
        said.append(f"This toolset offers too many tools in one request: {detail}.")
    if heavy:
        detail = "; ".join(f"{n} {what} for {name} (max {most})" for name, what, n, most in heavy)
        said.append(f"Its tools hold more than one request takes: {detail}.")
    evidence: dict[str, Any] = {}
    if over:
        evidence["counts"] = dict(sorted(over.items()))
        evidence["limits"] = {name: TARGETS[name].max_tools for name in sorted(over)}
    if heavy:
        evidence["request"] = [{"target": name, "what": what, "count": n, "limit": most}
                               for name, what, n, most in heavy]
    yield Problem(
        message=" ".join(said),
        fix="Split the toolset by task, or load tools on demand."
            + (" For strict tools: make fewer parameters optional or unions, or send some tools without "
               "`strict`." if heavy else ""),
        pointer="",
        targets=ordered(frozenset(over) | {name for name, *_ in heavy}),
        evidence=evidence,
    )


def _weigh(tool: Tool) -> tuple[int, int]:
    """Parameters not in their object's `required`, and parameters that take `anyOf` or a list of types."""
    optional = unions = 0
    for prop in schemawalk.object_properties(tool):
        optional += prop.name not in prop.required
        schema = prop.schema
        if isinstance(schema, dict) and ("anyOf" in schema or isinstance(schema.get("type"), list)):
            unions += 1
    return optional, unions
