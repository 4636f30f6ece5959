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
        lo, hi, best, shown = 0, total, "", -1
        while lo <= hi:
            mid = (lo + hi) // 2
            attempt = make(replace(level, finding_cap=mid))
            if size(attempt) <= limit:
                best, shown, lo = attempt, mid, mid + 1
            else:
                hi = mid - 1
        if shown >= min(level.min_findings, total):
            return best
    return _cut(text, limit, size)


def _cut(text: str, limit: int, size: Callable[[str], int]) -> str:
    room = max(0, limit - size(CUT_NOTE))
    cut = text[:room]
    while cut and size(cut) > room:
        cut = cut[: len(cut) * 9 // 10]
    end = cut.rfind("\n")
    return (cut[: end + 1] if end > 0 else cut) + CUT_NOTE.lstrip("\n")
