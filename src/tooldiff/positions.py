"""JSON pointer -> line, cheaply.

Tool lines come with the parse (`parsers.fastjson`). Any other pointer (a finding on a property) is found by
a structural walk of the text that descends only into containers on the pointer's path and skips every
sibling with the C scanner; `Locator` caches what it passes, so many findings in one file stay linear, and
`Locator.lines` answers a whole file's findings with one walk.
YAML: the composed node tree carries marks.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import Any

import yaml

Path = tuple[str, ...]
# (start offset of the key or value, start of the value, end of the value), all in characters.
Span = tuple[int, int, int]

WS = re.compile(r"[ \t\n\r]*")
_WS = WS
_DECODER = json.JSONDecoder()
_scan_value = _DECODER.scan_once  # type: ignore[attr-defined]
scan_string = json.decoder.scanstring  # type: ignore[attr-defined]
_scan_string = scan_string
# A key without escapes with its colon, and what follows a value: one regex call each instead of three.
_KEY = re.compile(r'"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*')
_AFTER = re.compile(r"[ \t\n\r]*([,}\]])[ \t\n\r]*")
# What follows a member's value when another plain member follows: comma, key, colon.
_NEXT_KEY = re.compile(r'[ \t\n\r]*,[ \t\n\r]*"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*')
# A property name JSON writes only as itself (or with \\u escapes): see `Locator._only_key`.
_PLAIN_KEY = re.compile(r'[^"\\/\x00-\x1f]+')
_STRING = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"', re.S)  # a JSON string; group 1 as written, escapes kept
KEY_INDEX_FROM = 32  # asked paths in one record above which its keys are indexed
# Trie marker: not a str, so no JSON key (tool text is hostile: "\u0000wanted" is a key) can collide.
_WANTED: Any = object()


def _scan_end(s: str, i: int) -> int:
    """The offset just past the JSON value at i (the C scanner decodes it; only its end is kept)."""
    end: int = _scan_value(s, i)[1]
    return end


def escape(token: str) -> str:
    if "~" not in token and "/" not in token:
        return token
    return token.replace("~", "~0").replace("/", "~1")


def to_pointer(path: Iterable[str]) -> str:
    return "".join(["/" + escape(t) for t in path])


def split_pointer(pointer: str) -> Path:
    if not pointer:
        return ()
    if "~" not in pointer:
        return tuple(pointer[1:].split("/"))
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))


def text_kind(path: str, text: str) -> str:
    """"json", "jsonl" or "yaml": by extension, else by the first character."""
    low = path.lower()
    if low.endswith((".yaml", ".yml")):
        return "yaml"
    if low.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if low.endswith(".json"):
        return "json"
    return "json" if text.lstrip()[:1] in ("{", "[") else "yaml"


def _trie(paths: Iterable[Path]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path in paths:
        node = root
        for token in path:
            node = node.setdefault(token, {})
        node[_WANTED] = True
    return root


class JsonSpans:
    """Spans of values in one JSON text (or one JSONL line: `base` is its offset in the file)."""

    def __init__(self, text: str, base: int = 0) -> None:
        self.text = text
        self.base = base

    def spans(self, paths: Iterable[Path], *, siblings: dict[Path, Span] | None = None) -> dict[Path, Span]:
        """Span of each path that exists. With `siblings`, also record every child passed on the way."""
        out: dict[Path, Span] = {}
        trie = _trie(paths)
        start = _WS.match(self.text, 0).end()  # type: ignore[union-attr]
        if start >= len(self.text):
            return out
        end = self._walk(start, trie, (), out, siblings)
        if _WANTED in trie:
            out[()] = (self.base + start, self.base + start, self.base + end)
        return out

    def _walk(
        self, i: int, trie: dict[str, Any], path: Path, out: dict[Path, Span], sib: dict[Path, Span] | None
    ) -> int:
        """Walk the value at offset i, recording wanted children; return the offset just past it."""
        s = self.text
        ch = s[i]
        if ch != "{" and ch != "[":
            return _scan_end(s, i)
        i = _WS.match(s, i + 1).end()  # type: ignore[union-attr]
        if ch == "[":
            return self._walk_list(i, trie, path, out, sib)
        if s[i] == "}":
            return i + 1
        base, get, scan, next_key = self.base, trie.get, _scan_value, _NEXT_KEY.match
        kstart = i
        key, i = self._key(i)
        end: int
        while True:
            sub = get(key)
            if sub is None:
                end = scan(s, i)[1]
            else:
                if len(sub) > 1 or _WANTED not in sub:
                    end = self._walk(i, sub, (*path, key), out, sib)
                else:
                    end = scan(s, i)[1]
                if _WANTED in sub:  # a duplicate key overwrites: last wins, as in json.loads
                    out[(*path, key)] = (base + kstart, base + i, base + end)
            if sib is not None:
                sib[(*path, key)] = (base + kstart, base + i, base + end)
            m = next_key(s, end)  # the comma, the next plain key and its colon: one match per member
            if m is not None:
                kstart, key, i = m.start(1) - 1, m.group(1), m.end()
                continue
            m = _AFTER.match(s, end)  # the closing brace, or a comma before a key with escapes
            if m is None:
                return int(_WS.match(s, end).end()) + 1  # type: ignore[union-attr]
            if m.group(1) != ",":
                return m.start(1) + 1
            kstart = m.end()
            key, i = self._key(kstart)

    def _key(self, i: int) -> tuple[str, int]:
        """The object key at offset i and the offset of its value."""
        s = self.text
        m = _KEY.match(s, i)  # a plain key, its colon and spaces in one match; escapes take the long way
        if m is not None:
            return m.group(1), m.end()
        key, i = _scan_string(s, i + 1)
        i = _WS.match(s, i).end()  # type: ignore[union-attr]
        return key, _WS.match(s, i + 1).end()  # type: ignore[union-attr]  # past ':'

    def _walk_list(
        self, i: int, trie: dict[str, Any], path: Path, out: dict[Path, Span], sib: dict[Path, Span] | None
    ) -> int:
        s = self.text
        if s[i] == "]":
            return i + 1
        base, get = self.base, trie.get
        index = 0
        while True:
            key = str(index)
            index += 1
            sub = get(key)
            if sub is None or (len(sub) == 1 and _WANTED in sub):
                end = _scan_end(s, i)
            else:
                end = self._walk(i, sub, (*path, key), out, sib)
            if sub is not None and _WANTED in sub:
                out[(*path, key)] = (base + i, base + i, base + end)
            if sib is not None:
                sib[(*path, key)] = (base + i, base + i, base + end)
            m = _AFTER.match(s, end)  # the separator or closing bracket, with the spaces around it
            if m is None:
                return int(_WS.match(s, end).end()) + 1  # type: ignore[union-attr]
            if m.group(1) != ",":
                return m.start(1) + 1
            i = m.end()


def _first_member(spans: JsonSpans, at: int, path: Path) -> int | None:
    """Where the key at `path` below the object at offset `at` starts, taking in each object the first
    member with that key: right only where no object on the path writes a key twice (the caller knows).
    Stops there. -1: the path is not there; None: this cannot tell (a list on the path, not JSON)."""
    s, get_key = spans.text, spans._key
    found = -1
    try:
        for token in path:
            i = _WS.match(s, at).end()  # type: ignore[union-attr]
            if s[i] != "{":
                return None
            i = _WS.match(s, i + 1).end()  # type: ignore[union-attr]
            if s[i] == "}":
                return -1
            while True:
                found = i
                key, at = get_key(i)
                if key == token:
                    break
                m = _AFTER.match(s, _scan_end(s, at))
                if m is None:
                    return None
                if m.group(1) != ",":
                    return -1
                i = m.end()
    except (ValueError, IndexError, RecursionError, StopIteration):
        return None
    return spans.base + found


def _spans_from(spans: JsonSpans, at: int, paths: list[Path]) -> dict[Path, Span]:
    """The spans of `paths` below the value at offset `at` (none where the text there is not JSON)."""
    out: dict[Path, Span] = {}
    try:
        spans._walk(at, _trie(paths), (), out, None)
    except (ValueError, IndexError, RecursionError, StopIteration):
        return {}
    return out


class LineIndex:
    """Offset -> 1-based line. Built lazily; `lines()` converts many offsets with one linear count."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._newlines: list[int] | None = None
        self._quirky: bool | None = None

    @property
    def quirky(self) -> bool:
        """Whether the text holds line breaks PyYAML counts and `\n` does not (U+2028, U+2029, U+0085, a
        lone CR): its marks' lines are then not the file's lines."""
        if self._quirky is None:
            t = self._text
            self._quirky = any(c in t for c in "\u2028\u2029\x85") or t.count("\r") != t.count("\r\n")
        return self._quirky

    def last_line(self, end: int) -> int:
        """The line of the last character before offset `end` that is not a space or a line break (a block
        scalar's end takes in the blank lines after it)."""
        text, at = self._text, end
        while at > 0:  # back in chunks: a slice of the whole text per record would grow with its square
            start = max(0, at - 256)
            kept = len(text[start:at].rstrip(" \t\r\n"))
            if kept:
                return self.line(start + kept - 1)
            at = start
        return 1

    def line(self, offset: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self._text)]
        return bisect_left(self._newlines, offset) + 1

    def lines(self, offsets: list[int]) -> dict[int, int]:
        """Line of each offset: sorted, then counted in C between neighbours (no per-newline Python work)."""
        out: dict[int, int] = {}
        line, previous = 1, 0
        count = self._text.count
        for offset in sorted(offsets):  # already in order nearly always: timsort makes that linear
            line += count("\n", previous, offset)
            out[offset] = line
            previous = offset
        return out


