"""What a pull request changes about the tools: toolsets matched across refs, tools classified.

Toolsets match by id, following file renames; tools match by name within a toolset. Everything is
compared in canonical form, so reordering tools or keys and reformatting a file change nothing.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tooldiff.model import Change, Tool, Toolset
from tooldiff.schemahash import lenient_json as canonical  # a YAML `.inf` as its text, not an error

# A removed and an added tool with one schema are a rename when their descriptions are this alike.
RENAME_RATIO = 0.8


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolChange:
    name: str  # the head name; the base name for a removed tool
    change: Change
    changed_parts: tuple[str, ...] = ()
    base: Tool | None = None
    head: Tool | None = None
    previous_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolsetDiff:
    id: str  # the head id; the base id for a removed toolset
    base_id: str | None
    status: Change
    tools: tuple[ToolChange, ...]
    base: Toolset | None = None
    head: Toolset | None = None

    @property
    def changes(self) -> tuple[ToolChange, ...]:
        return tuple(t for t in self.tools if t.change != "unchanged")


@dataclass(frozen=True, slots=True, kw_only=True)
class MovedIn:
    """A tool that joined a toolset from another (`TreeDiff.moved_in`): that toolset's id, the tool as it was
    there, and the parts of it the PR changed besides (`changed_parts` of a modification)."""

    source: str
    base: Tool
    changed_parts: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)  # no slots: `_moves` is cached on the instance
class TreeDiff:
    toolsets: tuple[ToolsetDiff, ...]

    def toolset_map(self) -> dict[str, str]:
        """Base toolset id -> head toolset id, for every toolset present on both sides."""
        return {d.base_id: d.id for d in self.toolsets if d.base_id is not None and d.head is not None}

    def name_map(self) -> dict[tuple[str, str], str]:
        """(base toolset id, base tool name) -> head tool name, for renamed tools whose old name no other
        tool of the toolset still has (findings keyed by that name may be the namesake's), and for tools
        moved to another toolset under a new name (`moved_renames`)."""
        out = {}
        for d in self.toolsets:
            if d.base_id is None:
                continue
            kept = {c.name for c in d.tools if c.change != "removed"}
            for c in d.tools:
                if c.change == "renamed" and c.previous_name is not None and c.previous_name not in kept:
                    out[(d.base_id, c.previous_name)] = c.name
        out.update({key: name for key, (_, name) in self.moved_renames().items()})
        return out

    def namesake_renames(self) -> dict[tuple[str, str], str]:
        """(base toolset id, base tool name) -> head tool name, for a tool renamed away from a name another
        tool of the toolset keeps (one of two `search_docs` renamed `search_kb`): a finding on the pair of
        namesakes is then the pair of the kept one and the renamed one."""
        out: dict[tuple[str, str], str] = {}
        for d in self.toolsets:
            if d.base_id is None:
                continue
            kept = {c.name for c in d.tools if c.change != "removed"}
            for c in d.tools:
                if c.change == "renamed" and c.previous_name is not None and c.previous_name in kept:
                    out.setdefault((d.base_id, c.previous_name), c.name)
        return out

    def _leaving(self) -> tuple[dict[str, list[tuple[str, Tool]]], dict[str, list[tuple[str, Tool]]],
                                set[tuple[str, str]]]:
        """Removed tools by name (with their base toolset), added ones (with their head toolset), and the
        (toolset, name) of every tool neither removed nor added."""
        left: dict[str, list[tuple[str, Tool]]] = {}
        joined: dict[str, list[tuple[str, Tool]]] = {}
        stays: set[tuple[str, str]] = set()
        for d in self.toolsets:
            for c in d.tools:
                if c.change == "removed" and d.base_id is not None and c.base is not None:
                    left.setdefault(c.name, []).append((d.base_id, c.base))
                elif c.change == "added" and c.head is not None:
                    joined.setdefault(c.name, []).append((d.id, c.head))
                else:
                    stays.update({(d.id, c.name), (d.base_id or d.id, c.name)})
        return left, joined, stays

    def move_map(self) -> dict[tuple[str, str], str]:
        """(base toolset id, tool name) -> head toolset id, for a tool that left one toolset and joined
        another under its name (a file split, or tools moved between files): the only one of that name to
        leave and to join, with no namesake staying behind or waiting there, and the same tool (its
        description or its schema unchanged). Its findings move with it. Tools that moved under a new name
        (`moved_renames`) are in it too, under their old name."""
        same, renamed = self._moves
        return {**same, **{key: ts for key, (ts, _) in renamed.items()}}

    def moved_in(self) -> dict[tuple[str, str], MovedIn]:
        """(head toolset id, head name) -> where the tool came from and what else changed, for every tool of
        `move_map` (renamed or not): a move's added row says what the PR changed besides the move."""
        left, joined, _ = self._leaving()
        renamed = self._moves[1]
        out = {}
        for (src, was), dst in self.move_map().items():
            now = renamed[(src, was)][1] if (src, was) in renamed else was
            [old] = [t for ts, t in left[was] if ts == src]  # `_moves` takes a name that left src once
            [new] = [t for ts, t in joined[now] if ts == dst]
            out[(dst, now)] = MovedIn(source=src, base=old, changed_parts=_parts(old, new))
        return out

    def moved_renames(self) -> dict[tuple[str, str], tuple[str, str]]:
        """(base toolset id, old name) -> (head toolset id, new name), for a tool that left one toolset and
        joined another under a new name, word for word the same tool otherwise (description of `KEPT_WORDS`
        words or more, schema, strict, annotations and title): the only tool removed and the only one added
        so, each name the only one of it to leave or to join, and neither name held by a tool that stays
        in either toolset (findings keyed by it would be that tool's)."""
        return dict(self._moves[1])  # a copy: the cached one answers every later call

    @cached_property
    def _moves(self) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], tuple[str, str]]]:
        """Both kinds of move, worked out together (`move_map` and `name_map` must agree on every tool), and
        once: a diff asks for them from the translation, the rows and the stats."""
        left, joined, stays = self._leaving()
        # A name renamed in place in its toolset keys that toolset's findings to the new name (`name_map`):
        # a twin of it that left for another toolset cannot take them too.
        stays |= {(d.base_id, c.previous_name) for d in self.toolsets for c in d.tools
                  if c.change == "renamed" and d.base_id is not None and c.previous_name is not None}
        same: dict[tuple[str, str], str] = {}
        for name, gone in left.items():
            came = joined.get(name, [])
            if len(gone) != 1 or len(came) != 1:
                continue
            (src, old), (dst, new) = gone[0], came[0]
            if (src, name) in stays or (dst, name) in stays:
                continue
            if old.description.split() == new.description.split() or (
                    canonical(old.input_schema) == canonical(new.input_schema)):
                same[(src, name)] = dst

        def sig(t: Tool) -> tuple[Any, ...] | None:
            words = t.description.split()
            if len(words) < KEPT_WORDS:
                return None
            return (" ".join(words), *(value(t) for part, value in _PARTS if part != "description"))

        moved_names = {name for _, name in same}
        # Every removed and every added tool by signature, before any is ruled out: a signature two tools
        # hold on one side is no move, even when one of them is left out for its name.
        gone_by: dict[tuple[Any, ...], list[tuple[str, str]]] = {}
        for name, olds in left.items():
            for src, tool in olds:
                if name not in moved_names and (key := sig(tool)) is not None:
                    gone_by.setdefault(key, []).append((src, name))
        came_by: dict[tuple[Any, ...], list[tuple[str, str]]] = {}
        for name, news in joined.items():
            for dst, tool in news:
                if name not in moved_names and (key := sig(tool)) is not None:
                    came_by.setdefault(key, []).append((dst, name))
        renamed: dict[tuple[str, str], tuple[str, str]] = {}
        for key, froms in gone_by.items():
            tos = came_by.get(key, [])
            if len(froms) != 1 or len(tos) != 1:
                continue
            (src, was), (dst, now) = froms[0], tos[0]
            if sum(ts == src for ts, _ in left[was]) != 1 or sum(ts == dst for ts, _ in joined[now]) != 1:
                continue  # the name left (or joined) one toolset twice: whose findings are keyed by it?
            held = {(src, was), (src, now), (dst, was), (dst, now)} & stays
            if src != dst and was != now and not held:
                renamed[(src, was)] = (dst, now)
        return same, renamed

    @property
    def changed(self) -> tuple[ToolsetDiff, ...]:
        """Toolsets to analyse and report. A renamed one too: settings and baseline entries keyed by its id
        (a file path) may not hold under the new one."""
        return tuple(d for d in self.toolsets if d.status in ("added", "removed", "modified", "renamed"))


