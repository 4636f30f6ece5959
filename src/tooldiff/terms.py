"""H1.6 term extraction (seed 000): the meaning-bearing terms of a tool's name and description.

Identifiers are split (snake, camel, kebab), stopwords, low-information words and possessive 's are dropped,
plurals are folded and the bounded synonym lexicon (`lexicon.py`) maps each word to one canonical term.

Tool names quoted in the description are not words. In a contrastive clause ("use X for ...", "not for ...,
see X", or the bullet list that "use the specialised tools:" opens) a neighbour's name is a boundary and
counts as a distinguishing term; in an alias notice ("same as X", "alias of X", "deprecated, use X") it is a
collision, so it never counts. Both are kept as sentences so that the pair check can look for the
neighbour's name in them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from itertools import chain
from typing import Any, Protocol

from tooldiff.lexicon import lexicon

# Identifier-shaped words: snake_case, dotted.names, camelCase. Plain hyphenated English (read-only) is prose,
# and so are words joined by slashes alone ("leave/PTO", "pending/approved"): a path needs a `_`, `.` or `:`.
# The possessive `*+` / `++` never give back what the next part could not take anyway (its classes are
# disjoint), so the match is the same and a plain word fails at once instead of backtracking letter by letter.
# In the camelCase branch no shorter match could end on a `\b` either (it would end inside a run of word
# characters): without them `aAAA...A_` took time quadratic in its length (0.17 s for 6,000 letters).
# A path takes at most 16 `/` before its `_`, `.` or `:`: a search starts again at each word of
# `a/a/a/...`, and each start read the whole chain (0.05 s for 6,000 characters).
_IDENT = re.compile(
    r"\b(?:[A-Za-z][A-Za-z0-9\-]*+(?:/[A-Za-z0-9\-]++){0,16}+[_.:][A-Za-z0-9\-]+(?:[_./:][A-Za-z0-9\-]+)*"
    r"|[a-z]++(?:[A-Z][a-z0-9]*+)++[A-Za-z0-9]*+)\b"
)
# Latin letters with accents are letters ("Pokémon" is one word, not "Pok" and "mon"); `_learn` folds them.
_L = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # Latin-1 and Latin Extended-A/B letters
_WORD = re.compile(rf"[{_L}][{_L}0-9]*(?:['’][{_L}]+)?|[0-9]+")
_ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:['’][A-Za-z]+)?|[0-9]+")  # `analysable` counts these
# Where a camelCase identifier turns a word: `deleteDatabase` -> delete|Database (names as words, in case).
CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# An acronym's plural is one part (APIs, URLs, IDs), read as the acronym by `_lower_parts`.
_CAMEL = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# In a tool name, digits written onto a word stay on it (log10, hash_sha256, SHA256Hash -> sha256, hash):
# log10 is not log2. Prose keeps `_CAMEL` ("ledger l5" is no term): more terms would mean more pairs to check.
_CAMEL_NAME = re.compile(
    r"[A-Z]+[0-9]+(?![a-z])|[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+"
)
# Languages written with symbols, which the word split would reduce to a letter ("C# Versions" and "C++
# Versions" both gave only "versions"): spelt out first.
_SYMBOL_WORDS = re.compile(r"(?<![A-Za-z0-9.])(?:([CcFf])#|([Cc])\+\+|\.(?:NET|net))(?![A-Za-z0-9#+])")
_SPELT = {"c": " csharp ", "f": " fsharp "}
_VERSION = re.compile(r"v[0-9]+")  # search_docs_v2: a version of the name, not a word of it
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n\s*\n|\n\s*[-*•]\s+")
# "not yet created" is a state of its own (uncreated); "without reading the content" says what the tool
# does not do, so "reading" is not one of its terms (get_file_info is not read_file).
_NEGATED = re.compile(r"\bnot\s+(?:yet\s+|already\s+)?([a-z]+ed)\b|\bwithout\s+([a-z]+ing)\b", re.I)
# A sentence that retires this tool ("Deprecated.", "This tool is obsolete"), not what it works on ("lists
# deprecated packages", "whether a package is obsolete"): its subject opens the sentence.
# A label may come first ("Note: this tool is deprecated"), and the subject may be named ("the search tool").
_LEAD = r"^\W*(?:(?:note|warning|important)\W+)?"
_THIS_RETIRED = (
    _LEAD + r"(?:(?:this|the)(?: [\w-]+){0,3} "
    r"(?:tool|function|endpoint|alias|name|method|command|api|version)|this|it)"
    r" (?:is |was |has been )?(?:now )?"
)
_ALIAS = re.compile(
    r"\b(same as|alias (?:of|for)|an alias|identical to|equivalent to|deprecated"
    r"|synonym (?:of|for)|renamed to"
    rf"|kept for backward)\b|{_LEAD}(?:now )?(?:obsolete|legacy name)\b|{_THIS_RETIRED}obsolete\b",
    re.I,
)
# The sentence after a retirement notice, when it points ("Deprecated; use X."), is the notice's.
_RETIRED = re.compile(
    rf"{_LEAD}(?:deprecated|(?:now )?obsolete|legacy name)\b|{_THIS_RETIRED}(?:deprecated|obsolete)\b"
)
_CONTRAST = re.compile(
    r"\b(use|prefer|see|instead|rather than|not for|do not use|don't use|for [^.]*, call|try)\b", re.I
)
_ALIAS_LOWER = re.compile(_ALIAS.pattern)  # for text already lower-cased
_CONTRAST_LOWER = re.compile(_CONTRAST.pattern)
_FOREIGN = frozenset(
    [
        "el",
        "la",
        "los",
        "las",
        "del",
        "que",
        "por",
        "para",
        "con",
        "une",
        "les",
        "des",
        "du",
        "et",
        "est",
        "pour",
        "avec",
        "der",
        "die",
        "das",
        "und",
        "ist",
        "mit",
        "für",
        "von",
        "zu",
        "den",
        "nicht",
        "ein",
        "eine",
        "um",
        "uma",
        "não",
        "il",
        "di",
        "che",
        "una",
        "sono",
        "della",
        "delle",
        "los",
        "las",
        "unos",
        "como",
        "pero",
        "más",
        "según",
        "hacia",
        "devuelve",
        "busca",
        "obtiene",
        "crea",
        "elimina",
        "le",
        "de",
    ]
)


# A plain class, not a dataclass: one is made per tool, and mypyc leaves a dataclass's generated __init__ to
# the interpreter (five times slower to build). Nothing assigns to a field after it is made.
class Terms:
    """What H1.6 sees of one tool.

    `summary`, `proper` and `contrast_sentences` are worked out on first use: only the pair check reads them,
    and the candidate search leaves most tools without a pair to check.
    """

    __slots__ = ("_memo", "alias_mentions", "alias_sentences", "all", "analysable", "caps_in_name",
                 "contrast_possible", "desc", "name", "name_seq", "out_of_sense", "own", "stripped", "text",
                 "why_unanalysable")

    def __init__(
        self,
        *,
        name: frozenset[str],
        all: frozenset[str],
        desc: frozenset[str],
        caps_in_name: tuple[str, ...],
        alias_sentences: tuple[str, ...],
        alias_mentions: frozenset[str],
        analysable: bool,
        why_unanalysable: str = "",
        name_seq: tuple[str, ...] = (),
        text: str = "",
        stripped: str = "",
        contrast_possible: bool = False,
        own: str = "",
        out_of_sense: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.name = name  # terms of the name alone
        self.all = all  # terms of the name and the whole description
        self.desc = desc  # terms of the description alone (quoted tool names left out)
        # the description's capitalised words that are name terms: only then can `proper_any` be non-empty
        self.caps_in_name = caps_in_name
        self.alias_sentences = alias_sentences  # lower-cased sentences that announce an alias
        self.alias_mentions = alias_mentions  # tool names quoted in those sentences, lower-cased
        self.analysable = analysable
        self.why_unanalysable = why_unanalysable
        self.name_seq = name_seq  # the name's terms in order
        self.text = text  # the description as analysed
        self.stripped = stripped  # with quoted names and identifiers blanked
        self.contrast_possible = contrast_possible  # it holds a contrast word
        self.own = own  # the tool's name, lower-cased
        # group term -> the word's own term, where only a word the group takes in its sense gave the group
        # (`lexicon.in_sense`: "List cluster events" names no calendar)
        self.out_of_sense = out_of_sense
        self._memo: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"Terms(name={sorted(self.name)}, desc={sorted(self.desc)}, analysable={self.analysable})"

    def _filled(self, key: str, fill: Callable[[], None]) -> frozenset[str]:
        """The memoised set `key`, made by `fill` (which fills it and its sibling) on first use."""
        if key not in self._memo:
            fill()
        out: frozenset[str] = self._memo[key]
        return out

    @property
    def written(self) -> frozenset[str]:
        """The description's words as written, lower-cased, before any analysis (the vendor-edge tests ask
        it twice for one tool)."""
        if "written" not in self._memo:
            self._memo["written"] = frozenset(w.lower() for w in self.words)
        out: frozenset[str] = self._memo["written"]
        return out

    @property
    def words(self) -> frozenset[str]:
        """The description's words as written, in their case (`shown` looks for GitHub and PostgreSQL).
        Found on first use, not kept by `extract`: a set of words for each of 20k tools is ~27 MB of peak."""
        if "words" not in self._memo:
            self._memo["words"] = frozenset(_WORD.findall(self.stripped))
        out: frozenset[str] = self._memo["words"]
        return out

    @property
    def summary(self) -> frozenset[str]:
        """Terms of the name and the first sentence."""
        return self._filled("summary", self._first_sentence)

    @property
    def proper(self) -> frozenset[str]:
        """Proper nouns of the first sentence (GitHub, GitLab, Slack), lower-cased."""
        return self._filled("proper", self._first_sentence)

    @property
    def proper_any(self) -> frozenset[str]:
        """Proper nouns of the description (after a sentence's first word) that are also name terms: all
        that `pairs.vendor_terms` asks, and only of a name's edge terms, so it is worked out on demand."""
        return self._filled("proper_any", self._proper_nouns)

    @property
    def lower(self) -> frozenset[str]:
        """Terms the description also writes in lower case; only filled when `proper_any` is not empty."""
        return self._filled("lower", self._proper_nouns)

    def written_as_name(self, term: str) -> bool:
        """`term in proper_any`, settled without splitting the sentences where it can be: when the term's
        only capitalised occurrence is the description's opening word ("Create an issue" for create_issue),
        which is never a proper noun."""
        forms = [w for w in self.caps_in_name if _CAPS[w] == term]
        if not forms:
            return False
        opening = _WORD.search(self.stripped)
        if opening is not None and forms == [opening.group()] and self.stripped.count(forms[0]) == 1:
            return False
        return term in self.proper_any

    def _proper_nouns(self) -> None:
        proper_any = lower = EMPTY
        if self.caps_in_name:
            if _first_break(self.stripped) is None:  # one sentence: no need to split it
                found = {_CAPS[w] for w in self._caps_after_opening(frozenset(self.caps_in_name))}
            else:
                first_words, later_caps = _by_sentence(self.stripped)
                found = {_CAPS[w] for w in set(first_words[1:]) if w in _CAPS} | later_caps
            proper_any = _shared(found & self.name)
            if proper_any:
                lower = frozenset(t for w in self.words for t in _LOWER[w])  # of the words `desc` was made of
                if self.out_of_sense:
                    lower = _unfolded(lower, self.out_of_sense)
        self._memo["proper_any"], self._memo["lower"] = proper_any, lower

    @property
    def contrast_sentences(self) -> tuple[str, ...]:
        """Lower-cased sentences that draw a boundary to another tool (an alias notice is not one)."""
        if "contrast" not in self._memo:
            found: list[str] = []
            if self.contrast_possible:
                opened = False  # the last sentence drew a boundary and ended in ":", so a list follows
                before = ""
                for sentence, bullet in _sentences_marked(_snake_humps(self.text).lower()):
                    last, before = before, sentence
                    if opened and bullet:  # "use the specialized tools:\n- trial_protocol_getter: ..."
                        found.append(sentence)
                        continue
                    opened = False
                    if self.alias_sentences and (_ALIAS_LOWER.search(sentence)
                                                 or _retires_then_points(last, sentence, self.own)):
                        continue
                    if _CONTRAST_LOWER.search(sentence):
                        found.append(sentence)
                        # "Use this tool when you need to:" lists its own uses, not its neighbours
                        opened = sentence.endswith(":") and "this tool" not in sentence
            self._memo["contrast"] = tuple(found)
        out: tuple[str, ...] = self._memo["contrast"]
        return out

    def _first_sentence(self) -> None:
        stripped = self.stripped
        end = _first_break(stripped)
        if end is None:  # one sentence (most descriptions): its words are `words`, its terms `all`
            self._memo["summary"] = self.all
            caps = self._caps_after_opening(self.words & _CAPS_SET)
            self._memo["proper"] = _shared({_CAPS[w] for w in caps})
            return
        if end and not stripped[:end].isspace():
            first_words = _WORD.findall(stripped[:end])
        else:
            first_words = _by_sentence(stripped)[0]
        seen = set(first_words)
        _learn(seen)
        first: frozenset[str] | set[str] = set(chain.from_iterable(map(_TERMS.__getitem__, seen)))
        if self.out_of_sense:
            first = _unfolded(first, self.out_of_sense)
        self._memo["summary"] = self.name if first <= self.name else self.name.union(first)
        self._memo["proper"] = _shared({_CAPS[w] for w in _CAPS_SET.intersection(first_words[1:])})

    def _caps_after_opening(self, caps: frozenset[str]) -> frozenset[str]:
        """Those of `caps` (words of a one-sentence description) that it writes after its opening word:
        the text is split into words again only when the opening word's text comes again."""
        if not caps:
            return caps
        opening = _WORD.search(self.stripped)
        if opening is None or opening.group() not in caps:
            return caps
        if self.stripped.count(opening.group()) == 1:  # no second occurrence, as a word or within one
            return caps - {opening.group()}
        return caps.intersection(_WORD.findall(self.stripped)[1:])


@cache
def split_identifier(name: str) -> tuple[str, ...]:
    """`getDocumentByID` / `get-document_by.id` -> ('get', 'document', 'by', 'id') (lower case)."""
    if name.isascii() and name.islower():
        plain = name.replace("_", "")
        if plain.isalpha():  # most words and snake_case names: lower-case letters between underscores
            return tuple([p for p in name.split("_") if p]) if len(plain) < len(name) else (name,)
    # `_CAMEL` never matches across a character outside [A-Za-z0-9], so no split on those is needed first.
    return _lower_parts(_CAMEL.findall(name))


def _lower_parts(parts: list[str]) -> tuple[str, ...]:
    """Parts in lower case; an acronym's plural (`APIs`: capitals, then s) as the acronym."""
    return tuple([p[:-1].lower() if len(p) > 2 and p[-1] == "s" and p[-2].isupper() else p.lower()
                  for p in parts])


def fold_plural(word: str) -> str:
    lex = lexicon()
    if word in lex.irregular_plurals:
        return lex.irregular_plurals[word]
    if word in lex.no_plural_fold or len(word) <= 3 or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "js")):  # js: nodejs, nextjs
        return word
    return word[:-1]