BOOL_TAG = "tag:yaml.org,2002:bool"
_TRUE_WORDS = frozenset(["true", "yes", "on"])  # PyYAML's YAML 1.1 booleans, lower-cased


def yaml_bool(word: str) -> str:
    """What a YAML 1.1 boolean word (yes, Off, ...) reads as, in JSON: "true" or "false"."""
    return "true" if word.lower() in _TRUE_WORDS else "false"


_NUMBER_TAGS = {
    "tag:yaml.org,2002:int": yaml.constructor.SafeConstructor.construct_yaml_int,
    "tag:yaml.org,2002:float": yaml.constructor.SafeConstructor.construct_yaml_float,
}
_SCALARS = yaml.constructor.SafeConstructor()


def key_token(key: yaml.ScalarNode) -> str:
    """The JSON key a YAML key becomes: a plain `on:` is the boolean true in YAML 1.1, so "true"; `0x1F:` is
    the integer 31, so "31"; `~:` is null, so "null" (as the loader's keys are made strings)."""
    return _loaded_key(key)[1]


def _loaded_key(key: yaml.ScalarNode) -> tuple[Any, str]:
    """(the key as a Python dict compares it: a bool or a number by value, anything else by its spelling;
    the JSON key it becomes)."""
    if key.tag == BOOL_TAG:
        token = yaml_bool(key.value)
        return token == "true", token
    number = _NUMBER_TAGS.get(key.tag)
    if number is not None:
        try:
            value = number(_SCALARS, key)
        except (ValueError, OverflowError):
            return str(key.value), str(key.value)
        try:
            token = str(value)
        except ValueError:  # an integer past Python's 4,300 digits of text, written in hex or base 60
            raise yaml.constructor.ConstructorError(
                None, None, "an integer key too long for a JSON number", key.start_mark) from None
        return (value if value == value else token), token  # NaN equals nothing, not even itself
    token = "null" if key.tag == "tag:yaml.org,2002:null" else str(key.value)
    return token, token


