"""Intent overlap of two tools (seed 001): could a router separate them from the request alone?

Shared by `intent-overlap` and `blast-radius-twin`, so the two rules never disagree about what overlaps.
Two signals are judged together:
- the terms after the synonym lexicon: the action (search, retrieval, creation, ...) must agree, no name
  term of either tool may be missing from the other's text (a request could be tested against it), and
  each tool's summary must be mostly covered by the other's text;
- the argument shape: a required routing argument (an id, a url, a thread_ts, a guard) that the other tool has
  no counterpart for routes the call, and then the pair is not an overlap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tooldiff.args import Arg, arg_terms, named_thing, unmatched_required
from tooldiff.lexicon import lexicon
from tooldiff.pairs import ToolView
from tooldiff.terms import (
    bounds,
    fold_plural,
    names_alias,
    normalise_name_word,
    reversed_direction,
    split_identifier,
    text_terms,
    words,
)

COVER_MIN = 0.5  # share of a summary's terms the other tool's text must hold, both ways
COVER_FULL, COVER_LOW = 0.99, 0.3  # or: one summary wholly inside the other's text, and a little back
COVER_SAME_NAME = 0.1  # two tools with the same name but for a vendor prefix need only a little agreement


@dataclass(frozen=True, slots=True)
class Overlap:
    cover: float  # min over both directions of summary terms found in the other's text
    shared: tuple[str, ...]  # shared summary terms, for the message
    same_shape: bool  # every required argument has a counterpart both ways
    alias: bool  # one announces itself as the other's alias


def routing_split(a: ToolView, b: ToolView) -> tuple[Arg, ...]:
    """Required routing arguments (or guards) of one side that the other cannot supply."""
    out: list[Arg] = []
    for x, y in ((a, b), (b, a)):
        out += [arg for arg in unmatched_required(x.args, y.args) if _routing(arg, x, y)]
    return tuple(out)


def compatible_actions(a: ToolView, b: ToolView) -> bool:
    """Same action, or actions a request cannot tell apart ("get the events" / "list the events")."""
    if not a.actions or not b.actions or a.actions & b.actions:
        return True
    table = lexicon().compatible_actions
    for x, y, vx, vy in ((a.actions, b.actions, a, b), (b.actions, a.actions, b, a)):
        for p in x:
            for q in y:
                if q in table.get(p, ()) and _listing_ok(vx, p, vy, q):
                    return True
    return False


def _listing_ok(vx: ToolView, p: str, vy: ToolView, q: str) -> bool:
    """ "get_workspace" returns one, "list_workspaces" many: only a plural retrieval reads like a listing.
    "list_sessions" lists them all, "search_sessions" matches a query: a listing and a search are one action
    only when the listing searches too or the search opens by saying it lists ("List or search inboxes")."""
    pair = {p, q}
    if pair == {"listing", "search"}:
        listing, search = (vx, vy) if p == "listing" else (vy, vx)
        return _searches(listing) or _opens_with_listing(search)
    if pair != {"retrieval", "listing"}:
        return True
    return (vx if p == "retrieval" else vy).plural


def _searches(v: ToolView) -> bool:
    """The listing's summary names the search action ("List Gmail messages with optional filters
    (max_results, query, label_ids)"). Only the summary: further down a listing points at its neighbours
    ("essential for ... finding specific files"). A search in the name is the listing's object
    (`list_searches`), not its action."""
    return "search" in v.terms.summary and "search" not in v.terms.name


def _opens_with_listing(v: ToolView) -> bool:
    """The description's first word is the listing verb ("List or search inboxes by name"); "Retrieves a
    list of events" uses it as a noun, and so does "Returns a list of ...", whose verb is filler."""
    first = words(v.terms.stripped[:40])[:1]
    return bool(first) and text_terms(first[0]) == ["listing"]


def _has(x: ToolView, y: ToolView, term: str) -> bool:
    """y's text holds x's term, or the term is x's action and y's action cannot be told apart from it."""
    if term in y.terms.all:
        return True
    return _action_has(x, y, term)


def _action_has(x: ToolView, y: ToolView, term: str) -> bool:
    """The term is x's action and y's action cannot be told apart from it. A search is only excused by a
    listing that searches too (`_listing_ok`), never by a tool whose name and summary say no action."""
    if term == "search" and not y.actions:
        return False
    return term in x.actions and term in lexicon().compatible_actions and compatible_actions(x, y)


def missing_name_terms(x: ToolView, y: ToolView) -> frozenset[str]:
    """Terms of x's name (vendor prefix aside) that y's name and summary lack: a request could be tested
    against them. Further down, a description names its neighbours' objects in passing ("Clients are used
    when creating invoices"; gitlab_user's list of actions mentions runners, issues and projects), which
    does not make it a tool for them."""
    core = x.name_seq if _suffix_is_ours(x, y) else x.core
    held = y.terms.summary
    if core is x.core and x.core_set <= held:  # the usual answer for a candidate pair, found in C
        return frozenset()
    return frozenset(t for t in core if t not in held and not _action_has(x, y, t))


