"""Where a full check spends its time, by stage, as multiples of bare JSON parsing (for tuning, not CI).

Usage: python bench/profile_check.py [DIR]   (default: the 20k corpus split into 406 files of 50, in /tmp)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "combined" / "all_tools.jsonl"


def shape(dest: Path) -> Path:
    if not dest.exists():
        dest.mkdir(parents=True)
        recs = [json.loads(line) for line in CORPUS.open(encoding="utf-8") if line.strip()]
        for i in range(0, len(recs), 50):
            (dest / f"toolset_{i // 50:04d}.json").write_text(json.dumps(recs[i : i + 50], indent=1))
    return dest


def main() -> None:
    from tooldiff import pairs, rules, schemahash, tokens
    from tooldiff.config import Config
    from tooldiff.discover import discover
    from tooldiff.engine import Engine, analyse
    from tooldiff.sources import WorktreeSource
    from tooldiff.targets import TARGETS

    root = Path(sys.argv[1]) if len(sys.argv) > 1 else shape(Path("/tmp/tooldiff-profile-s50"))
    files = sorted(root.rglob("*.json"))
    t = time.perf_counter()
    for f in files:
        json.loads(f.read_bytes())
    parse = time.perf_counter() - t
    cfg = Config.default()

    def stage(label: str, seconds: float) -> None:
        print(f"{label:40s} {seconds:7.3f} s  {seconds / parse:6.1f}x parse")

    stage("bare json parse", parse)
    t = time.perf_counter()
    found = discover(WorktreeSource(root), cfg)
    stage("discover (read + parse + positions)", time.perf_counter() - t)
    tools = [x for ts in found.toolsets for x in ts.tools]
    t = time.perf_counter()
    for x in tools:
        h = schemahash.schema_hash(x)
        tokens.count_tool(x, methods=("estimate",), hash_=h)
    stage("hash + estimate", time.perf_counter() - t)
    eng = Engine(cfg, found.files)
    for code, module in eng.by_kind("tool"):
        t = time.perf_counter()
        n = 0
        for ts in found.toolsets:
            for x in ts.tools:
                targets = tuple(TARGETS[name] for name in eng.targets_of(ts.id, x))
                n += len(list(module.check(x, eng.context(code, targets, ts.id))))
        stage(f"  rule {code} ({n})", time.perf_counter() - t)
    codes = list(rules.PAIR_PRECEDENCE)
    t = time.perf_counter()
    views = [[pairs.analyse(x, eng.context(codes[0], (), ts.id)) for x in ts.tools] for ts in found.toolsets]
    stage("pairs.analyse", time.perf_counter() - t)
    t = time.perf_counter()
    cands = [pairs.candidates(v) for v in views]
    stage(f"pairs.candidates ({sum(map(len, cands))})", time.perf_counter() - t)
    t = time.perf_counter()
    for ts, v, cc in zip(found.toolsets, views, cands, strict=True):
        ctxs = {k: eng.context(k, (), ts.id) for k in codes}
        for i, j in cc:
            pairs.check_pair(v[i], v[j], ctxs)
    stage("pairs.check_pair", time.perf_counter() - t)
    t = time.perf_counter()
    a = analyse(found.toolsets, cfg, found.files, parse_errors=found.errors, token_methods=("estimate",))
    stage(f"engine.analyse total ({len(a.findings)} findings)", time.perf_counter() - t)


if __name__ == "__main__":
    main()
