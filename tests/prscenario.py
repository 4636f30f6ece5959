"""A pull request as the action sees it: a real git repository, the event payload, the fake API's PR.

Used by the in-process action tests and by the container tests in tests/e2e.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from fakegithub import FakeGitHub
from gitbuild import commit, git, init

ROOT = Path(__file__).parents[1]
FIX = Path(__file__).parent / "fixtures" / "github"
HELPDESK = ROOT / "examples" / "helpdesk"
REPO = "Codertocat/Hello-World"
NUMBER = 2
TOKEN = "ghs_PLANTEDsecretVALUE0123456789abcdef"


def helpdesk(side: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HELPDESK / side / "tools.json").read_text())
    return data


def fixed_head() -> dict[str, Any]:
    """The head with the overlapping tool removed again: the PR's second push."""
    data = helpdesk("head")
    data["tools"] = [t for t in data["tools"] if t["name"] != "find_document"]
    return data


class PullRequest:
    """`main` holds the base; each `push` commits to the PR branch and updates the event and the fake PR."""

    def __init__(self, root: Path, fake: FakeGitHub, *, fork: bool = False) -> None:
        self.repo = init(root / "workspace")
        self.fake = fake
        self.fork = fork
        commit(self.repo, {"tools.json": helpdesk("base"), "README.md": "# helpdesk\n"}, "base")
        self.base = git(self.repo, "rev-parse", "HEAD")
        git(self.repo, "checkout", "-q", "-b", "pr")
        self.head = self.base
        self.event_dir = root / "workflow"
        self.event_dir.mkdir()

    def push(self, files: dict[str, Any]) -> str:
        self.head = commit(self.repo, files, "pr")
        patches: dict[str, str | None] = {}
        for path in git(self.repo, "diff", "--name-only", self.base, self.head).splitlines():
            diff = git(self.repo, "diff", self.base, self.head, "--", path)
            patches[path] = diff[diff.index("@@"):] if "@@" in diff else None
        self.fake.add_pull(NUMBER, self.head, self.base, patches, fork=self.fork)
        event = json.loads((FIX / "pull_request.opened.payload.json").read_text())
        event["number"] = event["pull_request"]["number"] = NUMBER
        event["pull_request"]["head"]["sha"], event["pull_request"]["base"]["sha"] = self.head, self.base
        if self.fork:
            event["pull_request"]["head"]["repo"] = copy.deepcopy(event["pull_request"]["head"]["repo"])
            event["pull_request"]["head"]["repo"]["full_name"] = "stranger/Hello-World"
        (self.event_dir / "event.json").write_text(json.dumps(event))
        return self.head


def dispatch_event(root: Path) -> Path:
    (root / "workflow").mkdir(exist_ok=True)
    path = root / "workflow" / "event.json"
    path.write_text((FIX / "workflow_dispatch.payload.json").read_text())
    return path


def environment(event: str, api_url: str, workspace: str, event_path: str, files: str, sha: str,
                **inputs: str) -> dict[str, str]:
    """The variables the runner sets for a Docker action step."""
    env = {
        "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": event_path, "GITHUB_WORKSPACE": workspace,
        "GITHUB_REPOSITORY": REPO, "GITHUB_API_URL": api_url, "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_OUTPUT": f"{files}/output", "GITHUB_STEP_SUMMARY": f"{files}/summary.md", "GITHUB_SHA": sha,
        "GITHUB_RUN_ID": "4242", "GITHUB_ACTIONS": "true", "CI": "true",
        "INPUT_GITHUB-TOKEN": TOKEN, "INPUT_FAIL-ON": "warning", "INPUT_COMMENT": "update",
        "INPUT_COMMENT-ID": "default", "INPUT_REVIEW-COMMENTS": "false", "INPUT_CHECK-RUN": "false",
        "INPUT_MODE": "auto", "INPUT_BOT-LOGIN": "github-actions[bot]",
    }
    env.update({f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()})
    return env
