"""Blast radius: how far the effects of a wrong call reach (seed 001), and the guards that contain it.

Evidence is taken in order and the first that speaks wins, so every finding can name what it used:
1. the config, `tools: {name: {blast: read|write|destructive|external}}`, for formats that cannot state it;
2. MCP annotations that the author set explicitly (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
   `openWorldHint`); the spec's defaults are not evidence, so absent hints fall through; a tool declared
   not read-only (`readOnlyHint: false`, open-world or not) is a write that the lexicon may raise;
3. the lexicon of verbs and phrases below, on the name and the description; a name led by a read verb
   (`list_`, `get`, `search_`) is a read, whatever its object does.

A *guard* is a required argument the model cannot make up: an approval id, a confirmation token, a value
only an earlier read returns. A required free-text `reason` is a description with a colon in it, not a guard.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tooldiff.lexicon import lexicon
from tooldiff.model import Tool
from tooldiff.terms import CAMEL_BOUNDARY, normalise, split_identifier

LEVELS = ("read", "write", "external", "destructive")
DANGEROUS = frozenset({"external", "destructive"})

# Each phrase starts with a letter: the `(?=[a-z])` lookahead (any case, under re.I) lets a search pass
# over spaces and punctuation without trying every alternative there.
# Phrases that reach people or money outside the agent.
_EXTERNAL = re.compile(
    r"(?=[a-z])\b(page[sd]?\s+(?:the\s+)?(?:on[- ]?call|someone|an? engineer|engineers)"
    r"|paging|pagerduty|on[- ]call"
    r"|notif(?:y|ies|ied|ication)"
    r"|send(?:s|ing)?\b(?![^.]*\bto (?:the )?(?:page|browser|process|terminal|repl))"
    r"|e-?mails? (?:to|the)|broadcast|announce|sms|text message|publish(?:es)?"
    r"|charg(?:e|es|ing)\b(?! (?:of|level))"
    r"|refund(?:s|ed)?\b|transfer(?:s)? (?:money|funds)|pay(?:s|out)?\b|deploy(?:s|ing)?\b(?! preview)"
    r"|to production|release to|wire (?:money|funds|transfers?|payments?)|wire transfer)",
    re.I,
)
# Phrases that destroy state or cannot be taken back.
_DESTRUCTIVE = re.compile(
    r"(?=[a-z])\b(permanent(?:ly)?|irreversibl[ey]|cannot be (?:undone|reversed|recovered)"
    r"|can ?not be (?:undone|reversed)|no undo|not reversible|delete[sd]?|deleting|destroy(?:s|ed)?"
    r"|drop(?:s|ped|ping)? (?:\w+ ){0,2}(?:tables?|databases?|collections?|schemas?|keyspaces?|buckets?)\b"
    r"|purge[sd]?|wipe[sd]?|erase[sd]?|truncate[sd]?|merge[sd]? (?:\w+ ){0,3}(?:records?|contacts?|accounts?)"
    r"|fold[s]? .{0,60}\binto\b|force[- ]push|overwrit(?:e|es|ing) .{0,20}without"
    # a file, a folder or a resource removed is gone (a role removed from a member is not: a write)
    r"|remov(?:e|es|ing) (?:\w+ ){0,2}(?:files?|director(?:y|ies)|folders?|containers?|images?|volumes?"
    r"|branch(?:es)?|repositor(?:y|ies)|databases?|buckets?|secrets?|snapshots?|backups?|pods?|clusters?"
    r"|instances?|disks?)\b)",
    re.I,
)
_WRITE = re.compile(
    r"(?=[a-z])\b(creat|add|insert|updat|edit|modif|writ|sav|stor|set|link|open|record|upload|move|renam"
    r"|cop(?:y|ies)"
    r"|schedul|draft|archiv|unarchiv|remov|assign|cancel|drop|deactivat|activat|disabl|enabl|paus|suspend"
    # Interactions that change a page (a browser tool): `select` and `type` are left out, SQL and prose
    # use them for reading.
    r"|click|fill|press|submit|drag)",
    re.I,
)
# Sentences that describe how to undo or that negate the danger do not count as the tool's own effect.
_UNDO = re.compile(
    r"\b(undo|to undo|can be restored|restore[sd]? (?:it|for)|reversible|nothing is (?:paid|sent|deleted)"
    r"|not touched|is not (?:sent|deleted|paid)|until (?:a )?(?:person|human))",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")

_GUARD_NAME = re.compile(
    r"(approv|confirm|token(?!s)|nonce|otp|etag|if_?match|challenge|signature|expected_?(?:version|sha|etag)|\bsha\b"
    r"|_sha$|revision|lock_?id|idempotency_?key_from)",
    re.I,
)
_GUARD_DESC = re.compile(
    r"(approval|as returned by|returned by|from a (?:previous|prior|earlier)|obtained from|issued by"
    r"|confirmation (?:code|token|id)|one-time)",
    re.I,
)
_FREE_TEXT = re.compile(
    r"^(reason|comment|note|notes|justification|message|why|explanation|description)$", re.I
)
# A description that asks the model for its own words, a word it dictates ("write yes") or a name the model
# can write: whatever the name, not a guard (seed 001: "a description with a colon in it").
_OWN_WORDS = re.compile(
    r"\b(free[- ]?text|your (?:own|signature|name)|in your words|any text"
    r"|(?:write|type|enter|say|put|pass|set (?:it |this )?to)\s+[\"'`“]?(?:yes|y|true|ok|okay|confirm(?:ed)?"
    r"|i agree|agree)"
    r"|(?:assistant|model|agent)'s name|name of (?:the )?(?:person|user|approver|reviewer|human)"
    r"|who approved|sign with)\b",
    re.I,
)
# Types whose values the model picks without being given one: a guard of these must say where it comes from.
_INVENTABLE = frozenset({"boolean", "integer", "number"})


@dataclass(frozen=True, slots=True)
class Blast:
    level: str  # one of LEVELS
    evidence: str  # "config", "annotations", "lexicon" or "default"
    detail: str  # what exactly was seen, for the finding's message

    @property
    def dangerous(self) -> bool:
        return self.level in DANGEROUS


_OPEN_WRITE = "readOnlyHint: false, openWorldHint: true"
_NOT_READ_ONLY = "readOnlyHint: false"
_FLOORS = frozenset({_OPEN_WRITE, _NOT_READ_ONLY})  # annotations that set a floor the wording may raise


def _from_annotations(ann: Mapping[str, Any] | None) -> Blast | None:
    if not ann:
        return None
    ro, de, ow = ann.get("readOnlyHint"), ann.get("destructiveHint"), ann.get("openWorldHint")
    if ro is True:
        return Blast("read", "annotations", "readOnlyHint: true")
    if de is True:
        return Blast("destructive", "annotations", "destructiveHint: true")
    if ro is False and ow is True:
        # It writes to an open world (the web, GitHub): a floor, not "reaches people". `assess` lets the
        # wording raise it (send, notify, deploy), else firecrawl_scrape would be as dangerous as a page.
        return Blast("write", "annotations", _OPEN_WRITE)
    if de is False or ann.get("idempotentHint") is True:
        return Blast(
            "write", "annotations", "destructiveHint: false" if de is False else "idempotentHint: true"
        )
    if ro is False:  # "not read-only", said and nothing more: a write, which the wording may raise
        return Blast("write", "annotations", _NOT_READ_ONLY)
    return None


def _own_effect_text(tool: Tool) -> str:
    """Name and the first two sentences, without those that explain how to undo the call.

    Long descriptions mention other tools' effects further down ("to delete, use ..."): only the opening
    says what this call does.
    """
    parts = [s for s in _SENTENCE.split(tool.description or "", maxsplit=2)[:2] if not _UNDO.search(s)]
    # `deleteDatabase` as words: "delete Database", not "deleteD" matched across the capital.
    return " ".join([CAMEL_BOUNDARY.sub(" ", tool.name).replace("_", " ").replace("-", " "), *parts])


# A name led by one of these verbs reads: danger words in its description describe the object ("Webhooks
# send notifications", "find a comment's id before delete_comment"). `fetch` and `query` are left out: an
# HTTP fetch or a SQL query may write. A second verb joined on (`search_and_manage_tags`, `get_or_create`)
# and `check_in` / `check_out` leave the judgement to the wording.
_READ_VERBS = frozenset([
    "list", "get", "search", "read", "find", "show", "view", "describe", "count", "lookup", "check",
    "inspect", "preview", "validate", "estimate", "retrieve", "browse", "explain", "summarize", "summarise",
    "analyze", "analyse",
])
_JOINED = frozenset(["and", "or", "then", "in", "out", "off"])


def read_lead(name: str, description: str = "") -> str | None:
    """The read verb that leads the name, when nothing in the name says it does more. A vendor's name may
    come first (`github_list_alerts`) where the description opens with that verb and writes the vendor as
    a name ("List code scanning alerts in a GitHub repository"): a word it does not write so may be a verb
    of the tool's own (`page_get_oncall` pages; `email_list_members` emails; `todo.list_action` manages)."""
    words = split_identifier(name)
    if (len(words) > 2 and words[0] not in _READ_VERBS and words[1] in _READ_VERBS
            and _opens_with(description, words[1]) and _written_as_a_name(words[0], description)
            and normalise(words[0]) not in lexicon().action_classes):
        words = words[1:]
    if not words or words[0] not in _READ_VERBS or not _JOINED.isdisjoint(words[1:]):
        return None
    return words[0]


