"""The candidate search finds every pair a pair rule flags (brute force on the seed and labelled sets)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldiff import pairs
from tooldiff.eval import make_tool
from tooldiff.pairs import ToolView, analyse, candidates, check_pair
from tooldiff.rules import PAIR_PRECEDENCE
from tooldiff.rules.base import Context

CTX = Context()
CONTEXTS = {code: CTX for code in PAIR_PRECEDENCE}
REPO = Path(__file__).resolve().parents[2]


H16_CONTEXTS = {code: CTX for code in ("mutual-nondistinction", "directional-domination")}


@pytest.fixture(params=["index", "default"])
def search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with the index for every toolset size, and with the default (small ones exhaustive)."""
    if request.param == "index":
        monkeypatch.setattr(pairs, "EXHAUSTIVE_MAX", 0)
    return str(request.param)


def _flagged(views: list[ToolView], contexts: dict[str, Context] = CONTEXTS) -> set[tuple[int, int]]:
    return {
        (i, j)
        for i in range(len(views))
        for j in range(i + 1, len(views))
        if check_pair(views[i], views[j], contexts) is not None
    }


def _views(records: list[dict[str, Any]]) -> list[ToolView]:
    return [analyse(make_tool(r, i), CTX) for i, r in enumerate(records)]


def test_candidates_are_ordered_unique_pairs(search: str) -> None:
    views = _views(
        [
            {"name": "search_docs", "description": "Search the docs."},
            {"name": "find_docs", "description": "Find documentation."},
            {"name": "get_weather", "description": "Get the weather for a city."},
        ]
    )
    got = candidates(views)
    assert got == sorted(set(got)) and all(i < j for i, j in got)
    assert (0, 1) in got and (0, 2) not in got


def test_complete_on_own_and_frozen_cases(search: str) -> None:
    for name in ("own.json", "frozen.json"):
        for case in json.loads((REPO / "tests/eval" / name).read_text("utf-8")):
            views = _views(case["tools"])
            assert _flagged(views) <= set(candidates(views)), case["case"]


def test_without_the_intent_rules_the_search_still_finds_every_h16_pair(search: str) -> None:
    # Disabling intent-overlap and blast-radius-twin drops their keys; what H1.6 flags must stay found.
    seen_h16 = 0
    for name in ("own.json", "frozen.json"):
        for case in json.loads((REPO / "tests/eval" / name).read_text("utf-8")):
            views = _views(case["tools"])
            flagged = _flagged(views, H16_CONTEXTS)
            seen_h16 += len(flagged)
            narrow = set(candidates(views, intent=False))
            assert flagged <= narrow, case["case"]
            assert narrow <= set(candidates(views)), case["case"]
    assert seen_h16 > 0


def test_complete_on_seed_cases(shared_dir: Path, search: str) -> None:
    for case in json.loads((shared_dir / "cases/seed-cases.json").read_text("utf-8")):
        views = _views(case["tools"])
        assert _flagged(views) <= set(candidates(views)), case["case"]


def test_a_small_toolset_searched_exhaustively_flags_what_the_index_flags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Exhaustive search may add pairs that pass the condition without sharing a rare key; no rule flags them.
    for name in ("own.json", "frozen.json"):
        for case in json.loads((REPO / "tests/eval" / name).read_text("utf-8")):
            views = _views(case["tools"])
            assert len(views) <= pairs.EXHAUSTIVE_MAX
            every = set(candidates(views))
            with monkeypatch.context() as m:
                m.setattr(pairs, "EXHAUSTIVE_MAX", 0)
                indexed = set(candidates(views))
            assert indexed <= every, case["case"]
            flag = {p for p in every if check_pair(views[p[0]], views[p[1]], CONTEXTS) is not None}
            assert flag <= indexed, case["case"]


def test_complete_on_labelled_pairs_as_one_toolset(shared_dir: Path) -> None:
    # All 490 definitions of pairs.json in one toolset: every pair any rule flags must be a candidate.
    pairs = json.loads((shared_dir / "corpora/labelled/pairs.json").read_text("utf-8"))
    records = [p[side] for p in pairs for side in ("a", "b")]
    views = _views(records)
    flagged = _flagged(views)
    got = set(candidates(views))
    assert flagged and flagged <= got
    assert len(got) < len(views) * (len(views) - 1) // 4  # far fewer than all pairs


def test_ten_thousand_tools_cost_far_fewer_than_fifty_million_comparisons(shared_dir: Path) -> None:
    # Issue 2: a 10,000-tool toolset must not cost 50 million comparisons (measured: about 323,000).
    with (shared_dir / "corpora/combined/all_tools.jsonl").open(encoding="utf-8") as fh:
        records = [json.loads(line) for _, line in zip(range(10_000), fh, strict=False)]
    views = _views(records)
    assert len(views) == 10_000
    assert len(candidates(views)) < 1_000_000


_TERM_SETS = st.frozensets(st.sampled_from(["a", "b", "c", "d"]), max_size=3)
_FACTS = st.lists(st.tuples(_TERM_SETS, _TERM_SETS, st.one_of(st.none(), _TERM_SETS), st.booleans(),
                            st.booleans()), max_size=8)


@given(_FACTS)
def test_the_exhaustive_search_tests_each_pair_as_the_index_does(facts: list[pairs.Facts]) -> None:
    """`_every_pair` inlines `_test` (with no pair met twice): the same pairs, in the same order."""
    expected: list[tuple[int, int]] = []
    for i, fact in enumerate(facts):
        if fact[3]:
            pairs._test(i, range(i + 1, len(facts)), facts, expected)
    assert pairs._every_pair(facts) == expected
