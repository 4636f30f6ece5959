"""Bytes -> documents: UTF-8 text, then JSON, JSONL or YAML values with a way back to lines.

Every failure is a `LoadError` carrying the best line we can give; `parse_bytes` turns it into a ParseError.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from tooldiff.parsers import repeats
from tooldiff.parsers.detect import Found
from tooldiff.parsers.fastjson import FastJson
from tooldiff.parsers.refused import SURROGATE_ESCAPE, lone_surrogate_line, refused_json_line
from tooldiff.positions import (
    MERGE_TAG,
    MERGED,
    VALUE,
    AliasSites,
    AliasSlot,
    JsonSpans,
    LineIndex,
    Path,
    loaded_keys,
    mark_line,
    text_kind,
    yaml_lines,
    yaml_node,
)

FAST_DEPTH = 8
# Expanded YAML size (nodes, counting every alias expansion) beyond which aliases are a bomb.
YAML_MAX_EXPANDED = 100_000
YAML_MAX_EXPANDED_CHARS = 20_000_000  # text: a 400 KB string aliased 2,000 times is 800 MB
YAML_ALIAS_RATIO = 10
YAML_MAX_DEPTH = 500


class LoadError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = max(1, line)
        self.message = message


_UNKNOWN = (-1, -1)


@dataclass(slots=True)
class Document:
    """One parsed value; `prefix` is its pointer in the file (a JSONL line is `/<line index>`)."""

    value: Any
    prefix: Path
    kind: str
    text: str = ""
    base: int = 0
    line_no: int = 0  # JSONL: every position in the document is on this line
    node: yaml.Node | None = None
    fast: FastJson | None = None
    repeated: tuple[repeats.Repeat, ...] = ()  # keys written twice in one object (see `parsers.repeats`)
    aliases: AliasSites | None = None  # YAML: where its aliases are written (None: it has none)

    def item_lines(self, found: Sequence[Found], index: LineIndex) -> list[tuple[int, int]]:
        """(first line, last line) of each found record, in order."""
        if self.kind == "jsonl":
            return [(self.line_no, self.line_no)] * len(found)
        if self.kind == "yaml":
            assert self.node is not None
            out: list[tuple[int, int]] = []
            for hit in found:
                node, key = yaml_node(self.node, hit.path)
                site = self._alias_site(hit.path, key) if self.aliases else None
                out.append((1, 1) if node is None else yaml_lines(node, None, index, site, self.aliases))
            return out
        return self._json_lines(found, index)

    def _alias_site(self, path: Path, key: yaml.Node | None) -> tuple[int, int] | None:
        """Where the record at `path` is written as an alias (`- *search`), if it is."""
        assert self.aliases is not None
        if key is not None:
            return self.aliases.get((id(key), VALUE))
        if not path:
            return None
        parent, _ = yaml_node(self.node, path[:-1]) if self.node is not None else (None, None)
        return self.aliases.get((id(parent), int(path[-1]))) if parent is not None else None

    def item_offsets(self, found: Sequence[Found]) -> list[tuple[int, int]]:
        """Where each found record starts and ends in the text, where the fast JSON parse saw it; else
        (-1, -1)."""
        if self.kind != "json" or self.fast is None:
            return [_UNKNOWN] * len(found)
        out: list[tuple[int, int]] = []
        for hit in found:
            if hit.at < 0:
                out.append(self.fast.root_span if not hit.parent else _UNKNOWN)
                continue
            spans = self.fast.spans.get(hit.parent)
            out.append(spans[hit.at] if spans is not None and hit.at < len(spans) else _UNKNOWN)
        return out

    def _json_lines(self, found: Sequence[Found], index: LineIndex) -> list[tuple[int, int]]:
        known = self.fast.items if self.fast is not None else {}
        lines: list[tuple[int, int] | None] = []
        last_parent: Path | None = None
        items: list[tuple[int, int]] | None = None
        for hit in found:
            if hit.at < 0:
                lines.append(self.fast.root if self.fast is not None else None)
                continue
            if hit.parent is not last_parent:  # records of one list share their parent tuple
                last_parent, items = hit.parent, known.get(hit.parent)
            lines.append(items[hit.at] if items is not None and hit.at < len(items) else None)
        missing = [k for k, v in enumerate(lines) if v is None]
        if missing:  # deeper than the fast parse walked: one structural pass for the rest
            spans = JsonSpans(self.text, self.base).spans([found[k].path for k in missing])
            offsets = [o for _, a, b in spans.values() for o in (a, max(a, b - 1))]
            line = index.lines(offsets)
            for k in missing:
                span = spans.get(found[k].path)
                lines[k] = (1, 1) if span is None else (line[span[1]], line[max(span[1], span[2] - 1)])
        return [v if v is not None else (1, 1) for v in lines]


def decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LoadError(1, "not UTF-8: the file starts with a UTF-16 or UTF-32 byte order mark")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise LoadError(data.count(b"\n", 0, nul) + 1, "not UTF-8 text: the file holds a NUL byte")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise LoadError(line, f"not UTF-8: invalid byte at offset {exc.start}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _json_error(exc: json.JSONDecodeError, line_offset: int = 0) -> LoadError:
    return LoadError(exc.lineno + line_offset, f"invalid JSON: {exc.msg} (line {exc.lineno + line_offset}, "
                     f"column {exc.colno})")


_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=repeats.object_pairs)
LONE_SURROGATE = "an escape spells a lone surrogate"


def load_json(text: str, descend: Callable[[Any], bool] | None = None) -> list[Document]:
    """`descend(item)` says whether a list item object is a wrapper worth walking for positions."""
    repeats.clear()
    try:
        return _load_json(text, descend)
    finally:
        repeats.clear()  # a failed parse noted objects that no document holds: do not keep them alive


def _load_json(text: str, descend: Callable[[Any], bool] | None) -> list[Document]:
    if descend is not None:
        fast = FastJson(text, descend, FAST_DEPTH, _DECODER)
        try:
            value = fast.parse()
            return [Document(value, (), "json", text, fast=fast, repeated=repeats.take(value))]
        except (ValueError, IndexError, StopIteration, RecursionError):
            pass  # json.loads below gives the message and line
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and exc.lineno > 1 and (lines := _as_jsonl(text)) is not None:
            return lines
        raise _json_error(exc) from None
    except ValueError as exc:  # NaN, Infinity, an integer over Python's digit limit
        raise LoadError(refused_json_line(text), f"invalid JSON: {exc}") from None
    except RecursionError:
        raise LoadError(1, "invalid JSON: nesting too deep to parse") from None
    return [Document(value, (), "json", text, repeated=repeats.take(value))]


def _as_jsonl(text: str) -> list[Document] | None:
    """A .json file that is really JSON Lines, when its first line is a value of its own: its documents (or
    `DocumentErrors` with the good ones); else None."""
    try:
        return load_jsonl(text)
    except DocumentErrors as exc:
        first = next(n for n, line in enumerate(text.split("\n")) if line.strip()) + 1
        if exc.docs and exc.docs[0].line_no == first:
            raise
        return None


# A file of broken lines reports this many, then how many more: 2,000,000 findings helped no one.
MAX_ERRORS_PER_FILE = 100


class _Errors(list[LoadError]):
    """The first MAX_ERRORS_PER_FILE errors, then a count of the others at the first one's line."""

    def __init__(self) -> None:
        super().__init__()
        self.more = 0
        self.more_at = 0

    def add(self, error: LoadError) -> None:
        if len(self) < MAX_ERRORS_PER_FILE:
            self.append(error)
            return
        self.more += 1
        self.more_at = self.more_at or error.line

    def all(self) -> list[LoadError]:
        if not self.more:
            return list(self)
        why = (f"and {self.more:,} more lines do not parse (from line {self.more_at:,} on); the first "
               f"{MAX_ERRORS_PER_FILE} are shown")
        return [*self, LoadError(self.more_at, why)]