_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")


def _written_as_a_name(word: str, description: str) -> bool:
    """`github` written "GitHub" inside a sentence: a proper name, not a verb. A sentence's first word
    ("Page them when urgent") and shouting ("PAGE") are capitalised whatever they are."""
    for m in re.finditer(rf"\b{re.escape(word)}\b", description, re.I):
        written = m.group()
        if written.islower() or written.isupper():
            continue
        # Back over quotes, brackets, list markers and numbers, without copying the text before it: a copy
        # per match made a long description of "Foo. Foo. ..." take time quadratic in its length.
        i = m.start()
        while i > 0 and description[i - 1] in _OPENERS:
            i -= 1
        if i == 0:
            continue
        ends = description[i - 1] in ".!?;…\n" and not _ABBREVIATION.search(description[max(0, i - 12):i])
        if not ends:
            return True
    return False


_OPENERS = " \t\u00a0\"'`“‘(*-+•#[]0123456789)"
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|incl|approx)\.$", re.I)  # not a sentence's end


def _opens_with(description: str, verb: str) -> bool:
    """"Lists the alerts", "Search the code": the description's first word is `verb`, in any person."""
    m = _FIRST_WORD.match(description)
    return m is not None and m.group(1).lower() in (verb, verb + "s", verb + "es")


