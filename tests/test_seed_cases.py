"""Every seed case of `../shared/cases/seed-cases.json` comes out right (seed 001's verdicts)."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from tooldiff.eval import TOOL_CODES, make_tool, run_toolset
from tooldiff.rules import PAIR_PRECEDENCE

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "cases" / "seed-cases.json"


def _cases() -> list[dict[str, Any]]:
    if not SEEDS.exists():
        return []
    return list(json.loads(SEEDS.read_text("utf-8")))


@pytest.fixture(autouse=True)
def _needs_shared(shared_dir: Path) -> None:
    """Skips with a clear reason when ../shared is absent."""


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["case"])
def test_seed_case(case: dict[str, Any]) -> None:
    tools = [make_tool(t, i) for i, t in enumerate(case["tools"])]
    got = run_toolset(tools)
    expect = case["expect"]
    named: set[tuple[str, str]] = set()
    for code, items in expect.items():
        if code in PAIR_PRECEDENCE:
            for pair in items:
                key = tuple(sorted(pair))
                named.add(key)  # type: ignore[arg-type]
                assert got.pairs.get(key, ("none",))[0] == code, f"{case['case']}: {key} should be {code}"  # type: ignore[call-overload]
        elif code in TOOL_CODES:
            assert {n for (n,) in items} <= got.tools[code]
    silent = expect.get("silent_pairs", [])
    if silent == "all":
        silent = [p for p in combinations(sorted(t.name for t in tools), 2) if p not in named]
    for pair in silent:
        key = tuple(sorted(pair))
        assert key not in got.pairs, f"{case['case']}: {key} must be silent, got {got.pairs.get(key)}"  # type: ignore[call-overload]
    if "blast-radius-twin" in expect and not expect["blast-radius-twin"]:
        assert all(code != "blast-radius-twin" for code, _ in got.pairs.values())


def test_the_seed_file_holds_the_cases_the_issue_names(shared_dir: Path) -> None:
    names = {c["case"] for c in _cases()}
    assert {"helpdesk", "helpdesk-merged", "support-surface", "crm-contacts", "crm-contacts-guarded"} <= names
