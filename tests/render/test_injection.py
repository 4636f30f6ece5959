"""Hostile tool text renders inert in every output (issue 6, "Comment injection")."""

from __future__ import annotations

import json
import re

import pytest

from tooldiff.render import RenderContext, escape, render

from . import reports
from .test_comment import html_of

CTX = RenderContext(repo_url="octo/helpdesk", head_sha=reports.SHA)


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    return {fmt: render(fmt, reports.hostile(), CTX) for fmt in ("markdown", "github")}


@pytest.mark.parametrize("fmt", ["markdown", "github"])
def test_no_payload_is_live_in_markdown(outputs: dict[str, str], fmt: str) -> None:
    out = outputs[fmt]
    body = out.split("\n", 1)[1] if fmt == "markdown" else out
    assert "<!-- tooldiff" not in body  # only our own marker, on the first line
    assert "<!--" not in body
    assert out.count("</details>") == out.count("<details>")  # only the tags we wrote
    assert "<script" not in out and "<img" not in out
    assert not re.search(r"javascript\s*:", out, re.I)
    assert not re.search(r"@[A-Za-z0-9]", out)  # no mention can notify anyone
    assert "\u202e" not in out
    assert "\n# heading" not in out and "\n- item" not in out
    assert "](x)" not in out and "](javascript" not in out


@pytest.mark.parametrize("fmt", ["markdown", "github"])
def test_html_has_no_live_markup(outputs: dict[str, str], fmt: str) -> None:
    html = html_of(outputs[fmt])
    assert "<script" not in html and "<img" not in html and "<h1" not in html
    assert 'href="javascript' not in html.lower()
    assert "&lt;script&gt;" in html  # shown, not run
    # Only our own links exist: the rule docs and blobs at the head commit.
    for href in re.findall(r'href="([^"]*)"', html):
        assert href.startswith(
            ("https://github.com/tooldiff/tooldiff/", "https://github.com/octo/helpdesk/blob/")
        )


def test_every_table_row_keeps_its_columns(outputs: dict[str, str]) -> None:
    from .test_comment import _tables

    for out in outputs.values():
        for cells in _tables(html_of(out)):
            assert len(set(cells)) == 1, cells


def test_json_and_sarif_keep_the_text_verbatim() -> None:
    data = json.loads(render("json", reports.hostile(), CTX))
    assert reports.HOSTILE in {f["message"] for f in data["findings"]}
    sarif = json.loads(render("sarif", reports.hostile(), CTX))
    assert sarif["runs"][0]["results"][0]["message"]["text"].startswith(reports.HOSTILE)


def test_terminal_and_workflow_commands_stay_on_their_lines() -> None:
    text = render("text", reports.hostile(), CTX)
    assert "\u202e" not in text and "\r" not in text
    assert all(not line.startswith("#") for line in text.splitlines())
    ann = render("annotations", reports.hostile(), CTX)
    assert all(line.startswith("::") for line in ann.splitlines())
    assert "\r" not in ann and len(ann.splitlines()) == 2


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a|b", "a\\|b"),
        ("line\nnext\r\nthird", "line next third"),
        ("<b>&", "&lt;b&gt;&amp;"),
        ("ping @octo-org/team", "ping @\u200bocto\\-org/team".replace("\\-", "-")),
        ("[x](javascript:alert(1))", "\\[x\\]\\(javascript\u200b:alert\\(1\\)\\)"),
        ("- list", "\\- list"),
        ("1. list", "1\\. list"),
        ("snake_case *bold*", "snake\\_case \\*bold\\*"),
        ('"quoted"', "&quot;quoted&quot;"),
        # Issue references: GitHub links `#7`, `owner/repo#7` and `GH-42` and backlinks the issue.
        ("GH-42 owner/repo#7", "GH\u200b-42 owner/repo\\#\u200b7"),
        ("bidi\u061cmark", "bidi\ufffdmark"),
        # Invisible characters that make two names look alike (`i\u200bd` shown as `id`) are shown
        ("i\u200bd s\u00adoft w\u2060j b\ufeffom t\U000e0041ag f\u3164ill",
         "i\ufffdd s\ufffdoft w\ufffdj b\ufffdom t\ufffdag f\ufffdill"),
        # ... but not the joiners that emoji and Indic or Persian writing need
        ("\U0001f468\u200d\U0001f469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
         "\U0001f468\u200d\U0001f469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"),
    ],
)
def test_md_escapes(raw: str, expected: str) -> None:
    assert escape.md(raw) == expected


def test_md_truncates_long_names() -> None:
    assert len(escape.md("n" * 5000, 80)) == 80


def test_mermaid_labels_keep_only_safe_characters() -> None:
    assert escape.mermaid('a"]; click n0 "javascript:x"') == "a___ click n0 _javascript_x_"
    assert escape.mermaid("```") == "___"


def test_text_reports_issue_no_workflow_command() -> None:
    # `tooldiff check`, `diff` or `describe` in a workflow (or a pre-commit hook run there) prints its text
    # to the job log, where the runner takes a line that starts with `::` as a command, and `##[command]`
    # anywhere in a line: a PR's file or tool name must not forge an annotation or stop command processing.
    import dataclasses

    from tooldiff.describe import render_describe

    base = reports.hostile()
    f = dataclasses.replace(base.findings[0], file="::warning::w.json", message="x ##[error]forged",
                            fix="##[stop-commands]t")
    tools = (dataclasses.replace(base.tools[0], name="::error title=ok::forged"), *base.tools[1:])
    report = dataclasses.replace(base, findings=(f,), resolved=(f,), tools=tools, notes=("##[add-mask]n",))
    texts = [render("text", report, dataclasses.replace(CTX, statistics=s)) for s in (False, True)]
    texts.append(render_describe(dataclasses.replace(report, resolved=())))
    for text in texts:
        assert "##[" not in text
        assert not any(line.lstrip().startswith("::") for line in text.splitlines()), text