# The parts of a tool a change can touch, each as the value compared. `strict` is not in the schemaHash but
# decides the default targets; annotations (destructiveHint ...) and the title feed the blast-radius rules.
_PARTS: tuple[tuple[str, Callable[[Tool], Any]], ...] = (
    ("description", lambda t: t.description),
    ("schema", lambda t: canonical(t.input_schema)),
    ("strict", lambda t: t.strict),
    ("annotations", lambda t: (canonical(dict(t.annotations or {})), t.title)),
)


def _parts(a: Tool, b: Tool) -> tuple[str, ...]:
    parts = tuple(name for name, value in _PARTS if value(a) != value(b))
    return (*parts, "format") if a.format != b.format else parts  # the format picks the default targets


def _renames(removed: list[Tool], added: list[Tool]) -> list[tuple[Tool, Tool]]:
    """Pair removed and added tools that are one tool renamed, best first: the same schema and nearly the
    same description, or one description kept whole in the other (a sentence added to a short text); or the
    same description over a schema that only gained or lost properties.

    Only tools that could pair are compared: those with one schema, or one description over schemas that
    may have grown. The same text over the same schema pairs in order, without a comparison (a prefix put
    on every tool's name). Where one schema has more than `RENAME_BUDGET` pairs left, an added tool meets
    only the removed tools that share its name's rarest word."""
    out: list[tuple[Tool, Tool]] = []
    schemas = [canonical(r.input_schema) for r in removed]  # once each, not once per pair
    added_schemas = [canonical(a.input_schema) for a in added]
    waiting: dict[tuple[str, str], list[int]] = {}
    for j, a in enumerate(added):
        waiting.setdefault((added_schemas[j], a.description), []).append(j)
    used_r: set[int] = set()
    used_a: set[int] = set()
    for i, r in enumerate(removed):  # a ratio of 1 ranks first, lowest indices first: pair those now
        same = waiting.get((schemas[i], r.description))
        if same:
            j = same.pop(0)
            used_r.add(i)
            used_a.add(j)
            out.append((r, added[j]))
    by_schema: dict[str, list[int]] = {}
    by_words: dict[tuple[str, ...], list[int]] = {}
    for i, r in enumerate(removed):
        if i in used_r:
            continue
        by_schema.setdefault(schemas[i], []).append(i)
        words = tuple(r.description.split())
        if len(words) >= KEPT_WORDS:
            by_words.setdefault(words, []).append(i)
    left = Counter(added_schemas[j] for j in range(len(added)) if j not in used_a)
    narrowed: dict[str, Callable[[str], list[int]]] = {}
    scored = []
    for j, a in enumerate(added):
        if j in used_a:
            continue
        schema = added_schemas[j]
        same = by_schema.get(schema, [])
        if len(same) * left[schema] > RENAME_BUDGET:
            if schema not in narrowed:
                narrowed[schema] = _by_name_word([removed[i] for i in same], same)
            same = narrowed[schema](a.name)
        # One matcher per added text: it indexes its second text once (`set_seq2`), then meets each removed.
        m = difflib.SequenceMatcher(None, "", a.description, autojunk=False)
        for i in same:
            r = removed[i]
            m.set_seq1(r.description)
            if m.real_quick_ratio() >= RENAME_RATIO and m.quick_ratio() >= RENAME_RATIO:
                ratio = m.ratio()
                if ratio >= RENAME_RATIO:
                    scored.append((-ratio, i, j))
                    continue
            if _kin(r.name, a.name) and _kept_whole(r.description, a.description):
                scored.append((-RENAME_RATIO, i, j))
        for i in by_words.get(tuple(a.description.split()), ()):
            r = removed[i]
            if schemas[i] != schema and _kin(r.name, a.name) and _grown(r.input_schema, a.input_schema):
                scored.append((-RENAME_RATIO, i, j))  # below a match of equal schemas
    for _, i, j in sorted(scored):
        if i not in used_r and j not in used_a:
            used_r.add(i)
            used_a.add(j)
            out.append((removed[i], added[j]))
    return out