def load_jsonl(text: str) -> list[Document]:
    """One document per non-blank line; a bad line is reported and the others are kept."""
    docs: list[Document] = []
    bad = _Errors()
    escapes = SURROGATE_ESCAPE.search(text) is not None  # one scan of the file: most have none
    for n, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        repeats.clear()
        try:
            value = _DECODER.decode(line)
        except json.JSONDecodeError as exc:
            bad.add(LoadError(n + 1, f"invalid JSON on line {n + 1}: {exc.msg} (column {exc.colno})"))
            continue
        except ValueError as exc:
            bad.add(LoadError(n + 1, f"invalid JSON on line {n + 1}: {exc}"))
            continue
        except RecursionError:
            bad.add(LoadError(n + 1, f"invalid JSON on line {n + 1}: nesting too deep to parse"))
            continue
        if escapes and SURROGATE_ESCAPE.search(line) is not None and not _is_unicode(value):
            bad.add(LoadError(n + 1, f"not valid Unicode on line {n + 1}: {LONE_SURROGATE}"))
            continue
        docs.append(Document(value, (str(n),), "jsonl", line_no=n + 1, repeated=repeats.take(value)))
    repeats.clear()  # what a bad last line noted
    if bad:
        raise DocumentErrors(docs, bad.all())
    return docs


