"""Which tools, pairs and toolsets a diff run analyses: the changed tools and their neighbours.

Schema rules run on changed tools, pair rules on pairs that hold a changed tool (the engine filters
the pairs of the ONE candidate search, `pairs.candidates`, so a diff never sees fewer pairs than
`check`), toolset rules on changed toolsets. A config or target-data change means full scope.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tooldiff.diff import TreeDiff

if TYPE_CHECKING:
    from tooldiff.config import Config
    from tooldiff.model import Toolset

Key = tuple[str, str]  # (toolset id, tool name)


@dataclass(frozen=True, slots=True)
class Scope:
    changed: frozenset[Key] = frozenset()
    changed_toolsets: frozenset[str] = frozenset()
    full: bool = False
    # Tools a pair rule's candidate search pairs with a changed tool (see `widen`).
    neighbours: frozenset[Key] = field(default=frozenset())
    # Extra (toolset, a, b) pairs, names sorted: unchanged tools whose candidacy flipped (see `widen`).
    pairs: frozenset[tuple[str, str, str]] = field(default=frozenset())

    def in_scope_tool(self, toolset_id: str, name: str) -> bool:
        return self.full or (toolset_id, name) in self.changed

    def in_scope_pair(self, toolset_id: str, a: str, b: str) -> bool:
        return (self.full or (toolset_id, a) in self.changed or (toolset_id, b) in self.changed
                or (toolset_id, *_pair(a, b)) in self.pairs)

    def in_scope_toolset(self, toolset_id: str) -> bool:
        return self.full or toolset_id in self.changed_toolsets


FULL = Scope(full=True)


def scopes(diff: TreeDiff, *, full: bool = False) -> tuple[Scope, Scope]:
    """The scope at base (base ids) and at head. A changed name is in scope on BOTH sides, so a
    duplicate name added beside an unchanged tool (a feature-flag variant) puts both in scope."""
    base: set[Key] = set()
    head: set[Key] = set()
    base_sets: set[str] = set()
    head_sets: set[str] = set()
    for d in diff.changed:
        # A renamed toolset is analysed whole: what applies to it may depend on its id.
        changes = d.tools if d.status == "renamed" else d.changes
        names = {t.name for c in changes for t in (c.base, c.head) if t is not None}
        if d.base_id is not None:
            base_sets.add(d.base_id)
            base.update((d.base_id, n) for n in names)
        if d.head is not None:
            head_sets.add(d.id)
            head.update((d.id, n) for n in names)
    return (Scope(frozenset(base), frozenset(base_sets), full),
            Scope(frozenset(head), frozenset(head_sets), full))


Candidates = dict[str, set[tuple[str, str]]]  # toolset id -> name pairs
Cores = dict[str, dict[str, tuple[str, ...]]]  # toolset id -> tool name -> its name's terms, vendors cut


def candidate_pairs(toolsets: Sequence[Toolset], config: Config) -> tuple[Candidates, Cores]:
    """Toolset id -> the name pairs `pairs.candidates` proposes, with the engine's own views; and each
    tool's core (which edge words of its name the toolset shows to be a vendor's)."""
    from tooldiff import pairs, rules
    from tooldiff.engine import Engine

    eng = Engine(config, {})
    codes = [c for c in rules.PAIR_PRECEDENCE if c in eng.enabled]
    out: Candidates = {}
    cores: Cores = {}
    for ts in toolsets:
        if not codes or len(ts.tools) < 2:
            out[ts.id] = set()
            continue
        ctx = eng.context(codes[0], (), ts.id)
        views = pairs.analyse_toolset(ts.tools, ctx)
        found = pairs.candidates(views, intent=pairs.needs_intent(codes))
        out[ts.id] = {_pair(ts.tools[i].name, ts.tools[j].name) for i, j in found}
        cores[ts.id] = {v.tool.name: v.core for v in views}
    return out, cores


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def widen(diff: TreeDiff, base: Scope, head: Scope, config: Config,
          unseen: Callable[[str, str, str], bool] | None = None) -> tuple[Scope, Scope]:
    """Add neighbours, and the pairs of two unchanged tools whose candidacy flipped or whose view changed.

    The candidate search looks at the whole toolset (how common a term is), so adding a tool can make
    or unmake a pair of two unchanged tools. Analysing those pairs on both sides keeps the invariant:
    new findings == check(head) - check(base) on the changed toolsets. `unseen(toolset, a, b)`: a base
    pair no base toolset held (across the former toolsets of a regrouped folder, see `regroup`): not a
    candidate at base."""
    if head.full:
        return base, head
    both = [d for d in diff.changed if d.base is not None and d.head is not None]
    base_c, base_cores = candidate_pairs([d.base for d in both if d.base is not None], config)
    head_c, head_cores = candidate_pairs([d.head for d in both if d.head is not None], config)
    b_pairs: set[tuple[str, str, str]] = set()
    h_pairs: set[tuple[str, str, str]] = set()
    near: set[Key] = set()
    for d in both:
        assert d.base_id is not None
        new_name = {c.previous_name: c.name for c in d.tools if c.previous_name is not None}
        old_name = {v: k for k, v in new_name.items()}
        at_base = {_pair(new_name.get(a, a), new_name.get(b, b)) for a, b in base_c.get(d.base_id, ())
                   if unseen is None or not unseen(d.base_id, a, b)}
        at_head = head_c.get(d.id, set())
        for a, b in at_head:
            if (d.id, a) in head.changed and (d.id, b) not in head.changed:
                near.add((d.id, b))
            elif (d.id, b) in head.changed and (d.id, a) not in head.changed:
                near.add((d.id, a))
        # An unchanged tool whose vendor edges the PR's tools changed (`brave_` is a vendor once
        # `tavily_search` joins `brave_search`) is seen anew in every pair it is a candidate in.
        was, now = base_cores.get(d.base_id, {}), head_cores.get(d.id, {})
        seen_anew = {n for n, core in now.items() if (d.id, n) not in head.changed
                     and was.get(old_name.get(n, n), core) != core}
        flipped = at_base ^ at_head
        for a, b in flipped | {p for p in at_base | at_head if not seen_anew.isdisjoint(p)}:
            if (d.id, a) in head.changed or (d.id, b) in head.changed:
                continue
            h_pairs.add((d.id, a, b))
            b_pairs.add((d.base_id, *_pair(old_name.get(a, a), old_name.get(b, b))))
    return (Scope(base.changed, base.changed_toolsets, False, base.neighbours, frozenset(b_pairs)),
            Scope(head.changed, head.changed_toolsets, False, frozenset(near), frozenset(h_pairs)))
