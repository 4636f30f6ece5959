"""Baselines and ignores: what an adopting team has already accepted, so only new findings fail a run."""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tooldiff.config import Config, Ignore
from tooldiff.model import Finding

BASELINE_VERSION = 1


@dataclass(frozen=True, slots=True)
class Baseline:
    """Fingerprint -> the reason it was accepted; `rows` holds each entry as stored, to write back."""

    entries: Mapping[str, str] = field(default_factory=dict)
    rows: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


class BaselineError(ValueError):
    pass


def load_baseline(data: bytes | None, path: str = ".tooldiff-baseline.json") -> Baseline:
    if data is None:
        return Baseline()
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})") from None
    except ValueError as exc:  # not UTF-8
        raise BaselineError(f"{path}: not a tooldiff baseline: {exc}") from None
    items = doc.get("findings") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise BaselineError(f"{path}: not a tooldiff baseline: expected an object with a `findings` list, "
                            "as `tooldiff baseline` writes it")
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise BaselineError(f"{path}: findings[{k}] is not an object")
        if not isinstance(item.get("fingerprint"), str):
            raise BaselineError(f"{path}: findings[{k}] has no `fingerprint` string")
    return Baseline({i["fingerprint"]: str(i.get("reason", "")) for i in items},
                    {i["fingerprint"]: dict(i) for i in items})


def outside(
    baseline: Baseline, paths: Sequence[str], tools: Collection[tuple[str, str]]
) -> list[Mapping[str, Any]]:
    """The entries a run over `paths` did not check, so a partial `tooldiff baseline` must keep them.

    `tools`: the (toolset, tool name) pairs the run read. An entry is checked when its toolset is a file or
    folder under one of `paths`, or when the run read its toolset and every tool it names (a config toolset
    read in part keeps the entries of the tools it did not read); an entry that names no toolset cannot be
    placed and is kept. No paths: the run checked all."""
    if not paths:
        return []
    read = {ts for ts, _ in tools}

    def checked(row: Mapping[str, Any]) -> bool:
        toolset = str(row["toolset"])
        if any(toolset == p or toolset.startswith(p + "/") for p in paths):
            return True
        listed = row.get("tools")
        names: list[Any] = listed if isinstance(listed, list) else []
        return toolset in read and all((toolset, str(n)) in tools for n in names)

    return [row for row in baseline.rows.values() if not row.get("toolset") or not checked(row)]


def moved_reasons(baseline: Baseline, toolsets: Collection[str]) -> dict[tuple[str, tuple[str, ...]], str]:
    """(code, tools) -> reason, from the entries of toolsets that are gone (a renamed file's id is its new
    path), where all the entries of that code and those tools agree on one reason."""
    found: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    for row in baseline.rows.values():
        if row.get("toolset") in toolsets or not isinstance(row.get("tools"), list):
            continue
        key = (str(row.get("code")), tuple(sorted(str(t) for t in row["tools"])))
        found.setdefault(key, set()).add(str(row.get("reason", "")))
    return {key: next(iter(reasons)) for key, reasons in found.items() if len(reasons) == 1}


STALE_TOOLSETS_SHOWN = 5


