"""Two tools that overlap in intent but differ in what a wrong call costs (seed 001).

## What it finds
A pair that `intent-overlap` would report, where one tool is read-only or reversible and the other is
irreversible, destructive, or reaches people outside the agent: it pages, sends, emails, broadcasts, deletes
permanently, merges records, charges or deploys. Blast radius comes from evidence, in this order: the config
(`tools: {name: {blast: read|write|destructive|external}}`), explicit MCP annotations (`readOnlyHint`,
`destructiveHint`, `idempotentHint`, `openWorldHint`), then tooldiff's lexicon of verbs and phrases
("permanently", "cannot be undone", "notify", "page the on-call"). A name led by a read verb (`list_`, `get`,
`search_`) is a read whatever its object does ("Webhooks send notifications"), unless the name joins a second
verb on (`get_and_delete_message`). The finding names the evidence it used.
`openWorldHint: true` on a tool that is not read-only says it writes to an open world (the web, GitHub), not
that it reaches people: it is a write unless its wording says it sends, pages, deploys or deletes.
`destructiveHint: true` is the spec's default for a tool that is not read-only, so it tells two tools apart
only when the other one's author said otherwise (`readOnlyHint: true`, `destructiveHint: false`, or `blast` in
the config); against a twin that leaves the hint unset, the wording decides (Playwright's `browser_hover`,
marked destructive, is no blast-radius twin of Puppeteer's `puppeteer_hover`, which sets no hints).

It does not fire when the dangerous tool takes a **required argument the model cannot make up**: an approval
id, a confirmation token, or a value that only an earlier read returns. A required free-text `reason` does not
count: it is a description with a colon in it. Nor does a flag or a number the model picks itself (`confirm:
true`, `max_tokens`), or text its description asks the model to write (`"Your signature line"`), whatever the
name says, unless the description says where the value comes from ("as returned by get_contact").

What the labelled sets taught (`make eval`): the twin is found only when the two tools overlap in
intent, and overlap needs their names to agree. Twins named by different verbs are missed: `move_to_trash` /
`delete_file`, `draft_email` / `send_email`, `request_refund` / `refund_payment` (the frozen set) and
`create_payment_intent` / `create_charge` (our own set). `link` and `merge` meet only because the lexicon
puts both in one action class (association), as `archive` sits with deletion. Where the wording cannot say
it, state the blast radius in the config (`tools: {name: {blast: destructive}}`) and name the pair in the
description; a config blast radius alone does not make two differently named tools overlap.

## Why it matters
Merging them would dissolve a safety boundary into a sentence; leaving them as they are leaves the routing
ambiguous. In seed 001, 21 of 33 contact merges were calls a human would have made as links, and each cost a
restore from backup.

## Example
`link_contacts(a, b)`: "Record that two contact records are the same person. Undo by deleting the link."
next to `merge_contacts(primary, secondary)`: "Merge two contact records that are the same person and delete
the secondary."

## Use instead
Keep the two tools separate, and give the dangerous one a required argument the model cannot produce on its
own: `confirmed_by`, the id of a human approval record, a confirmation token, or a value returned by the read
that checks the precondition.

## References
- Seed 001, "The corner where both answers are wrong".
- MCP specification, tool annotations.
"""

from __future__ import annotations

from dataclasses import replace

from tooldiff.blast import Blast, assess
from tooldiff.model import Problem, Severity
from tooldiff.overlap import intent_overlap
from tooldiff.pairs import ToolView
from tooldiff.rules.base import Context

CODE = "blast-radius-twin"
SEVERITY: Severity = "warning"
KIND = "pair"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target

_CONTACT_ID = {"type": "string", "description": "contact id"}
EXAMPLE = [
    {
        "name": "link_contacts",
        "description": "Record that two contact records are the same person. Undo by deleting the link.",
        "input_schema": {
            "type": "object",
            "properties": {"a": _CONTACT_ID, "b": _CONTACT_ID},
            "required": ["a", "b"],
        },
    },
    {
        "name": "merge_contacts",
        "description": "Merge two contact records that are the same person and delete the secondary.",
        "input_schema": {
            "type": "object",
            "properties": {"primary": _CONTACT_ID, "secondary": _CONTACT_ID},
            "required": ["primary", "secondary"],
        },
    },
]
FIXED = [
    EXAMPLE[0],
    {
        "name": "merge_contacts",
        "description": "Merge two contact records that are the same person and delete "
        "the secondary. Requires a human approval.",
        "input_schema": {
            "type": "object",
            "properties": {
                "primary": _CONTACT_ID,
                "secondary": _CONTACT_ID,
                "confirmed_by": {
                    "type": "string",
                    "description": "The id of the human approval record, as returned by "
                    "request_merge_approval",
                },
            },
            "required": ["primary", "secondary", "confirmed_by"],
        },
    },
]


_DOES = {"read": "reads", "write": "writes"}  # the safe side of a twin is never dangerous


_DEFAULT_HINT = "destructiveHint: true"
_FLOOR_HINTS = frozenset({"readOnlyHint", "openWorldHint"})


def _weighed(risky: ToolView, safe: ToolView) -> Blast:
    """risky's blast radius as it compares with safe's. `destructiveHint: true` is the MCP default for any
    tool not read-only: a twin whose author left it unset has it too, so it is a difference only when safe's
    author said otherwise (Playwright marks hovering destructive; Puppeteer's hover sets no hints). Else the
    wording decides, as it did for safe."""
    ev = risky.blast
    if (ev.evidence, ev.detail) != ("annotations", _DEFAULT_HINT) or safe.blast.evidence == "config":
        return ev
    said = safe.tool.annotations or {}
    if said.get("readOnlyHint") is True or said.get("destructiveHint") is False:
        return ev
    # Only the hints that set a floor for the wording to raise (`idempotentHint: true` would stop at a write).
    hints = {k: v for k, v in (risky.tool.annotations or {}).items() if k in _FLOOR_HINTS}
    return assess(replace(risky.tool, annotations=hints), risky.tool_settings)


def check(a: ToolView, b: ToolView, ctx: Context) -> Problem | None:
    # Overlap first: intent-overlap asks the same of the same pair (cached), and most pairs do not overlap,
    # so the blast radius is assessed only for the few that do.
    if not (a.terms.analysable and b.terms.analysable) or intent_overlap(a, b) is None:
        return None
    if a.blast.dangerous == b.blast.dangerous:
        return None
    safe, risky = (a, b) if b.blast.dangerous else (b, a)
    ev = _weighed(risky, safe)
    if not ev.dangerous or set(risky.guards) - {x.name for x in safe.args}:
        return None
    return Problem(
        message=(
            f"{safe.name} and {risky.name} overlap in intent, but a wrong call of {risky.name} is "
            f"{ev.level} ({ev.evidence}: {ev.detail}) while {safe.name} only {_DOES[safe.blast.level]}. "
            f"Do not merge them: the merged tool would reach {risky.name}'s effect through an argument "
            "guarded only by a sentence."
        ),
        fix=(
            f"Keep both, and give {risky.name} a required argument the model cannot make up: the id of a "
            "human approval record (e.g. confirmed_by), a confirmation token, or a value only an earlier "
            "read returns. "
            "A required free-text reason is not a guard."
        ),
        evidence={
            "dangerous": risky.name,
            "blast": ev.level,
            "blast_evidence": ev.evidence,
            "blast_detail": ev.detail,
            "safe": safe.name,
            "safe_blast": safe.blast.level,
        },
    )
