"""Rule documentation parsed from the rule modules' docstrings."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tooldiff import docs
from tooldiff.rules import RULE_MODULES

DOCSTRING = """A property that is not listed in `required`.

More words of the summary's paragraph are not part of it.

## What it finds
Each property missing from `required`.

## Example
```json
{"name": "x"}
# not a heading inside a fence
```

**Use instead**
List it in `required`.

References:
- https://example.invalid/doc
"""


def test_parse_docstring_sections() -> None:
    summary, sections = docs.parse_docstring(DOCSTRING)
    assert summary == "A property that is not listed in `required`."
    assert list(sections) == ["What it finds", "Example", "Use instead", "References"]
    assert sections["Example"].startswith("```json") and "# not a heading" in sections["Example"]
    assert sections["References"] == "- https://example.invalid/doc"


def test_body_lines_ending_in_a_colon_are_not_headings() -> None:
    _, sections = docs.parse_docstring("Summary.\n\n## Why it matters\nFor example:\nthis.\n")
    assert sections == {"Why it matters": "For example:\nthis."}


def _importable() -> list[str]:
    out = []
    for name in RULE_MODULES:
        try:
            out.append(importlib.import_module(f"tooldiff.rules.{name}").CODE)
        except ImportError:
            continue
    return out


def test_every_written_rule_has_complete_docs() -> None:
    codes = _importable()
    if not codes:
        pytest.skip("no rule module is written yet")
    for code in codes:
        doc = docs.rule_doc(code)
        assert doc.summary, code
        assert doc.severity in ("error", "warning", "info"), code
        missing = {"What it finds", "Why it matters", "Example", "Use instead"} - set(doc.sections)
        assert not missing, f"{code} lacks {missing}"
        assert f"## {code}\n" in docs.render_rule(doc)


def test_unknown_code_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        docs.rule_doc("no-such-rule")


def test_rules_markdown_lists_every_registered_rule() -> None:
    if len(_importable()) < len(RULE_MODULES):
        pytest.skip("some rule modules are not written yet")
    text = docs.render_rules_markdown()
    for code in _importable():
        assert f"\n## {code}\n" in text and f"](#{code})" in text


def test_docs_rules_md_is_not_stale() -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    if len(_importable()) < len(RULE_MODULES):
        pytest.skip("some rule modules are not written yet")
    if not path.exists():
        pytest.skip("docs/rules.md is not generated yet (make docs)")
    stale = path.read_text(encoding="utf-8") != docs.render_rules_markdown()
    assert not stale, "docs/rules.md is stale: run make docs"