def loaded_keys(mapping: yaml.MappingNode) -> list[str | None]:
    """`key_token` of each key of the mapping as the loaded dict spells it: keys Python holds equal (`true`,
    `1` and `1.0`) are one key, spelled as the first of them, as a dict keeps its first key. None for `<<`
    and keys that are not scalars."""
    first: dict[Any, str] = {}
    out: list[str | None] = []
    for k, _ in mapping.value:
        if not isinstance(k, yaml.ScalarNode) or k.tag == MERGE_TAG:
            out.append(None)
            continue
        value, token = _loaded_key(k)
        out.append(first.setdefault(value, token))
    return out


# A mapping's keys as loaded -> (key node, value node), the last written winning, and the mappings merged
# in by `<<`; by the mapping's id, for as long as its tree lives (`Locator` keeps one per file).
KeyIndex = dict[int, tuple[dict[str, tuple[yaml.Node, yaml.Node]], list[yaml.Node]]]


def yaml_node(root: yaml.Node, path: Sequence[str],
              index: KeyIndex | None = None) -> tuple[yaml.Node | None, yaml.Node | None]:
    """The node at `path` and the key node that names it (None for list items and the root). `index`: where
    the keys of the mappings read are kept, for many lookups in one tree."""
    node: yaml.Node = root
    key_node: yaml.Node | None = None
    for token in path:
        if isinstance(node, yaml.MappingNode):
            found = _key_in(node, token, index=index)
            if found is None:
                return None, None
            key_node, node = found
        elif isinstance(node, yaml.SequenceNode) and token.isdigit() and int(token) < len(node.value):
            key_node, node = None, node.value[int(token)]
        else:
            return None, None
    return node, key_node


