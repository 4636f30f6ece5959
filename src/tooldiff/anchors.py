"""Where a finding can sit as a review comment: lines of the PR diff, read with unidiff.

GitHub accepts a line comment only on a line its diff shows (RIGHT side: an added or a context line);
anything else answers 422. So we compute the visible lines from the PR's own patch before posting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from tooldiff.model import Finding, ToolReport, reported_at


@dataclass(frozen=True, slots=True)
class FileLines:
    """Head-side line numbers of one file in the PR diff."""

    visible: frozenset[int]
    added: tuple[int, ...]


def parse_patch(patch: str) -> FileLines:
    """Lines of a `files[].patch` (hunks only, as the PR files API gives them)."""
    # A fixed header name: real paths may hold spaces or newlines that unidiff's header regex rejects.
    text = "--- a/f\n+++ b/f\n" + patch + ("" if patch.endswith("\n") else "\n")
    try:
        patched = PatchSet(text)
    except UnidiffParseError:
        return FileLines(frozenset(), ())
    visible: set[int] = set()
    added: list[int] = []
    for pfile in patched:
        for hunk in pfile:
            for line in hunk:
                if line.target_line_no is None:
                    continue
                visible.add(line.target_line_no)
                if line.is_added:
                    added.append(line.target_line_no)
    return FileLines(frozenset(visible), tuple(sorted(added)))


def diff_lines(files: Iterable[tuple[str, str | None]]) -> dict[str, FileLines]:
    """(path, patch) pairs -> lines per path. A file without a patch (binary, too big) has none."""
    return {path: parse_patch(patch) if patch else FileLines(frozenset(), ()) for path, patch in files}


def tool_span(finding: Finding, tools: Sequence[ToolReport]) -> tuple[int, int]:
    """The head lines of the tool a finding is about, in the finding's file: the tool it was reported at
    (of two same-named tools, lines cannot tell which: a finding in a YAML anchor is outside both), else one
    whose lines hold the finding's."""
    named = [t for t in tools
             if t.file == finding.file and t.name in finding.tools and t.toolset == finding.toolset]
    at = [t for t in named if reported_at(finding, t)] or named
    return (at[0].line, max(at[0].end_line, at[0].line)) if at else (finding.line, finding.line)


def anchor(finding: Finding, tools: Sequence[ToolReport], lines: Mapping[str, FileLines]) -> int | None:
    """The finding's line if the diff shows it, else the tool's line, else its first added line."""
    fl = lines.get(finding.file)
    if fl is None:
        return None
    start, end = tool_span(finding, tools)
    for candidate in (finding.line, start):
        if candidate in fl.visible:
            return candidate
    return next((n for n in fl.added if start <= n <= end), None)
