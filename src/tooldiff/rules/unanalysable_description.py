"""A description the differentia and overlap rules cannot analyse, mostly because it is not English.

## What it finds
A tool whose description is mostly in another script, or whose function words are not English. tooldiff's
lexicon is English-only, so `mutual-nondistinction`, `directional-domination` and `intent-overlap` skip the
tool rather than compare noise.

## Why it matters
Silence would read as "no overlap found". This finding says that the tool was not compared at all.

## Example
`buscar_facturas`: "Busca las facturas del cliente por fecha y devuelve las que coinciden con el filtro."

## Use instead
Write the description in English, or open it with an English sentence that says what the tool does and when
to choose it.

## References
- Seed 000: the lexicon is finite and English-specific.
"""

from __future__ import annotations

from collections.abc import Iterable

from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context
from tooldiff.terms import extract

CODE = "unanalysable-description"
SEVERITY: Severity = "info"
KIND = "tool"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target

EXAMPLE = [
    {
        "name": "buscar_facturas",
        "description": "Busca las facturas del cliente por fecha y devuelve las que coinciden con el filtro.",
        "input_schema": {"type": "object"},
    }
]
FIXED = [
    {
        "name": "buscar_facturas",
        "description": "Search the customer's invoices by date and return those that match the filter.",
        "input_schema": {"type": "object"},
    }
]


def check(tool: Tool, ctx: Context) -> Iterable[Problem]:
    if not (tool.description or "").strip():
        return
    # The pair rules' own verdict (`extract` is cached, and they ask for it next), so this finding says
    # exactly which tools they skipped.
    terms = extract(tool.name, tool.description or "")
    ok, why = terms.analysable, terms.why_unanalysable
    if not ok:
        yield Problem(
            message=(
                f"The description of {tool.name} cannot be analysed ({why}): differentia and overlap checks "
                "did not compare it with its neighbours."
            ),
            fix="Write the description in English, or open it with an English sentence saying what it does.",
            pointer="/description",
            evidence={"reason": why},
        )
