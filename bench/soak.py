"""`make soak`: the action's full path at scale. Two measurements, both printed:

1. Replay: each history in `../shared/corpora/histories/` becomes one pull request in a real git repository;
   every later version is a new push (event payload with base/head shas, the fake GitHub API's PR with the
   `git diff` patches), and `tooldiff.action.main` runs in-process with the runner's environment against the
   fake API on 127.0.0.1. One comment thread per PR: created once, then edited.
2. Monorepo audit: the 406 toolset files of the 20k corpus in one repository, audited through the action
   (`workflow_dispatch`, `mode: auto`); each run is a fresh child process (peak RSS is its own), median of 5.

Any crash, exit 2, GitHub error status or spec error of the fake API fails the soak (exit 1).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from bench import CORPUS, records  # noqa: E402

from fakegithub import FakeGitHub  # noqa: E402
from gitbuild import fast_import, git  # noqa: E402
from prscenario import FIX, REPO, TOKEN, environment  # noqa: E402

HISTORIES = ROOT.parent / "shared" / "corpora" / "histories"
NUMBER = 7
RUNS = 5
COMMENT = re.compile(r"^tooldiff: PR comment (\w+)", re.M)


def history_versions(name: str, limit: int | None = None) -> list[tuple[str, dict[str, bytes]]]:
    """(message, full tree) per version, laid out as the repository holds them (test_histories.LAYOUTS)."""
    from test_histories import LAYOUTS

    root = HISTORIES / name
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    versions = manifest["versions"][:limit]
    return [(f"{v['seq']}: {v['message']}",
             LAYOUTS[name](json.loads((root / "versions" / v["file"]).read_text(encoding="utf-8"))))
            for v in versions]


def patches(repo: Path, base: str, head: str) -> dict[str, str | None]:
    """Each changed path's hunks as the PR files API gives them, from one `git diff`."""
    names = [n for n in git(repo, "diff", "--name-only", "-z", base, head).split("\0") if n]
    chunks = re.split(r"^diff --git ", git(repo, "diff", base, head), flags=re.M)[1:]
    out: dict[str, str | None] = {}
    for name, chunk in zip(names, chunks, strict=True):
        out[name] = chunk[chunk.index("\n@@") + 1:] if "\n@@" in chunk else None
    return out


@dataclass
class Run:
    seconds: float
    code: int
    comment: str  # the action's own word: created | updated | unchanged | skipped | "" (none)
    new_findings: int
    changed_tools: int
    operations: list[str]
    statuses: list[int]
    writes: int  # requests that are not GET: creating, editing or deleting anything


@dataclass
class Replay:
    name: str
    versions: int
    runs: list[Run] = field(default_factory=list)
    comments: int = 0
    errors: list[str] = field(default_factory=list)
    first: bool = False  # the first action run of this process: its time includes the lazy imports

    @property
    def touched(self) -> bool:
        return any(r.changed_tools or r.new_findings for r in self.runs)

    @property
    def edit_runs(self) -> list[Run]:
        return [r for r in self.runs if r.comment in ("updated", "unchanged")]

    def problems(self) -> list[str]:
        """What makes this replay a failure: the soak's own assertions."""
        out = [f"spec/fake error: {e}" for e in self.errors[:5]]
        out += [f"push {i + 1}: exit {r.code}" for i, r in enumerate(self.runs) if r.code not in (0, 1)]
        out += [f"push {i + 1}: GitHub answered {s}" for i, r in enumerate(self.runs)
                for s in r.statuses if s >= 400]
        if self.touched and self.comments != 1:
            out.append(f"{self.comments} bot comments at the end, not 1")
        if not self.touched:
            writes = sum(r.writes for r in self.runs)
            if writes or self.comments:
                out.append(f"no tools touched, yet it sent {writes} write request(s)")
        return out


def _outputs(path: Path) -> dict[str, str]:
    """The `name<<DELIM` blocks the action appended to $GITHUB_OUTPUT."""
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", path.read_text(encoding="utf-8"), re.M | re.S)
    return {name: value for name, _, value in found}