MERGE_TAG = "tag:yaml.org,2002:merge"


def _keys_of(mapping: yaml.MappingNode) -> tuple[dict[str, tuple[yaml.Node, yaml.Node]], list[yaml.Node]]:
    """A mapping's entry of `KeyIndex`."""
    own: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    merged: list[yaml.Node] = []
    for (k, v), loaded in zip(mapping.value, loaded_keys(mapping), strict=True):
        if k.tag == MERGE_TAG:
            merged.extend(v.value if isinstance(v, yaml.SequenceNode) else [v])
        elif loaded is not None:
            own[loaded] = (k, v)
    return own, merged


def _key_in(mapping: yaml.MappingNode, token: str, depth: int = 0,
            index: KeyIndex | None = None) -> tuple[yaml.Node, yaml.Node] | None:
    """(key, value) of `token` in a mapping: written there (the last wins, as in construction), else merged
    in by `<<: *anchor` (the first merged mapping that has it wins, as in construction)."""
    if index is None:
        own, merged = _keys_of(mapping)
    else:  # read once: a finding per property of a 8,000-key mapping read it 8,000 times
        own, merged = index.get(id(mapping)) or index.setdefault(id(mapping), _keys_of(mapping))
    found = own.get(token)
    if found is not None or depth > 20:  # merge chains are short; a loader refuses cycles before this
        return found
    for m in merged:
        if isinstance(m, yaml.MappingNode) and (inner := _key_in(m, token, depth + 1, index)) is not None:
            return inner
    return None


def mark_line(mark: yaml.Mark, index: LineIndex | None) -> int:
    """The file line of a PyYAML mark. PyYAML's own line counts U+2028, U+2029, NEL and a lone CR as breaks;
    where the text holds one (`LineIndex.quirky`), the mark's offset is counted by `\n` instead."""
    if index is not None and index.quirky:
        return index.line(mark.index)
    return int(mark.line) + 1


# Where aliases are written, which a composed node does not say (an alias's node is the anchored one): the
# slot an alias fills, (id of a sequence, item index) or (id of a mapping key, VALUE) for that key's value,
# or (id of a mapping, MERGED) for its `<<: *base` -> (start, end) offsets of its `*name`.
AliasSlot = tuple[int, int]
AliasSites = dict[AliasSlot, tuple[int, int]]
VALUE = -1
MERGED = -2


def yaml_lines(node: yaml.Node, key: yaml.Node | None, index: LineIndex,
               site: tuple[int, int] | None = None, aliases: AliasSites | None = None) -> tuple[int, int]:
    """(first line, last line) of a node, lines counted by `\n` (see `mark_line`). `site`: the alias the
    node is written as here, whose line it is; `aliases`: the document's (see `AliasSites`)."""
    if site is not None:
        line = index.line(site[0])
        return line, line
    start = mark_line((key or node).start_mark, index)
    return start, max(start, index.last_line(_yaml_end(node, aliases or {})))


def _yaml_end(node: yaml.Node, aliases: AliasSites) -> int:
    """The offset just past a node's last token. A block collection's own end mark sits on the token after
    it, past blank lines and comments: its last child's end is taken instead. An alias child ends at its
    `*name` (its node is the anchored one, written before), and a `<<: *base` may be written last."""
    end = 0
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value and not node.flow_style:
        if isinstance(node, yaml.MappingNode):
            end = max(end, aliases.get((id(node), MERGED), (0, 0))[1])
            key, node = node.value[-1]
            slot = (id(key), VALUE)
        else:
            slot = (id(node), len(node.value) - 1)
            node = node.value[-1]
        site = aliases.get(slot)
        if site is not None:
            return max(end, site[1])
    return max(end, node.end_mark.index)


