"""A file that cannot be read or parsed.

## What it finds
A tool file that is not UTF-8, is malformed JSON or YAML, nests deeper than the parser takes, expands YAML
aliases out of proportion, exceeds the size limit (default 20 MB), or is a symlink leaving the repository; a
path named on the command line that holds nothing to read; a `sources` command that fails. The fix names
what to do for each.

## Why it matters
Tools in an unreadable file are invisible to every other check, and to the agent that loads them. Each
bad file becomes one finding with its line; every other file is still analysed.

## Example
```json
{"tools": [{"name": "get_weather", "description": "Get the weather",
```

## Use instead
```json
{"tools": [{"name": "get_weather", "description": "Get the weather", "input_schema": {"type": "object"}}]}
```

## References
- RFC 8259, JSON: https://www.rfc-editor.org/rfc/rfc8259
- YAML 1.2.2: https://yaml.org/spec/1.2.2/
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tooldiff.model import Problem, Severity
from tooldiff.rules.base import Context

CODE = "parse-error"
SEVERITY: Severity = "error"
KIND = "file"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target
EXAMPLE: list[dict[str, Any]] = []
FIXED: list[dict[str, Any]] = []
EXAMPLE_FILE = '{"tools": [{"name": "get_weather", "description": "Get the weather",'
FIXED_FILE = '{"tools": [{"name": "get_weather", "description": "Get the weather", "input_schema": {}}]}'


def check(_: Any, ctx: Context) -> Iterable[Problem]:
    """The engine emits parse errors from the parsers; there is nothing to check on a tool."""
    return ()
