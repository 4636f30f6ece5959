"""docs/rules.md is generated from the rule modules (`make docs`) and complete for every registered rule."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tooldiff import docs, rules
from tooldiff.model import Problem, Tool, Toolset
from tooldiff.parsers import parse_bytes
from tooldiff.rules.base import Context
from tooldiff.targets import TARGETS

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
REQUIRED = ("What it finds", "Why it matters", "Example", "Use instead", "References")


def test_rules_md_is_not_stale() -> None:
    assert RULES_MD.exists(), "docs/rules.md is missing: run `make docs`"
    assert RULES_MD.read_text(encoding="utf-8") == docs.render_rules_markdown(), (
        "docs/rules.md is stale: run `make docs` and commit the result"
    )


@pytest.mark.parametrize("code", list(rules.registry()))
def test_every_rule_documents_every_section(code: str) -> None:
    doc = docs.rule_doc(code)
    missing = [s for s in REQUIRED if not doc.sections.get(s, "").strip()]
    assert not missing, f"{code}: the docstring lacks {missing}"
    assert doc.summary and doc.severity in ("error", "warning", "info")
    assert (not doc.targets) == docs.provider_free(code) and set(doc.targets) <= set(TARGETS), code
    assert "http" in doc.sections["References"] or "seed" in doc.sections["References"].lower(), code
    section = docs.render_rule(doc)
    assert section.startswith(f"## {code}\n") and f"Severity: **{doc.severity_shown}**" in section
    assert all(f"`{t}`" in section for t in doc.targets)


def _tools(records: list[dict[str, Any]]) -> tuple[Tool, ...]:
    parsed = parse_bytes("example.json", json.dumps(records).encode())  # the format comes from the shape
    assert not parsed.errors and len(parsed.tools) == len(records)
    return parsed.tools


def _fire(module: ModuleType, records: list[dict[str, Any]]) -> list[Problem]:
    targets = tuple(TARGETS.values())
    options = {**getattr(module, "OPTIONS", {}), **getattr(module, "EXAMPLE_OPTIONS", {})}
    ctx = Context(targets=targets, options=options, targets_of=lambda _: targets)
    if hasattr(module, "EXAMPLE_PATH"):  # a source-level rule: the example is a file
        tools = parse_bytes(module.EXAMPLE_PATH, module.EXAMPLE_FILE.encode()).tools
    else:
        tools = _tools(records)
    if module.KIND == "toolset":
        return list(module.check(Toolset(id="example.json", files=("example.json",), tools=tools), ctx))
    return [p for t in tools for p in module.check(t, ctx)]


@pytest.mark.parametrize("code", [c for c, m in rules.registry().items() if m.KIND in ("tool", "toolset")])
def test_documented_targets_cover_where_the_example_fires(code: str) -> None:
    # The targets line is derived from the target data; the rule itself says where its example fires.
    module = rules.get(code)
    if not isinstance(getattr(module, "EXAMPLE", None), list):
        pytest.skip(f"{code} has no EXAMPLE tool list")
    problems = _fire(module, module.EXAMPLE)
    assert problems, f"{code}: EXAMPLE does not fire"
    # A problem naming no targets holds for every target, as does a rule documented with none.
    fired = {t for p in problems for t in (p.targets or tuple(TARGETS))}
    documented = set(docs.rule_doc(code).targets or TARGETS)
    assert fired <= documented, f"{code} fires for {fired - documented}"


@pytest.mark.parametrize("code", [c for c, m in rules.registry().items() if m.KIND in ("tool", "toolset")])
def test_a_second_severity_is_documented(code: str) -> None:
    # A rule that reports some cases at another severity says so where its severity is shown.
    module = rules.get(code)
    if not isinstance(getattr(module, "EXAMPLE", None), list):
        pytest.skip(f"{code} has no EXAMPLE tool list")
    other = {p.severity for p in _fire(module, module.EXAMPLE)} - {None, module.SEVERITY}
    shown = docs.rule_doc(code).severity_shown
    assert all(s in shown.split("(", 1)[-1] for s in other), f"{code} also reports {other}: {shown}"
    assert f"| {shown} |" in docs.render_rules_table()
    assert f"Severity: **{shown}**" in docs.render_rule_markdown(code)


def test_missing_description_shows_both_severities() -> None:
    assert docs.rule_doc("missing-description").severity_shown == "warning (info on a property)"


def test_strict_only_rules_are_documented_as_strict_only() -> None:
    # A rule reading a fact only OpenAI strict sets must not claim the other targets.
    assert docs.rule_doc("optional-not-required").targets == ("openai-strict",)
    assert "anthropic" not in docs.rule_doc("unsupported-keyword").targets


def _json_blocks(section: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", section, flags=re.S)


def _is_tool_records(value: Any) -> bool:
    """Whole tool records (what a user would save to a file and check), not a bare input schema."""
    items = value if isinstance(value, list) else [value]
    return any(isinstance(v, dict) and ("name" in v or "tools" in v) for v in items)


def _documented(code: str, section: str) -> list[str]:
    out = []
    for block in _json_blocks(docs.rule_doc(code).sections.get(section, "")):
        try:
            value = json.loads(block)
        except ValueError:
            continue  # parse-error's example is broken on purpose
        if _is_tool_records(value):
            out.append(block)
    return out


def _fire_text(module: ModuleType, text: str) -> list[Problem]:
    targets = tuple(TARGETS.values())
    options = {**getattr(module, "OPTIONS", {}), **getattr(module, "EXAMPLE_OPTIONS", {})}
    ctx = Context(targets=targets, options=options, targets_of=lambda _: targets)
    parsed = parse_bytes("example.json", text.encode())
    assert not parsed.errors and parsed.tools, f"not read as tools: {text}"
    if module.KIND == "toolset":
        toolset = Toolset(id="example.json", files=("example.json",), tools=parsed.tools)
        return list(module.check(toolset, ctx))
    return [p for t in parsed.tools for p in module.check(t, ctx)]


@pytest.mark.parametrize("code", [c for c, m in rules.registry().items() if m.KIND in ("tool", "toolset")])
def test_documented_tool_examples_are_read_as_tools_and_fire(code: str) -> None:
    """What docs/rules.md shows is what a user copies into a file: `tooldiff check` must read it as tools,
    the Example must fire and the Use instead must not."""
    module = rules.get(code)
    for text in _documented(code, "Example"):
        assert _fire_text(module, text), f"{code}: the documented Example does not fire"
    for text in _documented(code, "Use instead"):
        assert not _fire_text(module, text), f"{code}: the documented Use instead fires"


def test_targets_come_from_the_target_data_not_from_an_imported_registry() -> None:
    # Both rules import the target registry as `TARGETS`; that is not a list of where they fire.
    assert docs.rule_doc("implicit-strict").targets == ("openai",)
    too_many = docs.rule_doc("too-many-tools").targets
    assert "anthropic" not in too_many and "openai" in too_many


def _check_as_user(folder: Path, text: str) -> list[Any]:
    """`tooldiff check` on the block saved as a file: the targets its format gets by default."""
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    folder.mkdir()
    (folder / "example.json").write_text(text, encoding="utf-8")
    return list(run_check(WorktreeSource(folder), Config.default()).findings)


@pytest.mark.parametrize("code", [c for c, m in rules.registry().items() if m.KIND in ("tool", "toolset")])
def test_documented_examples_behave_so_when_checked_as_files(code: str, tmp_path: Path) -> None:
    """A user who saves the Example and runs `tooldiff check` sees the rule; saving the Use instead gives
    nothing at warning or above, from this rule or another."""
    for k, text in enumerate(_documented(code, "Example")):
        found = _check_as_user(tmp_path / f"example{k}", text)
        assert any(f.code == code for f in found), f"{code}: the documented Example does not fire as a file"
    for k, text in enumerate(_documented(code, "Use instead")):
        found = _check_as_user(tmp_path / f"instead{k}", text)
        loud = [f"{f.code}: {f.message}" for f in found if f.severity in ("error", "warning")]
        assert not loud, f"{code}: the documented Use instead gives {loud}"


def test_a_rule_documents_targets_exactly_when_its_findings_name_them(tmp_path: Path) -> None:
    """The overlap rules judge tool text, whatever the provider: their findings name no target, and their
    docs must not list four (seed 002 audit). Checked on the findings every rule's documented example makes,
    each example a toolset of its own."""
    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    for code in rules.registry():
        example = getattr(rules.get(code), "EXAMPLE", None)
        if isinstance(example, list) and example:
            (tmp_path / f"{code}.json").write_text(json.dumps(example), encoding="utf-8")
    found = run_check(WorktreeSource(tmp_path), Config.default()).findings
    codes = {f.code for f in found}
    assert {"intent-overlap", "escalation-flag", "mode-argument", "optional-not-required"} <= codes, codes
    for f in found:
        doc = docs.rule_doc(f.code)
        assert bool(f.targets) == bool(doc.targets), (f.code, f.targets, doc.targets)
    free = [code for code in docs.codes() if docs.provider_free(code)]
    assert len(free) == 8, free
    for code in free:
        assert "targets: any provider" in docs.render_rule(docs.rule_doc(code))
