"""A YAML word that one loader reads as a boolean and another as a string.

## What it finds
A plain (unquoted) `yes`, `no`, `on` or `off`, in any case, in the input schema of a tool written in YAML:
an `enum` value, a `default`, a `const`, or a property name. `true` and `false` are not reported: every
loader reads them alike.

## Why it matters
YAML 1.1 reads these words as booleans, YAML 1.2 as strings. PyYAML (and so tooldiff, and most Python
agents) loads YAML 1.1: `enum: [on, off]` becomes `[true, false]`, and a property written `on:` is sent to
the model as `"true"`. js-yaml and Go's yaml.v3 load YAML 1.2 and send `"on"`. The same file gives the model
a different tool depending on which program reads it, and usually not the one its author meant: a string
property whose enum holds booleans can never be filled correctly. yamllint's `truthy` rule warns about the
same words in any YAML; this finding names the tool and the schema path they change.

## Example
```yaml
tools:
  - name: set_light
    description: Turn the light of one room on or off.
    input_schema:
      type: object
      properties:
        state: {type: string, enum: [on, off]}
```

## Use instead
```yaml
tools:
  - name: set_light
    description: Turn the light of one room on or off.
    input_schema:
      type: object
      properties:
        state: {type: string, enum: ["on", "off"]}
```
Quote the word where a string is meant; write `true` or `false` where a boolean is.

## References
- YAML 1.1 booleans: https://yaml.org/type/bool.html
- YAML 1.2.2, the core schema (booleans are only true and false): https://yaml.org/spec/1.2.2/#1032-tag-resolution
- yamllint's `truthy` rule: https://yamllint.readthedocs.io/en/stable/rules.html#module-yamllint.rules.truthy
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tooldiff.model import Problem, Severity, Tool
from tooldiff.positions import yaml_bool
from tooldiff.rules.base import Context, as_written, targets_where

CODE = "yaml-truthy"
SEVERITY: Severity = "warning"
KIND = "tool"

# The examples are YAML files: a JSON list of tools (EXAMPLE, FIXED) cannot hold an unquoted word.
EXAMPLE: list[dict[str, Any]] = []
FIXED: list[dict[str, Any]] = []
EXAMPLE_PATH = "example.yaml"
EXAMPLE_FILE = """\
tools:
  - name: set_light
    description: Turn the light of one room on or off.
    input_schema:
      type: object
      properties:
        state: {type: string, enum: [on, off]}
"""
FIXED_FILE = EXAMPLE_FILE.replace("[on, off]", '["on", "off"]')


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    if not tool.yaml_words:
        return
    targets = targets_where(ctx, CODE, lambda _: True)  # every target: the loader decides, not the provider
    for pointer, word, is_key, line in tool.yaml_words:
        meaning = yaml_bool(word)
        below = as_written(tool, pointer)
        if is_key:
            message = (f"The property key {word} at {below} is read as the boolean {meaning} by YAML 1.1 "
                       f'loaders such as PyYAML, which send a property named "{meaning}"; YAML 1.2 loaders '
                       f'send "{word}".')
            fix = f'Quote the key ("{word}":).'
        else:
            message = (f"The value {word} at {below} is read as the boolean {meaning} by YAML 1.1 loaders "
                       f'such as PyYAML, and as the string "{word}" by YAML 1.2 loaders.')
            fix = f'Quote it ("{word}") if a string is meant; write {meaning} if a boolean is.'
        yield Problem(
            message=message,
            fix=fix,
            pointer=pointer,
            targets=targets,
            evidence={"word": word, "read_as": meaning, "key": is_key},
            line=line,
        )
