"""`python -m tooldiff.eval` (`make eval`): the overlap rules on labelled pairs, per source, never pooled.

Sources:
- `../shared/cases/seed-cases.json`: seed 001's verdicts (every one must be right);
- `../shared/corpora/labelled/pairs.json`, by `label_method`, each pair run as a two-tool toolset;
- `tests/eval/own.json`: our own cases (single-tool rules, pairs from calendars, payments, files, chat,
  deploys, mail), tuned on;
- `tests/eval/frozen.json`: written before any tuning and never tuned on, reported on its own.

For each pairwise rule it prints the pairs flagged, missed and wrongly flagged. Deterministic and offline.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tooldiff.model import Tool
from tooldiff.pairs import analyse_toolset, candidates, check_pair
from tooldiff.rules import PAIR_PRECEDENCE, get
from tooldiff.rules.base import Context

TOOL_CODES = ("escalation-flag", "mode-argument", "unanalysable-description")
HAND_METHODS = ("maintainer decision", "human judgment")  # the figure: overlap >= 32/39
DISTINCT_METHODS = ("human judgment", "corpus-builder judgment")  # and distinct <= 2/43


def make_tool(record: Mapping[str, Any], index: int = 0) -> Tool:
    schema = record.get("input_schema", record.get("parameters", record.get("inputSchema", {})))
    return Tool(
        name=str(record.get("name", "")),
        description=str(record.get("description") or ""),
        input_schema=schema,
        format="anthropic",
        file="x.json",
        line=1,
        pointer=f"/{index}",
        schema_pointer=f"/{index}/input_schema",
        annotations=record.get("annotations"),
    )


def run_toolset(tools: Sequence[Tool], settings: Mapping[str, Mapping[str, Any]] | None = None) -> Verdicts:
    """Pair headlines (by sorted name pair) and single-tool codes of one toolset, as the engine gets them."""
    ctx = Context(tool_settings=settings or {})
    views = analyse_toolset(tools, ctx)
    contexts = {code: ctx for code in PAIR_PRECEDENCE}
    out = Verdicts()
    for i, j in candidates(views):
        got = check_pair(views[i], views[j], contexts)
        if got is not None:
            key = (views[i].name, views[j].name)
            out.pairs[tuple(sorted(key))] = (got[0], got[1].related)  # type: ignore[index]
    for code in TOOL_CODES:
        for t in tools:
            if list(get(code).check(t, ctx)):
                out.tools[code].add(t.name)
    return out


@dataclass
class Verdicts:
    pairs: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    tools: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


@dataclass
class Tally:
    """Per code: flagged (right), missed, wrongly flagged; each a list of labels for the printout."""

    flagged: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    missed: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    wrong: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    failures: list[str] = field(default_factory=list)

    def add(self, kind: str, code: str, label: str) -> None:
        getattr(self, kind)[code].append(label)
        if kind != "flagged":
            self.failures.append(f"{kind}: {code}: {label}")


def _pair(p: Sequence[str]) -> tuple[str, str]:
    a, b = sorted(p)
    return a, b


def score_cases(cases: Sequence[Mapping[str, Any]]) -> Tally:
    """Case files (seed-cases, own, frozen): expected headline per pair, silent pairs, tool codes."""
    tally = Tally()
    for case in cases:
        got = run_toolset([make_tool(t, i) for i, t in enumerate(case["tools"])], case.get("tool_settings"))
        expect = case.get("expect", {})
        named: set[tuple[str, str]] = set()
        for code, items in expect.items():
            if code in PAIR_PRECEDENCE or code == "any-pair":
                for p in items:
                    key = _pair(p)
                    named.add(key)
                    head = got.pairs.get(key, ("", ()))[0]
                    label = f"{case['case']}: {key[0]} / {key[1]}"
                    ok = head != "" if code == "any-pair" else head == code
                    tally.add(
                        "flagged" if ok else "missed",
                        code,
                        label + ("" if ok else f" (got {head or 'none'})"),
                    )
            elif code in TOOL_CODES:
                for (name,) in items:
                    ok = name in got.tools[code]
                    tally.add("flagged" if ok else "missed", code, f"{case['case']}: {name}")
        for code, names in expect.get("tool_silent", {}).items():
            for name in names:
                if name in got.tools[code]:
                    tally.add("wrong", code, f"{case['case']}: {name}")
        silent = expect.get("silent_pairs", [])
        keys = [k for k in got.pairs if k not in named] if silent == "all" else [_pair(p) for p in silent]
        for key in keys:
            if key in got.pairs:
                tally.add("wrong", got.pairs[key][0], f"{case['case']}: {key[0]} / {key[1]}")
    return tally


@dataclass
class PairScore:
    overlap: int = 0
    overlap_flagged: int = 0
    distinct: int = 0
    distinct_flagged: int = 0
    tally: Tally = field(default_factory=Tally)


def score_pairs(pairs: Sequence[Mapping[str, Any]]) -> dict[str, PairScore]:
    """pairs.json, each pair alone as a two-tool toolset, grouped by label_method."""
    out: dict[str, PairScore] = defaultdict(PairScore)
    for n, p in enumerate(pairs):
        score = out[str(p.get("label_method", "?"))]
        a, b = make_tool(p["a"], 0), make_tool(p["b"], 1)
        got = run_toolset([a, b])
        head, related = next(iter(got.pairs.values()), ("", ()))
        label = f"#{n} {a.name} / {b.name}"
        if p.get("label") == "overlap":
            score.overlap += 1
            score.overlap_flagged += bool(head)
            score.tally.add("flagged" if head else "missed", head or "any", label)
        else:
            score.distinct += 1
            score.distinct_flagged += bool(head)
            if head:
                score.tally.add("wrong", head, label + (f" (also {', '.join(related)})" if related else ""))
    return dict(out)


def _print_tally(title: str, tally: Tally, verbose: bool) -> None:
    print(f"\n== {title}")
    codes = sorted(set(tally.flagged) | set(tally.missed) | set(tally.wrong))
    for code in codes:
        print(
            f"  {code:26} flagged {len(tally.flagged[code]):3}  missed {len(tally.missed[code]):3}  "
            f"wrongly flagged {len(tally.wrong[code]):3}"
        )
    for line in tally.failures if verbose else tally.failures[:40]:
        print(f"    {line}")


def main(argv: Sequence[str] = ()) -> int:
    repo = Path(__file__).resolve().parents[2]
    shared = repo.parent / "shared"
    verbose = "-v" in argv
    for name in ("own.json", "frozen.json"):
        path = repo / "tests" / "eval" / name
        if path.exists():
            title = f"tests/eval/{name}" + (" (frozen: never tuned on)" if name == "frozen.json" else "")
            _print_tally(title, score_cases(json.loads(path.read_text("utf-8"))), verbose)
    seeds = shared / "cases" / "seed-cases.json"
    if not seeds.exists():
        print(f"\n{shared} not found: shared sources skipped")
        return 0
    _print_tally(
        "../shared/cases/seed-cases.json", score_cases(json.loads(seeds.read_text("utf-8"))), verbose
    )
    scores = score_pairs(json.loads((shared / "corpora/labelled/pairs.json").read_text("utf-8")))
    for method, s in sorted(scores.items()):
        _print_tally(f"pairs.json, label_method = {method}", s.tally, verbose)
        print(
            f"  overlap pairs flagged {s.overlap_flagged}/{s.overlap}; distinct pairs flagged "
            f"{s.distinct_flagged}/{s.distinct}"
        )
    hand = [s for m, s in scores.items() if m.startswith(HAND_METHODS)]
    dist = [s for m, s in scores.items() if m.startswith(DISTINCT_METHODS)]
    print("\n== issue 5 figures (maintainer + hand labels, as the issue states them)")
    hand_hit, hand_all = sum(s.overlap_flagged for s in hand), sum(s.overlap for s in hand)
    dist_hit, dist_all = sum(s.distinct_flagged for s in dist), sum(s.distinct for s in dist)
    print(f"  overlap flagged {hand_hit}/{hand_all} (need >= 32/39)")
    print(f"  distinct flagged {dist_hit}/{dist_all} (need <= 2/43)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