def replay(name: str, tmp: Path, fake: FakeGitHub, limit: int | None = None) -> Replay:
    """One PR per history: every version after the first is a push, and the action runs once per push."""
    cold = "tooldiff.diffrun" not in sys.modules
    from tooldiff import action

    workspace = tmp / name / "workspace"
    shas = fast_import(workspace, history_versions(name, limit))
    workflow, files = tmp / name / "workflow", tmp / name / "files"
    workflow.mkdir()
    files.mkdir()
    template = json.loads((FIX / "pull_request.opened.payload.json").read_text(encoding="utf-8"))
    result = Replay(name, len(shas), first=cold and len(shas) > 2)
    errors_before = len(fake.errors)
    for base, head in itertools.pairwise(shas):
        git(workspace, "checkout", "-q", "--detach", head)  # actions/checkout of the PR head
        fake.add_pull(NUMBER, head, base, patches(workspace, base, head))
        event = dict(template)
        event["number"] = NUMBER
        event["pull_request"] = {**template["pull_request"], "number": NUMBER,
                                 "head": {**template["pull_request"]["head"], "sha": head},
                                 "base": {**template["pull_request"]["base"], "sha": base}}
        (workflow / "event.json").write_text(json.dumps(event), encoding="utf-8")
        for out in ("output", "summary.md"):
            (files / out).write_text("", encoding="utf-8")
        env = environment("pull_request", fake.base, str(workspace), str(workflow / "event.json"),
                          str(files), head)
        first = len(fake.requests)
        said = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(said):
            code = action.main([], env)
        seconds = time.perf_counter() - start
        calls = fake.requests[first:]
        outputs = _outputs(files / "output")
        word = COMMENT.search(said.getvalue())
        result.runs.append(Run(seconds, code, word.group(1) if word else "",
                               int(outputs.get("new-findings", "0")),
                               len(json.loads(outputs.get("changed-tools", "[]"))),
                               [r.operation or f"{r.method} {r.path}" for r in calls],
                               [r.status for r in calls], sum(1 for r in calls if r.method != "GET")))
    result.comments = len(fake.bot_comments(NUMBER))
    result.errors = fake.errors[errors_before:]
    return result


def new_fake() -> FakeGitHub:
    fake = FakeGitHub(repository=REPO)
    fake.token = TOKEN
    fake.start()
    return fake


def describe(r: Replay) -> list[str]:
    times = [x.seconds for x in r.runs]
    counts = [len(x.operations) for x in r.runs]
    edits = [len(x.operations) for x in r.edit_runs]
    by_op = Counter(op for x in r.runs for op in x.operations)
    actions = Counter(x.comment or "none" for x in r.runs)
    lines = [
        f"{r.name}: {len(r.runs)} PR pushes replayed ({r.versions} versions), "
        f"{sum(x.changed_tools for x in r.runs)} tool changes, "
        f"{sum(x.new_findings for x in r.runs)} new findings in total",
        f"  time per push: median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
        f"total {sum(times):.1f} s" + (f" (first push {times[0]:.3f} s: the process's first run, lazy "
                                       f"imports; the rest max {max(times[1:]):.3f} s)" if r.first else ""),
        f"  GitHub requests per push: median {statistics.median(counts):g}, max {max(counts)}"
        + (f"; per edit run: median {statistics.median(edits):g}, max {max(edits)}" if edits else ""),
        "  by operation (all pushes): " + (", ".join(f"{op} {n}" for op, n in by_op.most_common()) or "none"),
        "  comment: " + ", ".join(f"{k} {v}" for k, v in sorted(actions.items()))
        + f"; bot comments at the end: {r.comments}",
        f"  exit codes: {dict(sorted(Counter(x.code for x in r.runs).items()))}",
    ]
    return lines


# --- the monorepo audit ---------------------------------------------------------------------------------

def make_monorepo(tmp: Path) -> tuple[Path, str]:
    """The 20k corpus as 406 toolset files of 50 (as bench/bench.py splits it), one commit."""
    recs = records()
    files = {f"toolsets/toolset_{i // 50:04d}.json": json.dumps(recs[i:i + 50], indent=1).encode()
             for i in range(0, len(recs), 50)}
    sha = fast_import(tmp / "monorepo", [("the 20k corpus as 406 toolsets", files)])[-1]
    return tmp / "monorepo", sha


