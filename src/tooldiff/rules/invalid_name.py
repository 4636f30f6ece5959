"""A tool name the provider does not accept.

## What it finds
A name outside what a target accepts: `[a-zA-Z0-9_-]{1,64}` for OpenAI, `[a-zA-Z0-9_-]{1,128}` for Anthropic;
letters, digits and `_ . : -`, starting with a letter or `_`, at most 128 characters, for Google.

Seed 002 gives 64 characters for Anthropic too: the limit of an earlier version of Anthropic's page. The
target data (`data/targets/anthropic.json`) follows the page as it is now, quoted there, so a name of 65 to
128 characters passes for Anthropic and fails for OpenAI.

The fix suggests a name every failing target takes that no other tool of the toolset has or is offered
(`_2`, `_3`, ... tell apart names that come out the same), so following every suggestion makes no
`duplicate-name`.

## Why it matters
The provider rejects the whole request, not just the tool. BFCL-style dotted names (`math.sum`) pass on
Gemini and fail on OpenAI and Anthropic.

## Example
```json
{"name": "math.sum", "description": "Add a list of numbers.", "input_schema": {"type": "object"}}
```

## Use instead
```json
{"name": "math_sum", "description": "Add a list of numbers.", "input_schema": {"type": "object"}}
```

## References
- https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
- https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools
- https://docs.cloud.google.com/gemini-enterprise-agent-platform/reference/rest/v1/projects.locations.cachedContents#FunctionDeclaration
- https://ai.google.dev/api/caching#FunctionDeclaration
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from tooldiff.model import Problem, Severity, Tool, Toolset
from tooldiff.rules.base import Context
from tooldiff.targets import Target

CODE = "invalid-name"
SEVERITY: Severity = "error"
KIND = "tool"
SEES_TOOLSET = True  # a suggestion must be no other tool's name, nor another suggestion

EXAMPLE = [{"name": "math.sum", "description": "Add a list of numbers.", "input_schema": {"type": "object"}}]
FIXED = [{"name": "math_sum", "description": "Add a list of numbers.", "input_schema": {"type": "object"}}]


def _suggest(name: str, limit: int) -> str:
    """A name every target takes: accents dropped (`über` is `uber`, not `_ber`), other characters `_`."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    fixed = re.sub(r"[^a-zA-Z0-9_-]", "_", plain)[:limit] or "tool"
    return fixed if re.match(r"[a-zA-Z_]", fixed) else "_" + fixed[: limit - 1]


def _failing(name: str, targets: tuple[Target, ...]) -> list[Target]:
    return [t for t in targets if not t.name_pattern.fullmatch(name)]


def _free(name: str, limit: int, taken: set[str], tried: dict[tuple[str, int], int]) -> str:
    """`name`, or the first of `name_2`, `name_3`, ... (cut to fit `limit`) that `taken` does not hold.
    `tried` keeps where each name's count got to at each limit (the cut differs): 4,000 tools named alike
    must not count up from 2 each."""
    candidate, k = name, tried.get((name, limit), 1)
    while candidate in taken:
        k += 1
        candidate = f"{name[: limit - len(str(k)) - 1]}_{k}"
    tried[(name, limit)] = k
    return candidate


def _suggestions(toolset: Toolset, ctx: Context) -> dict[tuple[str, str], str]:
    """The suggestion for each tool of the toolset with an invalid name, by (file, pointer): in the
    toolset's order, the first of each name that is free, so following them all makes no duplicate-name.
    Worked out once per toolset, with each tool's own targets (they may differ per tool)."""
    by_toolset: dict[str, tuple[Toolset, dict[tuple[str, str], str]]] = ctx.memo.setdefault(CODE, {})
    entry = by_toolset.get(toolset.id)
    if entry is not None and entry[0] is toolset:  # not a base's toolset of the same id
        return entry[1]
    found: dict[tuple[str, str], str] = {}
    by_toolset[toolset.id] = (toolset, found)
    taken = {t.name for t in toolset.tools}
    tried: dict[tuple[str, int], int] = {}
    for peer in toolset.tools:
        targets = ctx.targets_in(toolset.id, peer) if ctx.targets_in is not None else ctx.targets
        if failing := _failing(peer.name, targets):
            limit = min(t.name_max_length for t in failing)
            taken.add(name := _free(_suggest(peer.name, limit), limit, taken, tried))
            found[(peer.file, peer.pointer)] = name
    return found


def check(tool: Tool, ctx: Context, toolset: Toolset | None = None) -> Iterator[Problem]:
    failing = _failing(tool.name, ctx.targets)
    if not failing:
        return
    rules: dict[str, list[str]] = {}
    for t in failing:
        rules.setdefault(t.name_rule, []).append(t.name)
    allowed = "; ".join(f"{rule} ({', '.join(names)})" for rule, names in rules.items())
    suggested = _suggest(tool.name, min(t.name_max_length for t in failing))
    if toolset is not None:  # alone (a test, the docs' example), the plain suggestion
        suggested = _suggestions(toolset, ctx).get((tool.file, tool.pointer), suggested)
    yield Problem(
        message=f'The name "{tool.name}" is not accepted: allowed is {allowed}.',
        fix=f'Rename the tool, for example to "{suggested}".',
        pointer="/name",
        targets=tuple(t.name for t in failing),
        evidence={"name": tool.name, "length": len(tool.name)},
    )
