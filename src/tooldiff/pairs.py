"""Pairs of tools in one toolset: the analysed view of a tool, the candidate search, the one-headline check.

`candidates` is the only candidate search (check and diff scope both use it). It is an inverted index over the
terms of each tool and over its argument shape, so intent twins that share few words (search_docs /
find_document) still meet. A 10,000-tool toolset must not cost 50 million comparisons, so each tool looks up
only its rarest few keys, and a key held by more than `MAX_POSTING` tools is not looked up at all (it says
nothing about any pair). On the seed and labelled sets the search is complete: tests compare it with
brute force. A toolset of at most `EXHAUSTIVE_MAX` tools skips the index: every pair is tested against the
condition the pair rules share, which is cheaper at that size.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from itertools import chain
from types import ModuleType
from typing import Any, TypeVar

from tooldiff.args import Arg, parse_args, required_shape
from tooldiff.blast import Blast, assess, guards
from tooldiff.lexicon import lexicon
from tooldiff.model import Problem, Tool
from tooldiff.rules import PAIR_PRECEDENCE, get
from tooldiff.rules.base import Context
from tooldiff.terms import (
    EMPTY,
    Terms,
    extract,
    first_term_in,
    fold_plural,
    mentions,
    normalise_name_word,
    reversed_direction,
    split_identifier,
)

_T = TypeVar("_T")

MAX_POSTING = 400  # a key shared by more tools than this is too common to suggest a pair


# A plain class, not a dataclass: one is made per tool, and mypyc leaves a dataclass's generated __init__ to
# the interpreter (five times slower to build). Nothing assigns to a field after it is made.
class ToolView:
    """Everything the pair rules need of one tool, computed once per tool.

    What only `check_pair` reads (arguments, blast radius, guards) is computed on first use: the candidate
    search leaves most tools without a pair to check.
    """

    __slots__ = ("_memo", "actions", "core", "core_set", "desc_terms", "flex", "name", "name_seq", "terms",
                 "tool", "tool_settings")

    def __init__(
        self,
        *,
        tool: Tool,
        name: str,
        terms: Terms,
        name_seq: tuple[str, ...],
        desc_terms: frozenset[str],
        core: tuple[str, ...],
        actions: frozenset[str],
        core_set: frozenset[str],
        flex: frozenset[str],
        tool_settings: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.tool = tool
        self.name = name
        self.terms = terms
        self.name_seq = name_seq  # the name's terms in order
        self.desc_terms = desc_terms  # terms of the description alone
        self.core = core  # the name's terms without a vendor prefix or suffix (`browser_click` -> click)
        self.actions = actions  # action classes in the name (else the first one of the description)
        self.core_set = core_set  # `core` as a set
        self.flex = flex  # the name's action terms that a compatible action of the other tool may stand for
        self.tool_settings = tool_settings
        self._memo: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"ToolView({self.name!r}, core={self.core}, actions={sorted(self.actions)})"

    def _once(self, key: str, make: Callable[[], _T]) -> _T:
        """The value `make` gives, made on first use and kept: most tools are never in a checked pair."""
        if key not in self._memo:
            self._memo[key] = make()
        out: _T = self._memo[key]
        return out

    @property
    def index_terms(self) -> frozenset[str]:
        """terms.all plus the actions a request cannot tell from ours (`t:` keys); only the index asks."""
        return self._once("index_terms", self._index_terms)

    def _index_terms(self) -> frozenset[str]:
        # An action that a request cannot tell apart from ours counts as ours (see `overlap._has`).
        compatible = lexicon().compatible_actions
        extra = [c for a in self.actions for c in compatible.get(a, ())]
        return self.terms.all.union(extra) if extra else self.terms.all

    @property
    def mentions(self) -> tuple[str, ...]:
        """Our own name and the names in alias notices, lower-cased (`m:` keys): alias notices name the other
        tool, so both ends meet on the name. Only the index asks."""
        return self._once("mentions", self._mentions)

    def _mentions(self) -> tuple[str, ...]:
        low = self.name.lower()
        return (low, *(m for m in self.terms.alias_mentions if m != low))

    @property
    def vendors(self) -> frozenset[str]:
        """The name's terms that `core` leaves out (a vendor's edge word, or one `analyse` spelt apart): the
        overlap tests ask it of each pair."""
        return self._once("vendors", lambda: frozenset(self.name_seq).difference(self.core))

    @property
    def shape(self) -> frozenset[str]:
        """The required argument shape (`shape:` keys); only the intent rules' candidate search asks."""
        return self._once("shape", lambda: required_shape(self.tool.input_schema))

    @property
    def args(self) -> tuple[Arg, ...]:
        return self._once("args", lambda: parse_args(self.tool.input_schema))

    @property
    def blast(self) -> Blast:
        return self._once("blast", lambda: assess(self.tool, self.tool_settings))

    @property
    def guards(self) -> tuple[str, ...]:
        return self._once("guards", lambda: guards(self.tool))

    @property
    def plural(self) -> bool:
        """The name ends in a plural (`get_events`) or says all: it returns many, like a listing."""
        return self._once("counted", lambda: _counted(self.name))[0]

    @property
    def says_all(self) -> bool:
        """The name has "all" or "every" (`experiment-get-all`)."""
        return self._once("counted", lambda: _counted(self.name))[1]

    @property
    def singular(self) -> bool:
        """The name ends in a singular that says one (`get_task`; not `get_news`)."""
        return self._once("counted", lambda: _counted(self.name))[2]

    @property
    def name_number(self) -> Mapping[str, bool]:
        """Each term of the name -> whether the name writes it plural (`get_jobs`: job -> True); only the H1.6
        pair check asks."""
        return self._once("number", self._name_number)

    def _name_number(self) -> Mapping[str, bool]:
        number = _name_number(self.name)
        if not self.terms.out_of_sense:
            return number
        back = dict(self.terms.out_of_sense)  # `terms.name` holds the word's own term: so must the keys
        return {back.get(t, t): plural for t, plural in number.items()}

    @property
    def keys(self) -> frozenset[str]:
        """The candidate-search keys, spelled out (`t:`, `n:`, `shape:`, `m:`)."""
        return frozenset(
            [f"t:{t}" for t in self.index_terms]
            + [f"n:{t}" for t in self.name_seq]
            + list(self.shape)
            + [f"m:{m}" for m in self.mentions]
        )


