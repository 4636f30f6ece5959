"""A tool name the provider does not accept.

## What it finds
A name outside what a target accepts: `[a-zA-Z0-9_-]{1,64}` for OpenAI, `[a-zA-Z0-9_-]{1,128}` for Anthropic;
letters, digits and `_ . : -`, starting with a letter or `_`, at most 128 characters, for Google.

Seed 002 gives 64 characters for Anthropic too: the limit of an earlier version of Anthropic's page. The
target data (`data/targets/anthropic.json`) follows the page as it is now, quoted there, so a name of 65 to
128 characters passes for Anthropic and fails for OpenAI.

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

from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "invalid-name"
SEVERITY: Severity = "error"
KIND = "tool"

EXAMPLE = [{"name": "math.sum", "description": "Add a list of numbers.", "input_schema": {"type": "object"}}]
FIXED = [{"name": "math_sum", "description": "Add a list of numbers.", "input_schema": {"type": "object"}}]


def _suggest(name: str, limit: int) -> str:
    """A name every target takes: accents dropped (`über` is `uber`, not `_ber`), other characters `_`."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    fixed = re.sub(r"[^a-zA-Z0-9_-]", "_", plain)[:limit] or "tool"
    return fixed if re.match(r"[a-zA-Z_]", fixed) else "_" + fixed[: limit - 1]


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    failing = [t for t in ctx.targets if not t.name_pattern.fullmatch(tool.name)]
    if not failing:
        return
    rules: dict[str, list[str]] = {}
    for t in failing:
        rules.setdefault(t.name_rule, []).append(t.name)
    allowed = "; ".join(f"{rule} ({', '.join(names)})" for rule, names in rules.items())
    suggested = _suggest(tool.name, min(t.name_max_length for t in failing))
    yield Problem(
        message=f'The name "{tool.name}" is not accepted: allowed is {allowed}.',
        fix=f'Rename the tool, for example to "{suggested}".',
        pointer="/name",
        targets=tuple(t.name for t in failing),
        evidence={"name": tool.name, "length": len(tool.name)},
    )
