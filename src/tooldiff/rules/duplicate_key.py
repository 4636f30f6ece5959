"""A key written twice in one object of a tool's definition.

## What it finds
An object in a tool's record (its name, description, input schema, or anything else in it) that writes the
same key twice, in a JSON, JSON Lines or YAML file. The finding sits on the key, at the line of the value
that is kept (the last one), in the input schema as elsewhere in the record. A key above the records written
twice (`"tools"` twice in one file: the tools of the first are never read) is reported once, on the first
tool the file still holds under it. A YAML mapping that an alias or a `<<` merge brings into tools is
reported in each tool, wherever the anchor is written.

## Why it matters
Parsers do not agree on what a repeated key means, and most say nothing. Python's `json`, JavaScript's
`JSON.parse` and PyYAML keep the last value and drop the others; some strict parsers reject the file. A
reviewer reads the first value, and the model gets the last: in the example below the diff shows "one
customer" while the agent is told "every customer at once". In a schema, a second `type` or `required`
silently replaces the first. YAML forbids repeated keys outright; JSON says names SHOULD be unique.

## Example
```json
{"tools": [{
  "name": "send_email",
  "description": "Send an email to one customer.",
  "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}},
  "description": "Send an email to every customer at once."
}]}
```

## Use instead
```json
{"tools": [{
  "name": "send_email",
  "description": "Send an email to one customer.",
  "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}}
}]}
```
Keep one of the values: the one you mean the model to get.

## References
- RFC 8259, section 4 (names SHOULD be unique; many implementations report the last pair only):
  https://www.rfc-editor.org/rfc/rfc8259#section-4
- YAML 1.2.2, mapping keys are unique: https://yaml.org/spec/1.2.2/#3211-nodes
- yamllint's `key-duplicates` rule: https://yamllint.readthedocs.io/en/stable/rules.html#module-yamllint.rules.key_duplicates
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context, as_written, targets_where

CODE = "duplicate-key"
SEVERITY: Severity = "error"
KIND = "tool"

# The examples are files: a JSON list of tools (EXAMPLE, FIXED) cannot hold a key twice.
EXAMPLE: list[dict[str, Any]] = []
FIXED: list[dict[str, Any]] = []
EXAMPLE_PATH = "example.json"
EXAMPLE_FILE = """\
{"tools": [{
  "name": "send_email",
  "description": "Send an email to one customer.",
  "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}},
  "description": "Send an email to every customer at once."
}]}
"""
FIXED_FILE = """\
{"tools": [{
  "name": "send_email",
  "description": "Send an email to one customer.",
  "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}}
}]}
"""


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    if not tool.repeated_keys:
        return
    targets = targets_where(ctx, CODE, lambda _: True)  # every target: the parser decides, not the provider
    for pointer, key, times, holder in tool.repeated_keys:
        if holder:
            message = (f'The key "{key}" that holds this tool is written {times} times in the object at '
                       f"{holder} of the file. Parsers keep the last value, so everything the others hold, "
                       "tools included, is dropped without a word.")
            obj = holder
        else:
            obj = pointer.rsplit("/", 1)[0] if pointer != "/input_schema" else ""
            where = f"the object at {as_written(tool, obj)}" if obj else "the tool's record"
            message = (f'The key "{key}" is written {times} times in {where}. Parsers keep the last value '
                       "and drop the others without a word, so the model gets a different tool from the one "
                       "a reviewer reads first.")
        yield Problem(
            message=message,
            fix=f'Keep one "{key}": the value you mean the model to get.',
            pointer=pointer,
            targets=targets,
            evidence={"key": key, "times": times, "object": obj},
        )
