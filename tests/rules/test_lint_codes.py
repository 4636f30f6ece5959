"""Each lint code fires on the fixture made for it and is silent on the corrected version.

Fixtures are `tests/fixtures/lint/<code>.json`: `{code, targets, bad, good, expect, options?}`, tools in
Anthropic shape. Adding a case means adding a file.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tooldiff.model import Problem, Tool, Toolset
from tooldiff.rules.base import Context
from tooldiff.targets import resolve

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lint"
CASES = sorted(p.stem for p in FIXTURES.glob("*.json"))
LINT_TOOL_RULES = (
    "optional-forced-required",
    "optional-not-required",
    "missing-additional-properties-false",
    "unsupported-keyword",
    "root-not-object",
    "invalid-name",
    "oversized-description",
    "heavy-definition",
    "invalid-json-schema",
    "unresolved-ref",
    "schema-limit",
    "missing-description",
)


def make_tools(records: list[dict[str, Any]]) -> tuple[Tool, ...]:
    return tuple(
        Tool(
            name=r["name"],
            description=r.get("description", ""),
            input_schema=r.get("input_schema"),
            format="anthropic",
            file="tools.json",
            line=i + 1,
            pointer=f"/{i}",
            schema_pointer=f"/{i}/input_schema",
            schema_key="input_schema" if "input_schema" in r else "",
        )
        for i, r in enumerate(records)
    )


def run(
    module: ModuleType, records: list[dict[str, Any]], targets: list[str], options: dict[str, Any]
) -> list[Problem]:
    objs = resolve(targets)
    ctx = Context(
        targets=objs, options={**getattr(module, "OPTIONS", {}), **options}, targets_of=lambda _: objs
    )
    tools = make_tools(records)
    if module.KIND == "toolset":
        return list(module.check(Toolset(id="tools.json", files=("tools.json",), tools=tools), ctx))
    return [p for tool in tools for p in module.check(tool, ctx)]


def registry() -> dict[str, ModuleType]:
    """Only the lint modules: the full registry also needs the overlap rules, written elsewhere."""
    codes = set(LINT_TOOL_RULES) | set(CASES)
    return {c: importlib.import_module(f"tooldiff.rules.{c.replace('-', '_')}") for c in codes}


def load(code: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{code}.json").read_text(encoding="utf-8"))


def test_every_lint_code_has_a_fixture() -> None:
    owned = set(LINT_TOOL_RULES) | {"duplicate-name", "too-many-tools", "token-budget"}
    assert owned <= set(CASES)


@pytest.mark.parametrize("code", CASES)
def test_fires_on_bad(code: str) -> None:
    case = load(code)
    problems = run(registry()[code], case["bad"], case["targets"], case.get("options", {}))
    assert problems, f"{code} is silent on its bad fixture"
    if case.get("expect") is not None:
        assert sorted(p.pointer for p in problems) == sorted(case["expect"])
    for p in problems:
        assert p.message and p.fix and "\n" not in p.fix
        assert p.targets and set(p.targets) <= set(case["targets"])
        assert p.pointer == "" or p.pointer.startswith(("/name", "/description", "/input_schema"))


@pytest.mark.parametrize("code", CASES)
def test_silent_on_good(code: str) -> None:
    case = load(code)
    assert run(registry()[code], case["good"], case["targets"], case.get("options", {})) == []


@pytest.mark.parametrize("code", CASES)
def test_corrected_fixture_is_clean_for_every_lint_rule(code: str) -> None:
    """The corrected version passes the whole lint; optional-forced-required is expected on strict fixes."""
    case = load(code)
    for other in LINT_TOOL_RULES:
        if other == "optional-forced-required":
            continue
        found = run(registry()[other], case["good"], case["targets"], {})
        assert found == [], f"{other} fires on the corrected {code} fixture: {found[0].message}"


def test_fix_for_optional_not_required_produces_optional_forced_required() -> None:
    case = load("optional-not-required")
    found = run(registry()["optional-forced-required"], case["good"], case["targets"], {})
    assert [p.pointer for p in found] == ["/input_schema/properties/note"]
    assert all(p.targets == ("openai-strict",) for p in found)