# Description comparisons among the tools of one schema before each is compared only with its name's kin.
RENAME_BUDGET = 20_000


def _by_name_word(tools: list[Tool], indices: list[int]) -> Callable[[str], list[int]]:
    """name -> the indices of `tools` whose names share its rarest word (`get_7` meets `gh_get_7` on "7")."""
    posting: dict[str, list[int]] = {}
    for tool, i in zip(tools, indices, strict=True):
        for word in dict.fromkeys(_name_words(tool.name)):
            posting.setdefault(word, []).append(i)

    def kin(name: str) -> list[int]:
        found = [posting[w] for w in dict.fromkeys(_name_words(name)) if w in posting]  # in order: a tie
        # goes to the earlier word, whatever the hash seed
        return min(found, key=len)[:RENAME_KIN_MAX] if found else []

    return kin


RENAME_KIN_MAX = 50  # the rarest word's tools compared at most, so one schema's pairs stay linear


def _name_words(name: str) -> list[str]:
    return [w.lower() for w in _NAME_WORD.findall(name)]


# The shorter description, kept whole in the longer, says enough to be the same tool at this many words.
KEPT_WORDS = 3


def _kept_whole(x: str, y: str) -> bool:
    short, long = sorted((" ".join(x.split()), " ".join(y.split())), key=len)
    short = short.rstrip(".")  # "Shows the logs." is kept whole in "Shows the logs, newest first."
    return len(short.split()) >= KEPT_WORDS and short in long


