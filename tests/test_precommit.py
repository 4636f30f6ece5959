"""The pre-commit hook, run by the real `pre-commit` against a temporary repository.

The temporary repository's `.pre-commit-config.yaml` points at this repository at its current HEAD commit,
as a user's config points at a release tag, so pre-commit installs tooldiff from it with pip (PyPI must be
reachable for the dependencies; the first run takes about 40 s, the environment is then reused).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gitbuild import ENV, git, init

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "helpdesk" / "head" / "tools.json"
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

BROKEN = {"tools": [{"name": "lookup", "description": "Look up an order by id.",
                     "input_schema": {"type": "array", "items": {"type": "string"}}}]}


def test_hook_definitions_match_the_cli() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    check, new = hooks
    assert check["id"] == "tooldiff" and check["entry"] == "tooldiff check --skip-non-tool-files"
    assert check["pass_filenames"] is True and check["language"] == "python"
    # The new-findings hook compares the whole tree with HEAD, so it takes no file names.
    assert new["id"] == "tooldiff-new" and new["entry"] == "tooldiff diff --base HEAD --worktree"
    assert new["pass_filenames"] is False and new["files"] == check["files"]
    files = re.compile(check["files"])
    assert all(files.search(n) for n in ("a.json", "b.jsonl", "c.yaml", "d.yml"))
    assert not any(files.search(n) for n in ("e.py", "f.json.bak", "g.toml"))


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    if not PRE_COMMIT.exists():
        pytest.skip(f"pre-commit is not installed in this venv ({PRE_COMMIT}); pip install pre-commit")
    if not (REPO / ".git").exists():
        pytest.skip("this checkout is not a git repository; pre-commit installs hooks from a git commit")
    rev = git(REPO, "rev-parse", "HEAD")
    if "tooldiff" not in git(REPO, "show", f"{rev}:.pre-commit-hooks.yaml"):
        pytest.skip("HEAD has no tooldiff hook in .pre-commit-hooks.yaml")
    base = tmp_path_factory.mktemp("precommit")
    root = init(base / "user")
    hooks = [{"id": "tooldiff"}, {"id": "tooldiff-new"}]
    config = {"repos": [{"repo": str(REPO), "rev": rev, "hooks": hooks}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    shutil.copy(EXAMPLE, root / "good.json")
    (root / "bad.json").write_text(json.dumps(BROKEN, indent=2), encoding="utf-8")
    (root / "notes.py").write_text("print('not a tool file')\n", encoding="utf-8")
    # JSON and YAML files that hold no tools, and that a strict parser rejects: common beside tool files.
    (root / "tsconfig.json").write_text('{\n  // comments are allowed here\n  "strict": true\n}\n', "utf-8")
    (root / "cfn.yaml").write_text("Resources:\n  Bucket:\n    Name: !Ref BucketName\n", "utf-8")
    git(root, "add", ".")
    env = {**ENV, "PRE_COMMIT_HOME": str(base / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("CI", None)
    return root, env


def _run(
    root: Path, env: dict[str, str], *files: str, hook: str = "tooldiff"
) -> subprocess.CompletedProcess[str]:
    cmd = [str(PRE_COMMIT), "run", hook, "--color", "never", "--files", *files]
    return subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_clean_tool_file_passes(hook_repo: tuple[Path, dict[str, str]]) -> None:
    root, env = hook_repo
    out = _run(root, env, "good.json", "notes.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tooldiff" in out.stdout and "Passed" in out.stdout


def test_json_and_yaml_files_without_tools_do_not_fail_it(hook_repo: tuple[Path, dict[str, str]]) -> None:
    root, env = hook_repo
    out = _run(root, env, "good.json", "tsconfig.json", "cfn.yaml")
    assert out.returncode == 0, out.stdout + out.stderr


def test_broken_tool_file_fails(hook_repo: tuple[Path, dict[str, str]]) -> None:
    root, env = hook_repo
    out = _run(root, env, "good.json", "bad.json")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Failed" in out.stdout
    # The hook's own output names the file and the rule, not just a failing exit code.
    assert "bad.json" in out.stdout and "root-not-object" in out.stdout


def test_only_python_files_skip_the_hook(hook_repo: tuple[Path, dict[str, str]]) -> None:
    root, env = hook_repo
    out = _run(root, env, "notes.py")
    assert out.returncode == 0 and "Skipped" in out.stdout, out.stdout + out.stderr



def test_new_findings_hook_fails_only_on_what_a_commit_adds(hook_repo: tuple[Path, dict[str, str]]) -> None:
    """`tooldiff-new` reports what the PR check would: bad.json's error is in HEAD, so it does not fail a
    commit; a new error does, and so does a new overlap with a tool the commit leaves alone."""
    root, env = hook_repo
    # Before the first commit there is no HEAD: every finding is new, bad.json's error included.
    first = _run(root, env, "good.json", "bad.json", hook="tooldiff-new")
    assert first.returncode == 1 and "root-not-object" in first.stdout, first.stdout + first.stderr
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "tools as they are")
    try:
        tools = json.loads((root / "good.json").read_text(encoding="utf-8"))
        tools["tools"][0]["description"] += " Results are ranked by relevance."
        (root / "good.json").write_text(json.dumps(tools, indent=2), encoding="utf-8")
        git(root, "add", "good.json")
        out = _run(root, env, "good.json", hook="tooldiff-new")
        assert out.returncode == 0 and "Passed" in out.stdout, out.stdout + out.stderr
        tools["tools"].append({"name": "search docs!", "description": "Search the help articles.",
                               "input_schema": {"type": "object", "properties": {}}})
        (root / "good.json").write_text(json.dumps(tools, indent=2), encoding="utf-8")
        git(root, "add", "good.json")
        out = _run(root, env, "good.json", hook="tooldiff-new")
        assert out.returncode == 1 and "invalid-name" in out.stdout, out.stdout + out.stderr
        assert "root-not-object" not in out.stdout  # bad.json's error is in HEAD: not new
    finally:
        git(root, "checkout", "-q", "HEAD", "--", "good.json")  # the shared repository as the others left it
