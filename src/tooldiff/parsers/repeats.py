"""Keys written twice in one object: JSON and YAML parsers keep the last value and say nothing.

The JSON decoder reports each object whose pairs outnumber its keys (`object_pairs`); the fast parse
reports the objects it builds itself (`note`). Only a document that had any is walked again, to find
where they are (`take`), so a clean file pays for one `dict` call per object.
"""

from __future__ import annotations

from typing import Any

from tooldiff.positions import Path

# (the object as parsed, its repeated keys with how often each was written)
_SEEN: list[tuple[dict[str, Any], tuple[tuple[str, int], ...]]] = []

Repeat = tuple[Path, str, int]  # (path of the object in its document, the key, times written)


def object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`object_pairs_hook` for json: the dict json would build, noting repeated keys."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        note(obj, [k for k, _ in pairs])
    return obj


def note(obj: dict[str, Any], keys: list[str]) -> None:
    """`keys`: every key of `obj` as written, repeats included."""
    counts: dict[str, int] = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    _SEEN.append((obj, tuple((k, n) for k, n in counts.items() if n > 1)))


def clear() -> None:
    _SEEN.clear()


def take(value: Any) -> tuple[Repeat, ...]:
    """Where in `value` the objects noted since `clear` are; objects noted but not in `value` (a first
    parse thrown away) are dropped. Clears."""
    if not _SEEN:
        return ()
    wanted = {id(obj): keys for obj, keys in _SEEN}
    out: list[Repeat] = []
    stack: list[tuple[Any, Path]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        if not wanted:
            break
        if isinstance(node, dict):
            keys = wanted.pop(id(node), None)
            if keys is not None:
                out.extend((path, k, n) for k, n in keys)
            stack.extend((v, (*path, k)) for k, v in node.items() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend((v, (*path, str(i))) for i, v in enumerate(node) if isinstance(v, dict | list))
    _SEEN.clear()  # after the walk: the noted objects stay alive, so no id was reused meanwhile
    return tuple(sorted(out))