def _name_number(name: str) -> dict[str, bool]:
    """Term -> written plural, for the name words that are terms (a word written both ways is left out). A
    REST path (`albums/get-details`, `/products/{id}`) names the collection, plural for one item too."""
    if "/" in name:
        return {}
    parts = split_identifier(name)
    every = not _ALL_WORDS.isdisjoint(parts)  # `experiment-get-all`: its objects are many, written singular
    actions = lexicon().action_classes
    forms: dict[str, set[bool]] = defaultdict(set)
    for part in parts:
        if (term := normalise_name_word(part)) is not None:
            forms[term].add(fold_plural(part) != part or (every and term not in actions))
    return {t: next(iter(f)) for t, f in forms.items() if len(f) == 1}


_ALL_WORDS = frozenset({"all", "every"})


def _counted(name: str) -> tuple[bool, bool, bool]:
    """(plural, says_all, singular) of a name (see `ToolView`): only some pair checks ask, so on first use."""
    # A plural filler word ending the name (get_object_details) leaves the plural to the last word that is a
    # term: it returns one object, not many details. A singular one (users_info) keeps the name singular.
    says_all = not _ALL_WORDS.isdisjoint(split_identifier(name))  # get_all_projects, experiment-get-all
    last = split_identifier(name)[-1:]
    if last and fold_plural(last[0]) != last[0] and not normalise_name_word(last[0]):
        last = tuple(filter(normalise_name_word, split_identifier(name)))[-1:]
    plural = (bool(last) and fold_plural(last[0]) != last[0]) or says_all
    singular = (bool(last) and not says_all and fold_plural(last[0]) == last[0]
                and last[0] not in lexicon().number_unknown)
    return plural, says_all, singular