_NAME_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _kin(x: str, y: str) -> bool:
    """Names that open with the same word (git_log, git_history): the looser rename tests need it, as a
    new tool's text may quote an old one (`delete_inactive_users`: "... List all users first")."""
    a, b = _NAME_WORD.search(x), _NAME_WORD.search(y)
    return a is not None and b is not None and a.group().lower() == b.group().lower()


def _grown(x: Any, y: Any) -> bool:
    """Two object schemas alike but for properties one of them adds (and may require)."""
    if not isinstance(x, dict) or not isinstance(y, dict):
        return False
    if not isinstance(x.get("properties"), dict) or not isinstance(y.get("properties"), dict):
        return False
    small, big = sorted((x, y), key=lambda s: len(s["properties"]))
    sp, bp = small["properties"], big["properties"]
    if len(sp) == len(bp):
        return False
    if any(k not in bp or canonical(v) != canonical(bp[k]) for k, v in sp.items()):
        return False
    rest = {k for k in small.keys() | big.keys() if k not in ("properties", "required")}
    if any(canonical(small.get(k)) != canonical(big.get(k)) for k in rest):
        return False
    s_req, b_req = small.get("required") or [], big.get("required") or []
    if not isinstance(s_req, list) or not isinstance(b_req, list):
        return False
    if not all(isinstance(n, str) for n in s_req) or not all(isinstance(n, str) for n in b_req):
        return False
    return set(s_req) == set(b_req) & set(sp)


def _signature(t: Tool) -> tuple[Any, ...]:
    """What `_parts` compares, once per tool: equal signatures, no changed part."""
    return (*(value(t) for _, value in _PARTS), t.format)


def _same_named(pending: dict[str, list[Tool]], head: Sequence[Tool]) -> dict[int, Tool]:
    """Head index -> its base tool, for names held by more than one tool on either side (a variant beside
    the original), taken out of `pending`. In turn: the same file and no change; the same file (the file
    was edited, a variant added elsewhere); no change (the file moved). The rest pair in order. One
    signature per tool: many same-named tools stay linear."""
    counts: dict[str, int] = {}
    for h in head:
        counts[h.name] = counts.get(h.name, 0) + 1
    twins = {n for n, olds in pending.items() if len(olds) > 1 or counts.get(n, 0) > 1}
    if not twins:
        return {}
    out: dict[int, Tool] = {}
    sigs: dict[int, tuple[Any, ...]] = {}

    def sig(t: Tool) -> tuple[Any, ...]:
        got = sigs.get(id(t))
        if got is None:
            got = sigs[id(t)] = _signature(t)
        return got

    keys: tuple[Callable[[Tool], Any], ...] = (
        lambda t: (t.name, t.file, sig(t)), lambda t: (t.name, t.file), lambda t: (t.name, sig(t)))
    for key in keys:
        index: dict[Any, list[Tool]] = {}
        for name in twins:
            for o in pending.get(name, ()):
                index.setdefault(key(o), []).append(o)
        for i, h in enumerate(head):
            if i in out or h.name not in twins:
                continue
            found = index.get(key(h))
            if found:
                b = found.pop(0)
                pending[h.name].remove(b)
                out[i] = b
    return out


def diff_tools(base: Sequence[Tool], head: Sequence[Tool]) -> list[ToolChange]:
    pending: dict[str, list[Tool]] = {}
    for t in base:
        pending.setdefault(t.name, []).append(t)
    out: list[ToolChange] = []
    added: list[Tool] = []
    paired = _same_named(pending, head)
    for i, h in enumerate(head):
        b = paired.get(i)
        if b is None:
            olds = pending.get(h.name)
            if not olds:
                added.append(h)
                continue
            b = olds.pop(0)
        parts = _parts(b, h)
        out.append(ToolChange(name=h.name, change="modified" if parts else "unchanged",
                              changed_parts=parts, base=b, head=h))
    removed = [t for ts in pending.values() for t in ts]
    for b, h in _renames(removed, added):
        removed.remove(b)
        added.remove(h)
        parts = _parts(b, h)  # the schema matches (`_renames`); the description, annotations, strict may not
        out.append(ToolChange(name=h.name, change="renamed", changed_parts=parts, base=b, head=h,
                              previous_name=b.name))
    out += [ToolChange(name=t.name, change="removed", base=t) for t in removed]
    out += [ToolChange(name=t.name, change="added", head=t) for t in added]
    return sorted(out, key=lambda c: (c.name, c.change))


