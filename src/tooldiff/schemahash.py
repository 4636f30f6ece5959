"""RFC 8785 (JCS) canonical JSON and the schemaHash of a tool.

`schema_hash` is the first 16 hex digits of SHA-256 over the canonical JSON of
`{"name", "description", "input_schema"}`, whatever the source format, so reordering keys, reformatting or
moving between JSON and YAML leaves it unchanged (issue 2, seed 002).

Speed: `json.dumps(sort_keys=True, ensure_ascii=False)` already writes JCS strings and key order, so it is
the fast path. It differs from JCS only on floats, integers beyond 2**53 and keys outside the BMP (UTF-16
ordering); a cheap scan of its output sends those rare documents through the full serializer below.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from decimal import Decimal
from typing import Any

from tooldiff.model import Tool

# A string token; unrolled (`a*(ba*)*`, not `(a|b)*`) so `re` takes a run of plain characters in one step.
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
# After strings are removed: a float (repr always has '.', 'e', inf or nan) or a long integer.
_NEEDS_SLOW = re.compile(r"\d[.eE]|Infinity|NaN|\d{16}")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
# Cheap superset of _NEEDS_SLOW for compact output: a number token starts right after ':', '[' or ','.
# Only on a hit (1% of tools) are strings stripped for the exact test, which costs more than the dump.
# One pattern per opener: a literal first character lets `re` skip ahead, three times faster than a class.
_AFTER_COLON, _AFTER_COMMA, _AFTER_BRACKET = (
    re.compile(f"{opener}-?(?:\\d+[.eE]|\\d{{16}}|Infinity)|{opener}NaN").search
    for opener in (":", ",", r"\[")
)
# Cheaper still, and looser: the first character of a number token (digit, '-', Infinity, NaN) after an
# opener. Most schemas with a digit have it only in their text (four in five of those in the 20k corpus).
_TOKEN_AFTER_COLON, _TOKEN_AFTER_COMMA, _TOKEN_AFTER_BRACKET = (
    re.compile(f"{opener}[-\\dIN]").search for opener in (":", ",", r"\[")
)
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_MUST_ESCAPE = re.compile(r'["\\\x00-\x1f]')


# One encoder for every call: json.dumps with options builds a new one each time.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True)
# json's C string encoder escapes exactly what JCS escapes, as JCS does (short forms, else lower-case \u00xx).
_json_string = json.encoder.encode_basestring


def _no_default(value: Any) -> Any:
    raise TypeError(type(value).__name__)


# `_ENCODER.encode` builds its C encoder anew on every call; this is that C encoder, built once.
_MARKERS: dict[int, Any] = {}  # its circular-reference check
_C_ENCODE = json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    _MARKERS, _no_default, _json_string, None, ":", ",", True, False, True
) if json.encoder.c_make_encoder is not None else None  # type: ignore[attr-defined]


def _encode(value: Any) -> str:
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    try:
        return "".join(_C_ENCODE(value, 0))
    except BaseException:
        _MARKERS.clear()  # an interrupted walk leaves its ids behind
        raise


def _may_need_slow(text: str) -> bool:
    """A cheap superset of `_NEEDS_SLOW` on compact output, tested from the cheapest filter up: three
    schemas in four (20k corpus) hold no digit, `Infinity` nor `NaN`, and a few C substring tests say so."""
    if not (
        "0" in text or "1" in text or "2" in text or "3" in text or "4" in text or "5" in text
        or "6" in text or "7" in text or "8" in text or "9" in text or "Infinity" in text or "NaN" in text
    ):
        return False
    # Three calls, not a generator over the patterns: this runs once per tool.
    if not (_TOKEN_AFTER_COLON(text) or _TOKEN_AFTER_COMMA(text) or _TOKEN_AFTER_BRACKET(text)):
        return False
    return bool(_AFTER_COLON(text) or _AFTER_COMMA(text) or _AFTER_BRACKET(text))


def _fast(value: Any) -> str | None:
    try:
        out = _encode(value)
    except (TypeError, ValueError, RecursionError):
        return None
    maybe = out[:1] not in ("{", "[", '"') or _may_need_slow(out)
    if maybe and _NEEDS_SLOW.search(_STRINGS.sub("", out)):
        return None
    if not out.isascii() and _ASTRAL.search(out):
        return None
    return out


def number(value: float | int) -> str:
    """ECMAScript Number.prototype.toString, as RFC 8785 section 3.2.2.3 requires."""
    if isinstance(value, int) and abs(value) < 2**53:
        return str(value)
    try:
        x = float(value)
    except OverflowError:  # an integer literal past the double range: JSON.parse reads it as ±Infinity
        x = math.inf if value > 0 else -math.inf
    if not math.isfinite(x):
        raise ValueError(f"{x!r} is not allowed in canonical JSON")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr gives the shortest round-tripping digits, as ECMAScript's algorithm also requires.
    _, digit_tuple, exponent = Decimal(repr(abs(x))).as_tuple()
    digits = "".join(map(str, digit_tuple)).lstrip("0")
    stripped = digits.rstrip("0")
    exponent = int(exponent) + len(digits) - len(stripped)
    digits = stripped
    # value = digits * 10**exponent; n is where the decimal point falls within `digits`.
    n = len(digits) + exponent
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        exp = ("e+" if e >= 0 else "e-") + str(abs(e))
        body = (digits[0] + ("." + digits[1:] if k > 1 else "")) + exp
    return sign + body


def _string(s: str) -> str:
    def esc(m: re.Match[str]) -> str:
        c = m.group(0)
        return _ESCAPES.get(c) or f"\\u{ord(c):04x}"

    return '"' + _MUST_ESCAPE.sub(esc, s) + '"'


def _utf16_key(s: str) -> bytes:
    return s.encode("utf-16-be", "surrogatepass")


def _slow(value: Any) -> str:
    """Full JCS serializer, iterative so deep documents cannot blow the stack."""
    out: list[str] = []
    # Work items: a value to write, or a literal string to emit.
    work: list[tuple[bool, Any]] = [(False, value)]
    while work:
        literal, item = work.pop()
        if literal:
            out.append(item)
        elif item is None:
            out.append("null")
        elif item is True:
            out.append("true")
        elif item is False:
            out.append("false")
        elif isinstance(item, str):
            out.append(_string(item))
        elif isinstance(item, int | float):
            out.append(number(item))
        elif isinstance(item, dict):
            pairs = sorted(
                (((k if isinstance(k, str) else str(k)), v) for k, v in item.items()),
                key=lambda kv: _utf16_key(kv[0]),
            )
            todo: list[tuple[bool, Any]] = [(True, "{")]
            for i, (k, v) in enumerate(pairs):
                todo.append((True, ("," if i else "") + _string(k) + ":"))
                todo.append((False, v))
            todo.append((True, "}"))
            work.extend(reversed(todo))
        elif isinstance(item, list | tuple):
            todo = [(True, "[")]
            for i, v in enumerate(item):
                if i:
                    todo.append((True, ","))
                todo.append((False, v))
            todo.append((True, "]"))
            work.extend(reversed(todo))
        else:
            # YAML dates and other non-JSON scalars: their text is what the author wrote.
            out.append(_string(str(item)))
    return "".join(out)


def canonical_json(value: Any) -> str:
    """RFC 8785 canonical JSON text. Raises ValueError on NaN or infinity, which JSON cannot hold."""
    return _fast(value) or _slow(value)


def lenient_json(value: Any) -> str:
    """`canonical_json`, with NaN and infinity (YAML `.nan`, `.inf`) as their text rather than an error."""
    try:
        return canonical_json(value)
    except ValueError:
        # Non-finite numbers (YAML .nan) must not crash a review; hash their text instead.
        return _slow(json.loads(json.dumps(value, default=str), parse_constant=str, parse_int=_lenient_int))


def _lenient_int(text: str) -> int | str:
    """An integer past the double range is ±Infinity to JCS: hashed as that text, like a float infinity."""
    n = int(text)
    try:
        float(n)
    except OverflowError:
        return "Infinity" if n > 0 else "-Infinity"
    return n


_LAST: list[Any] = [None, ""]


def schema_json(schema: Any) -> str:
    """Canonical JSON of one input schema; the last result is kept since tokens and hash both want it."""
    if _LAST[0] is schema and schema is not None:
        return str(_LAST[1])
    text = _fast(schema) or lenient_json(schema)  # the fast path first: one call, not three, per tool
    _LAST[0], _LAST[1] = schema, text
    return text


def tool_json(tool: Tool) -> str:
    """Canonical JSON of {"description", "input_schema", "name"} (keys already in JCS order)."""
    return "".join((
        '{"description":',
        _json_string(tool.description),
        ',"input_schema":',
        schema_json(tool.input_schema),
        ',"name":',
        _json_string(tool.name),
        "}",
    ))


def schema_hash(tool: Tool) -> str:
    data = tool_json(tool).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]
