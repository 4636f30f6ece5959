"""tooldiff's own bounded lexicon, loaded once from `data/lexicon.json`.

The words are data so that a reviewer can read and extend them without touching code. A word maps to one
canonical form: the first synonym group that lists it wins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True, slots=True)
class Lexicon:
    stopwords: frozenset[str]
    low_information: frozenset[str]
    name_words: frozenset[str]  # low-information in prose, the object of the tool in a name
    name_particles: frozenset[str]  # stopwords that, ending a name, are its direction (fade_in / fade_out)
    synonyms: dict[str, str]  # word -> canonical term
    action_classes: frozenset[str]
    irregular_plurals: dict[str, str]
    no_plural_fold: frozenset[str]
    number_unknown: frozenset[str]  # nouns whose form does not say one or many (news, data)
    arg_synonyms: dict[str, str]  # argument name -> canonical argument name
    ambient_args: frozenset[str]
    routing_suffixes: frozenset[str]
    routing_words: frozenset[str]
    naming_suffixes: frozenset[str]  # `job_name`: names the one thing the call is about
    compatible_actions: dict[str, frozenset[str]]  # action class -> classes a request cannot tell apart
    from_verbs: dict[str, str]  # name verb -> its term when `from` follows it (remove_x_from_y detaches)
    in_sense: dict[str, str]  # word -> the group that takes it only where the text names the group


def _first_wins(groups: dict[str, list[str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for canonical, words in groups.items():
        out.setdefault(canonical, canonical)
        for word in words:
            out.setdefault(word, canonical)
    return out


@cache
def lexicon() -> Lexicon:
    raw = json.loads(resources.files("tooldiff").joinpath("data/lexicon.json").read_text("utf-8"))
    return Lexicon(
        stopwords=frozenset(raw["stopwords"]),
        low_information=frozenset(raw["low_information"]),
        name_words=frozenset(raw["name_words"]),
        name_particles=frozenset(raw["name_particles"]),
        synonyms=_first_wins(raw["synonyms"]),
        action_classes=frozenset(raw["action_classes"]) | frozenset(raw["verbs"]),
        irregular_plurals=dict(raw["irregular_plurals"]),
        no_plural_fold=frozenset(raw["no_plural_fold"]),
        number_unknown=frozenset(raw["number_unknown"]),
        arg_synonyms=_first_wins(raw["arg_synonyms"]),
        ambient_args=frozenset(raw["ambient_args"]),
        routing_suffixes=frozenset(raw["routing_suffixes"]),
        routing_words=frozenset(raw["routing_words"]),
        naming_suffixes=frozenset(raw["naming_suffixes"]),
        compatible_actions={
            k: frozenset(v) for k, v in raw["compatible_actions"].items() if not k.startswith("_")
        },
        from_verbs=dict(raw["from_verbs"]),
        in_sense=dict(raw["in_sense"]),
    )
