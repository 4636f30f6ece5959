"""Each lint rule module keeps the contract, and its documented EXAMPLE fires while FIXED does not."""

from __future__ import annotations

import importlib
import json
import re
from types import ModuleType
from typing import Any

import pytest

from tooldiff.docs import docstring
from tooldiff.model import Problem, Toolset
from tooldiff.parsers import parse_bytes
from tooldiff.rules import LINT_MODULES
from tooldiff.rules.base import Context
from tooldiff.targets import TARGETS

SECTIONS = ("What it finds", "Why it matters", "Example", "Use instead", "References")


def module(name: str) -> ModuleType:
    return importlib.import_module(f"tooldiff.rules.{name}")


def run(mod: ModuleType, records: list[dict[str, Any]]) -> list[Problem]:
    # Every target, so strict-only rules are exercised by the Anthropic-shaped examples too.
    targets = tuple(TARGETS.values())
    options = {**getattr(mod, "OPTIONS", {}), **getattr(mod, "EXAMPLE_OPTIONS", {})}
    ctx = Context(targets=targets, options=options, targets_of=lambda _: targets)
    # Read as a file would be: the format (which some rules depend on) comes from the records' shape.
    parsed = parse_bytes("example.json", json.dumps(records).encode())
    assert not parsed.errors and len(parsed.tools) == len(records)
    tools = parsed.tools
    if mod.KIND == "toolset":
        return list(mod.check(Toolset(id="example.json", files=("example.json",), tools=tools), ctx))
    return [p for t in tools for p in mod.check(t, ctx)]


@pytest.mark.parametrize("name", LINT_MODULES)
def test_contract(name: str) -> None:
    mod = module(name)
    assert mod.CODE.replace("-", "_") == name
    assert mod.SEVERITY in ("error", "warning", "info")
    assert mod.KIND in ("tool", "toolset", "file")
    assert callable(mod.check)
    assert isinstance(mod.EXAMPLE, list) and isinstance(mod.FIXED, list)
    doc = docstring(mod)
    for section in SECTIONS:
        assert re.search(rf"^## {section}$", doc, re.M), f"{name} lacks '## {section}'"


@pytest.mark.parametrize("name", [n for n in LINT_MODULES if n != "parse_error"])
def test_example_fires_and_fixed_does_not(name: str) -> None:
    mod = module(name)
    if hasattr(mod, "EXAMPLE_PATH"):  # a source-level rule: its examples are files, not records
        assert run_file(mod, mod.EXAMPLE_FILE), f"{mod.CODE}: EXAMPLE_FILE does not fire"
        assert run_file(mod, mod.FIXED_FILE) == [], f"{mod.CODE}: FIXED_FILE fires"
        doc = docstring(mod)
        assert mod.EXAMPLE_FILE.strip() in doc and mod.FIXED_FILE.strip() in doc  # the documented ones
        return
    assert run(mod, mod.EXAMPLE), f"{mod.CODE}: EXAMPLE does not fire"
    assert run(mod, mod.FIXED) == [], f"{mod.CODE}: FIXED fires"


def run_file(mod: ModuleType, text: str) -> list[Problem]:
    targets = tuple(TARGETS.values())
    ctx = Context(targets=targets, options=dict(getattr(mod, "OPTIONS", {})), targets_of=lambda _: targets)
    parsed = parse_bytes(mod.EXAMPLE_PATH, text.encode())
    assert not parsed.errors and parsed.tools
    return [p for t in parsed.tools for p in mod.check(t, ctx)]


def test_parse_error_is_emitted_by_the_engine_not_checked() -> None:
    mod = module("parse_error")
    assert mod.KIND == "file"
    assert list(mod.check(None, Context())) == []
    assert mod.EXAMPLE_FILE != mod.FIXED_FILE
