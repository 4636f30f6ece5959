"""Keeping a rendered page within a size limit (GitHub: 65,536 characters a comment, 1 MiB a step summary).

A renderer offers levels of detail, richest first. Each level that allows it is also tried with fewer
findings, found by bisection: findings are listed most severe first, so the lowest severities go first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

# A level is a frozen dataclass with at least `finding_cap: int | None` and `min_findings: int | None`
# (bisect the number of findings at this level, and accept it when at least that many fit).
L = TypeVar("L", bound=Any)
CUT_NOTE = "\n\n> Cut here to stay within the size limit.\n"


def fit(
    make: Callable[[L], str], levels: Sequence[L], limit: int, total: int, size: Callable[[str], int] = len
) -> str:
    """The richest rendering within `limit`; past the leanest level, cut at a line and say so."""
    text = ""
    for level in levels:
        text = make(level)
        if size(text) <= limit:
            return text
        if level.min_findings is None or not total:
            continue
        lo, hi = _bracket(make, level, limit, total, size(text), size)
        best, shown = _bisect(make, level, limit, lo, hi, size)
        if shown < 0 and lo > 0:  # the estimate was too generous: search below it
            best, shown = _bisect(make, level, limit, 0, lo - 1, size)
        if shown >= min(level.min_findings, total):
            return best
    return _cut(text, limit, size)


def _bisect(
    make: Callable[[L], str], level: L, limit: int, lo: int, hi: int, size: Callable[[str], int]
) -> tuple[str, int]:
    """The most findings in [lo, hi] that fit, and that rendering; ("", -1) when none does."""
    best, shown = "", -1
    while lo <= hi:
        mid = (lo + hi) // 2
        attempt = make(replace(level, finding_cap=mid))
        if size(attempt) <= limit:
            best, shown, lo = attempt, mid, mid + 1
        else:
            hi = mid - 1
    return best, shown


def _bracket(
    make: Callable[[L], str], level: L, limit: int, total: int, full: int, size: Callable[[str], int]
) -> tuple[int, int]:
    """A narrow range for the bisection, from the size per finding: a few renders instead of ~log2(total)."""
    bare = size(make(replace(level, finding_cap=0)))
    if bare > limit or full <= bare:
        return 0, total
    guess = min(total, int((limit - bare) * total / (full - bare)))
    span = max(8, guess // 8)
    if size(make(replace(level, finding_cap=guess))) <= limit:
        return guess, min(total, guess + span)
    return max(0, guess - span), guess - 1


def _cut(text: str, limit: int, size: Callable[[str], int]) -> str:
    room = max(0, limit - size(CUT_NOTE))
    cut = text[:room]
    while cut and size(cut) > room:
        cut = cut[: len(cut) * 9 // 10]
    end = cut.rfind("\n")
    return (cut[: end + 1] if end > 0 else cut) + CUT_NOTE.lstrip("\n")
