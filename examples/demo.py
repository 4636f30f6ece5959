"""`make demo`: the PR comment tooldiff posts on a PR that adds find_document beside search_docs.

Builds a throwaway git repository: `main` holds examples/helpdesk/base, the PR branch holds
examples/helpdesk/head. Then runs the same diff the action runs and prints the Markdown comment.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tooldiff.diffrun import run_diff
from tooldiff.render import RenderContext, render

HERE = Path(__file__).resolve().parent


def git(repo: Path, *args: str) -> None:
    env = {"GIT_AUTHOR_NAME": "demo", "GIT_AUTHOR_EMAIL": "demo@example.com",
           "GIT_COMMITTER_NAME": "demo", "GIT_COMMITTER_EMAIL": "demo@example.com",
           "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="tooldiff-demo-") as tmp:
        repo = Path(tmp)
        git(repo, "init", "-q", "-b", "main")
        (repo / "agent").mkdir()
        shutil.copy(HERE / "helpdesk" / "base" / "tools.json", repo / "agent" / "tools.json")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "helpdesk agent tools")
        git(repo, "checkout", "-q", "-b", "add-find-document")
        shutil.copy(HERE / "helpdesk" / "head" / "tools.json", repo / "agent" / "tools.json")
        git(repo, "commit", "-q", "-am", "Add find_document")
        report = run_diff(repo, "main", "HEAD")
        ctx = RenderContext(repo_url="acme/helpdesk-agent", head_sha=report.head_ref)
        sys.stdout.write(render("markdown", report, ctx))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
