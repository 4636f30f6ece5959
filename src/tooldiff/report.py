"""Assembles a `Report` for a single tree (check and audit modes)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tooldiff import tokens
from tooldiff.config import Config
from tooldiff.engine import Analysis, tool_key
from tooldiff.model import Finding, Report, ToolReport, Toolset, ToolsetReport

TokenRow = dict[str, dict[str, int | None]]


def head_only(counts: Mapping[str, int]) -> TokenRow:
    return {m: {"base": None, "head": n, "delta": None} for m, n in sorted(counts.items())}


def _shared_rows() -> Callable[[Mapping[str, int]], TokenRow]:
    """`head_only`, one row object per distinct count for one call of `tool_reports`: reports never change
    their rows, 20k tools have a few hundred distinct counts, and a worker pickles each row once."""
    rows: dict[tuple[tuple[str, int], ...], TokenRow] = {}

    def row(counts: Mapping[str, int]) -> TokenRow:
        key = tuple(counts.items())
        got = rows.get(key)
        if got is None:
            got = rows[key] = head_only(counts)
        return got

    return row


def tool_reports(toolsets: Sequence[Toolset], analysis: Analysis) -> list[ToolReport]:
    out = []
    row = _shared_rows()
    for ts in toolsets:
        for t in ts.tools:
            key = tool_key(ts.id, t)
            out.append(ToolReport(
                name=t.name, toolset=ts.id, file=t.file, line=t.line, end_line=t.end_line, format=t.format,
                targets=analysis.targets.get(key, ()), schema_hash=analysis.hashes.get(key, ""),
                tokens=row(analysis.tokens.get(key, {})), description_chars=tokens.utf16_units(t.description),
                pointer=t.pointer,
            ))
    return out


def toolset_reports(toolsets: Sequence[Toolset], analysis: Analysis, config: Config) -> list[ToolsetReport]:
    return [
        ToolsetReport(
            id=ts.id, files=ts.files, tool_count=len(ts.tools),
            tokens=head_only(tokens.sum_counts(analysis.tokens.get(tool_key(ts.id, t), {})
                                               for t in ts.tools)),
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
    return assemble(mode, toolset_reports(toolsets, analysis, config), tool_reports(toolsets, analysis),
                    findings, analysis.stats, notes=notes, head_ref=head_ref, token_methods=token_methods,
                    fail_on=config.fail_on)


def assemble(
    mode: str,
    toolsets: Sequence[ToolsetReport],
    tools: Sequence[ToolReport],
    findings: Sequence[Finding],
    stats: Mapping[str, int],
    *,
    notes: Sequence[str] = (),
    head_ref: str | None = None,
    token_methods: Sequence[str] | None = None,
    fail_on: str = "error",
) -> Report:
    """The report of one tree from its parts (also the parts that workers computed)."""
    assert mode in ("check", "audit")
    return Report(
        mode="audit" if mode == "audit" else "check",
        toolsets=tuple(toolsets),
        tools=tuple(tools),
        findings=tuple(findings),
        stats=dict(stats),
        token_methods=tokens.methods_counted(token_methods),
        notes=tuple(notes),
        head_ref=head_ref,
        fail_on=fail_on,
    )