def _suffix_is_ours(x: ToolView, y: ToolView) -> bool:
    """x's last name word was taken for a vendor suffix (`web_search_exa`) because x's description never uses
    it, but y's name shows it is a word of the name: one name starts with the other (`get_job` /
    `get_job_config`, whose description says "configuration"), or both start with one namespace word that is
    not a verb (`complex_conj` / `complex_rect`, `surveys-get-all` / `survey-stats`)."""
    seq = x.name_seq
    if len(x.core) == len(seq) or x.core[0] != seq[0]:
        return False  # nothing stripped, or the prefix was (`puppeteer_click`)
    other = y.name_seq
    if other[: len(seq)] == seq or seq[: len(other)] == other:
        return True
    return bool(other) and other[0] == seq[0] and seq[0] not in lexicon().action_classes


def _shared_object(a: ToolView, b: ToolView) -> bool:
    """The two summaries name at least one common thing besides the action (vendor words aside)."""
    verbs = lexicon().action_classes
    vendors = a.vendors | b.vendors
    return bool((a.terms.summary & b.terms.summary) - verbs - vendors)


def _cover(x: ToolView, y: ToolView) -> float:
    own = x.terms.summary - x.vendors
    if not own:
        return 0.0
    # `_has` for each term: the terms y's text holds, counted in C, then the rest one by one.
    missing = own - y.terms.all
    return (len(own) - len(missing) + sum(1 for t in missing if _has(x, y, t))) / len(own)


def different_systems(a: ToolView, b: ToolView) -> bool:
    """Each summary names a system the other never mentions (GitHub / GitLab): a request names one of them."""
    only_a = a.terms.proper - b.terms.all - b.terms.proper
    return bool(only_a) and bool(b.terms.proper - a.terms.all - a.terms.proper)


_last: list[tuple[ToolView, ToolView, Overlap | None]] = []  # the last pair asked about, and its answer


def intent_overlap(a: ToolView, b: ToolView) -> Overlap | None:
    """The overlap, or None. `blast-radius-twin` and `intent-overlap` ask in turn about the same pair: the
    last answer is kept (views are immutable, and the kept pair holds them alive, so identity is safe)."""
    if _last and _last[0][0] is a and _last[0][1] is b:
        return _last[0][2]
    found = _intent_overlap(a, b)
    _last[:] = [(a, b, found)]
    return found


def _intent_overlap(a: ToolView, b: ToolView) -> Overlap | None:
    """Cheap, selective tests first: this runs on every candidate pair."""
    alias = names_alias(a.terms.alias_sentences, b.name) or names_alias(b.terms.alias_sentences, a.name)
    if not alias:
        if a.terms.summary.isdisjoint(b.terms.summary):  # each in the other's long text, nothing in common
            return None
        twins = _same_text(a, b)  # the names differ in their verb alone: the text is all a router has
        if not twins and (
            not compatible_actions(a, b) or missing_name_terms(a, b) or missing_name_terms(b, a)
        ):
            return None
        if different_systems(a, b):
            return None
        if reversed_direction(a.name, b.name) or _swapped_objects(a, b):
            return None
        if _one_or_all(a, b):
            return None
    args_a, args_b = a.args, b.args
    extra_a, extra_b = unmatched_required(args_a, args_b), unmatched_required(args_b, args_a)
    if _routes(extra_a, a, b) or _routes(extra_b, b, a):  # `routing_split`, on the extras computed once
        return None
    same_shape = not extra_a and not extra_b
    if alias:
        return Overlap(1.0, _shared_terms(a, b), same_shape, True)
    if a.name != b.name and (
        bounds(a.terms.contrast_sentences, b.name) or bounds(b.terms.contrast_sentences, a.name)
        or _bounds_short(a, b) or _bounds_short(b, a)
    ):
        return None  # a stated boundary
    low, high = sorted((_cover(a, b), _cover(b, a)))
    if low < COVER_MIN:
        # The relaxed paths need the summaries to name a common thing besides the action: "Search for
        # movies" and "Search for GitLab projects" share a verb and nothing else.
        same_name = a.core and a.core == b.core and low >= COVER_SAME_NAME
        inside = high >= COVER_FULL and low >= COVER_LOW
        if not ((same_name or inside) and (_shared_object(a, b) or low >= COVER_LOW)):
            return None
    return Overlap(low, _shared_terms(a, b), same_shape, False)


