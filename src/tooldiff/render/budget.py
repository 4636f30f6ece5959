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
SAMPLE = 64  # findings rendered to estimate the size of one
CUT_NOTE = "\n\n> Cut here to stay within the size limit.\n"


def fit(
    make: Callable[[L], str], levels: Sequence[L], limit: int, total: int, size: Callable[[str], int] = len
) -> str:
    """The richest rendering within `limit`; past the leanest level, cut at a line and say so.

    With many findings the full rendering is predicted from a sample before it is made: rendering tens of
    thousands of findings only to throw them away is what made large audits slow.
    """
    text = ""
    for level in levels:
        guess = None
        if total > SAMPLE:
            bare = size(make(replace(level, finding_cap=0)))
            per = max(1.0, (size(make(replace(level, finding_cap=SAMPLE))) - bare) / SAMPLE)
            guess = max(0, min(total, int((limit - bare) / per)))
            if bare + per * total > limit * 1.1:
                if level.min_findings is None:
                    continue  # predicted far over: skip the costly full rendering
            else:
                text = make(level)
                if size(text) <= limit:
                    return text
        else:
            text = make(level)
            if size(text) <= limit:
                return text
        if level.min_findings is None or not total:
            continue
        if guess is None:
            best, shown = _bisect(make, level, limit, 0, total, size)
        else:
            best, shown = _secant(make, level, limit, total, guess, per, size)
            if shown < 0:
                best, shown = _bisect(make, level, limit, 0, guess, size)
        if shown >= min(level.min_findings, total):
            return best
        text = best or text
    return _cut(text or make(levels[-1]), limit, size)


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


def _secant(
    make: Callable[[L], str],
    level: L,
    limit: int,
    total: int,
    guess: int,
    per: float,
    size: Callable[[str], int],
) -> tuple[str, int]:
    """Step from the estimate by the measured size per finding: two or three renders, not a bisection."""
    best, shown, k = "", -1, guess
    for _ in range(6):
        text = make(replace(level, finding_cap=k))
        over = size(text) - limit
        if over <= 0:
            if k > shown:
                best, shown = text, k
            step = int(-over / per * 0.98)
            if k >= total or step < 1:
                break
            nxt = min(total, k + step)
        else:
            nxt = max(0, k - int(over / per * 1.02) - 1)
        if nxt == k or nxt <= shown:
            break
        k = nxt
    return best, shown


def _cut(text: str, limit: int, size: Callable[[str], int]) -> str:
    room = max(0, limit - size(CUT_NOTE))
    cut = text[:room]
    while cut and size(cut) > room:
        cut = cut[: len(cut) * 9 // 10]
    end = cut.rfind("\n")
    return (cut[: end + 1] if end > 0 else cut) + CUT_NOTE.lstrip("\n")
