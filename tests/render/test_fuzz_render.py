"""Bounded fuzz of the renderers: any tool text, no exception, inert Markdown, valid JSON, within budget."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldiff.render import RENDERERS, RenderContext, render

from . import reports

EXAMPLES = int(os.environ.get("TOOLDIFF_FUZZ_EXAMPLES", "60"))
NASTY = st.sampled_from(
    ["<!-- tooldiff", "</details>", "@team", "javascript:", "|", "\n", "`", "[", "](", "<", "&"]
)
TEXT = st.lists(st.one_of(st.text(max_size=30), NASTY), max_size=8).map("".join)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=TEXT, other=TEXT, message=TEXT, file=TEXT, limit=st.integers(min_value=500, max_value=65_000))
def test_any_text_renders_inert_and_within_budget(
    name: str, other: str, message: str, file: str, limit: int
) -> None:
    base = reports.overlap_pr()
    finding = reports.finding("intent-overlap", "warning", (name, other), message, fix=message, file=file)
    report = replace(base, findings=(*base.findings, finding), notes=(message,))
    ctx = RenderContext(repo_url="octo/helpdesk", head_sha=reports.SHA, max_chars=limit)
    out = {fmt: render(fmt, report, ctx) for fmt in RENDERERS}
    comment = out["markdown"]
    assert len(comment) <= limit
    assert comment.startswith("<!-- tooldiff:comment id=default -->")
    for fmt in ("markdown", "github"):
        body = out[fmt].split("\n", 1)[1]
        assert "<!--" not in body and "<script" not in body
        assert out[fmt].count("</details>") == out[fmt].count("<details>")
        assert not re.search(r"@[A-Za-z0-9]", out[fmt]) and not re.search(r"javascript\s*:", out[fmt], re.I)
    json.loads(out["json"])
    json.loads(out["sarif"])
    assert out == {fmt: render(fmt, report, ctx) for fmt in RENDERERS}
    assert all(
        line.startswith("::") or line.startswith("tooldiff:") for line in out["annotations"].splitlines()
    )
