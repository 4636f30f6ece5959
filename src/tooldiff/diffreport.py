"""Assembles the diff `Report`: new, existing and resolved findings, token deltas, schemaHash changes.

Base findings are first re-keyed to head identities (a moved file keeps its toolset, a renamed tool its
findings, so does a tool moved to another toolset), then new = head - base and resolved = base - head, by
fingerprint.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from tooldiff import schemadiff, tokens
from tooldiff.diff import MovedIn, ToolChange, ToolsetDiff, TreeDiff
from tooldiff.engine import Analysis, tool_key
from tooldiff.model import Finding, ToolReport, ToolsetReport, fingerprint

TokenRow = dict[str, dict[str, int | None]]


def translate(
    findings: Iterable[Finding], diff: TreeDiff, renames: Mapping[str, str] | None = None,
    moves: Mapping[tuple[str, str], str] | None = None,
) -> list[Finding]:
    """Base findings under their head toolset ids and tool names, fingerprints recomputed.

    A file that fails to parse has no toolset: its `parse-error` follows the file's rename (git's `renames`,
    old path -> new path), so a moved broken file is one existing finding, not one new and one resolved."""
    sets, names, namesakes = diff.toolset_map(), diff.name_map(), diff.namesake_renames()
    moves = diff.move_map() if moves is None else moves
    out = []
    for f in findings:
        if f.code == "parse-error" and renames and f.file in renames:
            moved = renames[f.file]
            f = replace(f, file=moved, toolset=moved,
                        fingerprint=fingerprint(f.code, moved, f.tools, f.pointer))
            out.append(f)
            continue
        ts = sets.get(f.toolset, f.toolset)
        went = {moves.get((f.toolset, n)) for n in f.tools}
        if len(went) == 1 and None not in went:  # every tool of it moved, together, to one toolset
            ts = str(went.pop())
        tools = tuple(names.get((f.toolset, n), n) for n in f.tools)
        if len(tools) == 2 and tools[0] == tools[1] and (f.toolset, tools[0]) in namesakes:
            tools = (tools[0], namesakes[(f.toolset, tools[0])])  # the namesakes' pair: one was renamed
        if (ts, tools) != (f.toolset, f.tools):
            f = replace(f, toolset=ts, tools=tools, fingerprint=fingerprint(f.code, ts, tools, f.pointer))
        out.append(f)
    return out


def compare(base: Sequence[Finding], head: Sequence[Finding], at_base: Sequence[Finding] | None = None
            ) -> tuple[list[Finding], list[Finding]]:
    """(head findings marked new or existing, resolved base findings). `base` must be translated;
    `at_base`, the same findings untranslated, places a resolved one where it was (a renamed file's old
    path: its line is the base file's, and a link to it is made at the base)."""
    base_fps = {f.fingerprint for f in base}
    head_fps = {f.fingerprint for f in head}
    marked = [replace(f, status="existing" if f.fingerprint in base_fps else "new") for f in head]
    seen: set[str] = set()
    resolved = []
    for k, f in enumerate(base):
        if f.fingerprint not in head_fps and f.fingerprint not in seen:
            seen.add(f.fingerprint)
            was = at_base[k] if at_base is not None else f
            resolved.append(replace(f, status="resolved", file=was.file, line=was.line))
    return marked, resolved


def token_row(base: Mapping[str, int] | None, head: Mapping[str, int] | None) -> TokenRow:
    """Per method {base, head, delta}; an absent side is None, and counts as 0 in the delta."""
    methods = sorted(set(base or {}) | set(head or {}))
    row: TokenRow = {}
    for m in methods:
        b = None if base is None else base.get(m)
        h = None if head is None else head.get(m)
        row[m] = {"base": b, "head": h, "delta": (h or 0) - (b or 0)}
    return row


def tool_report(d: ToolsetDiff, c: ToolChange, base: Analysis, head: Analysis,
                moves: Mapping[tuple[str, str], str] | None = None,
                moved_in: Mapping[tuple[str, str], MovedIn] | None = None) -> ToolReport:
    """`moves`: `moved_rows(TreeDiff.move_map())`, for the toolset a moved tool came from or went to;
    `moved_in`: `TreeDiff.moved_in()`, for the tool a moved tool was in its old toolset (its old name, its
    schemaHash there, and what the PR changed besides the move), on the row of the toolset it joined."""
    at = c.head or c.base
    assert at is not None
    bkey = tool_key(d.base_id or "", c.base) if c.base is not None else None
    hkey = tool_key(d.id, c.head) if c.head is not None else None
    # A head toolset never both loses and gains one name, so only a tool that joined it matches here.
    came = (moved_in or {}).get((d.id, c.name)) if c.change == "added" else None
    was, parts = (c.base, c.changed_parts) if came is None else (came.base, came.changed_parts)
    return ToolReport(
        name=c.name, toolset=d.id, file=at.file, line=at.line, end_line=at.end_line, format=at.format,
        targets=(head.targets.get(hkey, ()) if hkey else base.targets.get(bkey, ()) if bkey else ()),
        schema_hash=head.hashes.get(hkey, "") if hkey else "",
        previous_schema_hash=(base.hashes.get(bkey) if bkey else
                              base.hashes.get(tool_key(came.source, came.base)) if came else None),
        # A moved tool's tokens stay per toolset: its old toolset's row has the base count.
        tokens=token_row(base.tokens.get(bkey) if bkey else None, head.tokens.get(hkey) if hkey else None),
        change=c.change, changed_parts=parts,
        previous_name=c.previous_name or (came.base.name if came and came.base.name != c.name else None),
        details=schemadiff.details(was, c.head) if was is not None and c.head is not None else (),
        description_chars=tokens.utf16_units(at.description),
        moved=_moved(d, c, moves or {}),
        pointer=at.pointer,
    )


def moved_rows(
    moves: Mapping[tuple[str, str], str], renamed: Mapping[tuple[str, str], tuple[str, str]] | None = None
) -> dict[tuple[str, str], str]:
    """`TreeDiff.move_map()` with the way back: (head toolset, name) -> base toolset, for the row of the tool
    that joined, under its new name where it moved renamed (`renamed`: `TreeDiff.moved_renames()`). A
    toolset cannot both lose and gain one name (the two would pair as one tool), so the keys of the two
    directions never meet."""
    renamed = renamed or {}
    back = {(dst, name): src for (src, name), dst in moves.items() if (src, name) not in renamed}
    back.update({(dst, new): src for (src, _), (dst, new) in renamed.items()})
    return {**moves, **back}


def _moved(d: ToolsetDiff, c: ToolChange, moves: Mapping[tuple[str, str], str]) -> str | None:
    if c.change == "removed" and d.base_id is not None:
        return moves.get((d.base_id, c.name))
    return moves.get((d.id, c.name)) if c.change == "added" else None


def toolset_report(d: ToolsetDiff, base: Analysis, head: Analysis, budget: int | None) -> ToolsetReport:
    b_id = d.base_id or ""
    b = tokens.sum_counts(base.tokens.get(tool_key(b_id, t), {}) for t in d.base.tools) if d.base else None
    h = tokens.sum_counts(head.tokens.get(tool_key(d.id, t), {}) for t in d.head.tools) if d.head else None
    files = d.head.files if d.head else d.base.files if d.base else ()
    return ToolsetReport(id=d.id, files=files, tool_count=len(d.head.tools) if d.head else 0,
                         tokens=token_row(b, h), budget=budget, change=d.status,
                         previous_id=d.base_id if d.base_id not in (None, d.id) else None)