_POSSESSIVE = re.compile(r"['’]s?$")


@cache
def normalise(word: str) -> str | None:
    """One word -> its canonical term, or None when it carries no meaning for H1.6."""
    lex = lexicon()
    w = word.lower()
    if "'" in w or "’" in w:
        w = _POSSESSIVE.sub("", w)
    if not w or w.isdigit() or len(w) < 2 or w in lex.stopwords or w in lex.low_information:
        return None
    if not w.isalpha() and _VERSION.fullmatch(w):
        return None
    if w in lex.synonyms:
        return lex.synonyms[w]
    w = fold_plural(w)
    if w in lex.stopwords or w in lex.low_information:
        return None
    return lex.synonyms.get(w, w)


def words(text: str) -> list[str]:
    """The words of free text as written, before any analysis."""
    return _WORD.findall(text)


def text_terms(text: str) -> list[str]:
    """Terms of free text, identifiers split, in order of appearance (duplicates kept)."""
    words = _text_words(text)
    return [t for w in words for t in _TERMS[w]]


def first_term_in(text: str, wanted: frozenset[str]) -> str | None:
    """The first of `text_terms(text)` that is in `wanted`, or None."""
    for w in _text_words(text):
        for t in _TERMS[w]:
            if t in wanted:
                return t
    return None