class Locator:
    """Lines of absolute pointers in one file, computed lazily and cached (for findings on properties)."""

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self._data = data
        self._ready = False
        self._cache: dict[str, int | None] = {}
        self._siblings: dict[Path, Span] = {}

    def _prepare(self) -> None:
        self._ready = True
        self._text = self._data.decode("utf-8-sig", errors="replace")
        self._kind = text_kind(self.path, self._text)
        self._index = LineIndex(self._text)
        self._yaml: yaml.Node | None = None
        self._yaml_keys: KeyIndex = {}
        if self._kind == "yaml":
            docs: list[yaml.Node] = []
            broken = False
            try:
                docs.extend(yaml.compose_all(self._text, Loader=yaml.CSafeLoader))
            except (yaml.YAMLError, RecursionError):
                broken = True  # the documents before the broken one are read, as `load_yaml` reads them
            # Several documents (or some before a broken one) are addressed like JSONL lines: /<index>/...
            if len(docs) == 1 and not broken:
                self._yaml = docs[0]
            elif docs:
                self._yaml = yaml.SequenceNode("tag:yaml.org,2002:seq", docs)
        elif self._kind == "json":
            self._spans = JsonSpans(self._text)
        else:
            self._line_starts = [0, *(m.end() for m in re.finditer("\n", self._text))]

    def line(self, pointer: str) -> int | None:
        if pointer in self._cache:
            return self._cache[pointer]
        if not self._ready:
            self._prepare()
        try:
            result = self._find(split_pointer(pointer))
        except (ValueError, IndexError, RecursionError, StopIteration):
            result = None
        self._cache[pointer] = result
        return result

    def lines(self, pointers: Iterable[str]) -> dict[str, int | None]:
        """`line` of many pointers at once: for JSON, one walk of the file and one count of its newlines."""
        todo = [p for p in dict.fromkeys(pointers) if p not in self._cache]
        if todo:
            if not self._ready:
                self._prepare()
            if self._kind == "json" and len(todo) > 1:
                self._batch(todo)
            elif self._kind == "jsonl" and len(todo) > 1:
                self._batch_lines(todo)
            for pointer in todo:
                if pointer not in self._cache:
                    self.line(pointer)
        return {p: self._cache[p] for p in pointers}

    def walks_records(self) -> bool:
        """Whether `lines_in_records` answers here (JSON; JSONL lines and YAML go through `lines`)."""
        if not self._ready:
            self._prepare()
        return self._kind == "json"

    def lines_in_records(
        self, records: dict[tuple[int, int], list[tuple[int, Path, bool, bool]]]
    ) -> dict[int, int]:
        """JSON only: for each record's (start, end) offsets, the (key, path inside the record, whether the
        parsed record has that path, whether no object in the record writes a key twice) asked there -> the
        line of that path, walking each record alone. Keys whose path is not there are left out.

        A path the parse has, through a property whose name is a key only once in the record, is walked
        from that key (`_only_key`): most findings are on properties, and this skips the rest of the
        record. A path in a record with no key written twice is read member by member until it is found
        (`_first_member`): a record's name or description costs a few members, not the whole record."""
        if not self.walks_records():
            return {}
        spans = JsonSpans(self._text)
        starts: dict[int, int] = {}
        for (start, end), asked in records.items():
            rest = []
            plain = start < end and self._text.find("\\u", start, end) < 0  # no key can be spelt otherwise
            # Many findings in one record (a tool of 20,000 undescribed properties): its keys are indexed in
            # one pass, as a search of the record per finding grew with the square of the record.
            keys = self._keys(start, end) if plain and len(asked) > KEY_INDEX_FROM else None
            # The paths asked below each such key, walked together: a walk per finding grew with their
            # count times the key's value (3,000 findings in 300 `anyOf` branches under one property).
            below: dict[int, list[tuple[int, Path]]] = {}
            for key, path, there, first in asked:
                if first:
                    at = _first_member(spans, start, path)
                    if at is None:
                        rest.append((key, path))
                    elif at >= 0:
                        starts[key] = at
                    continue
                only = self._only_key(start, end, path, keys) if plain and there else None
                if only is None:
                    rest.append((key, path))
                    continue
                kstart, vstart, tail = only
                if not tail:
                    starts[key] = kstart
                else:
                    below.setdefault(vstart, []).append((key, tail))
            for vstart, tails in below.items():
                found = _spans_from(spans, vstart, [tail for _, tail in tails])
                for key, tail in tails:
                    if tail in found:
                        starts[key] = found[tail][0]
            if not rest:
                continue
            found = _spans_from(spans, start, [path for _, path in rest])
            for key, path in rest:
                if path in found:
                    starts[key] = found[path][0]
        lines = self._index.lines(list(starts.values()))
        return {key: lines[offset] for key, offset in starts.items()}

    def _keys(self, start: int, end: int) -> dict[str, list[tuple[int, int]]]:
        """Every key of text[start:end] -> where it and its value start, up to two of each (as `_only_key`
        needs): the strings read in order, so a quote inside a string is never taken for one that opens."""
        text, out = self._text, dict[str, list[tuple[int, int]]]()
        for m in _STRING.finditer(text, start, end):
            colon = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
            if text.startswith(":", colon):
                seen = out.setdefault(m.group(1), [])
                if len(seen) < 2:
                    seen.append((m.start(), _WS.match(text, colon + 1).end()))  # type: ignore[union-attr]
        return out

    def _only_key(self, start: int, end: int, path: Path,
                  index: dict[str, list[tuple[int, int]]] | None = None) -> tuple[int, int, Path] | None:
        """The deepest property name on `path` that is a key exactly once in text[start:end]: where that
        key and its value start, and the path below it. The text holds no \\u escape (the caller checks),
        and the name no character JSON may escape otherwise, so that one occurrence is the property on the
        path (which the caller knows the parse has), whatever else the record holds: no walk to it."""
        text = self._text
        for i in range(len(path) - 1, 0, -1):
            name = path[i]
            if path[i - 1] != "properties" or name.isdigit() or not _PLAIN_KEY.fullmatch(name):
                continue
            if index is not None:
                found = index.get(name, [])
                if len(found) == 1:
                    return found[0][0], found[0][1], path[i + 1 :]
                continue
            quoted = f'"{name}"'
            keys: list[tuple[int, int]] = []  # up to two occurrences followed by a colon
            at = text.find(quoted, start, end)
            while at >= 0 and len(keys) < 2:
                colon = _WS.match(text, at + len(quoted)).end()  # type: ignore[union-attr]
                if text.startswith(":", colon):
                    keys.append((at, _WS.match(text, colon + 1).end()))  # type: ignore[union-attr]
                at = text.find(quoted, at + 1, end)
            if len(keys) == 1:  # twice: only a walk can tell which is on the path
                return keys[0][0], keys[0][1], path[i + 1 :]
        return None

    def _batch(self, pointers: list[str]) -> None:
        paths = {p: split_pointer(p) for p in pointers}
        try:
            spans = self._spans.spans(paths.values())
        except (ValueError, IndexError, RecursionError, StopIteration):
            return  # `line` finds them one by one and caches the failures
        found = self._index.lines([span[0] for span in spans.values()])
        for pointer, path in paths.items():
            span = spans.get(path)
            self._cache[pointer] = None if span is None else found[span[0]]

    def _batch_lines(self, pointers: list[str]) -> None:
        """JSONL: the pointers into each line in one walk of it (a walk per pointer grew with their count
        times the line: a tool of 8,000 undescribed properties on one line)."""
        by_line: dict[int, list[tuple[str, Path]]] = {}
        for pointer in pointers:
            path = split_pointer(pointer)
            if (n := self._jsonl_line(path)) is not None:
                by_line.setdefault(n, []).append((pointer, path[1:]))
        for n, asked in by_line.items():
            try:
                found = self._line_spans(n).spans([path for _, path in asked])
            except (ValueError, IndexError, RecursionError, StopIteration):
                continue  # `line` finds them one by one and caches the failures
            for pointer, path in asked:
                self._cache[pointer] = self.line_of(found.get(path))

    def _jsonl_line(self, path: Path) -> int | None:
        """The JSONL line (from 0) a path starts with, if the file has it."""
        return int(path[0]) if path and path[0].isdigit() and int(path[0]) < len(self._line_starts) else None

    def _line_spans(self, n: int) -> JsonSpans:
        start = self._line_starts[n]
        end = self._text.find("\n", start)
        return JsonSpans(self._text[start : end if end >= 0 else len(self._text)], start)

    def _find(self, path: Path) -> int | None:
        if self._kind == "yaml":
            if self._yaml is None:
                return None
            node, key = yaml_node(self._yaml, path, self._yaml_keys)
            return None if node is None else mark_line((key or node).start_mark, self._index)
        if self._kind == "jsonl":
            n = self._jsonl_line(path)
            return None if n is None else self.line_of(self._line_spans(n).spans([path[1:]]).get(path[1:]))
        # Start from the deepest ancestor already seen, so findings across a big file stay linear.
        for cut in range(len(path), 0, -1):
            known = self._siblings.get(path[:cut])
            if known is not None:
                if cut == len(path):
                    return self._index.line(known[0])
                out: dict[Path, Span] = {}
                self._spans._walk(known[1], _trie([path[cut:]]), path[:cut], out, self._siblings)
                return self.line_of(out.get(path))
        found = self._spans.spans([path], siblings=self._siblings).get(path)
        return self.line_of(found)

    def line_of(self, span: Span | None) -> int | None:
        return None if span is None else self._index.line(span[0])