def _actions(name_seq: Sequence[str], description: str, classes: frozenset[str]) -> frozenset[str]:
    """The first action word of the name (names put the verb first), else of the first sentence."""
    for term in name_seq:
        if term in classes:
            return _single(term)
    first = first_term_in(description.partition(".")[0], classes)
    return _single(first) if first is not None else EMPTY


@cache
def _single(term: str) -> frozenset[str]:
    return frozenset({term})  # one shared set per action class


def vendor_terms(name: str, name_seq: Sequence[str], terms: Terms) -> frozenset[str]:
    """A vendor prefix or suffix in the name (`puppeteer_`, `_exa`, `brave_`): no request is routed by it.

    It is an edge of the name that the description never uses as a word (nor in a longer form: `stats` in
    "statistics", `exec` in "Execute"), or uses only as a proper noun
    ("the Brave Search API"), while the other edge is one the description does use. When neither edge is
    used (`ascvd_for_clinicalmarkers`: "This is the subfunction for tool ...") nothing is stripped, and a
    description too short to tell strips nothing either. Never a verb. Systems a request names (GitHub
    against GitLab) are handled by `overlap.different_systems`. An edge the description writes as two words
    (`write_audiofile`: "an audio clip to a file") is no vendor: `analyse` keeps it as those words. Nor is a
    first word that a preposition follows (`odds_for_fdj`, ToolBench's `<function>_for_<api>`): it is what
    the tool is for, even where the description only quotes the name.
    """
    if len(name_seq) < 2 or len(terms.desc) < 2:
        return frozenset()
    verbs, kept = lexicon().action_classes, _name_word_terms()

    def vendor(term: str) -> bool:
        if term in verbs or term in kept:  # `note` of create_note: prose drops it, so it is never "unused"
            return False
        if not term.isalpha():  # base64, brc20: prose splits "Base64" into "base", so never "unused" either
            return False
        if term in terms.desc:
            return terms.written_as_name(term) and term not in terms.lower
        return not _derived_in(term, terms)

    first, last = name_seq[0], name_seq[-1]
    if vendor(first) and not vendor(last) and not _before_preposition(name):
        return frozenset({first})
    if vendor(last) and not vendor(first):
        return frozenset({last})
    return frozenset()


_PREPOSITIONS = frozenset({"for", "on", "in", "from", "of", "via", "at"})


def _before_preposition(name: str) -> bool:
    """The name's first word that is a term is right before a preposition (`all_drawings_for_cash4life`)."""
    parts = split_identifier(name)
    for i, part in enumerate(parts[:-1]):
        if normalise_name_word(part) is not None:
            return parts[i + 1] in _PREPOSITIONS
    return False


DERIVED_STEM_MIN = 4  # letters: a shorter stem (`exa` of web_search_exa) starts too many words ("example")


def derived_stem(term: str) -> str | None:
    """The stem whose longer forms are the same word (`compare` -> compar: "comparison"), or None when it is
    too short to say so."""
    stem = term[:-1] if term.endswith("e") else term
    return stem if len(stem) >= DERIVED_STEM_MIN else None


def _derived_in(term: str, terms: Terms) -> bool:
    """The description writes the name word in a longer form: `stats` as "statistics", `exec` as "Execute",
    `compare` as "comparison". A vendor's name is not a stem of the description's words."""
    stem = derived_stem(term)
    if stem is None:
        return False
    if any(t.startswith(stem) and t != term for t in terms.desc):
        return True
    # A word that starts with the stem puts the stem in the text: one search in C settles most texts.
    if stem.isascii() and stem not in terms.stripped.lower():
        return False
    return any(w.startswith(stem) for w in terms.written)


COMPOUND_PART_MIN = 3  # letters of each part: `audio` + `file`, `data` + `source`; `a` + `pi` says nothing