def _bounds_short(x: ToolView, y: ToolView) -> bool:
    """x's boundary names y without its vendor prefix ("use scrape" for firecrawl_scrape), when that short
    name is a word of y's name that x's own name lacks."""
    vendors = y.vendors
    if not vendors or not x.terms.contrast_sentences:
        return False
    parts = [p for p in split_identifier(y.name) if normalise_name_word(p) not in vendors]
    if sum(map(len, parts)) < 4 or (len(parts) == 1 and parts[0] in split_identifier(x.name)):
        return False
    # The sentences are lower-cased: one in ASCII that lacks a part cannot match (no pattern compiled).
    said = [s for s in x.terms.contrast_sentences if not s.isascii() or all(p in s for p in parts)]
    if not said:
        return False
    short = r"[-_ ]?".join(re.escape(p) for p in parts)  # batch_scrape, batch-scrape, batchScrape
    pointer = re.compile(rf"\b(?:use|see|call|prefer|try)\s+(?:the\s+)?[`'\"]?{short}\b", re.IGNORECASE)
    return any(pointer.search(sentence) for sentence in said)


def _swapped_objects(a: ToolView, b: ToolView) -> bool:
    """`get_group_users` / `get_user_groups`, `getDocsForSymbol` / `getSymbolsInDoc`, `get_folder_files` /
    `get_file_folder`: the same objects named in the opposite order, one name ending on a plural, are an
    inverse relation (the users of a group, the groups of a user). A preposition puts its object first
    (`get_file_from_repo` is `get_repo_file`). Without a plural a reordered name is one thing said two ways
    (`url_encode` / `encode_url`, `circle_area` / `area_circle`)."""
    (oa, many_a), (ob, many_b) = _objects_of(a), _objects_of(b)
    return len(oa) >= 2 and set(oa) == set(ob) and oa != ob and (many_a or many_b)


_PREPOSITIONS = frozenset({"from", "in", "of", "for", "on", "at", "within", "inside"})


def _objects_of(v: ToolView) -> tuple[list[str], bool]:
    """`_objects`, worked out once per tool: every candidate pair that gets this far asks it."""
    return v._once("objects", lambda: _objects(v))


def _objects(v: ToolView) -> tuple[list[str], bool]:
    """The object terms of v's name, modifier first (`file_from_repo` gives repo, file), and whether the
    last of them is written as a plural (`users`)."""
    parts = [p.lower() for p in split_identifier(v.tool.name)]
    at = next((k for k, p in enumerate(parts) if p in _PREPOSITIONS), None)
    if at is not None:
        parts = parts[at + 1:] + parts[:at]
    verbs, core = lexicon().action_classes, set(v.core)
    found: dict[str, str] = {}  # term -> the word that gave it, first
    for p in parts:
        t = normalise_name_word(p)
        if t and t in core and t not in verbs:
            found.setdefault(t, p)
    terms = list(found)
    last = found[terms[-1]] if terms else ""
    return terms, bool(last) and fold_plural(last) != last


def _same_text(a: ToolView, b: ToolView) -> bool:
    """`get_weather` / `lookup_weather`, both "Get the current weather for a city.": one description of at
    least four words, and names that differ in their action words alone."""
    text_a, text_b = _plain_text(a.tool.description), _plain_text(b.tool.description)
    if text_a != text_b or text_a.count(" ") < 3:
        return False
    actions = lexicon().action_classes
    objects_a, objects_b = (frozenset(t for t in v.core if t not in actions) for v in (a, b))
    return bool(objects_a) and objects_a == objects_b


@lru_cache(maxsize=65536)
def _plain_text(description: str) -> str:
    """Case, spacing and a final full stop aside (asked of each tool once per candidate pair)."""
    return " ".join(description.lower().split()).rstrip(".")


def _one_or_all(a: ToolView, b: ToolView) -> bool:
    """experiment-get / experiment-get-all: the same retrieval of one or of all, with the same name terms,
    which the request tells apart ("experiment X", "all experiments"). Only with the word, against a
    singular name: a plural ending alone is no sign (`list_groups` / `group_list`, `workspacesGet`),
    `get_countries` returns all countries as `get_all_countries` does, and a search returns many."""
    return (a.actions == b.actions == _RETRIEVAL and a.terms.name == b.terms.name
            and ((a.says_all and b.singular) or (b.says_all and a.singular)))


_RETRIEVAL = frozenset({"retrieval"})


def _routes(extra: tuple[Arg, ...], x: ToolView, y: ToolView) -> bool:
    return any(_routing(arg, x, y) for arg in extra)


def _routing(arg: Arg, x: ToolView, y: ToolView) -> bool:
    """x's required argument `arg`, which y has no counterpart for, routes the call between them."""
    if arg.routing or arg.name in x.guards:
        return True
    # A request that names one job (get_job's job_name) is not one for all of them (get_jobs), unless y
    # takes the thing under another spelling (`library` against `library_name`).
    thing = named_thing(arg.name)
    if thing is None or (thing and thing not in x.terms.name) or not _returns_many(y):
        return False
    return not thing or all(thing not in arg_terms(a.name) for a in y.args)


def _returns_many(y: ToolView) -> bool:
    """A listing, or a retrieval whose name ends in a plural (get_jobs); a search returns many anyway."""
    return "listing" in y.actions or ("retrieval" in y.actions and y.plural)


def _shared_terms(a: ToolView, b: ToolView) -> tuple[str, ...]:
    return tuple(sorted(a.terms.summary & b.terms.summary))
