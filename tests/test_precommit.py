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


def test_hook_definition_matches_the_cli() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "tooldiff" and hook["entry"] == "tooldiff check"
    assert hook["pass_filenames"] is True and hook["language"] == "python"
    files = re.compile(hook["files"])
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
    config = {"repos": [{"repo": str(REPO), "rev": rev, "hooks": [{"id": "tooldiff"}]}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    shutil.copy(EXAMPLE, root / "good.json")
    (root / "bad.json").write_text(json.dumps(BROKEN, indent=2), encoding="utf-8")
    (root / "notes.py").write_text("print('not a tool file')\n", encoding="utf-8")
    git(root, "add", ".")
    env = {**ENV, "PRE_COMMIT_HOME": str(base / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("CI", None)
    return root, env


def _run(root: Path, env: dict[str, str], *files: str) -> subprocess.CompletedProcess[str]:
    cmd = [str(PRE_COMMIT), "run", "tooldiff", "--color", "never", "--files", *files]
    return subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False)


def test_clean_tool_file_passes(hook_repo: tuple[Path, dict[str, str]]) -> None:
    root, env = hook_repo
    out = _run(root, env, "good.json", "notes.py")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tooldiff" in out.stdout and "Passed" in out.stdout


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