def spelled_apart(term: str, terms: Terms) -> tuple[str, ...]:
    """The terms of the two words a description writes a closed compound of the name as (`audiofile`:
    "an audio clip to a file" -> audio, file), or () when it does not. A vendor's name is not two words of
    its description; a word the description writes whole ("HubSpot") is not split."""
    if len(term) < 2 * COMPOUND_PART_MIN or term in terms.desc:
        return ()
    spelled = terms.desc | terms.written
    for i in range(COMPOUND_PART_MIN, len(term) - COMPOUND_PART_MIN + 1):
        if term[:i] in spelled and term[i:] in spelled:
            return tuple(t for p in (term[:i], term[i:]) if (t := normalise_name_word(p)))
    return ()


@cache
def _name_word_terms() -> frozenset[str]:
    """The terms `lexicon.name_words` give in a name, and its closing particles (prose drops both)."""
    lex = lexicon()
    return frozenset(t for w in lex.name_words if (t := normalise_name_word(w))) | lex.name_particles


SHARED_EDGE_MIN_TOOLS = 3  # below this a toolset says nothing about which edges are a namespace


def analyse_toolset(tools: Sequence[Tool], ctx: Context) -> list[ToolView]:
    """`analyse` for each tool of one toolset, where a word at the edge of a name is a vendor's only when
    the toolset shows it: a sibling's name starts (or ends) with it too (`databricks_`, `zid_`), or a
    sibling that lost an edge word too is left with the same name (`brave_search` / `tavily_search`). A word
    at the edge of one tool alone (`prioritize_task`, `get_dex_quote_eth`, `grep_search`) is that tool's
    own word. A toolset too small to tell keeps every edge `vendor_terms` finds."""
    if len(tools) < SHARED_EDGE_MIN_TOOLS:
        return [analyse(t, ctx) for t in tools]
    seqs, cut, extracted = [], [], []
    for t in tools:
        terms = extract(t.name, t.description or "")
        extracted.append(terms)
        seqs.append(terms.name_seq)
        found = vendor_terms(t.name, terms.name_seq, terms)
        cut.append((found, tuple(w for w in terms.name_seq if w not in found) if found else terms.name_seq))
    firsts = Counter(s[0] for s in seqs if len(s) >= 2)
    lasts = Counter(s[-1] for s in seqs if len(s) >= 2)
    # What is left once edge words are cut, counted over the tools that lost one: two such tools with one
    # rest are one tool from two vendors (a tool named the rest alone does not show its sibling's edge is a
    # vendor's: `force_delete_branch` beside `delete_branch`).
    names = Counter(rest for found, rest in cut if found)
    views = []
    for t, terms, seq, (found, rest) in zip(tools, extracted, seqs, cut, strict=True):
        kept = frozenset(v for v in found if names[rest] >= 2 or (v == seq[0] and firsts[v] >= 2)
                         or (v == seq[-1] and lasts[v] >= 2)) if found else EMPTY
        views.append(analyse(t, ctx, kept, terms))
    return views


def analyse(
    tool: Tool, ctx: Context, vendors_shown: frozenset[str] | None = None, terms: Terms | None = None
) -> ToolView:
    """The view of one tool; `vendors_shown`: the edge words its toolset shows are vendors (None: every
    one `vendor_terms` finds); `terms`: its `extract`, where the caller has it."""
    if terms is None:
        terms = extract(tool.name, tool.description or "")
    classes = lexicon().action_classes
    name_seq = terms.name_seq
    actions = _actions(name_seq, tool.description or "", classes)
    compatible = lexicon().compatible_actions
    # `analyse_toolset` found the vendor words already, and kept those the toolset shows.
    vendors = vendor_terms(tool.name, name_seq, terms) if vendors_shown is None else vendors_shown
    core = tuple(t for t in name_seq if t not in vendors) if vendors else name_seq
    core_set = terms.name - vendors if vendors else terms.name
    if len(vendors) == 1 and (apart := spelled_apart(edge := next(iter(vendors)), terms)):
        # `write_audiofile`: "Write an audio clip to a file" writes the edge as two words, so it is no vendor
        # but those words (write, audio, file): a request is tested against them.
        vendors = EMPTY
        core = tuple(p for t in name_seq for p in (apart if t == edge else (t,)))
        core_set = frozenset(core)
    return ToolView(
        tool=tool,
        name=tool.name,
        terms=terms,
        name_seq=name_seq,
        desc_terms=terms.desc,
        core=core,
        actions=actions,
        core_set=core_set,
        flex=actions if actions and all(a in compatible for a in actions) else EMPTY,
        tool_settings=ctx.tool_settings,
    )


