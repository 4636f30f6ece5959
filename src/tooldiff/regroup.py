"""The base of a diff grouped as the head is, where a folder of one-tool files stops (or starts) being one.

A folder whose files each hold one tool is one toolset (`discover.group_toolsets`); once one of its files
holds two tools, each file is a toolset. A PR that adds a second tool to one file (or takes it away) would
otherwise show every other tool of the folder as removed from one toolset and added to another.

The head is always analysed as it is grouped, so its findings are those of `check` at head. The base is
regrouped to match: a folder toolset split into a toolset per file, or toolsets per file merged into the
folder's. In a merged base, pairs across two of its former toolsets were never compared at base, so their
findings are dropped (`drop_unseen`): at head they are new, as `check` at head minus `check` at base says.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from tooldiff import rules
from tooldiff.model import Finding, Toolset

TOOLSET_CODES = frozenset(code for code, module in rules.registry().items() if module.KIND == "toolset")


def _folder(path: str) -> str:
    return posixpath.dirname(path) or "."


def folder_toolset(ts: Toolset) -> str | None:
    """The folder a folder-of-one-tool-files toolset stands for (its id), else None."""
    if len(ts.files) < 2 or len({_folder(f) for f in ts.files}) != 1:
        return None
    return ts.id if ts.id == _folder(ts.files[0]) else None


def _per_file_folders(toolsets: Sequence[Toolset]) -> set[str]:
    """Folders with two or more files that are each their own toolset: not one-tool folders on this ref."""
    count: dict[str, int] = {}
    for ts in toolsets:
        if ts.files == (ts.id,):
            count[_folder(ts.id)] = count.get(_folder(ts.id), 0) + 1
    return {folder for folder, n in count.items() if n >= 2}


@dataclass(frozen=True, slots=True)
class Aligned:
    base: list[Toolset]
    folders: list[str]  # regrouped, for the note
    # Merged folder id -> tool name -> the former toolsets (files) that held a tool of that name.
    merged: dict[str, dict[str, set[str]]] = field(default_factory=dict)

    def drop_unseen(self, findings: Sequence[Finding]) -> list[Finding]:
        """Base findings without those no base toolset had: on a merged folder, its toolset findings (the
        folder was not a toolset at base) and its pairs across two former toolsets."""
        if not self.merged:
            return list(findings)
        return [f for f in findings if not self._unseen(f)]

    def _unseen(self, f: Finding) -> bool:
        if f.toolset not in self.merged:
            return False
        if f.code in TOOLSET_CODES:
            return True
        return len(f.tools) >= 2 and self.across(f.toolset, f.tools[0], f.tools[1])

    def across(self, toolset_id: str, a: str, b: str) -> bool:
        """Whether the pair (a, b) of a merged folder spans two of its former toolsets (never compared at
        base). Two tools of one name cannot be told apart: counted as across."""
        homes = self.merged.get(toolset_id)
        if homes is None:
            return False
        return a == b or not (homes.get(a, set()) & homes.get(b, set()))


def _split(ts: Toolset) -> list[Toolset]:
    return [Toolset(id=path, files=(path,), tools=tuple(replace(t, toolset=path) for t in ts.tools
                                                         if t.file == path))
            for path in ts.files]


def align(base: Sequence[Toolset], head: Sequence[Toolset]) -> Aligned:
    """The base regrouped where a folder is one toolset on one ref and a toolset per file on the other."""
    split = {f for ts in base if (f := folder_toolset(ts)) is not None} & _per_file_folders(head)
    merge = {f for ts in head if (f := folder_toolset(ts)) is not None} & _per_file_folders(base)
    if not split and not merge:
        return Aligned(list(base), [])
    out: list[Toolset] = []
    parts: dict[str, list[Toolset]] = {}
    for ts in base:
        if folder_toolset(ts) in split:
            out.extend(_split(ts))
        elif ts.files == (ts.id,) and _folder(ts.id) in merge:
            parts.setdefault(_folder(ts.id), []).append(ts)
        else:
            out.append(ts)
    merged: dict[str, dict[str, set[str]]] = {}
    for folder, members in parts.items():
        members.sort(key=lambda ts: ts.id)
        tools = tuple(replace(t, toolset=folder) for ts in members for t in ts.tools)
        out.append(Toolset(id=folder, files=tuple(ts.id for ts in members), tools=tools))
        homes: dict[str, set[str]] = {}
        for ts in members:
            for t in ts.tools:
                homes.setdefault(t.name, set()).add(ts.id)
        merged[folder] = homes
    return Aligned(sorted(out, key=lambda ts: ts.id), sorted(split | merge), merged)


def note(folders: Sequence[str]) -> str:
    # Plain text: notes are escaped for Markdown as untrusted (a folder name is), so no code spans.
    names = ", ".join(f"{f}/" for f in folders)
    return (f"In {names} a file holds more than one tool at one ref and none does at the other, so the "
            "folder is one toolset at one ref and a toolset per file at the other; the base was grouped as "
            "the head is to compare them.")
