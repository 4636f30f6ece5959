"""The overlap graph as a Mermaid diagram: tools are nodes, pairwise findings are edges labelled by code.

Only clusters (connected components) that carry findings are drawn, and at most `cap` nodes, because a
reviewer reads a picture of a crowded intent, not of the whole toolset. Labels go through `escape.mermaid`,
which keeps only characters that mean nothing to Mermaid or Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass

from tooldiff.model import Finding, Report
from tooldiff.render.escape import mermaid
from tooldiff.render.view import changed_tools

LEGEND = (
    "Legend: each box is a tool (thick border: changed in this PR); a solid line is a new finding, "
    "a dotted line an existing one; the label is the rule code."
)


@dataclass(frozen=True, slots=True)
class Graph:
    text: str
    nodes: int
    left_out: int


def _components(edges: dict[tuple[str, str, str], list[Finding]]) -> list[tuple[str, set[str]]]:
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(x: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for ts, a, b in edges:
        parent[find((ts, a))] = find((ts, b))
    groups: dict[tuple[str, str], set[str]] = {}
    for node in list(parent):
        groups.setdefault(find(node), set()).add(node[1])
    return [(root[0], names) for root, names in groups.items()]


def overlap_graph(report: Report, *, crowded_only: bool, cap: int = 20) -> Graph | None:
    """The diagram, or None when no cluster qualifies.

    `crowded_only` (the PR comment): only clusters of three or more tools that gained a new finding.
    """
    edges: dict[tuple[str, str, str], list[Finding]] = {}
    for f in report.findings:
        pair = sorted(set(f.tools))
        if len(pair) == 2:
            edges.setdefault((f.toolset, pair[0], pair[1]), []).append(f)
    clusters: list[tuple[bool, int, str, list[str], dict[tuple[str, str, str], list[Finding]]]] = []
    for ts, names in _components(edges):
        mine = {k: v for k, v in edges.items() if k[0] == ts and k[1] in names}
        fresh = any(f.status == "new" for fs in mine.values() for f in fs)
        if crowded_only and (len(names) < 3 or not fresh):
            continue
        clusters.append((not fresh, -len(names), ts, sorted(names), mine))
    if not clusters:
        return None
    clusters.sort(key=lambda c: (c[0], c[1], c[2], c[3]))
    total = sum(len(c[3]) for c in clusters)
    changed = {(t.toolset, t.name) for t in changed_tools(report)}
    lines = ["```mermaid", "graph LR"]
    ids: dict[tuple[str, str], str] = {}
    links: list[str] = []
    for i, (_, _, ts, members, mine) in enumerate(clusters):
        room = cap - len(ids)
        if room < 2:
            break
        # Past the cap keep the best-connected tools of the cluster.
        degree = {n: sum(n in k[1:] for k in mine) for n in members}
        keep = sorted(members, key=lambda n: -degree[n])[:room]
        lines.append(f'  subgraph c{i}["{mermaid(ts, 60)}"]')
        for name in sorted(keep):
            ids[(ts, name)] = f"n{len(ids)}"
            lines.append(f'    {ids[(ts, name)]}["{mermaid(name)}"]')
        lines.append("  end")
        for (_, a, b), fs in sorted(mine.items()):
            if (ts, a) in ids and (ts, b) in ids:
                arrow = "---" if any(f.status == "new" for f in fs) else "-.-"
                label = " / ".join(sorted({mermaid(f.code) for f in fs}))
                links.append(f'  {ids[(ts, a)]} {arrow}|"{label}"| {ids[(ts, b)]}')
    lines += links
    marked = [v for k, v in ids.items() if k in changed]
    if marked:
        lines += ["  classDef changed stroke-width:4px", f"  class {','.join(marked)} changed"]
    lines.append("```")
    return Graph("\n".join(lines), len(ids), total - len(ids))