def candidates(views: Sequence[ToolView], *, intent: bool = True) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, that a pair rule could flag. Cost <= n * 3 * MAX_POSTING, usually far less.

    `intent=False` (intent-overlap and blast-radius-twin both disabled) leaves out the keys and the
    condition only those two rules need.

    Each rule needs one tool's name inside the other, so one rare key per tool finds every pair it could flag:
    - H1.6 (with tooldiff's name refinement) needs every name term of one tool in the other's name: look up
      the rarest `n:` key;
    - intent-overlap and blast-radius-twin need every core name term (vendor prefix aside) of each tool in
      the other's text: look up the rarest core name term among the `t:` keys; where all of them are too
      common to index, the argument shape (`shape:`) finds the synonym-named twins instead;
    - an alias notice meets the tool it names on `m:`.

    Index hits that fail a condition every pair rule needs are dropped here, so `check_pair` runs on few
    pairs. All four rules skip a tool they cannot analyse. H1.6 needs one tool's terms (and name terms)
    inside the other's; intent overlap (and so blast-radius-twin) needs every core name term of each tool
    in the other's text, bar an action term the other's compatible action may stand for (`overlap._has`),
    unless one announces itself as the other's alias.

    A toolset of at most `EXHAUSTIVE_MAX` tools is searched exhaustively instead: every pair is tested
    against that condition, which costs less than building the index at that size. The index is complete
    for what the rules can flag (the tests compare it with brute force), so the findings are the same; only
    pairs that pass the condition without sharing a rare key are added, and the rules drop them.
    """
    # That condition, on sets made once per tool: it runs on every index hit (or every pair).
    facts = [
        (
            v.terms.all,
            v.terms.name,
            (v.core_set - v.flex if v.flex else v.core_set) if intent else None,
            v.terms.analysable,
            bool(v.terms.alias_sentences),
        )
        for v in views
    ]
    if len(views) <= EXHAUSTIVE_MAX:
        return _every_pair(facts)
    # Count every key in C, choose each tool's lookups, then build postings for the chosen keys only.
    n_term = Counter(chain.from_iterable(v.index_terms for v in views))  # `t:` keys
    n_name = Counter(chain.from_iterable(v.terms.name for v in views))  # `n:` keys
    n_shape = Counter(chain.from_iterable(v.shape for v in views)) if intent else Counter()
    n_mention = Counter(chain.from_iterable(v.mentions for v in views))

    def ranks(count: Counter[str]) -> dict[str, tuple[int, str]]:
        """Key -> (its count, itself) for the keys worth looking up: `min` then picks the rarest in C."""
        return {k: (n, k) for k, n in count.items() if 1 < n <= MAX_POSTING}

    def rarest(rank: dict[str, tuple[int, str]], keys: Iterable[str]) -> str | None:
        best = min(filter(None, map(rank.get, keys)), default=None)
        return best[1] if best else None

    r_term, r_name, r_shape = ranks(n_term), ranks(n_name), ranks(n_shape)
    chosen: list[tuple[str | None, str | None, str | None, str | None, list[str]]] = []
    for v in views:
        core = rarest(r_term, v.core) if intent else None
        shape = None if core or not intent else rarest(r_shape, v.shape)
        mentions = [m for m in v.mentions if n_mention[m] <= MAX_POSTING]
        chosen.append((rarest(r_name, v.name_seq), rarest(r_term, v.terms.all), core, shape, mentions))
    want_term = {k for c in chosen for k in (c[1], c[2]) if k}
    want_name = {c[0] for c in chosen if c[0]}
    want_shape = {c[3] for c in chosen if c[3]}
    want_mention = {m for c in chosen for m in c[4]}
    by_term: dict[str, list[int]] = defaultdict(list)
    by_name: dict[str, list[int]] = defaultdict(list)
    by_shape: dict[str, list[int]] = defaultdict(list)
    by_mention: dict[str, list[int]] = defaultdict(list)
    for i, v in enumerate(views):
        for t in want_term.intersection(v.index_terms):
            by_term[t].append(i)
        for t in want_name.intersection(v.terms.name):
            by_name[t].append(i)
        if want_shape:
            for t in want_shape.intersection(v.shape):
                by_shape[t].append(i)
        for t in want_mention.intersection(v.mentions):
            by_mention[t].append(i)

    # Each tool's hits, deduplicated in C; a pair met from both ends is judged at the first.
    met: list[set[int]] = []
    out: list[tuple[int, int]] = []
    for i, (name, term, core, shape, mentions) in enumerate(chosen):
        if not facts[i][3]:
            met.append(set())
            continue  # no rule compares a tool it cannot analyse
        hits = [by_name[name] if name else [], by_term[term] if term else []]
        hits.append(by_term[core] if core else by_shape[shape] if shape else [])
        hits += [by_mention[m] for m in mentions]
        js = set(chain.from_iterable(hits))
        js.discard(i)
        met.append(js)
        _test(i, js, facts, out, met)
    return sorted(out)


EXHAUSTIVE_MAX = 64  # tools; n * n / 2 tests of the condition cost less than the index up to about here

Facts = tuple[frozenset[str], frozenset[str], frozenset[str] | None, bool, bool]


def _every_pair(facts: Sequence[Facts]) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, that pass the condition of `candidates`, tested one by one."""
    out: list[tuple[int, int]] = []
    for i, (x_all, x_name, x_need, x_ok, x_alias) in enumerate(facts):
        if not x_ok:
            continue
        # `_test`, inlined: n * n / 2 pairs, and no pair met twice here.
        for j, (y_all, y_name, y_need, y_ok, y_alias) in enumerate(facts[i + 1:], i + 1):
            if y_ok and (
                x_alias
                or y_alias
                or (x_all <= y_all and x_name <= y_name)
                or (y_all <= x_all and y_name <= x_name)
                or (x_need is not None and y_need is not None and x_need <= y_all and y_need <= x_all)
            ):
                out.append((i, j))
    return out


def _test(
    i: int,
    js: Iterable[int],
    facts: Sequence[Facts],
    out: list[tuple[int, int]],
    met: list[set[int]] | None = None,
) -> None:
    """Append (i, j) in order for each j whose pair with i passes the condition. With `met` (the index's
    hits of each tool so far), a pair the earlier tool already met is skipped: it was judged there."""
    x_all, x_name, x_need, _, x_alias = facts[i]
    for j in js:
        if met is not None and j < i and i in met[j]:
            continue
        y_all, y_name, y_need, y_ok, y_alias = facts[j]
        if y_ok and (
            x_alias
            or y_alias
            or (x_all <= y_all and x_name <= y_name)
            or (y_all <= x_all and y_name <= x_name)
            or (x_need is not None and y_need is not None and x_need <= y_all and y_need <= x_all)
        ):
            out.append((i, j) if i < j else (j, i))


INTENT_CODES = frozenset({"intent-overlap", "blast-radius-twin"})  # the rules that need intent candidates


def needs_intent(codes: Iterable[str]) -> bool:
    return not INTENT_CODES.isdisjoint(codes)


def check_pair(a: ToolView, b: ToolView, contexts: Mapping[str, Context]) -> tuple[str, Problem] | None:
    """Run the enabled pair rules; one headline by `rules.PAIR_PRECEDENCE`, the others' codes in `related`
    (a rule with `fires` is only asked whether it holds once there is a headline: no message to write)."""
    head: Problem | None = None
    code = ""
    others: list[str] = []
    for rule, module, has_fires in _pair_rules():
        if rule not in contexts:
            continue
        if head is not None and has_fires:
            if module.fires(a, b, contexts[rule]):
                others.append(rule)
            continue
        problem = module.check(a, b, contexts[rule])
        if problem is None:
            continue
        if head is None:
            code, head = rule, problem
        else:
            others.append(rule)
    if head is None:
        return None
    if a.name == b.name:  # `duplicate-name` reports the name; this says which two tools the pair is
        first, second = sorted((a.tool, b.tool), key=lambda t: (t.file, t.line))
        head = replace(head, message=f"{head.message} Both are named {a.name}: the one at {first.file}:"
                                     f"{first.line} and the one at {second.file}:{second.line}.")
    return code, replace(head, tools=tuple(sorted((a.name, b.name))), related=tuple(others))


@cache
def _pair_rules() -> tuple[tuple[str, ModuleType, bool], ...]:
    """(code, module, whether it has `fires`) of each pair rule, in `rules.PAIR_PRECEDENCE` order."""
    return tuple((rule, get(rule), hasattr(get(rule), "fires")) for rule in PAIR_PRECEDENCE)


def distinguishing(x: ToolView, y: ToolView) -> frozenset[str]:
    """H1.6: x's analysed terms that y lacks, plus y's name when x draws a contrastive boundary to it.

    tooldiff's refinement: a term of x's name that y's name lacks also distinguishes, because a router reads
    the names first (`search_repositories` is not dominated by `search_code` whose description says
    "across GitHub repositories").

    `mutual-nondistinction` and `directional-domination` ask in turn about the same pair, both ways: the
    last two answers are kept (views are immutable, and the kept pairs hold them alive, so identity is safe).
    """
    for known in _distinct:
        if known[0] is x and known[1] is y:
            return known[2]
    out = _distinguishing(x, y)
    _distinct[:] = [_distinct[-1], (x, y, out)] if _distinct else [(x, y, out)]
    return out


_distinct: list[tuple[ToolView, ToolView, frozenset[str]]] = []  # the last two (x, y) asked, and answers


def _distinguishing(x: ToolView, y: ToolView) -> frozenset[str]:
    out = (x.terms.all - y.terms.all) | (x.terms.name - y.terms.name)
    if x.name != y.name and mentions(x.terms.contrast_sentences, y.name):
        out = out | {f"[boundary to {y.name}]"}
    if number := _number_of(x, y):
        out = out | {number}
    if not out and reversed_direction(x.name, y.name):
        out = frozenset({"[opposite direction]"})  # degrees_to_radians / radians_to_degrees: the same words
    return out


def _number_of(x: ToolView, y: ToolView) -> str | None:
    """`[all job]` / `[one job]` when the two names have the same terms but x writes one of them plural and y
    singular, or the other way round (get_jobs / get_job): a router reads from the names that one returns
    many, the other one. Names with other words apart (get_accounts / get_transactions_by_account) differ by
    those words first: the number is left to them."""
    if x.terms.name != y.terms.name:
        return None
    for term in sorted(x.terms.name):  # a set's order changes with the hash seed; the label must not
        ours, theirs = x.name_number.get(term), y.name_number.get(term)
        if ours is not None and theirs is not None and ours != theirs:
            return f"[{'all' if ours else 'one'} {term}]"
    return None


def comparable(a: ToolView, b: ToolView) -> bool:
    """H1.6 stays silent when either tool yields fewer than two terms or cannot be analysed."""
    return len(a.terms.all) >= 2 and len(b.terms.all) >= 2 and a.terms.analysable and b.terms.analysable
