"""The Action's figures for `make bench`: image size, builds, container run time, GitHub requests.

Uses the container engine `../shared/tools/container-engine` prints and the fake GitHub API of the tests.
Prints a reason and exits 0 when no engine works here.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from container import find_engine, run_image  # noqa: E402
from fakegithub import FakeGitHub  # noqa: E402
from prscenario import PullRequest, environment, fixed_head, helpdesk  # noqa: E402

IMAGE = "localhost/tooldiff-action:bench"


def build(eng: str, *extra: str) -> float:
    start = time.monotonic()
    subprocess.run([eng, "build", "-q", *extra, "-t", IMAGE, str(ROOT)], check=True, capture_output=True)
    return time.monotonic() - start


def run(eng: str, pr: PullRequest, env: dict[str, str], files: Path) -> float:
    return run_image(eng, IMAGE, pr.repo, pr.event_dir, files, env).seconds


def main() -> int:
    eng, why = find_engine()
    if eng is None:
        print(f"\naction: image and container figures not measured: {why}")
        return 0
    cold = build(eng, "--no-cache")
    warm = build(eng)
    size = subprocess.run([eng, "image", "inspect", "--format", "{{.Size}}", IMAGE], capture_output=True,
                          text=True, check=True).stdout.strip()
    print(f"\naction image: {int(size) / 1e6:.0f} MB (target <= 250 MB); build cold {cold:.0f} s, "
          f"warm {warm:.1f} s")
    fake = FakeGitHub(repository="Codertocat/Hello-World")
    fake.start()
    try:
        with tempfile.TemporaryDirectory(prefix="tooldiff-actbench-") as tmp_name:
            tmp = Path(tmp_name)
            pr = PullRequest(tmp, fake)
            pr.push({"tools.json": helpdesk("head")})
            env = environment("pull_request", fake.base, "", "", "", pr.head)
            first = run(eng, pr, env, tmp / "files")
            pr.push({"tools.json": fixed_head()})
            env = environment("pull_request", fake.base, "", "", "", pr.head)
            fake.requests.clear()
            times = [first, run(eng, pr, env, tmp / "files")]
            edit_requests = [r.operation for r in fake.requests]
            for _ in range(3):
                times.append(run(eng, pr, env, tmp / "files"))
    finally:
        fake.stop()
    print(f"GitHub requests for a PR run that edits its existing comment: {len(edit_requests)} "
          f"({', '.join(edit_requests)}) (target <= 5)")
    print(f"container start to exit on the demo PR: median {statistics.median(times):.2f} s of {len(times)} "
          f"runs, max {max(times):.2f} s (target < 3 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