def _text_words(text: str) -> list[str]:
    """The words of free text, negations folded, each learned."""
    # ASCII text without "not" or "without" in any case gives `_NEGATED` nothing to match
    if not text.isascii() or "not" in (low := text.lower()) or "without" in low:
        text = _NEGATED.sub(_un, text)
    words = _WORD.findall(text)
    _learn(words)
    return words


# Every distinct word is analysed once per process, then looked up: tool texts share most of their words.
_TERMS: dict[str, tuple[str, ...]] = {}  # word -> its terms
_LOWER: dict[str, tuple[str, ...]] = {}  # word -> its terms when the word is written in lower case, else ()
_CAPS: dict[str, str] = {}  # capitalised word (not an acronym, not a stopword) -> lower case
_CAPS_SET: set[str] = set()  # its keys, for C-speed intersections
_CAMEL_WORDS: set[str] = set()  # words the camelCase identifier pattern could strip
_FOREIGN_ANY: set[str] = set()  # words that are foreign function words, in any case
_ALIAS_ANY: set[str] = set()  # words without which `_ALIAS` cannot match
_CONTRAST_ANY: set[str] = set()  # words without which `_CONTRAST` cannot match
_NOT_ANY: set[str] = set()  # words without which `_NEGATED` cannot match
_ALIAS_WORDS = frozenset(
    ["same", "alias", "identical", "equivalent", "deprecated", "obsolete", "legacy", "synonym", "renamed",
     "kept"]
)
_CONTRAST_WORDS = frozenset(["use", "prefer", "see", "instead", "rather", "not", "don", "try", "call"])
_IDENT_HINT = re.compile(r"[_./:][A-Za-z0-9\-]")  # the dotted/snake branch of `_IDENT` needs one of these


