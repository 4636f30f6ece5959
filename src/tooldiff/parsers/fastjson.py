"""`json.loads` with line numbers of list items, in one pass (see `FastJson`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tooldiff.parsers import repeats
from tooldiff.positions import WS as _WS
from tooldiff.positions import Path, scan_string

# Objects as their (key, value) pairs, repeats kept: what a key written twice needs to be counted.
_AS_PAIRS = json.JSONDecoder(object_pairs_hook=lambda pairs: pairs)


class FastJson:
    """`json.loads` that also gives the lines of every list item near the top of the document.

    Lists (and objects that are not list items) down to `max_depth` are walked here, so their items'
    offsets are known; everything else is parsed by the C scanner in one piece. A list item that is an
    object is scanned whole and only walked again when `descend(value)` asks for it (a wrapper, not a
    record), so a file of records is parsed once. Errors are left to `json.loads` for its messages.
    `items[path of a list]` holds (first line, last line) of each item, in order: lines are counted as the
    walk moves forward, so every character is counted once, in C.
    """

    def __init__(self, text: str, descend: Callable[[Any], bool], max_depth: int, decoder: json.JSONDecoder):
        self.text = text
        self.descend = descend
        self.max_depth = max_depth
        self.scan = decoder.scan_once  # type: ignore[attr-defined]
        self.items: dict[Path, list[tuple[int, int]]] = {}
        # (start, end) offsets of each of those items, in the same order: where its text starts and ends
        self.spans: dict[Path, list[tuple[int, int]]] = {}
        self.root: tuple[int, int] = (1, 1)
        self.root_span = (0, 0)
        self._pos = 0
        self._line = 1

    def _line_at(self, i: int) -> int:
        """Line of offset i; offsets asked for never go backwards."""
        self._line += self.text.count("\n", self._pos, i)
        self._pos = i
        return self._line

    def parse(self) -> Any:
        s = self.text
        i = _WS.match(s, 0).end()  # type: ignore[union-attr]
        first = self._line_at(i)
        value, end = self._value(i, (), 0)
        self.root_span = (i, end)
        self.root = (first, self._line_at(end - 1))
        if _WS.match(s, end).end() != len(s):  # type: ignore[union-attr]
            raise ValueError("extra data")
        return value

    def lines(self, path: Path) -> tuple[int, int] | None:
        if not path:
            return self.root
        items = self.items.get(path[:-1])
        token = path[-1]
        if items is None or not token.isdigit() or int(token) >= len(items):
            return None
        return items[int(token)]

    def _value(self, i: int, path: Path, depth: int) -> tuple[Any, int]:
        s = self.text
        ch = s[i]
        if depth >= self.max_depth or (ch != "[" and ch != "{"):
            return self.scan(s, i)  # type: ignore[no-any-return]
        ws = _WS.match
        start = i
        i = ws(s, i + 1).end()  # type: ignore[union-attr]
        if ch == "[":
            out: list[Any] = []
            lines: list[tuple[int, int]] = []
            spans: list[tuple[int, int]] = []
            self.items[path] = lines
            self.spans[path] = spans
            if s[i] == "]":
                return out, i + 1
            scan, descend, deeper, line_at = self.scan, self.descend, depth + 1, self._line_at
            count = s.count
            while True:
                if s[i] == "{":
                    value, end = scan(s, i)
                    if descend(value):
                        first = line_at(i)
                        value, end = self._value(i, (*path, str(len(out))), deeper)
                        last = line_at(end - 1)
                    else:  # the common case, a record: line_at inlined (s[end - 1] is "}", never a newline)
                        first = self._line + count("\n", self._pos, i)
                        last = first + count("\n", i, end)
                        self._line, self._pos = last, end
                else:
                    first = line_at(i)
                    value, end = self._value(i, (*path, str(len(out))), deeper)
                    last = line_at(end - 1)
                lines.append((first, last))
                spans.append((i, end))
                out.append(value)
                i = ws(s, end).end()  # type: ignore[union-attr]
                if s[i] == ",":
                    i = ws(s, i + 1).end()  # type: ignore[union-attr]
                    continue
                if s[i] != "]":
                    raise ValueError("expected ]")
                return out, i + 1
        obj: dict[str, Any] = {}
        if s[i] == "}":
            return obj, i + 1
        written = 0
        while True:
            if s[i] != '"':
                raise ValueError("expected a key")
            k, i = scan_string(s, i + 1)
            i = ws(s, i).end()  # type: ignore[union-attr]
            if s[i] != ":":
                raise ValueError("expected :")
            i = ws(s, i + 1).end()  # type: ignore[union-attr]
            obj[k], end = self._value(i, (*path, k), depth + 1)
            written += 1
            i = ws(s, end).end()  # type: ignore[union-attr]
            if s[i] == ",":
                i = ws(s, i + 1).end()  # type: ignore[union-attr]
                continue
            if s[i] != "}":
                raise ValueError("expected }")
            if written != len(obj):  # a key written twice: json keeps the last, and so do we
                keys = [k for k, _ in _AS_PAIRS.scan_once(s, start)[0]]  # type: ignore[attr-defined]
                repeats.note(obj, keys)
            return obj, i + 1