def audit_child(repo: Path, sha: str, files: Path) -> None:
    """In a fresh process: the action's audit of the monorepo. Prints seconds and peak RSS as JSON."""
    start = time.perf_counter()
    from tooldiff import action

    event = files / "event.json"
    event.write_text((FIX / "workflow_dispatch.payload.json").read_text(encoding="utf-8"), encoding="utf-8")
    for out in ("output", "summary.md"):
        (files / out).write_text("", encoding="utf-8")
    env = environment("workflow_dispatch", "http://127.0.0.1:9", str(repo), str(event), str(files), sha)
    run_start = time.perf_counter()
    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        code = action.main([], env)
    end = time.perf_counter()
    outputs = _outputs(files / "output")
    report = json.loads((repo / "tooldiff-report.json").read_text(encoding="utf-8"))
    print(json.dumps({
        "code": code, "seconds": end - run_start, "with_imports": end - start,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "findings": int(outputs.get("new-findings", "-1")), "tools": len(report.get("tools", [])),
        "toolsets": len(report.get("toolsets", [])),
    }))


def monorepo_audit(runs: int = RUNS) -> dict[str, float]:
    """Median over `runs` child processes of the action's audit of the 406-file monorepo."""
    with tempfile.TemporaryDirectory(prefix="tooldiff-soak-audit-") as tmp_name:
        tmp = Path(tmp_name)
        repo, sha = make_monorepo(tmp)
        results = []
        for i in range(runs):
            files = tmp / f"files{i}"
            files.mkdir()
            start = time.perf_counter()
            out = subprocess.run([sys.executable, __file__, "--audit-child", str(repo), sha, str(files)],
                                 capture_output=True, text=True, check=False)
            wall = time.perf_counter() - start
            if out.returncode != 0:
                raise SystemExit(f"soak: the audit child failed ({out.returncode}): {out.stderr[-2000:]}")
            data = json.loads(out.stdout.strip().splitlines()[-1])
            if data["code"] not in (0, 1):
                raise SystemExit(f"soak: the audit exited {data['code']}")
            results.append({**data, "process": wall})
    return {k: statistics.median(float(r[k]) for r in results) for k in results[0]} | {
        "max_seconds": max(float(r["seconds"]) for r in results),
        "max_peak_mb": max(float(r["peak_mb"]) for r in results)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audit-child", nargs=3, metavar=("REPO", "SHA", "FILES"))
    parser.add_argument("--only", choices=("replay", "audit"))
    parser.add_argument("--limit", type=int, help="replay the first N versions of each history only")
    args = parser.parse_args()
    if args.audit_child:
        audit_child(Path(args.audit_child[0]), args.audit_child[1], Path(args.audit_child[2]))
        return 0
    if not HISTORIES.is_dir() or not CORPUS.exists():
        print(f"soak: {HISTORIES.parent} is absent (../shared is not beside the repository); "
              "nothing measured.")
        return 0
    failed: list[str] = []
    print(f"tooldiff soak on {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start\n")
    if args.only != "audit":
        print("Replay: each history as one PR, every version a push, the action in-process, fake GitHub API")
        with tempfile.TemporaryDirectory(prefix="tooldiff-soak-") as tmp_name:
            for name in sorted(p.name for p in HISTORIES.iterdir() if p.is_dir()):
                fake = new_fake()  # one fake per history: its PR starts with no comments
                try:
                    result = replay(name, Path(tmp_name), fake, args.limit)
                finally:
                    fake.stop()
                print("\n".join(describe(result)), flush=True)
                failed += [f"{name}: {p}" for p in result.problems()]
    if args.only != "replay":
        m = monorepo_audit()
        print(f"\nMonorepo audit (406 toolset files, {int(m['tools'])} tools, workflow_dispatch, mode auto), "
              f"median of {RUNS} child processes:\n"
              f"  action.main {m['seconds']:.2f} s (max {m['max_seconds']:.2f} s), "
              f"with imports {m['with_imports']:.2f} s, whole process {m['process']:.2f} s; "
              f"peak RSS {m['peak_mb']:.0f} MB (max {m['max_peak_mb']:.0f} MB); "
              f"{int(m['findings'])} findings, exit {int(m['code'])}")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end (other processes share the cores)")
    if failed:
        print("\nsoak FAILED:\n  " + "\n  ".join(failed))
        return 1
    print("\nsoak passed: no crash, no GitHub error, one comment per PR that touched tools")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