def stale_notes(baseline: Baseline, findings: Iterable[Finding], toolsets: Collection[str],
                unread: Callable[[str], bool] = lambda _: False,
                judged: Callable[[str], bool] = lambda _: True) -> list[str]:
    """What a whole-tree run says of the baseline entries that matched no finding: those of a toolset the
    run does not have (a renamed file: its accepted findings are back as new, with no other word why), and
    those of toolsets it has (fixed: left in, they would accept the problem again if it came back).
    `unread(toolset)`: a toolset the run could not read (a file that does not parse, one the config leaves
    out, configured `sources`); `judged(code)`: a rule the run ran. Other entries are not judged."""
    matched = {f.fingerprint for f in findings}
    stale: dict[str, int] = {}
    for fingerprint, row in baseline.rows.items():
        toolset = str(row.get("toolset") or "")
        if fingerprint not in matched and judged(str(row.get("code"))) and not unread(toolset):
            stale[toolset] = stale.get(toolset, 0) + 1
    gone = sorted(ts for ts in stale if ts not in toolsets)
    notes = [f"The baseline holds {_entries(stale[ts])} for toolset {ts or '(none named)'}, which this run "
             "does not have (a renamed or moved file, a regrouped folder, a new `toolsets` entry?): the "
             "findings they accepted count as new until `tooldiff baseline` writes them again."
             for ts in gone[:STALE_TOOLSETS_SHOWN]]
    if len(gone) > STALE_TOOLSETS_SHOWN:
        rest = gone[STALE_TOOLSETS_SHOWN:]
        notes.append(f"The baseline also holds {_entries(sum(stale[ts] for ts in rest))} for {len(rest)} "
                     "more toolsets this run does not have.")
    kept = sorted(ts for ts in stale if ts in toolsets)
    if kept:
        where = ", ".join(kept[:STALE_TOOLSETS_SHOWN]) + (f" and {len(kept) - STALE_TOOLSETS_SHOWN} more"
                                                           if len(kept) > STALE_TOOLSETS_SHOWN else "")
        count = sum(stale[ts] for ts in kept)
        notes.append(f"{_entries(count)} of the baseline {'match' if count != 1 else 'matches'} no finding "
                     f"any more (fixed?), in {where}: `tooldiff baseline` drops "
                     f"{'them' if count != 1 else 'it'}, so a problem fixed once cannot come back unseen.")
    return notes


def within(toolset: str, files: Iterable[str]) -> bool:
    """Whether one of `files` is the toolset's file or inside its folder."""
    return any(f == toolset or f.startswith(toolset + "/") for f in files)


def _entries(count: int) -> str:
    return f"{count} entr{'ies' if count != 1 else 'y'}"


def dump_baseline(findings: Iterable[Finding], reason: str = "accepted when the baseline was written",
                  keep: Iterable[Mapping[str, Any]] = (),
                  moved: Mapping[tuple[str, tuple[str, ...]], str] | None = None) -> str:
    """The baseline of `findings`: those already baselined keep the reason they were accepted with (a team
    may have edited it), the others get `reason`, or the reason of the same finding in a toolset that is
    gone (`moved_reasons`). `keep`: entries written back as they are (see `outside`)."""
    moved = moved or {}

    def accepted(f: Finding) -> str:
        if f.status == "baselined" and f.reason:
            return f.reason
        return moved.get((f.code, tuple(sorted(f.tools))), reason)

    rows: dict[str, Mapping[str, Any]] = {str(row["fingerprint"]): row for row in keep}
    rows |= {
        f.fingerprint: {"fingerprint": f.fingerprint, "code": f.code, "tools": list(f.tools),
                        "toolset": f.toolset, "reason": accepted(f)}
        for f in findings
        if f.code != "parse-error"
    }
    doc = {"version": BASELINE_VERSION, "findings": [rows[k] for k in sorted(rows)]}
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def _ignore_reason(finding: Finding, config: Config) -> str | None:
    """The reason of the first ignore that matches the finding, or None."""
    return next((ig.reason for ig in config.ignores if ignore_matches(ig, finding)), None)


def ignore_matches(ig: Ignore, finding: Finding) -> bool:
    if ig.code not in (finding.code, "*"):
        return False
    # A toolset finding (too-many-tools, token-budget) names no tool: `tool` then matches its toolset.
    # A parse-error names none either, and no ignore of a tool may hide a file that does not parse.
    names = finding.tools or (() if finding.code == "parse-error" else (finding.toolset,))
    return ig.tool == "*" or any(fnmatch.fnmatchcase(name, ig.tool) for name in names)


def apply_status(findings: Iterable[Finding], baseline: Baseline, config: Config) -> list[Finding]:
    """Mark ignored and baselined findings, with the reason they were accepted; leave `new` and `existing`
    as they are otherwise."""
    if not config.ignores and not baseline.entries:
        return list(findings)  # nothing to mark (this runs after the workers, on the critical path)
    out: list[Finding] = []
    for f in findings:
        reason = _ignore_reason(f, config)
        if reason is not None:
            f = replace(f, status="ignored", reason=reason)
        elif f.fingerprint in baseline.entries:
            f = replace(f, status="baselined", reason=baseline.entries[f.fingerprint])
        out.append(f)
    return out
