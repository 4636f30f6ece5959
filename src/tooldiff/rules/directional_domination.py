"""One tool adds no analysed term beyond its neighbour's (seed 000, H1.6).

## What it finds
A pair in one toolset where every analysed term of one tool's name and description also appears in the
other's, while the other has terms of its own. Terms are extracted as for `mutual-nondistinction`; a
neighbour's name distinguishes only inside a contrastive clause, never inside an alias notice. Silent when
either tool yields fewer than two terms. Names that say the same words in opposite directions
(`degrees_to_radians` / `radians_to_degrees`) are distinct, and so are names with the same words where one
writes a word plural and the other singular (`get_projects` / `get_project`). Where `blast-radius-twin` or
`intent-overlap` also holds, that is the pair's one headline finding and this one is listed under its
`related`.

## Why it matters
A request that fits the dominated tool also fits the broader one, and nothing in the dominated tool's text
says when it should win. The model has no wording to test a request against.

## Example
`get_page`: "Get a documentation page." next to `get_page_history`: "Get the edit history of a
documentation page."

## Use instead
Say what the dominated tool is for that the other is not, as a contrastive clause: "Use get_page for the
current text of a page; for its past versions, use get_page_history."

## References
- Seed 000, H1.6 tool differentia (directional domination).
"""

from __future__ import annotations

from tooldiff.model import Problem, Severity
from tooldiff.pairs import ToolView, comparable, distinguishing
from tooldiff.rules.base import Context
from tooldiff.terms import shown

CODE = "directional-domination"
SEVERITY: Severity = "warning"
KIND = "pair"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target

EXAMPLE = [
    {"name": "get_page", "description": "Get a documentation page.", "input_schema": {"type": "object"}},
    {
        "name": "get_page_history",
        "description": "Get the edit history of a documentation page.",
        "input_schema": {"type": "object"},
    },
]
FIXED = [
    {
        "name": "get_page",
        "description": "Get the current text of a documentation page. For its past versions, "
        "use get_page_history.",
        "input_schema": {"type": "object"},
    },
    {
        "name": "get_page_history",
        "description": "Get the edit history of a documentation page.",
        "input_schema": {"type": "object"},
    },
]


def _dominated(a: ToolView, b: ToolView) -> tuple[ToolView, ToolView, frozenset[str]] | None:
    """(the dominated tool, the other, the other's distinguishing terms), or None."""
    if not (a.terms.name <= b.terms.name or b.terms.name <= a.terms.name):
        return None  # each name has a term the other's lacks (the cheap exit on most candidates)
    if not comparable(a, b):
        return None
    only_a, only_b = distinguishing(a, b), distinguishing(b, a)
    if bool(only_a) == bool(only_b):
        return None  # both distinguish, or neither (that is mutual-nondistinction)
    return (a, b, only_b) if not only_a else (b, a, only_a)


def fires(a: ToolView, b: ToolView, ctx: Context) -> bool:
    return _dominated(a, b) is not None


def check(a: ToolView, b: ToolView, ctx: Context) -> Problem | None:
    found = _dominated(a, b)
    if found is None:
        return None
    small, big, extra = found
    return Problem(
        message=(
            f"{small.name} adds no term beyond {big.name}'s: every term of it "
            f"({', '.join(shown(small.terms.all, small, big))}) also describes {big.name}, which adds "
            f"{_adds(extra, small, big)}. Nothing says when {small.name} should win."
        ),
        fix=(
            f'Add a contrastive boundary clause to {small.name}: "Use {small.name} for ...; for ..., use '
            f'{big.name}."'
        ),
        evidence={"dominated": small.name, "terms": sorted(small.terms.all), "other_adds": sorted(extra)},
    )


def _adds(extra: frozenset[str], small: ToolView, big: ToolView) -> str:
    """The other's distinguishing terms. One the dominated tool's description has too is only in the name."""
    plain = shown((t for t in extra if t not in small.terms.all), small, big)
    named = shown((t for t in extra if t in small.terms.all), small, big)
    if not named:
        return ", ".join(plain)
    in_name = f"{', '.join(named)} in its name"
    return f"{', '.join(plain)}, and {in_name}" if plain else in_name