def match_toolsets(
    base: Sequence[Toolset], head: Sequence[Toolset], renames: Mapping[str, str]
) -> dict[str, str]:
    """Base id -> head id. A file id follows its rename; a folder or named id matches as is, or
    follows the renamed files of the toolset to the head toolset most of them landed in."""
    head_ids = {ts.id for ts in head}
    home = {f: ts.id for ts in head for f in ts.files}
    out: dict[str, str] = {}
    used: set[str] = set()  # out's values: a set, as `in out.values()` is linear (20k toolsets)
    voting: list[Toolset] = []
    for ts in base:
        if ts.id in renames and renames[ts.id] in home:
            target: str | None = home[renames[ts.id]]
        elif ts.id in head_ids:
            target = ts.id
        else:
            voting.append(ts)
            continue
        if target is not None and target not in used:
            out[ts.id] = target
            used.add(target)
    # Votes come last, for a head toolset no other matched: a folder that lost a file to another folder's
    # toolset (git mv a/f.json b/f.json) must not take b/ from the base's b/.
    for ts in voting:
        votes = Counter(t for f in ts.files
                        if (t := home.get(renames.get(f, f))) is not None and t not in used)
        if votes:
            target = votes.most_common(1)[0][0]
            out[ts.id] = target
            used.add(target)
    out.update(_same_tools(base, head, out))
    return out


# A base and a head toolset that git did not pair (a file rewritten as YAML, moved and reformatted) are one
# toolset when this share of their tool names is common to both.
SAME_TOOLS = 0.5


def _same_tools(
    base: Sequence[Toolset], head: Sequence[Toolset], matched: Mapping[str, str]
) -> dict[str, str]:
    """Base id -> head id for the toolsets left unmatched on both sides whose tools are mostly the same.
    Only toolsets that share a tool name are compared (an index of names), so big trees stay linear."""
    taken = set(matched.values())
    base_ids = {b.id for b in base}
    news = [ts for ts in head if ts.id not in taken and ts.id not in base_ids]
    if not news:
        return {}
    names_of = {h.id: {t.name for t in h.tools} for h in news}
    holders: dict[str, list[str]] = {}
    for h_id, names in names_of.items():
        for n in names:
            holders.setdefault(n, []).append(h_id)
    scored = []
    for b in base:
        if b.id in matched:
            continue
        b_names = {t.name for t in b.tools}
        common: dict[str, int] = {}
        for n in b_names:
            for h_id in holders.get(n, ()):
                common[h_id] = common.get(h_id, 0) + 1
        for h_id, k in common.items():
            share = k / len(b_names | names_of[h_id])
            if share >= SAME_TOOLS:
                scored.append((-share, b.id, h_id))
    out: dict[str, str] = {}
    used: set[str] = set()
    for _, b_id, h_id in sorted(scored):
        if b_id not in out and h_id not in used:
            out[b_id] = h_id
            used.add(h_id)
    return out


def diff_toolsets(
    base: Sequence[Toolset], head: Sequence[Toolset], renames: Mapping[str, str]
) -> TreeDiff:
    mapping = match_toolsets(base, head, renames)
    head_by_id = {ts.id: ts for ts in head}
    matched_heads = set(mapping.values())
    out: list[ToolsetDiff] = []
    for b in base:
        h = head_by_id.get(mapping.get(b.id, "\0"))
        if h is None:
            tools = tuple(ToolChange(name=t.name, change="removed", base=t) for t in b.tools)
            out.append(ToolsetDiff(id=b.id, base_id=b.id, status="removed", tools=tools, base=b))
            continue
        changes = tuple(diff_tools(b.tools, h.tools))
        if any(c.change != "unchanged" for c in changes):
            status: Change = "modified"
        else:
            status = "renamed" if h.id != b.id else "unchanged"
        out.append(ToolsetDiff(id=h.id, base_id=b.id, status=status, tools=changes, base=b, head=h))
    for h in head:
        if h.id not in matched_heads:
            tools = tuple(ToolChange(name=t.name, change="added", head=t) for t in h.tools)
            out.append(ToolsetDiff(id=h.id, base_id=None, status="added", tools=tools, head=h))
    return TreeDiff(toolsets=tuple(sorted(out, key=lambda d: d.id)))