def assess(tool: Tool, tool_settings: Mapping[str, Mapping[str, Any]] | None = None) -> Blast:
    configured = (tool_settings or {}).get(tool.name, {}).get("blast")
    if isinstance(configured, str) and configured in LEVELS:
        return Blast(configured, "config", f"tools.{tool.name}.blast: {configured}")
    from_ann = _from_annotations(tool.annotations)
    if from_ann is not None and from_ann.detail not in _FLOORS:
        return from_ann
    if from_ann is None and (lead := read_lead(tool.name, tool.description or "")) is not None:
        return Blast("read", "lexicon", f"the name leads with `{lead}`")
    text = _own_effect_text(tool)
    kept_safe = from_ann is not None and (tool.annotations or {}).get("destructiveHint") is False
    if not kept_safe and (m := _DESTRUCTIVE.search(text)):
        return Blast("destructive", "lexicon", m.group(0).strip())
    if m := _EXTERNAL.search(text):
        return Blast("external", "lexicon", m.group(0).strip())
    if from_ann is not None:
        return from_ann  # a write the author declared, whose wording names no wider effect
    if m := _WRITE.search(text):
        return Blast("write", "lexicon", m.group(0).strip())
    return Blast("read", "default", "no write, destructive or external wording")


def guards(tool: Tool) -> tuple[str, ...]:
    """Required arguments the model cannot make up on its own."""
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    props = schema.get("properties")
    required = schema.get("required")
    if not isinstance(required, list):
        return ()
    out: list[str] = []
    for name in required:
        if not isinstance(name, str) or _FREE_TEXT.match(name):
            continue
        prop = props.get(name) if isinstance(props, dict) else None
        desc = prop.get("description", "") if isinstance(prop, dict) else ""
        desc = desc if isinstance(desc, str) else ""
        sourced = bool(_GUARD_DESC.search(desc))  # "as returned by ...": a value the model is handed
        if sourced:
            out.append(name)
            continue
        if not _GUARD_NAME.search(name) or _OWN_WORDS.search(desc):
            continue
        kind = prop.get("type") if isinstance(prop, dict) else None
        if (isinstance(kind, str) and kind in _INVENTABLE) or (isinstance(prop, dict) and "enum" in prop):
            continue  # `confirm: true` is a flag the model sets itself; a guard is a value it is given
        out.append(name)
    return tuple(out)
