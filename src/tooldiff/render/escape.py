"""Escaping of untrusted tool text, and the one jinja2 environment every template uses.

Names, descriptions, messages and file paths come from whoever opened the pull request. In Markdown they must
render as inert text: no HTML, no links, no table breakers, no `@mentions`, and never our hidden comment
marker. Autoescape is off because the output is Markdown, not HTML; instead every tool-derived value passes
through the `md` filter (or `mermaid` inside a diagram), and templates add markup only around it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any
from urllib.parse import quote

import jinja2

ZWSP = "\u200b"

# One pass, character by character, so an entity we emit is never escaped again.
_MD_TABLE: dict[int, str] = {ord(c): "\\" + c for c in "\\`*_{}[]()#+!|~^$"}
_MD_TABLE.update(
    {ord("<"): "&lt;", ord(">"): "&gt;", ord("&"): "&amp;", ord('"'): "&quot;", ord("'"): "&#39;"}
)

# Line breaks of every kind end a table row or a list item: fold them into spaces.
_BREAKS = re.compile(r"[\r\n\v\f\x85\u2028\u2029]+")
# C0/C1 controls, ANSI escapes' ESC, bidi overrides and marks that could make text read differently than it
# is; lone surrogates (the bytes of a file name that is not UTF-8), which no UTF-8 writer accepts; and the
# invisible characters that make two names look alike (zero-width space, word joiners, soft hyphen,
# byte-order mark, tag characters, Hangul fillers). Not the joiners (U+200C, U+200D) that emoji and Indic or
# Persian writing need.
_CONTROLS = re.compile(
    r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\xad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064"
    r"\u2066-\u2069\ufeff\ud800-\udfff\U000e0000-\U000e007f\u115f\u1160\u3164\uffa0]"
)
_SPACES = re.compile(r"[ \t]+")
# `@user`, `@org/team`: GitHub notifies them. A zero-width space after `@` keeps the text, drops the ping.
_MENTION = re.compile(r"@(?=[A-Za-z0-9])")
# `#7`, `owner/repo#7`, `GH-42`: GitHub links the issue and backlinks it from there (a `\#` escape does not
# stop that, it works on the rendered text); a zero-width space breaks the reference.
_HASH_REF = re.compile(r"#(?=\d)")
_GH_REF = re.compile(r"\b(GH)-(?=\d)", re.IGNORECASE)
# Script URL schemes, even spelled with spaces or mixed case; the colon gets a zero-width space. Web schemes
# too: GitHub autolinks a bare `https://` or `www.` anywhere in text, and tool text must not become a link.
_SCHEME = re.compile(r"(javascript|vbscript|data|file|https?|ftp)(\s*):", re.IGNORECASE)
_WWW = re.compile(r"(www)\.", re.IGNORECASE)
# At the start of a line these begin a list, a heading or a block quote.
_LEADING = re.compile(r"^([-=.>])|^(\d+)([.)])")
_SAFE_CODE = re.compile(r"[A-Za-z0-9_.:/-]+")
_SAFE_MERMAID = re.compile(r"[^A-Za-z0-9_./ -]")


def visible(value: object) -> str:
    """The text with controls, bidi overrides and invisible characters (`_CONTROLS`) shown as U+FFFD, line
    breaks kept."""
    return _CONTROLS.sub("\ufffd", str(value))


def plain(value: object, limit: int = 0) -> str:
    """One line of text with controls removed: for terminals and workflow commands."""
    text = visible(value)
    text = _SPACES.sub(" ", _BREAKS.sub(" ", text)).strip()
    if limit and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def md(value: object, limit: int = 0) -> str:
    """Inline Markdown that renders exactly the given text, safe inside a table cell or list item."""
    text = plain(value, limit)
    text = _SCHEME.sub(lambda m: m.group(1) + m.group(2) + ZWSP + ":", text)
    text = _WWW.sub(lambda m: m.group(1) + ZWSP + ".", text)
    text = _MENTION.sub("@" + ZWSP, text)
    text = _GH_REF.sub(lambda m: m.group(1) + ZWSP + "-", _HASH_REF.sub("#" + ZWSP, text))
    text = text.translate(_MD_TABLE)
    return _LEADING.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), text)


def code(value: object) -> str:
    """A rule code or target as a code span when it is a plain identifier, else escaped text."""
    text = str(value)
    return f"`{text}`" if _SAFE_CODE.fullmatch(text) else md(text)


def mermaid(value: object, limit: int = 40) -> str:
    """A Mermaid node or edge label: only characters that mean nothing to Mermaid or Markdown survive."""
    return _SAFE_MERMAID.sub("_", plain(value, limit)) or "_"


def url_path(path: str) -> str:
    """A repository path as a URL path: `(`, `)`, spaces and newlines can never end the link."""
    # A name that is not UTF-8 (lone surrogates) is percent-encoded as its own bytes.
    return quote(path, safe="/", errors="surrogateescape")


def urlpart(value: object) -> str:
    return quote(str(value), safe="")


def signed(value: int | None) -> str:
    return "–" if value is None else f"{value:+,}"


def number(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def percent(delta: int | None, base: int | None) -> str:
    if delta is None or not base:
        return "–"
    return f"{100 * delta / base:+.1f}%"


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tooldiff.render", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    filters: dict[str, Any] = {
        "md": md,
        "code": code,
        "mermaid": mermaid,
        "signed": signed,
        "number": number,
        "plural": plural,
        "urlpart": urlpart,
    }
    env.filters.update(filters)
    env.globals["percent"] = percent
    return env
