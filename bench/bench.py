"""`make bench`: speed and memory of tooldiff, as ratios to bare JSON parsing measured in the same run.

Each measurement runs in a fresh subprocess (so peak RSS is that run's own) and is repeated 5 times; the
median is reported. Needs ../shared/corpora/combined/all_tools.jsonl; exits with a message without it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "combined" / "all_tools.jsonl"
RUNS = 5


def records() -> list[dict[str, object]]:
    with CORPUS.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_shapes(tmp: Path) -> dict[str, Path]:
    """406 toolset files of 50 tools, and one toolset file of 10,000 tools."""
    recs = records()
    small = tmp / "toolsets-of-50"
    small.mkdir()
    for i in range(0, len(recs), 50):
        chunk = recs[i : i + 50]
        (small / f"toolset_{i // 50:04d}.json").write_text(json.dumps(chunk, indent=1), encoding="utf-8")
    big = tmp / "one-toolset-10k"
    big.mkdir()
    (big / "tools.json").write_text(json.dumps(recs[:10_000], indent=1), encoding="utf-8")
    return {"toolsets-of-50": small, "one-toolset-10k": big}


def git(repo: Path, *args: str) -> None:
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@x", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def make_pr_repo(src: Path, tmp: Path) -> Path:
    """The 406 files as a repository, and a PR branch that changes 3 tools of one toolset."""
    repo = tmp / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for f in sorted(src.iterdir()):
        (repo / f.name).write_bytes(f.read_bytes())
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "pr")
    target = repo / "toolset_0100.json"
    tools = json.loads(target.read_text(encoding="utf-8"))
    for t in tools[:3]:
        t["description"] = str(t.get("description", "")) + " Returns at most 20 results."
    target.write_text(json.dumps(tools, indent=1), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "pr: edit 3 tools")
    return repo


# --- one measurement, run in a child process ------------------------------------------------------

def _parse(path: Path) -> dict[str, object]:
    for f in sorted(path.rglob("*.json")):
        json.loads(f.read_bytes())
    return {}


def _check(path: Path) -> dict[str, object]:
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    report = run_check(WorktreeSource(path), Config.default())
    return {"pairs": report.stats.get("pairs_analysed", 0), "findings": len(report.findings)}


# The rules issue 5 added: what "the new rules make check at most 1.5x slower" is measured on.
OVERLAP_RULES = ("intent-overlap", "blast-radius-twin", "escalation-flag", "mode-argument")


def _check_without(path: Path, codes: tuple[str, ...]) -> dict[str, object]:
    from tooldiff.check import run_check
    from tooldiff.config import load_config
    from tooldiff.sources import WorktreeSource

    off = "".join(f"  {code}:\n    enabled: false\n" for code in codes)
    report = run_check(WorktreeSource(path), load_config("bench.yml", "rules:\n" + off))
    return {"pairs": report.stats.get("pairs_analysed", 0), "findings": len(report.findings)}


def _check_no_overlap_rules(path: Path) -> dict[str, object]:
    return _check_without(path, OVERLAP_RULES)


def _check_no_pairs(path: Path) -> dict[str, object]:
    from tooldiff.rules import PAIR_PRECEDENCE

    return _check_without(path, tuple(PAIR_PRECEDENCE))


def _diff(path: Path) -> dict[str, object]:
    from tooldiff.diffrun import run_diff

    # The same counting methods as `check` measures: the estimate (see _diff_all for every method).
    report = run_diff(path, "main", "pr", token_methods=("estimate",))
    return {"pairs": report.stats.get("pairs_analysed", 0), "findings": len(report.findings)}


def _diff_all(path: Path) -> dict[str, object]:
    from tooldiff.diffrun import run_diff

    # What the Action's PR comment needs: every token method, so o200k's vocabulary is loaded (~0.4 s).
    report = run_diff(path, "main", "pr")
    return {"pairs": report.stats.get("pairs_analysed", 0), "findings": len(report.findings)}


KINDS: dict[str, Callable[[Path], dict[str, object]]] = {
    "parse": _parse, "check": _check, "check-no-overlap-rules": _check_no_overlap_rules,
    "check-no-pairs": _check_no_pairs, "diff": _diff, "diff-all": _diff_all,
}


def _cpu() -> float:
    """CPU seconds of this process and its reaped workers: the work, whatever the wall time."""
    usage = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return sum(u.ru_utime + u.ru_stime for u in usage)


def child(kind: str, path: Path) -> None:
    if kind != "parse":
        # Import time is the same for every mode; the ratios compare the work itself. The rule modules are
        # imported on first use, so they are imported here too (about 30 ms, once per process).
        import tooldiff.check
        import tooldiff.diffrun  # noqa: F401
        from tooldiff import rules

        rules.registry()
    cpu_start = _cpu()
    start = time.perf_counter()
    extra = KINDS[kind](path)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # Forked workers (tooldiff.workers) report here; their RSS counts the pages they share with this process.
    worker_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    cpu = _cpu() - cpu_start
    compiled = sum(1 for name, m in list(sys.modules.items())
                   if name.startswith("tooldiff") and str(getattr(m, "__file__", "")).endswith(".so"))
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb, "worker_mb": worker_mb,
                      "compiled": compiled, **extra}))


# kind, path, TOOLDIFF_JOBS (None: the default), and optionally a PYTHONPATH to import tooldiff from
Spec = tuple[str, Path, int | None] | tuple[str, Path, int | None, Path]


def measure_together(specs: dict[str, Spec]) -> dict[str, dict[str, float]]:
    """Medians of RUNS runs of each spec, run in turns (a, b, c, a, b, c, ...): a figure and the figure it
    is divided by see the same machine, even when a shared host speeds up or slows down meanwhile."""
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in specs}
    for _ in range(RUNS):
        for label, (kind, path, jobs, *src) in specs.items():
            env = dict(os.environ)
            if jobs is not None:
                env["TOOLDIFF_JOBS"] = str(jobs)
            if src:
                env["PYTHONPATH"] = str(src[0])
            # The bare parse, the divisor of every ratio, is the faster of two runs in a row: a ratio can
            # only come out worse for tooldiff, never better, from a parse slowed by what ran before it.
            tries = []
            for _ in range(2 if kind == "parse" else 1):
                out = subprocess.run([sys.executable, __file__, "--child", kind, str(path)],
                                     check=True, capture_output=True, text=True, env=env)
                tries.append(json.loads(out.stdout.strip().splitlines()[-1]))
            runs[label].append(min(tries, key=lambda r: float(r["seconds"])))
    return {
        label: {k: statistics.median(float(r[k]) for r in rs) for k in rs[0]} for label, rs in runs.items()
    }


def compiled_note(count: int) -> str:
    if count:
        return f"{count} tooldiff modules compiled by mypyc (make compile; `make pure` measures without)"
    return "plain Python: no module compiled (`make compile` builds them)"


def plain_copy(tmp: Path) -> Path | None:
    """The package without its compiled modules, to import from (None: nothing is compiled)."""
    package = ROOT / "src" / "tooldiff"
    if not any(package.rglob("*.so")):
        return None
    shutil.copytree(package, tmp / "plain" / "tooldiff", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    return tmp / "plain"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", nargs=2, metavar=("KIND", "PATH"))
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return 0
    if not CORPUS.exists():
        print(f"bench: {CORPUS} is absent (../shared is not beside the repository); nothing measured.")
        return 0
    print(f"tooldiff bench: median of {RUNS} runs each, every figure measured in this run; "
          f"workers: {os.environ.get('TOOLDIFF_JOBS') or 'one per CPU'} ({os.cpu_count()} CPUs)\n")
    with tempfile.TemporaryDirectory(prefix="tooldiff-bench-") as tmp_name:
        tmp = Path(tmp_name)
        shapes = write_shapes(tmp)
        for shape, path in shapes.items():
            got = measure_together({"parse": ("parse", path, None), "check": ("check", path, None),
                                    "one": ("check", path, 1)})
            parse, check, one = got["parse"], got["check"], got["one"]
            print(f"check  {shape:16s} {check['seconds']:7.2f} s (cpu {check['cpu']:5.2f} s)  "
                  f"peak {check['peak_mb']:4.0f} MB (largest worker {check['worker_mb']:4.0f} MB)  "
                  f"pairs {int(check['pairs']):>8d}  bare json parse {parse['seconds']:.3f} s  "
                  f"ratio {check['seconds'] / parse['seconds']:6.1f}x  (target: "
                  f"{'25x, <300 MB' if shape == 'toolsets-of-50' else '50x'})")
            print(f"       {'':16s} in one process (TOOLDIFF_JOBS=1): {one['seconds']:.2f} s, peak "
                  f"{one['peak_mb']:.0f} MB, ratio {one['seconds'] / parse['seconds']:.1f}x")
            print(f"       {'':16s} {compiled_note(int(check['compiled']))}")
        plain = plain_copy(tmp)
        if plain is not None:
            small = shapes["toolsets-of-50"]
            got = measure_together({"parse": ("parse", small, None), "check": ("check", small, None),
                                    "plain": ("check", small, None, plain)})
            parse, check, pure = got["parse"], got["check"], got["plain"]
            print(f"\nplain Python (no module compiled), toolsets-of-50: {pure['seconds']:.2f} s (cpu "
                  f"{pure['cpu']:.2f} s), ratio {pure['seconds'] / parse['seconds']:.1f}x; compiled: "
                  f"{check['seconds']:.2f} s (cpu {check['cpu']:.2f} s), ratio "
                  f"{check['seconds'] / parse['seconds']:.1f}x: {pure['cpu'] / check['cpu']:.2f}x the CPU")
        small = shapes["toolsets-of-50"]
        got = measure_together({"all": ("check", small, None),
                                "no-overlap": ("check-no-overlap-rules", small, None),
                                "no-pairs": ("check-no-pairs", small, None)})
        with_all, without_new, no_pairs = got["all"], got["no-overlap"], got["no-pairs"]
        print(f"\nthe overlap rules' cost on the 20k corpus (issue 5: {', '.join(OVERLAP_RULES)}): check "
              f"{with_all['seconds']:.2f} s vs {without_new['seconds']:.2f} s without them = "
              f"{with_all['seconds'] / without_new['seconds']:.2f}x (target: <= 1.5x)")
        print(f"every pair rule's cost, H1.6 included (for information): check {with_all['seconds']:.2f} s vs"
              f" {no_pairs['seconds']:.2f} s without any pair rule = "
              f"{with_all['seconds'] / no_pairs['seconds']:.2f}x")
        repo = make_pr_repo(small, tmp)
        got = measure_together({"diff": ("diff", repo, None), "check": ("check", repo, None),
                                "diff-all": ("diff-all", repo, None)})
        diff, full, diff_all = got["diff"], got["check"], got["diff-all"]
        print("\nPR mode (406 files as a repo, PR edits 3 tools of one toolset): "
              f"diff {diff['seconds']:.2f} s "
              f"(git reads included, {int(diff['pairs'])} pairs) vs full check {full['seconds']:.2f} s = "
              f"{full['seconds'] / diff['seconds']:.1f}x faster (target: >= 20x; estimate only, as check)")
        ratio = full["seconds"] / diff_all["seconds"]
        print(f"PR mode with every token method (the Action's comment; loads o200k): diff "
              f"{diff_all['seconds']:.2f} s = {ratio:.1f}x faster than the check")
    extra = ROOT / "bench" / "action_bench.py"
    if extra.exists():
        subprocess.run([sys.executable, str(extra)], check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
