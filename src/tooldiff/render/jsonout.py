"""`--format json`: the v1 contract in `data/report.schema.json`.

Equal reports give byte-identical output: keys sorted, lists in a fixed order, no timings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import tooldiff
from tooldiff import schemadiff
from tooldiff.model import ACCEPTED, SEVERITIES, Finding, Report, ToolReport, ToolsetReport
from tooldiff.render.context import RenderContext
from tooldiff.tokens import METHOD_NOTES

VERSION = 1
STATUSES = ("new", "existing", "baselined", "ignored")


def _plain(value: Any) -> Any:
    """Evidence as JSON values: mappings with string keys, tuples and sets as lists."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _tokens(tokens: Mapping[str, Mapping[str, int | None]]) -> dict[str, dict[str, int | None]]:
    return {m: {k: cell.get(k) for k in ("base", "head", "delta")} for m, cell in tokens.items()}


def _finding_key(f: Finding) -> tuple[str, str, int, str, tuple[str, ...], str, str]:
    return (f.toolset, f.file, f.line, f.code, f.tools, f.pointer, f.fingerprint)


def finding(f: Finding) -> dict[str, Any]:
    out = {
        "code": f.code,
        "severity": f.severity,
        "status": f.status,
        "message": f.message,
        "fix": f.fix,
        "evidence": _plain(f.evidence),
        "tools": list(f.tools),
        "related": list(f.related),
        "toolset": f.toolset,
        "file": f.file,
        "line": f.line,
        "pointer": f.pointer,
        "targets": list(f.targets),
        "fingerprint": f.fingerprint,
    }
    if f.status in ACCEPTED:
        out["reason"] = f.reason
    return out


def tool(t: ToolReport) -> dict[str, Any]:
    return {
        "name": t.name,
        "toolset": t.toolset,
        "file": t.file,
        "line": t.line,
        "end_line": t.end_line,
        "format": t.format,
        "targets": list(t.targets),
        "schema_hash": t.schema_hash,
        "previous_schema_hash": t.previous_schema_hash,
        "previous_name": t.previous_name,
        "change": t.change,
        "changed_parts": list(t.changed_parts),
        "details": schemadiff.capped(t.details),
        "description_chars": t.description_chars,
        "moved": t.moved,
        "tokens": _tokens(t.tokens),
    }


def toolset(ts: ToolsetReport) -> dict[str, Any]:
    return {
        "id": ts.id,
        "files": list(ts.files),
        "tool_count": ts.tool_count,
        "change": ts.change,
        "previous_id": ts.previous_id,
        "budget": ts.budget,
        "tokens": _tokens(ts.tokens),
    }


def _counts(findings: Iterable[Finding]) -> dict[str, int]:
    out: dict[str, int] = {s: 0 for s in SEVERITIES}
    for f in findings:
        out[f.severity] += 1
    return out


def as_dict(report: Report) -> dict[str, Any]:
    counts = {s: _counts(f for f in report.findings if f.status == s) for s in STATUSES}
    counts["resolved"] = _counts(report.resolved)
    return {
        "version": VERSION,
        "tooldiff": tooldiff.__version__,
        "mode": report.mode,
        "base_ref": report.base_ref,
        "head_ref": report.head_ref,
        "token_methods": list(report.token_methods),
        "token_method_notes": {m: METHOD_NOTES[m] for m in report.token_methods if m in METHOD_NOTES},
        "toolsets": [toolset(ts) for ts in sorted(report.toolsets, key=lambda t: t.id)],
        "tools": [tool(t) for t in sorted(report.tools, key=lambda t: (t.toolset, t.name, t.file, t.line))],
        "findings": [finding(f) for f in sorted(report.findings, key=_finding_key)],
        "resolved": [finding(f) for f in sorted(report.resolved, key=_finding_key)],
        "counts": counts,
        "stats": {k: int(v) for k, v in report.stats.items()},
        "notes": list(report.notes),
        "config_changes": list(report.config_changes),
    }


def render(report: Report, ctx: RenderContext) -> str:
    return json.dumps(as_dict(report), sort_keys=True, indent=2, ensure_ascii=True) + "\n"
