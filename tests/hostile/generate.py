"""Hostile cases too big, too odd or too machine-specific to commit, written at test time.

`python tests/hostile/generate.py OUT` writes every one of them into OUT to look at by hand.
The small cases are committed beside this script; `README.md` lists them all.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

MB = 1_000_000
SECRET = "TOOLDIFF-CANARY-7f3a9c"  # planted outside the workspace: must never appear in any output


def tool(name: str, description: str, **props: str) -> dict[str, Any]:
    """An Anthropic tool whose properties are described, so it is clean apart from what a case adds."""
    schema = {
        "type": "object",
        "properties": {k: {"type": "string", "description": v} for k, v in props.items()},
        "required": sorted(props),
        "additionalProperties": False,
    }
    return {"name": name, "description": description, "input_schema": schema}


def tools_file(tools: list[dict[str, Any]]) -> bytes:
    return (json.dumps({"tools": tools}, indent=2, ensure_ascii=False) + "\n").encode()


def big_file(size: int = 50 * MB) -> bytes:
    """A valid tool file of `size` bytes: one tool whose description is padding."""
    head = b'{"tools": [{"name": "huge", "input_schema": {"type": "object"}, "description": "'
    tail = b'"}]}\n'
    return head + b"x" * (size - len(head) - len(tail)) + tail


def deep_json(depth: int = 100_000) -> bytes:
    """A tool whose schema nests `depth` arrays: no recursive parser survives it."""
    nested = b"[" * depth + b"]" * depth
    return b'{"tools": [{"name": "deep", "input_schema": {"default": ' + nested + b"}}]}\n"


def deep_yaml(depth: int = 100_000) -> bytes:
    """Flow and block nesting both: `depth` flow sequences inside a block mapping."""
    return b"tools:\n  - name: deep\n    input_schema:\n      default: " + b"[" * depth + b"]" * depth + b"\n"


def deep_schema(depth: int = 480) -> bytes:
    """A schema nested `depth` objects deep, as deep as the JSON parser takes, with a finding at every level
    (no property has a description): per-finding work must not grow with the depth squared."""
    inner = '{"type": "string"}'
    for _ in range(depth):
        inner = '{"type": "object", "properties": {"p": ' + inner + '}, "required": ["p"]}'
    return ('{"tools": [{"name": "deep_schema", "description": "A deeply nested schema.", "input_schema": '
            + inner + "}]}\n").encode()


def many_tools(count: int = 10_000) -> bytes:
    """`count` distinct, clean tools in one file: one toolset, so pair search must stay sub-quadratic."""
    tools = [
        tool(f"get_record_{i}", f"Fetch record {i} of ledger l{i % 97} from archive a{i % 13}.",
             id=f"Identifier of the record, e.g. R-{i}.")
        for i in range(count)
    ]
    return (json.dumps({"tools": tools}) + "\n").encode()


def long_name(length: int = 5000) -> bytes:
    return tools_file([tool("n" * length, "A tool whose name is far too long for any provider.",
                            q="What to look for.")])


def odd_names() -> dict[str, bytes]:
    """File names with spaces, unicode, a newline, and characters that mean something in Markdown."""
    out: dict[str, bytes] = {}
    for i, name in enumerate(["with space.json", "ünïcødé-工具.json", "new\nline.json",
                              "pipe|and*star [x](y).json", "@org team <b>.json"]):
        out[name] = tools_file([tool(f"odd_tool_{i}", f"Look up entry {i} in directory {name!r}.",
                                     key="The entry key.")])
    return out


def symlinks(workspace: Path, outside: Path) -> dict[str, str]:
    """Links that leave the workspace, and the secret they point at. Returns link -> target."""
    outside.mkdir(parents=True, exist_ok=True)
    secret = outside / "secret.json"
    secret.write_bytes(tools_file([tool("stolen", SECRET, key=SECRET)]))
    links = {
        "passwd.json": "/etc/passwd",
        "passwd.yaml": "/etc/passwd",
        "secret-abs.json": str(secret),
        "secret-rel.json": os.path.relpath(secret, workspace),
        "etc": "/etc",  # a folder link: never walked into
        "outside": os.path.relpath(outside, workspace),
    }
    for name, target in links.items():
        (workspace / name).symlink_to(target)
    return links


def write_all(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "big.json").write_bytes(big_file())
    (out / "deep.json").write_bytes(deep_json())
    (out / "deep.yaml").write_bytes(deep_yaml())
    (out / "many.json").write_bytes(many_tools())
    (out / "long-name.json").write_bytes(long_name())
    for name, data in odd_names().items():
        (out / name).write_bytes(data)
    symlinks(out, out.parent / (out.name + "-outside"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUT_DIR")
    write_all(Path(sys.argv[1]))
