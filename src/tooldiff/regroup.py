"""Both refs of a diff grouped alike where a folder of one-tool files stops (or starts) being one.

A folder whose files each hold one tool is one toolset (`discover.group_toolsets`); once one of its files
holds two tools, each file is a toolset. A PR that adds a second tool to one file would otherwise show every
other tool of the folder as removed from one toolset and added to another. Such a folder is compared as a
toolset per file on both refs, and the diff says so.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import replace

from tooldiff.model import Toolset


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


def _split(toolsets: Sequence[Toolset], folders: set[str]) -> list[Toolset]:
    out: list[Toolset] = []
    for ts in toolsets:
        if folder_toolset(ts) not in folders:
            out.append(ts)
            continue
        for path in ts.files:
            tools = tuple(replace(t, toolset=path) for t in ts.tools if t.file == path)
            out.append(Toolset(id=path, files=(path,), tools=tools))
    return sorted(out, key=lambda ts: ts.id)


def align(base: Sequence[Toolset], head: Sequence[Toolset]) -> tuple[list[Toolset], list[Toolset], list[str]]:
    """(base, head, the folders regrouped): a folder that is one toolset on one ref and a toolset per file
    on the other is a toolset per file on both."""
    b_folders = {f for ts in base if (f := folder_toolset(ts)) is not None}
    h_folders = {f for ts in head if (f := folder_toolset(ts)) is not None}
    folders = (b_folders & _per_file_folders(head)) | (h_folders & _per_file_folders(base))
    if not folders:
        return list(base), list(head), []
    return _split(base, folders), _split(head, folders), sorted(folders)


def note(folders: Sequence[str]) -> str:
    # Plain text: notes are escaped for Markdown as untrusted (a folder name is), so no code spans.
    names = ", ".join(f"{f}/" for f in folders)
    return (f"In {names} a file holds more than one tool at one ref and none does at the other, so the "
            "folder is not one toolset there; both refs were compared with a toolset per file.")
