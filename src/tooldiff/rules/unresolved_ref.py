"""A `$ref` that points nowhere, points outside the file, or recurses where the target does not allow it.

## What it finds
- a local `$ref` (`#/...` or `#anchor`) whose target does not exist in the schema;
- any non-local `$ref` (another file or a URL): tooldiff never fetches it, and neither do providers;
- a recursive `$ref` (one that leads back into itself) for a target whose table does not record support
  for recursive schemas. OpenAI documents recursion through `#` and `$defs`; Anthropic's strict tool use
  documents that it is not supported; Anthropic and Google do not document it, so it is reported for them.
  Cycles are detected, never expanded.

## Why it matters
Providers resolve references only inside the schema they are sent. A dangling or remote reference is
rejected or silently becomes "anything", and an unsupported cycle fails the request.

## Example
```json
{"type": "object", "properties": {"step": {"$ref": "#/$defs/step"}}, "$defs": {}}
```

## Use instead
```json
{"type": "object", "properties": {"step": {"$ref": "#/$defs/step"}},
 "$defs": {"step": {"type": "object", "properties": {"text": {"type": "string"}}}}}
```

## References
- https://json-schema.org/draft/2020-12/json-schema-core#section-8.2.3.1
- https://developers.openai.com/api/docs/guides/structured-outputs#recursive-schemas-are-supported
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context

CODE = "unresolved-ref"
SEVERITY: Severity = "error"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas
MAX_CYCLE_REFS = 500  # past this many refs only direct self-reference is checked

EXAMPLE = [
    {
        "name": "plan",
        "description": "Record a plan of steps.",
        "input_schema": {
            "type": "object",
            "properties": {"step": {"$ref": "#/$defs/step"}, "owner": {"$ref": "people.json#/person"}},
            "$defs": {},
        },
    }
]
FIXED = [
    {
        "name": "plan",
        "description": "Record a plan of steps.",
        "input_schema": {
            "type": "object",
            "properties": {"step": {"$ref": "#/$defs/step"}},
            "$defs": {"step": {"type": "object", "properties": {"text": {"type": "string"}}}},
        },
    }
]

ROOT = "/input_schema"


def resolve(schema: Any, ref: str, anchors: dict[str, str]) -> str | None:
    """Tool-relative pointer of a local reference's target, or None when it points nowhere."""
    fragment = ref[1:]
    if fragment and not fragment.startswith("/"):
        return anchors.get(fragment)
    node, pointer = schema, ROOT
    for raw in fragment.split("/")[1:] if fragment else []:
        token = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        pointer += "/" + schemawalk.escape(token)
    return pointer


def _inside(pointer: str, target: str) -> bool:
    return pointer == target or pointer.startswith(target + "/")


def recursive_refs(refs: list[tuple[str, str]]) -> set[int]:
    """Indexes of refs on a cycle. refs: (pointer of the $ref's schema, pointer of its target)."""
    if len(refs) > MAX_CYCLE_REFS:
        return {i for i, (p, t) in enumerate(refs) if _inside(p, t)}
    succ = [[j for j, (pj, _) in enumerate(refs) if _inside(pj, t)] for _, t in refs]
    on_cycle: set[int] = set()
    for start in range(len(refs)):
        seen: set[int] = set()
        stack = list(succ[start])
        while stack:
            j = stack.pop()
            if j == start:
                on_cycle.add(start)
                break
            if j not in seen:
                seen.add(j)
                stack.extend(succ[j])
    return on_cycle


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    if not schemawalk.has_schema(tool):
        return
    every = schemawalk.nodes(tool)
    with_refs = [n for n in every if isinstance(n.schema, dict) and "$ref" in n.schema]
    if not with_refs:
        return
    nodes = [n for n in every if isinstance(n.schema, dict)]
    all_targets = tuple(t.name for t in ctx.targets)
    anchors: dict[str, str] = {}
    for n in nodes:
        for key, prefix in (("$anchor", ""), ("$id", "#")):
            value = n.schema.get(key)
            if isinstance(value, str) and value.startswith(prefix) and len(value) > len(prefix):
                anchors.setdefault(value[len(prefix) :], n.pointer)
    local: list[tuple[str, str]] = []
    for n in with_refs:
        ref = n.schema["$ref"]
        at = f"{n.pointer}/$ref"
        if not isinstance(ref, str):
            continue  # invalid-json-schema reports a non-string $ref
        if not ref.startswith("#"):
            yield Problem(
                message=f'The $ref "{ref}" points outside this schema; it is never fetched.',
                fix="Inline the referenced schema under $defs and point at #/$defs/<name>.",
                pointer=at,
                targets=all_targets,
                evidence={"ref": ref, "reason": "non-local"},
            )
            continue
        target = resolve(tool.input_schema, ref, anchors)
        if target is None:
            yield Problem(
                message=f'The $ref "{ref}" points nowhere in this schema.',
                fix="Define the referenced schema or correct the reference.",
                pointer=at,
                targets=all_targets,
                evidence={"ref": ref, "reason": "unresolved"},
            )
        else:
            local.append((n.pointer, target))
    refusing = tuple(t.name for t in ctx.targets if t.recursive_refs is not True)
    if not refusing or not local:
        return
    refused = [t.name for t in ctx.targets if t.recursive_refs is False]
    unknown = [t.name for t in ctx.targets if t.recursive_refs is None]
    said = "; ".join(f"{_listed(names)} not {what}" for names, what in (
        (refused, "support recursive schemas"), (unknown, "document support for recursive schemas")) if names)
    for i in sorted(recursive_refs(local)):
        pointer, target = local[i]
        yield Problem(
            message=f"This $ref is recursive (it leads back into {target}); {said}.",
            fix="Unroll a fixed number of levels instead of recursing, or target a provider that allows it.",
            pointer=f"{pointer}/$ref",
            targets=refusing,
            evidence={"ref_target": target, "reason": "recursive"},
        )


def _listed(names: list[str]) -> str:
    return f"{', '.join(names)} {'does' if len(names) == 1 else 'do'}"
