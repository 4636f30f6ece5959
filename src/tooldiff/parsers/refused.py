"""Where a value that parses but is refused sits, for the error's line. Only called once a file has failed,
so a pass over its text costs nothing on good files."""

from __future__ import annotations

import re
import sys

from tooldiff.positions import LineIndex

# Python refuses int() of longer digit strings (0: no limit).
INT_DIGITS = sys.get_int_max_str_digits()
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
# Outside strings: the constants JSON lacks, and an integer (no fraction, no exponent) over the limit.
_LONG_INT = rf"|(?<![\d.eE+-])-?\d{{{INT_DIGITS + 1},}}(?![\d.eE])" if INT_DIGITS else ""
_REFUSED = re.compile(rf"{_STRING}|(-?Infinity|NaN{_LONG_INT})")


def refused_json_line(text: str) -> int:
    """Line of the first NaN, Infinity or over-long integer in a JSON text (1 if none is found)."""
    for match in _REFUSED.finditer(text):
        if match.group(1) is not None:
            return LineIndex(text).line(match.start())
    return 1


def lone_surrogate_line(text: str) -> int:
    """Line of the first `\\uD8xx`-style escape that is not half of a pair (a high one not followed at once
    by a low one, or a low one alone)."""
    pending = -1  # a high escape waiting for its low half
    first = -1
    for match in SURROGATE_ESCAPE.finditer(text):
        start = match.start()
        lead = start
        while lead > 0 and text[lead - 1] == "\\":
            lead -= 1
        if (start - lead) % 2:
            continue  # `\\ud800`: an escaped backslash, then text
        first = start if first < 0 else first
        high = match.group()[3] in "89abAB"
        if pending >= 0:
            if not high and start == pending + 6:
                pending = -1
                continue
            return LineIndex(text).line(pending)
        if not high:
            return LineIndex(text).line(start)
        pending = start
    return LineIndex(text).line(pending if pending >= 0 else first)
