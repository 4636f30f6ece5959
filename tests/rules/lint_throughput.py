"""Throughput check of the provider lint (not a test): python tests/rules/lint_throughput.py [FILE].

Reads `../shared/corpora/combined/all_tools.jsonl`, treats each record as a `function`-format Tool, and
times every tool rule of the lint + the token estimate + schemaHash against bare `json.loads` of the same
lines. The figure to reach is about 10x the parse (o200k counting excluded; it is timed separately).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

from tooldiff import schemawalk, tokens, tokens_openai
from tooldiff.model import Tool
from tooldiff.rules import LINT_MODULES
from tooldiff.rules.base import Context
from tooldiff.schemahash import schema_hash
from tooldiff.targets import TARGETS, default_targets, resolve

# The lint rules that judge one tool (toolset rules and parse-error are left out).
TOOL_RULES = tuple(
    n for n in LINT_MODULES if importlib.import_module(f"tooldiff.rules.{n}").KIND == "tool"
)
DEFAULT = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "combined" / "all_tools.jsonl"


def to_tool(i: int, rec: dict) -> Tool:
    return Tool(
        name=str(rec.get("name", "")),
        description=str(rec.get("description") or ""),
        input_schema=rec.get("parameters"),
        format="function",
        file="all_tools.jsonl",
        line=i + 1,
        pointer="",
        schema_pointer="/parameters",
        schema_key="parameters" if "parameters" in rec else "",
    )


def best_of(n: int, fn) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    parse = best_of(3, lambda: [json.loads(line) for line in lines])
    tools = [to_tool(i, json.loads(line)) for i, line in enumerate(lines)]
    modules = [importlib.import_module(f"tooldiff.rules.{m}") for m in TOOL_RULES]
    # What the engine does per tool: one Context per rule with the tool's targets.
    contexts = {}
    for m in modules:
        for names in {default_targets(t) for t in tools}:
            contexts[(m.CODE, names)] = Context(
                targets=resolve(names), options=dict(getattr(m, "OPTIONS", {}))
            )
    counts: dict[str, int] = {}

    def lint() -> None:
        counts.clear()
        for tool in tools:
            names = default_targets(tool)
            schema_hash(tool)
            tokens.estimate(tool, 4)
            for m in modules:
                for _ in m.check(tool, contexts[(m.CODE, names)]):
                    counts[m.CODE] = counts.get(m.CODE, 0) + 1

    schemawalk._CACHE.clear()
    total = best_of(3, lint)
    print(f"{len(tools)} tools, {path.stat().st_size / 1e6:.1f} MB, targets {sorted(TARGETS)}")
    print(f"json.loads per line:      {parse * 1000:8.1f} ms")
    print(f"lint + estimate + hash:   {total * 1000:8.1f} ms  = {total / parse:5.1f}x the parse")
    for m in modules:  # each rule alone, for finding the slow one
        ctxs = [contexts[(m.CODE, default_targets(t))] for t in tools]
        alone = best_of(
            1, lambda m=m, ctxs=ctxs: [list(m.check(t, c)) for t, c in zip(tools, ctxs, strict=True)]
        )
        print(f"  {m.CODE:38s} {alone * 1000:8.1f} ms  {counts.get(m.CODE, 0):6d} problems")
    for label, fn in (("schema_hash", schema_hash), ("estimate", tokens.estimate)):
        print(f"  {label:38s} {best_of(1, lambda fn=fn: [fn(t) for t in tools]) * 1000:8.1f} ms")
    if tokens_openai.encoding() is not None:
        o200k = best_of(1, lambda: [tokens_openai.count_tool(t) for t in tools])
        print(f"openai-o200k (uncached):  {o200k * 1000:8.1f} ms  = {o200k / parse:5.1f}x the parse")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