# Longer "words" give no term: each would be a term of its own, copied into every pair message that names it.
MAX_WORD_CHARS = 100


def _learn(words: Iterable[str]) -> None:
    # a C loop over dict lookups
    new = (words if isinstance(words, (set, frozenset)) else set(words)).difference(_TERMS)
    if not new:
        return
    stop = lexicon().stopwords
    for w in new:
        if len(w) > MAX_WORD_CHARS:  # no word of prose: a run of letters, base64, a key, a DoS attempt
            _TERMS[w] = _LOWER[w] = ()
            continue
        if w.islower() and w.isalpha() and w.isascii():  # most words: one part, no capital, no apostrophe
            t = normalise(w)
            _TERMS[w] = _LOWER[w] = (t,) if t else ()
            _mark(w, w, w)  # its own lower case and base
            continue
        low = w.lower()
        if w.isascii():
            parts = split_identifier(w)
        else:  # "Pokémon" -> pokemon, as the tool name spells it; a letter without an ASCII form stays
            plain = _fold_accents(w)
            low = plain.lower()
            parts = split_identifier(plain) if plain.isascii() else (low,)
        terms = () if w.isdigit() else tuple(t for p in parts if (t := normalise(p)))
        _TERMS[w] = terms
        _LOWER[w] = terms if w.islower() else ()
        if w[:1].isupper() and not w.isupper() and low not in stop:
            _CAPS[w] = low
            _CAPS_SET.add(w)
        if w[:1].islower() and not w.islower():
            _CAMEL_WORDS.add(w)
        _mark(w, low, low.replace("’", "'").split("'")[0])


