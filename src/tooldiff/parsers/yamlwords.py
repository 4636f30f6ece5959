"""The YAML 1.1 boolean words of a schema: plain `yes`, `no`, `on` and `off`, which PyYAML reads as booleans
and YAML 1.2 loaders (js-yaml, Go's yaml.v3) read as strings. `yaml-truthy` reports them."""

from __future__ import annotations

import yaml

from tooldiff.positions import BOOL_TAG, MERGE_TAG, key_token, to_pointer

WORDS = frozenset(["yes", "no", "on", "off"])  # true and false mean the same in YAML 1.1 and 1.2

# (pointer below the node, the word as written, whether it is a mapping key, where it is written)
Word = tuple[str, str, bool, yaml.Mark]


def _ambiguous(node: yaml.Node) -> bool:
    # A plain scalar's style is None from PyYAML's Python parser and "" from its C parser.
    return isinstance(node, yaml.ScalarNode) and node.tag == BOOL_TAG and not node.style \
        and node.value.lower() in WORDS


def boolean_words(node: yaml.Node) -> tuple[Word, ...]:
    """Each boolean word under `node`, once (an alias's target is walked where it is first met)."""
    out: list[Word] = []
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, tuple[str, ...]]] = [(node, ())]
    while stack:
        here, path = stack.pop()
        if id(here) in seen:
            continue
        seen.add(id(here))
        if isinstance(here, yaml.MappingNode):
            for k, v in reversed(here.value):
                if k.tag == MERGE_TAG:  # `<<: *base` puts base's keys into this mapping
                    stack.append((v, path))
                    continue
                if not isinstance(k, yaml.ScalarNode):
                    continue
                token = key_token(k)
                if _ambiguous(k):
                    # Its own mark: `on:` and `yes:` in one mapping both load as "true", one pointer.
                    out.append((to_pointer((*path, token)), k.value, True, k.start_mark))
                stack.append((v, (*path, token)))
        elif isinstance(here, yaml.SequenceNode):
            stack.extend((v, (*path, str(i))) for i, v in reversed(list(enumerate(here.value))))
        elif _ambiguous(here):
            out.append((to_pointer(path), here.value, False, here.start_mark))
    return tuple(out)
