"""Golden outputs of every renderer on hand-built reports.

`pytest tests/render --update-golden` rewrites them; review the diff before committing.
"""

from __future__ import annotations

import json

import pytest

from tooldiff.render import RENDERERS, RenderContext, render

from .conftest import GOLDEN
from .reports import CASES, SHA

FILES = {
    "markdown": "comment.md",
    "github": "summary.md",
    "json": "report.json",
    "sarif": "report.sarif",
    "text": "text.txt",
    "annotations": "annotations.txt",
}
CTX = RenderContext(
    repo_url="octo/helpdesk", head_sha=SHA, full_report_hint="See the job summary of this run."
)


def _without_rule_text(sarif: str) -> str:
    """Rule docs come from the rule modules, which change on their own: the golden file keeps only ids."""
    data = json.loads(sarif)
    for rule in data["runs"][0]["tool"]["driver"]["rules"]:
        for key in ("shortDescription", "fullDescription", "help", "properties"):
            rule.pop(key, None)
    return json.dumps(data, sort_keys=True, indent=2) + "\n"


def test_every_renderer_has_a_golden_file() -> None:
    assert set(FILES) == set(RENDERERS)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("fmt", sorted(FILES))
def test_golden(case: str, fmt: str, update_golden: bool) -> None:
    out = render(fmt, CASES[case](), CTX)
    if fmt == "sarif":
        out = _without_rule_text(out)
    path = GOLDEN / case / FILES[fmt]
    if update_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run pytest tests/render --update-golden"
    assert out == path.read_text(encoding="utf-8"), f"{path} differs: review, then --update-golden"


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("fmt", sorted(FILES))
def test_deterministic(case: str, fmt: str) -> None:
    assert render(fmt, CASES[case](), CTX) == render(fmt, CASES[case](), CTX)


def test_unknown_format_names_the_choices() -> None:
    with pytest.raises(KeyError, match="markdown"):
        render("html", CASES["audit"](), CTX)


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_empty_and_bare_reports_render(fmt: str) -> None:
    from tooldiff.model import Report

    from .reports import finding

    empty = Report(mode="check", toolsets=(), tools=(), findings=())
    assert render(fmt, empty, CTX) or fmt == "annotations"  # no finding, no annotation
    bare = finding(
        "parse-error", "error", (), "Unexpected end of JSON.", toolset="", file="broken.json", line=0
    )
    out = render(fmt, Report(mode="check", toolsets=(), tools=(), findings=(bare,)), CTX)
    assert "broken" in out
