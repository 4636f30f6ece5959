"""Neither of two tools has an analysed term the other lacks (seed 000, H1.6).

## What it finds
Two tools in one toolset whose names and descriptions, after splitting identifiers, dropping stopwords and
low-information words, folding plurals and applying tooldiff's synonym lexicon, yield the same set of terms.
A neighbour's name counts as a distinguishing term only inside a contrastive clause ("use X for ...", "not for
..., see X", or a bullet list such a clause opens with a colon); an alias notice ("same as X", "deprecated,
use X") is a collision, not a boundary. Silent when either tool yields fewer than two terms. Names that say
the same words in opposite directions (`degrees_to_radians` / `radians_to_degrees`) are distinct, and so are
names with the same words where one writes a word plural and the other singular (`get_jobs` / `get_job`): one
returns many, the other one.

A pair gets one headline finding: where `blast-radius-twin` or `intent-overlap` also holds (as for the example
below, whose two tools take the same arguments), that one is the headline and this finding is listed under its
`related`.

## Why it matters
A model chooses between tools by their text. When neither text says anything the other does not, the choice is
decided by something other than the user's words, and traffic splits like a coin flip (seed 001).

## Example
`search_docs`: "Search the docs." and `find_docs`: "Find documentation."

## Use instead
State the boundary in both descriptions: when to choose this tool, and which neighbour handles the nearest
case ("Use search_docs for keyword search over the manual; for one page by id, use get_doc"). Or, when the two
really do the same thing, merge them and delete one.

## References
- Seed 000, H1.6 tool differentia (mutual nondistinction).
- Seed 001, "Merging overlapping tools".
"""

from __future__ import annotations

from tooldiff.model import Problem, Severity
from tooldiff.pairs import ToolView, comparable, distinguishing
from tooldiff.rules.base import Context
from tooldiff.terms import shown

CODE = "mutual-nondistinction"
SEVERITY: Severity = "warning"
KIND = "pair"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target

EXAMPLE = [
    {"name": "search_docs", "description": "Search the docs.", "input_schema": {"type": "object"}},
    {"name": "find_docs", "description": "Find documentation.", "input_schema": {"type": "object"}},
]
FIXED = [
    {
        "name": "search_docs",
        "description": "Search the docs by keyword. For one page by its id, use get_doc.",
        "input_schema": {"type": "object"},
    },
    {
        "name": "get_doc",
        "description": "Fetch the full text of one documentation page by its id.",
        "input_schema": {"type": "object"},
    },
]


def fires(a: ToolView, b: ToolView, ctx: Context) -> bool:
    if not (a.terms.name <= b.terms.name or b.terms.name <= a.terms.name):
        return False  # each name has a term the other's lacks (the cheap exit on most candidates)
    return comparable(a, b) and not distinguishing(a, b) and not distinguishing(b, a)


def check(a: ToolView, b: ToolView, ctx: Context) -> Problem | None:
    if not fires(a, b, ctx):
        return None
    shared = sorted(a.terms.all)
    written = shown(shared, a, b)
    return Problem(
        message=(
            f"{a.name} and {b.name} have the same analysed terms ({', '.join(written)}): neither says when "
            "to choose it over the other."
        ),
        fix=(
            f'Add a contrastive boundary clause to each, e.g. "Use {a.name} for ...; for ..., use {b.name}." '
            "If they do the same thing, merge them and delete one."
        ),
        evidence={"terms": shared},
    )
