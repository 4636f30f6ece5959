"""Two tools that a router cannot separate from the request alone (seed 001).

## What it finds
A pair that overlaps in intent, judged on two things together (`tooldiff.overlap`):
- the terms after the synonym lexicon, including the nouns a domain uses for one thing (document, page, doc,
  article; ticket, issue; message, post): the action agrees (search, retrieval, creation, ...), neither name
  holds a term the other tool's text lacks (a vendor prefix such as `puppeteer_` or `_exa` does not count,
  a name word its description writes as two words counts as those, `write_audiofile` as audio and file;
  of a description over 1,024 characters only the opening 500 count, as its later lines mention neighbours'
  objects in passing), and each summary is mostly found in the other's text;
- the argument shape, with synonym argument names folded (query/question, limit/top_k, from/to and
  start/end).

It stays silent when one tool has a *routing argument* the other lacks: an identifier that exists only once
the conversation holds one (`document_id`, `url`, `thread_ts`), ids of different systems (`article_id`
against `ticket_id`), a guard such as an approval id, or a required name of the tool's own object
(`job_name` on `get_job`) against a tool that returns many of them (`get_jobs`). It also stays silent when
each summary names a system the other never mentions (GitHub against GitLab), and when one description
draws a contrastive boundary to the other by what a request asks for ("for PDF files use write_pdf"). A
boundary by how the request is worded ("for keyword lookups use search_docs, for natural-language questions
use find_document", "for conversational queries", "in plain English") is routing guidance, and the overlap
stands: seed 001 measured three such sentences moving the traffic "not far enough to matter", as the
ambiguity is in the request. An alias notice is an overlap, whatever the wording, when it names the other
tool right after its phrase ("alias of X", "same as X", "deprecated, use X"); a name met elsewhere in such a
sentence is a word ("migration steps, and deprecated API surface" names no tool `steps`), and "parameters
identical to X" matches the arguments, not the tools.

What the labelled pairs taught (`make eval`):
- cross-server twins rarely share wording but share the name's core once the vendor prefix is dropped
  (`browser_click` / `click`); the same core name needs little textual agreement;
- hard negatives from one server differ in one name word that the neighbour's text lacks (staged/unstaged,
  projects/teams, snapshot/screenshot), so a missing name term is the strongest "distinct" signal;
- "not yet staged" is folded to "unstaged" so the negation is not read as agreement;
- `get` and `list` are one action only when the get's name is plural (`get_events` / `list_events`) or says
  all (`get_all_events`), never for `get_workspace` / `list_workspaces`; for the same reason a retrieval of
  one and one of all are two (`experiment-get` / `experiment-get-all`), unless the noun does not say its
  number (`get_news` / `get_all_news`); `hsl_to_rgb` / `rgb_to_hsl` are opposite directions;
- one description of four words or more under two names that differ in their verb alone (`get_weather` /
  `lookup_weather`) is an overlap whatever the verbs: the text is all a router has to go on;
- `list` and `search` are one action only when the listing's summary searches too ("List Gmail messages with
  optional filters (max_results, query, label_ids)") or the search's description opens with "List" ("List or
  search inboxes by name"): "List all sessions" next to "Search sessions by name" stays apart;
- a noun the lexicon folds too eagerly makes false pairs in a large corpus ("matches" of a sports feed is not
  a search; a "topic" is not a question), so such words were taken out of the synonym groups; an "event" is
  a calendar entry only in a text that also names the calendar (calendar, meeting, appointment), not the
  events of a cluster, a namespace or a trigger (`lexicon.in_sense`);
- misses that remain (7 of 39 labelled overlaps): names that share nothing once the vendor is dropped
  (`kubectl_scale` / `resources_scale`, `puppeteer_select` / `browser_select_option`), a verb-less name
  against a verb (`query` / `read_query`), and maintainer merges of read tools that return different slices of
  one entity (OpenMetadata's `get_asset_context`, `get_knowledge_content`, `get_entity_details`,
  `search_company_context` / `get_company_context`). The one distinct pair flagged is OpenMetadata's
  `create_glossary` / `create_glossary_term`, which its maintainers later merged as well.

## Why it matters
Neither tool has a definable behaviour any more: the same phrasing lands in different tools on different
requests, cache hit rates halve, and relevance tuning must be made twice (seed 001).

## Example
`search_docs(query, limit)`: "Search the documentation corpus for pages matching a query." next to
`find_document(question, top_k)`: "Find documents relevant to a user's question."

## Use instead
Merge into one tool with one argument name and one meaning, and delete the other. Never add a mode argument
that selects between the old behaviours: that moves the coin flip into argument selection. Where one tool is
strictly worse (or announces itself as a deprecated alias), delete it.

## References
- Seed 001, "Merging overlapping tools" and "Two axes, applied to the six".
"""

from __future__ import annotations

from tooldiff.model import Problem, Severity
from tooldiff.overlap import intent_overlap
from tooldiff.pairs import ToolView
from tooldiff.rules.base import Context
from tooldiff.terms import shown

CODE = "intent-overlap"
SEVERITY: Severity = "warning"
KIND = "pair"
PROVIDER_FREE = True  # it judges the tool text: its findings name no target


def _schema(props: dict[str, str]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {k: {"type": v} for k, v in props.items()},
        "required": list(props),
    }


EXAMPLE = [
    {
        "name": "search_docs",
        "description": "Search the documentation corpus for pages matching a query.",
        "input_schema": _schema({"query": "string", "limit": "integer"}),
    },
    {
        "name": "find_document",
        "description": "Find documents relevant to a user's question.",
        "input_schema": _schema({"question": "string", "top_k": "integer"}),
    },
]
FIXED = [
    {
        "name": "search_docs",
        "description": "Search documentation. Accepts a natural-language question or "
        "keywords; returns ranked passages with the page they came from.",
        "input_schema": _schema({"query": "string", "limit": "integer"}),
    },
    {
        "name": "get_document_by_id",
        "description": "Retrieve the full text of one document.",
        "input_schema": _schema({"document_id": "string"}),
    },
]


def check(a: ToolView, b: ToolView, ctx: Context) -> Problem | None:
    if not (a.terms.analysable and b.terms.analysable):
        return None
    found = intent_overlap(a, b)
    if found is None:
        return None
    if found.alias:
        fix = "One announces itself as an alias of the other: delete the alias and keep one tool."
    else:
        fix = (
            f"Merge {a.name} and {b.name} into one tool with one argument name and one meaning, and delete "
            "the "
            "other. Do not add a mode argument to choose between the old behaviours. If one is strictly "
            "worse, delete it."
        )
    shape = "the same argument shape" if found.same_shape else "compatible arguments"
    return Problem(
        message=(
            f"A router cannot separate {a.name} and {b.name} from the request alone: they share "
            f"{', '.join(shown(found.shared, a, b)) or 'their purpose'} and take {shape}, and no routing "
            "argument (an id, a url) tells them apart."
        ),
        fix=fix,
        evidence={
            "shared_terms": list(found.shared),
            "cover": round(found.cover, 2),
            "same_shape": found.same_shape,
            "alias": found.alias,
        },
    )
