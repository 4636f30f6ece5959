"""Golden PR comments: `tests/golden/<case>/{base,head}` diffed, rendered as the PR comment, compared with
`expected/comment.md`. Regenerate with TOOLDIFF_UPDATE_GOLDEN=1 and read the change as a reviewer would."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tooldiff.diffrun import run_diff_paths
from tooldiff.render import RenderContext, render

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "base").is_dir() and (p / "head").is_dir())
UPDATE = os.environ.get("TOOLDIFF_UPDATE_GOLDEN") == "1"
CTX = RenderContext(repo_url="https://github.com/acme/helpdesk-agent",
                    head_sha="0123456789abcdef0123456789abcdef01234567")


@pytest.mark.parametrize("case", CASES)
def test_golden_comment(case: str) -> None:
    root = GOLDEN / case
    got = render("markdown", run_diff_paths(root / "base", root / "head"), CTX)
    expected = root / "expected" / "comment.md"
    if UPDATE or not expected.exists():
        expected.parent.mkdir(exist_ok=True)
        expected.write_text(got, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"wrote {expected}; review it and run again")
    assert got == expected.read_text(encoding="utf-8")


def test_cases_exist() -> None:
    assert {"add-overlap", "reformat-only", "rename-edit", "resolve-overlap"} <= set(CASES)
