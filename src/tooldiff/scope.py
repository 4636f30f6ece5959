"""Which tools, pairs and toolsets a diff run analyses: the changed tools and their neighbours.

Schema rules run on changed tools, pair rules on pairs that hold a changed tool (the engine filters
the pairs of the ONE candidate search, `pairs.candidates`, so a diff never sees fewer pairs than
`check`), toolset rules on changed toolsets. A config or target-data change means full scope.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    # Tools a pair rule's candidate search pairs with a changed tool (informational: see `neighbours`).
    neighbours: frozenset[Key] = field(default=frozenset())

    def in_scope_tool(self, toolset_id: str, name: str) -> bool:
        return self.full or (toolset_id, name) in self.changed

    def in_scope_pair(self, toolset_id: str, a: str, b: str) -> bool:
        return self.full or (toolset_id, a) in self.changed or (toolset_id, b) in self.changed

    def in_scope_toolset(self, toolset_id: str) -> bool:
        return self.full or toolset_id in self.changed_toolsets


FULL = Scope(full=True)


def scopes(diff: TreeDiff, *, full: bool = False) -> tuple[Scope, Scope]:
    """The scope at base (base ids and names) and at head. Removed tools count as changed at base,
    added ones at head; a modified or renamed tool counts on both sides."""
    base: set[Key] = set()
    head: set[Key] = set()
    base_sets: set[str] = set()
    head_sets: set[str] = set()
    for d in diff.changed:
        if d.base_id is not None:
            base_sets.add(d.base_id)
        if d.head is not None:
            head_sets.add(d.id)
        for c in d.changes:
            if c.base is not None and d.base_id is not None:
                base.add((d.base_id, c.base.name))
            if c.head is not None:
                head.add((d.id, c.head.name))
    return (Scope(frozenset(base), frozenset(base_sets), full),
            Scope(frozenset(head), frozenset(head_sets), full))


def neighbours(scope: Scope, toolsets: Sequence[Toolset], config: Config) -> Scope:
    """`scope` with its neighbours: every unchanged tool that `pairs.candidates` pairs with a changed
    one, in the same toolset. Uses the engine's own view construction so the pairs are the same."""
    from tooldiff import pairs, rules
    from tooldiff.engine import Engine

    eng = Engine(config, {})
    codes = [c for c in rules.PAIR_PRECEDENCE if c in eng.enabled]
    if not codes or scope.full:
        return scope
    found: set[Key] = set()
    for ts in toolsets:
        if ts.id not in scope.changed_toolsets or len(ts.tools) < 2:
            continue
        ctx = eng.context(codes[0], (), ts.id)
        views = [pairs.analyse(t, ctx) for t in ts.tools]
        for i, j in pairs.candidates(views):
            a, b = (ts.id, ts.tools[i].name), (ts.id, ts.tools[j].name)
            if a in scope.changed and b not in scope.changed:
                found.add(b)
            elif b in scope.changed and a not in scope.changed:
                found.add(a)
    return Scope(scope.changed, scope.changed_toolsets, scope.full, frozenset(found))
