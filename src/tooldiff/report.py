"""Assembles a `Report` for a single tree (check and audit modes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tooldiff import tokens
from tooldiff.config import Config
from tooldiff.engine import Analysis
from tooldiff.model import Finding, Report, ToolReport, Toolset, ToolsetReport

TokenRow = dict[str, dict[str, int | None]]


def head_only(counts: Mapping[str, int]) -> TokenRow:
    return {m: {"base": None, "head": n, "delta": None} for m, n in sorted(counts.items())}


def tool_reports(toolsets: Sequence[Toolset], analysis: Analysis) -> list[ToolReport]:
    out = []
    for ts in toolsets:
        for t in ts.tools:
            key = (ts.id, t.name)
            out.append(ToolReport(
                name=t.name, toolset=ts.id, file=t.file, line=t.line, end_line=t.end_line, format=t.format,
                targets=analysis.targets.get(key, ()), schema_hash=analysis.hashes.get(key, ""),
                tokens=head_only(analysis.tokens.get(key, {})),
            ))
    return out


def toolset_reports(toolsets: Sequence[Toolset], analysis: Analysis, config: Config) -> list[ToolsetReport]:
    return [
        ToolsetReport(
            id=ts.id, files=ts.files, tool_count=len(ts.tools),
            tokens=head_only(tokens.sum_counts(analysis.tokens.get((ts.id, t.name), {}) for t in ts.tools)),
            budget=config.toolset_budget(ts.id),
        )
        for ts in toolsets
    ]


def build_report(
    mode: str,
    toolsets: Sequence[Toolset],
    analysis: Analysis,
    findings: Sequence[Finding],
    config: Config,
    *,
    notes: Sequence[str] = (),
    head_ref: str | None = None,
    token_methods: Sequence[str] | None = None,
) -> Report:
    assert mode in ("check", "audit")
    return Report(
        mode="audit" if mode == "audit" else "check",
        toolsets=tuple(toolset_reports(toolsets, analysis, config)),
        tools=tuple(tool_reports(toolsets, analysis)),
        findings=tuple(findings),
        stats=dict(analysis.stats),
        token_methods=tokens.methods_counted(token_methods),
        notes=tuple(notes),
        head_ref=head_ref,
    )