class DocumentErrors(Exception):
    """Some documents failed (JSONL lines, a YAML stream's later document): the good ones travel with the
    errors."""

    def __init__(self, docs: list[Document], errors: list[LoadError]) -> None:
        super().__init__("bad documents")
        self.docs = docs
        self.errors = errors


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe loading that yields JSON values: timestamps stay strings, keys become strings."""


def _timestamp_as_str(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    return loader.construct_scalar(node)  # type: ignore[arg-type]


def _set_as_mapping(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    # `!!set {a, b}` is a mapping to nulls: as a Python set its order, so its hash, changed with the seed.
    return loader.construct_mapping(node)  # type: ignore[arg-type]


# Python reads and writes at most 4,300 decimal digits; in hex, binary, octal or base 60 a longer integer is
# read and fails later, where it is written as JSON. Both are refused here, at the integer's own line.
MAX_INT_BITS = 14_000


def _int(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    try:
        value = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)  # type: ignore[arg-type]
    except ValueError:
        value = None
    if value is None or value.bit_length() > MAX_INT_BITS:
        raise yaml.constructor.ConstructorError(None, None, "an integer too long for a JSON number",
                                                node.start_mark)
    return value


_Loader.add_constructor("tag:yaml.org,2002:int", _int)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_as_str)
_Loader.add_constructor("tag:yaml.org,2002:binary", _timestamp_as_str)
_Loader.add_constructor("tag:yaml.org,2002:set", _set_as_mapping)


def _untagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    """A local tag (CloudFormation's `!Ref`, `!Sub`) is read as the value it tags: the application resolves
    it, and the tool file is still read rather than refused."""
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node)  # type: ignore[arg-type]


_Loader.add_multi_constructor("!", _untagged)
# YAML 1.1 "value" type: a plain `=` (an operator in an enum) is a string, as other YAML readers have it.
_Loader.add_constructor("tag:yaml.org,2002:value", _timestamp_as_str)
# A `<<` that is a value (an operator in an enum), not a merge key (those are merged before construction).
_Loader.add_constructor("tag:yaml.org,2002:merge", _timestamp_as_str)


def _check_yaml(root: yaml.Node, index: LineIndex) -> tuple[dict[int, dict[str, int]], bool]:
    """Reject alias bombs, cycles and excessive depth before constructing anything; return the mappings
    that write a key twice (by id: each repeated key with how often it is written), and whether a node is
    met twice (the document has aliases). `index`: the text's, for the lines of errors.

    Sizes are memoised per node, so measuring even a billion-laughs expansion costs only its real nodes.
    """
    sizes: dict[int, int] = {}
    chars: dict[int, int] = {}  # the text each node expands to, scalars' lengths summed
    written = [0]  # the text as written: each scalar once (a node is measured once, however aliased)
    active: set[int] = set()
    worst: list[yaml.Node] = []
    repeated: dict[int, dict[str, int]] = {}
    aliased = [False]

    def size(node: yaml.Node, depth: int) -> int:
        key = id(node)
        if key in sizes:
            aliased[0] = True
            return sizes[key]
        if key in active:
            raise LoadError(mark_line(node.start_mark, index), "YAML alias refers to itself (a cycle)")
        if depth > YAML_MAX_DEPTH:
            raise LoadError(mark_line(node.start_mark, index), "YAML nesting too deep")
        active.add(key)
        total = 1
        text = len(node.value) if isinstance(node, yaml.ScalarNode) else 0
        written[0] += text
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                total += size(child, depth + 1)
                text += chars[id(child)]
        elif isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            # as loaded: `0x1F` and `31` are one key, `on` and `yes` too, and `true` and `1`; `<<` all merge
            for (k, v), token in zip(node.value, loaded_keys(node), strict=True):
                if token is not None:
                    seen[token] = seen.get(token, 0) + 1
                total += size(k, depth + 1) + size(v, depth + 1)
                text += chars[id(k)] + chars[id(v)]
            if len(seen) < sum(seen.values()):
                repeated[key] = {token: n for token, n in seen.items() if n > 1}
        active.discard(key)
        if (total > YAML_MAX_EXPANDED or text > YAML_MAX_EXPANDED_CHARS) and not worst:
            worst.append(node)
        sizes[key] = total
        chars[key] = text
        return total

    expanded = size(root, 0)
    if worst and expanded > YAML_ALIAS_RATIO * len(sizes):
        raise LoadError(mark_line(worst[0].start_mark, index),
                        f"YAML aliases expand out of proportion ({expanded:,} nodes from {len(sizes):,})")
    if worst and chars[id(root)] > max(YAML_MAX_EXPANDED_CHARS, YAML_ALIAS_RATIO * written[0]):
        raise LoadError(mark_line(worst[0].start_mark, index), "YAML aliases expand out of proportion "
                        f"({chars[id(root)]:,} characters from {written[0]:,})")
    return repeated, aliased[0]


class _AliasSites:
    """Where the aliases of a stream's documents are written: read from a second pass over its events, for
    the documents that have aliases only (an alias's composed node is the anchored node, and the C composer
    keeps no trace of the alias)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._parser: Any = None
        self._done = 0  # documents whose events were read

    def of(self, root: yaml.Node, document: int) -> AliasSites:
        """The alias sites of the stream's `document`th document, composed as `root`."""
        if self._parser is None:
            self._parser = _Loader(self._text)
            self._parser.get_event()  # StreamStart
        get = self._parser.get_event
        while self._done < document:  # documents before it without aliases: skipped
            while not isinstance(get(), yaml.DocumentEndEvent):
                pass
            self._done += 1
        get()  # DocumentStart
        sites = _pair(get, root)
        get()  # DocumentEnd
        self._done += 1
        return sites

    def dispose(self) -> None:
        if self._parser is not None:
            self._parser.dispose()


def _pair(get: Callable[[], yaml.Event], root: yaml.Node) -> AliasSites:
    """Walk `root` in document order beside its events (one per node or alias, and one per collection's
    end): the events that are aliases give their slots. Iterative: a document may nest 500 deep."""
    sites: AliasSites = {}
    stack: list[Iterator[tuple[AliasSlot | None, yaml.Node]]] = [iter([(None, root)])]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if stack:
                get()  # the collection's end
            continue
        slot, node = step
        event = get()
        if isinstance(event, yaml.AliasEvent):  # its node's events came where it was anchored: not again
            start, end = event.start_mark, event.end_mark
            if slot is not None and start is not None and end is not None:
                sites[slot] = (start.index, end.index)
        elif isinstance(node, yaml.MappingNode):
            stack.append(_mapping_slots(node))
        elif isinstance(node, yaml.SequenceNode):
            stack.append(_sequence_slots(node))
    return sites


def _sequence_slots(node: yaml.SequenceNode) -> Iterator[tuple[AliasSlot | None, yaml.Node]]:
    for i, item in enumerate(node.value):
        yield (id(node), i), item


def _mapping_slots(node: yaml.MappingNode) -> Iterator[tuple[AliasSlot | None, yaml.Node]]:
    for key, value in node.value:
        yield None, key
        # A `<<` is gone once merged (construction flattens it in place): its alias is the mapping's.
        yield ((id(node), MERGED) if key.tag == MERGE_TAG else (id(key), VALUE)), value


def _yaml_repeats(root: yaml.Node, counts: dict[int, dict[str, int]]) -> tuple[repeats.Repeat, ...]:
    """Where the mappings of `counts` end up, as paths of the value constructed from `root`: at every path
    an alias puts them (each tool that holds one is told), and where a `<<` merges a repeated key in. Run
    before construction, which flattens merges in place."""
    if not counts:
        return ()
    kept: dict[int, dict[str, tuple[yaml.Node, int]]] = {}
    clean: set[int] = set()  # nodes that hold no repeat, walked once however often aliased
    out: list[repeats.Repeat] = []

    def walk(node: yaml.Node, path: Path) -> bool:
        if id(node) in clean:
            return False
        found = False
        if isinstance(node, yaml.MappingNode):
            for token, (value, writer) in _kept_pairs(node, kept).items():
                times = counts.get(writer, {}).get(token)
                if times is not None:
                    out.append((path, token, times))
                    found = True
                found = walk(value, (*path, token)) or found
        elif isinstance(node, yaml.SequenceNode):
            for i, child in enumerate(node.value):
                found = walk(child, (*path, str(i))) or found
        if not found:
            clean.add(id(node))
        return found

    walk(root, ())
    return tuple(sorted(out))


def _kept_pairs(
    node: yaml.MappingNode, kept: dict[int, dict[str, tuple[yaml.Node, int]]]
) -> dict[str, tuple[yaml.Node, int]]:
    """Each key of the mapping as loaded -> (the value kept, id of the mapping that wrote it), merges
    included as PyYAML's `flatten_mapping` orders them: later `<<` keys win, within one `<<: [a, b]` the
    first, and the mapping's own keys win over all."""
    got = kept.get(id(node))
    if got is not None:
        return got
    merged: dict[str, tuple[yaml.Node, int]] = {}
    own: dict[str, tuple[yaml.Node, int]] = {}
    for (k, v), token in zip(node.value, loaded_keys(node), strict=True):
        if k.tag == MERGE_TAG:
            for source in reversed(v.value) if isinstance(v, yaml.SequenceNode) else (v,):
                if isinstance(source, yaml.MappingNode):
                    merged.update(_kept_pairs(source, kept))
        elif token is not None:
            own[token] = (v, id(node))
    got = kept[id(node)] = merged | own
    return got


def load_yaml(text: str) -> list[Document]:
    """Every document of the stream; with several (`---`), each is addressed `/<index>`, like JSONL."""
    loader = _Loader(text)
    index = LineIndex(text)
    aliases = _AliasSites(text)
    found: list[_Composed] = []
    node: yaml.Node | None = None
    try:
        while loader.check_node():
            node = loader.get_node()
            counts, aliased = _check_yaml(node, index)
            # Both before construction, which flattens merges in place.
            where = _yaml_repeats(node, counts)
            sites = aliases.of(node, len(found)) if aliased else None
            found.append((loader.construct_document(node), node, where, sites))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark_line(mark, index) if mark is not None else 1
        # At a cut-off end PyYAML points past the last line (after its newline): the file's last line.
        line = min(line, text.count("\n") + (not text.endswith("\n")))
        error = LoadError(line, f"invalid YAML: {exc.problem or exc.context} (line {line})")
        if found:  # the documents before the broken one are read: they are addressed as in a stream
            raise DocumentErrors(_yaml_documents(text, found, several=True), [error]) from None
        raise error from None
    except yaml.YAMLError as exc:
        raise LoadError(1, f"invalid YAML: {exc}") from None
    except (TypeError, ValueError) as exc:  # an unhashable (list) mapping key
        line = mark_line(node.start_mark, index) if node is not None else 1
        raise LoadError(line, f"invalid YAML: {exc}") from None
    except RecursionError:
        raise LoadError(1, "invalid YAML: nesting too deep to parse") from None
    finally:
        loader.dispose()
        aliases.dispose()
    return _yaml_documents(text, found, several=len(found) > 1)


# A YAML document as loaded: its value, its node tree, its keys written twice, where its aliases are.
_Composed = tuple[Any, yaml.Node, tuple[repeats.Repeat, ...], AliasSites | None]


def _yaml_documents(text: str, found: list[_Composed], several: bool) -> list[Document]:
    docs = []
    for i, (value, node, repeated_keys, sites) in enumerate(found):
        if isinstance(value, (dict, list)):
            value = _stringify_keys(value)
        prefix = (str(i),) if several else ()
        docs.append(Document(value, prefix, "yaml", text, node=node, repeated=repeated_keys, aliases=sites))
    return docs


def _stringify_keys(value: Any) -> Any:
    """JSON has only string keys; YAML `1:` or `true:` keys would break hashing and sorting downstream."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else json.dumps(k) if k is None or isinstance(k, bool) else str(k):
                _stringify_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stringify_keys(v) for v in value]
    return value


def _is_unicode(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_unicode(text: str, docs: list[Document]) -> None:
    """JSON escapes can spell a lone surrogate, which is not Unicode: hashing and output would fail later.
    (JSON Lines are checked line by line as they load.)"""
    if SURROGATE_ESCAPE.search(text) is None:
        return
    for doc in docs:
        if doc.kind == "json" and not _is_unicode(doc.value):
            raise LoadError(lone_surrogate_line(text), f"not valid Unicode: {LONE_SURROGATE}")


def load_documents(path: str, text: str, descend: Callable[[Any], bool] | None = None) -> list[Document]:
    kind = text_kind(path, text)
    if kind == "yaml":
        return load_yaml(text)
    if kind == "jsonl":
        return load_jsonl(text)
    docs = load_json(text, descend)
    _check_unicode(text, docs)
    return docs
