"""The Mermaid overlap graph: clusters with findings only, a node cap, safe labels."""

from __future__ import annotations

import re
from dataclasses import replace

from tooldiff.render import graph

from . import reports


def _ring(n: int, status: str = "new") -> tuple[reports.Finding, ...]:
    return tuple(
        reports.finding(
            "intent-overlap", "warning", (f"t{i:02d}", f"t{(i + 1) % n:02d}"), "overlap", status=status
        )  # type: ignore[arg-type]
        for i in range(n)
    )


def test_node_cap_keeps_the_picture_small() -> None:
    report = replace(reports.overlap_pr(), findings=_ring(30))
    g = graph.overlap_graph(report, crowded_only=False, cap=20)
    assert g is not None
    assert g.nodes == 20 and g.left_out == 10
    assert len(re.findall(r'n\d+\["t\d\d"\]', g.text)) == 20


def test_comment_draws_only_crowded_clusters_that_grew() -> None:
    pair_only = replace(reports.overlap_pr(), findings=_ring(2))
    assert graph.overlap_graph(pair_only, crowded_only=True) is None
    assert graph.overlap_graph(pair_only, crowded_only=False) is not None
    old = replace(reports.overlap_pr(), findings=_ring(4, status="existing"))
    assert graph.overlap_graph(old, crowded_only=True) is None


def test_single_tool_findings_are_not_edges() -> None:
    report = replace(
        reports.overlap_pr(), findings=tuple(f for f in reports.overlap_pr().findings if len(f.tools) == 1)
    )
    assert graph.overlap_graph(report, crowded_only=False) is None


def test_hostile_names_cannot_break_the_diagram() -> None:
    g = graph.overlap_graph(reports.hostile(), crowded_only=False)
    assert g is not None
    body = g.text.split("\n")[1:-1]
    assert all("```" not in line and "<" not in line and "click" not in line.split('"')[0] for line in body)