def _fold_accents(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _mark(word: str, low: str, base: str) -> None:
    """Note the word in the sets that say which costly steps a text needs (`base`: before an apostrophe)."""
    if low in _FOREIGN:
        _FOREIGN_ANY.add(word)
    if base in _ALIAS_WORDS:
        _ALIAS_ANY.add(word)
    if base in _CONTRAST_WORDS:
        _CONTRAST_ANY.add(word)
    if base in ("not", "without"):
        _NOT_ANY.add(word)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


_BULLET = re.compile(r"\n\s*[-*•]\s+")
# `_SENTENCE`, searched faster: each alternative starts with a stop or a line break, so the search skips to
# those (a stop is matched one character before the break `_SENTENCE` finds after it).
_SENTENCE_BREAK = re.compile(r"([.!?;])(?=\s)|\n\s*\n|\n\s*[-*•]\s+")


def _first_break(text: str) -> int | None:
    """Where `_SENTENCE.search(text)` starts, or None."""
    m = _SENTENCE_BREAK.search(text)
    if m is None:
        return None
    return m.start() + 1 if m.group(1) else m.start()


def _sentences_marked(text: str) -> list[tuple[str, bool]]:
    """`sentences`, each with whether it is a bullet item (the break before it is a list marker)."""
    out: list[tuple[str, bool]] = []
    at, bullet = 0, False
    for m in _SENTENCE.finditer(text):
        if part := text[at : m.start()].strip():
            out.append((part, bullet))
        at, bullet = m.end(), _BULLET.fullmatch(m.group()) is not None
    if part := text[at:].strip():
        out.append((part, bullet))
    return out


# Markup and addresses are not words of what a tool does ("https", "br", "href" were shared terms).
_HTML_TAG = re.compile(
    r"</?(?:br|p|b|i|u|em|strong|code|pre|li|ul|ol|div|span|table|thead|tbody|tr|td|th|a|img|h[1-6]|hr|sup"
    r"|sub|blockquote)\b[^<>]{0,300}>",
    re.I,
)
_URL = re.compile(r"\b(?:https?|ftp)://\S+|\bwww\.\S+", re.I)
_QUOTED = re.compile(r"`[^`]{1,80}`|'[A-Za-z0-9_\-.]{2,60}'|\"[A-Za-z0-9_\-.]{2,60}\"")


def _strip_mentions(sentence: str) -> str:
    """Drop identifier-shaped tool names and quoted names: they are boundaries or aliases, not words."""
    return _IDENT.sub(" ", _QUOTED.sub(" ", sentence))


def _latin(letters: str) -> bool:
    return len(_NON_LATIN.findall(letters)) / len(letters) <= 0.3


@lru_cache(maxsize=65536)
def analysable(text: str) -> tuple[bool, str]:
    """Mostly non-English text cannot be analysed by an English lexicon: say so instead of staying silent.

    The opening 2,000 characters decide: that is where a description says what the tool does. ASCII text
    without a foreign function word passes at once (most descriptions).
    """
    text = text[:2000]
    if text.isascii() and (
        _FOREIGN_BYTES.isdisjoint(text.encode("ascii").translate(_LETTER_RUNS).split())
        or _FOREIGN.isdisjoint(_WORD.findall(text.lower()))
    ):
        return True, ""
    letters = "".join(filter(str.isalpha, text))
    if len(letters) < 4:
        return True, ""
    if not _latin(letters):
        return False, "most of its letters are not Latin script"
    words = [w.lower() for w in _ASCII_WORD.findall(text)]  # as before accents were letters: same verdicts
    english = sum(1 for w in words if w in lexicon().stopwords)
    foreign = sum(1 for w in words if w in _FOREIGN)
    if len(words) >= 4 and foreign >= 2 and foreign > english:
        return False, "its function words are not English"
    return True, ""


_NON_LATIN = re.compile("[^\x00-\u024f]")
# A foreign function word that is a `_WORD` token is also a maximal run of letters, so one C pass that
# lower-cases letters and blanks everything else clears most descriptions before any word is split out.
_LETTER_RUNS = bytes((c | 0x20) if chr(c).isascii() and chr(c).isalpha() else 0x20 for c in range(256))
_FOREIGN_BYTES = frozenset(w.encode("ascii") for w in _FOREIGN if w.isascii())

MAX_ANALYSED_CHARS = 6000  # a 54k-character description says what it does long before its end


EMPTY: frozenset[str] = frozenset()


def _spell_symbols(text: str) -> str:
    """`C#`, `F#`, `C++` and `.NET` as words (csharp, fsharp, cpp, dotnet); other text as it is."""
    if "#" not in text and "+" not in text and ".NET" not in text and ".net" not in text:
        return text
    return _SYMBOL_WORDS.sub(_spelt, text)


def _spelt(m: re.Match[str]) -> str:
    sharp, plus = m.group(1), m.group(2)
    return _SPELT[sharp.lower()] if sharp else " cpp " if plus else " dotnet "


def name_terms_of(name: str) -> tuple[str, ...]:
    """The terms of a tool name, in order (`get_documents_by_id` -> ('retrieval', 'document', ...))."""
    name = _spell_symbols(name)
    if name.isalpha() or not _has_digit(name):
        parts = split_identifier(name)
    else:
        parts = _lower_parts(_CAMEL_NAME.findall(name))
    terms = tuple(filter(None, map(normalise_name_word, parts)))
    if "from" in parts and not lexicon().from_verbs.keys().isdisjoint(parts):
        terms = _detached(parts)
    if len(parts) > 1 and parts[-1] in lexicon().name_particles:  # fade_in is not fade_out
        return (*terms, parts[-1])
    return terms


_ASCII_DIGIT = re.compile(r"[0-9]")


def _has_digit(name: str) -> bool:
    """`any(map(str.isdigit, name))`, in C for an ASCII name (where only 0-9 are digits)."""
    return _ASCII_DIGIT.search(name) is not None if name.isascii() else any(map(str.isdigit, name))


def _detached(parts: tuple[str, ...]) -> tuple[str, ...]:
    """Name terms where a verb of `lexicon.from_verbs` before `from` takes its object out of a container:
    `remove_work_item_from_cycle` detaches the item, it does not delete it as `delete_work_item` does."""
    verbs, last = lexicon().from_verbs, len(parts) - 1 - parts[::-1].index("from")
    words = (verbs[p] if i < last and p in verbs else normalise_name_word(p) for i, p in enumerate(parts))
    return tuple(filter(None, words))


@cache
def normalise_name_word(word: str) -> str | None:
    """`normalise`, except that a name keeps the words prose uses as filler but a name uses for its object:
    `create_ticket_note` is not `create_ticket`, nor `pods_run` `pods_get` (`lexicon.name_words`)."""
    lex = lexicon()
    if word in lex.name_words:
        w = fold_plural(word)
        return lex.synonyms.get(w, w)
    return normalise(word)


def _shared(terms: set[str] | frozenset[str]) -> frozenset[str]:
    """Every empty set is the one EMPTY: a long-lived frozenset costs the garbage collector on each pass."""
    return frozenset(terms) if terms else EMPTY


@lru_cache(maxsize=65536)
def extract(name: str, description: str) -> Terms:
    """Each sentence, stripped of quoted names, gives terms, proper nouns and words in lower case.

    The costly steps run only where their words or characters occur: stripping identifiers, folding
    negations, looking for alias and contrast sentences. Words are looked up in the per-process tables.
    """
    text = _spell_symbols(description[:MAX_ANALYSED_CHARS])
    name_seq = name_terms_of(name)
    name_terms = _shared(set(name_seq))
    seen = frozenset(_WORD.findall(text))
    _learn(seen)
    stripped = text
    if "<" in text:
        stripped = _HTML_TAG.sub(" ", stripped)
    if "://" in text or "www." in text:
        stripped = _URL.sub(" ", stripped)
    if "`" in text or "'" in text or '"' in text:
        stripped = _QUOTED.sub(" ", stripped)
    if _IDENT_HINT.search(stripped) or not _CAMEL_WORDS.isdisjoint(seen):
        stripped = _IDENT.sub(" ", stripped)
    if not _NOT_ANY.isdisjoint(seen):
        stripped = _NEGATED.sub(_un, stripped)
    if stripped is text:
        every = seen
    else:
        every = frozenset(_WORD.findall(stripped))
        _learn(every)
    desc = _shared(set(chain.from_iterable(map(_TERMS.__getitem__, every))))  # the loops in C
    out_of_sense: tuple[tuple[str, str], ...] = ()
    if not _sense_groups().isdisjoint(name_terms) or not _sense_groups().isdisjoint(desc):
        out_of_sense = _out_of_sense(name, seen, name_terms | desc)
        if out_of_sense:
            name_seq = tuple(dict(out_of_sense).get(t, t) for t in name_seq)
            name_terms, desc = _unfolded(name_terms, out_of_sense), _unfolded(desc, out_of_sense)
    caps_here = every & _CAPS_SET
    # A name term written as a proper noun: only then does `pairs.vendor_terms` need to know where.
    caps_in_name: tuple[str, ...] = ()
    if caps_here and not name_terms.isdisjoint(map(_CAPS.__getitem__, caps_here)):  # mostly: none, in C
        caps_in_name = tuple(sorted(w for w in caps_here if _CAPS[w] in name_terms))
    alias: list[str] = []
    if not _ALIAS_ANY.isdisjoint(seen):
        alias = _alias_sentences(sentences(text.lower()), name.lower())
    if not _FOREIGN_ANY.isdisjoint(seen):
        ok, why = analysable(text)
    elif text.isascii():
        ok, why = True, ""
    else:  # no foreign function words: only the script can make it unanalysable
        letters = "".join(filter(str.isalpha, text[:2000]))
        ok = len(letters) < 4 or _latin(letters)
        why = "" if ok else "most of its letters are not Latin script"
    return Terms(
        name=name_terms,
        all=name_terms if desc <= name_terms else name_terms | desc,
        desc=desc,
        caps_in_name=caps_in_name,
        alias_sentences=tuple(alias),
        alias_mentions=_shared({m.lower() for s in alias for m in _IDENT.findall(s)}) if alias else EMPTY,
        analysable=ok,
        why_unanalysable=why,
        name_seq=name_seq,
        text=text,
        stripped=stripped,
        contrast_possible=not _CONTRAST_ANY.isdisjoint(seen),
        own=name.lower(),
        out_of_sense=out_of_sense,
    )


@cache
def _senses() -> tuple[tuple[str, str, frozenset[str]], ...]:
    """(group term, word, the words that name the group) for each word a synonym group takes only in its
    sense (`lexicon.in_sense`): event, calendar, {calendar, calendars, meeting, ...}."""
    lex = lexicon()
    return tuple(
        (group, word, frozenset(w for w, t in lex.synonyms.items() if t == group and fold_plural(w) != word))
        for word, group in lex.in_sense.items()
    )


@cache
def _sense_groups() -> frozenset[str]:
    return frozenset(group for group, _, _ in _senses())


def _out_of_sense(name: str, words: Iterable[str], terms: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """(group, word) for each group term that no word naming the group gave, only the word it takes in its
    sense: "List recent events for a compute cluster" holds an event, not a calendar."""
    said = {p for w in words for p in split_identifier(w)}.union(split_identifier(name))  # calendarId too
    return tuple((group, word) for group, word, names in _senses()
                 if group in terms and said.isdisjoint(names))


def _unfolded(terms: Iterable[str], out_of_sense: tuple[tuple[str, str], ...]) -> frozenset[str]:
    back = dict(out_of_sense)
    return _shared({back.get(t, t) for t in terms})


_NEXT_POINTS = re.compile(r"(?:please )?(?:use|see|prefer|call)\b")


# A camelCase or PascalCase word standing alone: its humps say where its words meet, which lower case
# forgets. Not a part of a path or a template (`/stations/{stationId}/observations` is one name as written).
_HUMPED = re.compile(r"(?<![{/.$-])\b[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b(?![}/-])")


def _snake_humps(text: str) -> str:
    """`use getPage` -> `use get_Page`: a boundary's camel-case name, once lower-cased, is the snake-case
    name (`spellings`), while "setup" stays a word."""
    if text.islower() or text.isupper():
        return text
    return _HUMPED.sub(lambda m: CAMEL_BOUNDARY.sub("_", m.group()), text)


def _retires_then_points(sentence: str, after: str, own: str = "") -> bool:
    """"X is deprecated and will be removed;" followed by "use Y.": one notice in two sentences."""
    retires = bool(_RETIRED.search(sentence) or _retires_itself(sentence, own))
    return retires and not _NEXT_POINTS.search(sentence) and bool(_NEXT_POINTS.match(after))


_LEADING = re.compile(r"\W*")
_IS_RETIRED = re.compile(r"[`'\"]?\s+(?:is\s+|was\s+|has been\s+)?(?:now\s+)?(?:deprecated|obsolete)\b")


def _retires_itself(sentence: str, own: str) -> bool:
    """"read_file is deprecated.": the tool names itself as what is retired."""
    lead = _LEADING.match(sentence)
    at = lead.end() if lead else 0
    if not own or not sentence.startswith(own, at):
        return False
    return _IS_RETIRED.match(sentence, at + len(own)) is not None


def _alias_sentences(parts: list[str], own: str = "") -> list[str]:
    """The sentences that announce an alias; "X is deprecated." takes the next one along when that one says
    what to use instead ("Use Y instead."), so the replacement is named in the notice."""
    out = []
    for k, s in enumerate(parts):
        if _ALIAS_LOWER.search(s) or _retires_itself(s, own):
            after = parts[k + 1] if k + 1 < len(parts) else ""
            points = _retires_then_points(s, after, own)
            out.append(f"{s} {after}" if points else s)
    return out


def _by_sentence(stripped: str) -> tuple[list[str], set[str]]:
    """The first non-blank sentence's words, and the proper nouns after the first word of each later one."""
    first_words: list[str] | None = None
    later: set[str] = set()
    for part in _SENTENCE.split(stripped):
        if first_words is None:
            if part and not part.isspace():
                first_words = _WORD.findall(part)
            continue
        later.update(_WORD.findall(part)[1:])
    return first_words or [], {_CAPS[w] for w in later if w in _CAPS}


def _un(m: re.Match[str]) -> str:
    return "un" + m.group(1) if m.group(1) else "without"


def proper_nouns(sentence: str) -> frozenset[str]:
    """Capitalised words after the first word (GitHub, Slack): the names of systems a tool works on.

    All-capital acronyms (API, URL, JSON) are format words, not systems, and are left out.
    """
    words = _WORD.findall(_strip_mentions(sentence))[1:]
    lex = lexicon()
    return frozenset(
        w.lower() for w in words if w[:1].isupper() and not w.isupper() and w.lower() not in lex.stopwords
    )


_NAME_BEFORE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_NAME_AFTER = _NAME_BEFORE - {"-"}


def mentions(sentences_: tuple[str, ...], name: str) -> bool:
    """Whether a tool name occurs (as a whole word) in any of the sentences.

    A plain substring search with the boundary checked by hand: a compiled pattern per name cost more than the
    search (the pair check meets hundreds of names once each).
    """
    return bool(sentences_) and next(_whole_word(sentences_, name), None) is not None


def _whole_word(sentences_: tuple[str, ...], name: str) -> Iterator[tuple[str, int]]:
    """(sentence, offset) of each whole-word occurrence of the (lower-cased) name in the sentences, in any
    of its case styles (`spellings`: `get_page_by_id`, `get-page-by-id`, `getPageById`)."""
    for spelling in spellings(name):
        stops = _NAME_BEFORE if "-" in spelling else _NAME_AFTER  # `get-page-by-id` is not `get-page`
        for s in sentences_:
            at = s.find(spelling)
            while at != -1:
                end = at + len(spelling)
                if (at == 0 or s[at - 1] not in _NAME_BEFORE) and (end >= len(s) or s[end] not in stops):
                    yield s, at
                at = s.find(spelling, at + 1)


_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@lru_cache(maxsize=65536)
def spellings(name: str) -> tuple[str, ...]:
    """A tool name in lower case as a description may write it: as it is, snake, kebab and camel case."""
    low = name.lower()
    # Only an identifier has case styles: "Web Search" written `web_search` is a vendor's name, not the tool.
    parts = split_identifier(name) if _IDENTIFIER.fullmatch(name) else ()
    if len(parts) < 2:
        return (low,)
    # Run together, two words are often a word ("setup", "login"); three (getdocumentbyid) are a name. A
    # two-word camel-case name keeps its hump in boundaries (`_snake_humps`).
    joined = ("".join(parts),) if len(parts) > 2 else ()
    return tuple(dict.fromkeys((low, "_".join(parts), "-".join(parts), *joined)))


# Routing guidance by how a request is worded ("for natural-language questions use find_document"): seed 001
# measured it moving the traffic "not far enough to matter", as the ambiguity is in the request.
_QUERY = r"(?:quer(?:y|ies)|questions?|requests?|lookups?|search(?:es|ing)?|match(?:es|ing)?)"
_PHRASING = re.compile(
    rf"\b(?:keywords?[- ]{_QUERY}|natural[- ]language {_QUERY}|semantic(?:ally)? {_QUERY}"
    rf"|free[- ]form {_QUERY}|conversational {_QUERY}|plain[- ]english|(?:full|complete) sentences"
    r"|phrased|worded|wording|(?:asked|written) in natural language"
    # only where the clause ends there: "for questions about billing" names a topic
    r"|(?:for|by|with) keywords?(?=\s*(?:[,;.:)]|$|use\b|see\b|call\b|prefer\b|try\b|and\b|or\b))"
    r"|for questions(?=\s*(?:[,;.:)]|$|use\b|see\b|call\b|prefer\b|try\b)))\b"
)  # a phrasing word naming a thing ("SEO keyword reports", "semantic versioning") is no such guidance;
# nor is "fuzzy" or "exact": "the complete name with its #code" against "a partial name" is in the request


def bounds(sentences_: tuple[str, ...], name: str) -> bool:
    """Whether a boundary sentence names the tool `name` and divides by what a request asks for, not by
    how the request is worded."""
    return any(not _PHRASING.search(s) for s, _ in _whole_word(sentences_, name)) if sentences_ else False


# An alias notice names the tool it stands for right after its phrase: "alias of X", "same as `X`",
# "deprecated: use X". Met elsewhere in the sentence a name is a word ("migration steps, and deprecated API
# surface"), and "parameters identical to X" says the arguments match, not the tools. The pattern is searched
# up to the name's start, so `$` is where the name begins.
_ALIAS_BEFORE_NAME = re.compile(
    r"(?:same as|alias (?:of|for)|identical to|equivalent to|synonym (?:of|for)|renamed to"
    r"|(?:deprecated|obsolete|legacy name)"
    # words that still speak of this tool: "deprecated alias; use X", "deprecated and will be removed; use X"
    r"(?: (?:alias|tool|function|name|endpoint)| now| (?:since|in) [^.;:!?]{0,30}"
    r"| and (?:will|may) be removed[^.;:!?]{0,30}| and scheduled for removal[^.;:!?]{0,30})?"
    r"\W{0,4}(?:please )?"
    r"(?:use|see|prefer|call|in favou?r of|replaced by|superseded by))"
    r"[\s`'\"(\[]+(?:the )?[`'\"]?$"
)
_NOT_THE_TOOL = frozenset([
    "parameter", "parameters", "param", "params", "argument", "arguments", "args", "value", "values", "field",
    "fields", "prerequisite", "prerequisites", "input", "inputs", "output", "outputs", "format", "response",
    "schema", "options",
])
_ALIAS_REACH = 60  # characters before a name where its alias phrase may start


def names_alias(sentences_: tuple[str, ...], name: str) -> bool:
    """Whether an alias notice among the (lower-cased) sentences names the tool `name` as what it stands
    for, not as a word of some other subject (see `_ALIAS_BEFORE_NAME`)."""
    if not sentences_:  # most tools: no alias notice
        return False
    for s, at in _whole_word(sentences_, name):
        phrase = _ALIAS_BEFORE_NAME.search(s, max(0, at - _ALIAS_REACH), at)
        if phrase is not None:
            subject = _ASCII_WORD.findall(s, max(0, phrase.start() - 40), phrase.start())[-4:]
            if _NOT_THE_TOOL.isdisjoint(subject):
                return True
    return False


def reversed_direction(a: str, b: str) -> bool:
    """`hsl_to_rgb` against `rgb_to_hsl`: the same words, opposite directions. Words both names share at
    the start or the end (`convert_`, ToolBench's `_for_<api>`) are left out first."""
    pa, pb = split_identifier(a), split_identifier(b)
    if not (("to" in pa and "to" in pb) or ("2" in pa and "2" in pb)):  # most pairs: no `to` in both names
        return False
    shortest = min(len(pa), len(pb))
    head = next((k for k in range(shortest) if pa[k] != pb[k]), shortest)
    tail = next((k for k in range(shortest - head) if pa[-1 - k] != pb[-1 - k]), shortest - head)
    pa, pb = pa[head : len(pa) - tail], pb[head : len(pb) - tail]
    for sep in ("to", "2"):
        if sep in pa and sep in pb:
            ia, ib = pa.index(sep), pb.index(sep)
            if set(pa[:ia]) == set(pb[ib + 1 :]) and set(pa[ia + 1 :]) == set(pb[:ib]) and pa != pb:
                return True
    return False


class Described(Protocol):
    """A tool as the pair rules see it (`pairs.ToolView`): its name and its terms."""

    @property
    def name(self) -> str: ...

    @property
    def terms(self) -> Terms: ...


def shown(found: Iterable[str], *tools: Described) -> list[str]:
    """Terms as a message lists them: sorted, and in the tools' own words where a term alone would read as
    a typo. A plural folded into a stem no tool writes is shown as written (`postgres`, not "postgre";
    `databricks`, not "databrick"); a capitalised word that the split made two terms (`GitHub`: git and hub;
    `PostgreSQL`) is shown whole when all its terms are listed and none is written alone. The
    lexicon's own terms (retrieval, document) are never replaced. `tools`: the tools the terms are of."""
    wanted = sorted(set(found))
    # What each tool writes, in any case: its name's parts and its description's words.
    texts = [(_name_parts(tool.name), tool.terms.written) for tool in tools]

    def said(word: str) -> bool:
        return any(word in parts or word in written for parts, written in texts)

    lexical = _lexicon_terms()
    odd = {t for t in wanted if t not in lexical and not said(t)}
    if not odd:  # most lists: every term as some tool wrote it
        return wanted
    capitalised = sorted({w for t in tools for w in t.terms.words if w[:1].isupper() and not w.isupper()})
    show = dict(zip(wanted, wanted, strict=True))  # a term -> what stands for it ("": folded into a word)
    if len(odd) > 1:
        for word in capitalised:
            parts = _TERMS.get(word, ())
            if len(parts) > 1 and all(show.get(p) == p for p in parts) and odd.issuperset(parts):
                show.update(dict.fromkeys(parts, ""))
                show[min(parts)] = word
    for term in odd:
        if show[term] == term:
            show[term] = next((form for form in _plurals(term) if said(form)), None) or next(
                (w for w in capitalised if _two_part_word_of(w, term)), term
            )
    return list(dict.fromkeys(written for written in show.values() if written))


@lru_cache(maxsize=65536)
def _name_parts(name: str) -> frozenset[str]:
    """`split_identifier` as a set: each finding's message asks it of both tools."""
    return frozenset(split_identifier(name))


def _two_part_word_of(word: str, term: str) -> bool:
    """`word` (capitalised) gave `term` and is two parts of letters, each of two or more (GitHub: git, hub);
    `ZIdentity`, `Today's` and `Context7` are not such words."""
    return (word.isalpha() and term in _TERMS.get(word, ())
            and len(parts := split_identifier(word)) == 2 and min(map(len, parts)) > 1)


def _plurals(term: str) -> list[str]:
    """The plurals `fold_plural` folds into `term`."""
    forms = [term + "s", term + "es"]
    if term.endswith("y"):
        forms.append(term[:-1] + "ies")
    forms += _irregular_plurals().get(term, [])
    return [f for f in forms if fold_plural(f) == term]


@cache
def _irregular_plurals() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for plural, singular in lexicon().irregular_plurals.items():
        out.setdefault(singular, []).append(plural)
    return out


@cache
def _lexicon_terms() -> frozenset[str]:
    """The terms the synonym lexicon names its groups by: a message shows those as they are."""
    return frozenset(lexicon().synonyms.values())
