"""Target tables: every fact cited, the format defaults, the data hash, and no branching on target names."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tooldiff import targets
from tooldiff.model import Tool
from tooldiff.rules import LINT_MODULES
from tooldiff.targets import FACT_TYPES, TARGET_NAMES, TARGETS, TargetDataError, default_targets, load_target

DATA = Path(targets.__file__).parent / "data" / "targets"
PROVIDER_DOCS = (
    "https://platform.openai.com/",
    "https://developers.openai.com/",
    "https://docs.anthropic.com/",
    "https://platform.claude.com/",
    "https://ai.google.dev/",
    "https://cloud.google.com/",
    "https://docs.cloud.google.com/",
)
LINT_RULES = Path(targets.__file__).parent / "rules"


def raw(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_every_table_loads_with_every_fact() -> None:
    assert tuple(TARGETS) == TARGET_NAMES == (
        "openai-strict", "openai", "anthropic-strict", "anthropic", "google")
    for name in TARGET_NAMES:
        assert set(raw(name)["facts"]) == set(FACT_TYPES)


@pytest.mark.parametrize("name", TARGET_NAMES)
def test_every_documented_fact_cites_a_provider_document(name: str) -> None:
    for fact, entry in raw(name)["facts"].items():
        if entry["source"] is None:
            assert entry["value"] in (None, []), f"{name}.{fact} has a value but no source"
            assert "document" in entry["note"].lower() or "not" in entry["note"].lower()
        else:
            assert entry["source"].startswith(PROVIDER_DOCS), f"{name}.{fact}: {entry['source']}"


def test_key_facts() -> None:
    strict, openai, anthropic_strict, anthropic, google = (TARGETS[n] for n in TARGET_NAMES)
    assert strict.all_properties_required and strict.additional_properties_false_required
    assert not openai.all_properties_required and not anthropic.additional_properties_false_required
    assert strict.recursive_refs is True and anthropic.recursive_refs is None
    assert strict.max_tools == openai.max_tools == 128 and anthropic.max_tools is None
    assert google.max_tools == 512
    assert (strict.max_nesting_depth, strict.max_total_properties, strict.max_total_enum_values) == (
        10,
        5000,
        1000,
    )
    assert (strict.large_enum_threshold, strict.max_large_enum_string_chars) == (250, 15000)
    assert strict.max_total_string_chars == 120000 and openai.max_total_string_chars is None
    assert "oneOf" in strict.unsupported_keywords and "oneOf" not in google.unsupported_keywords
    assert google.unsupported_keywords == strict.unsupported_keywords - {"oneOf"}
    assert not anthropic.unsupported_keywords and not openai.unsupported_keywords
    assert google.name_pattern.fullmatch("ns.tool:v1") and not google.name_pattern.fullmatch("1tool")
    assert anthropic.name_pattern.fullmatch("a" * 128) and not anthropic.name_pattern.fullmatch("a" * 129)
    assert google.name_pattern.fullmatch("a" * 128) and not google.name_pattern.fullmatch("a" * 129)
    assert strict.name_pattern.fullmatch("a" * 64) and not openai.name_pattern.fullmatch("a" * 65)
    assert (anthropic.name_max_length, google.name_max_length, openai.name_max_length) == (128, 128, 64)
    # Strict tool use: every object closed, no recursion, no numeric or length bounds; optional fields stay.
    assert anthropic_strict.additional_properties_false_required and anthropic_strict.recursive_refs is False
    assert {"minimum", "maxLength"} <= anthropic_strict.unsupported_keywords
    assert not anthropic_strict.all_properties_required
    assert anthropic_strict.name_pattern.pattern == anthropic.name_pattern.pattern
    # Per model since Claude 4.5 (290 to 675 tokens with tool_choice auto), so no one figure for the target.
    assert anthropic.request_overhead_tokens is None
    assert "per model" in anthropic.notes["request_overhead_tokens"]


def test_a_fact_without_a_source_is_refused() -> None:
    data = raw("openai")
    data["facts"]["max_tools"] = {"value": 128, "source": None, "note": "trust me"}
    with pytest.raises(TargetDataError):
        load_target("openai", data)
    data = raw("openai")
    del data["facts"]["max_tools"]
    with pytest.raises(TargetDataError):
        load_target("openai", data)


def tool(fmt: str, strict: bool | None = None) -> Tool:
    return Tool(
        name="t",
        description="",
        input_schema={},
        format=fmt,
        file="f",
        line=1,
        pointer="",
        schema_pointer="",
        strict=strict,
    )


@pytest.mark.parametrize(
    ("fmt", "strict", "expected"),
    [
        ("openai-chat", True, ("openai-strict",)),
        ("openai-responses", True, ("openai-strict",)),
        ("openai-chat", None, ("openai",)),
        ("openai-responses", False, ("openai",)),
        ("anthropic", None, ("anthropic",)),
        ("anthropic", True, ("anthropic-strict",)),
        ("gemini", None, ("google",)),
        ("mcp", None, ("anthropic", "openai", "google")),
        ("function", True, ("anthropic", "openai", "google")),
    ],
)
def test_default_targets_follow_the_format(fmt: str, strict: bool | None, expected: tuple[str, ...]) -> None:
    assert default_targets(tool(fmt, strict)) == expected


def test_target_data_hash_covers_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    first = targets.target_data_hash()
    assert len(first) == 64 and first == targets.target_data_hash()
    original = targets._raw
    monkeypatch.setattr(targets, "_raw", lambda n: original(n) + (b" " if n == "google" else b""))
    targets.target_data_hash.cache_clear()
    try:
        assert targets.target_data_hash() != first
    finally:
        monkeypatch.undo()
        targets.target_data_hash.cache_clear()


def test_rules_never_branch_on_a_target_name() -> None:
    """Provider facts are data: no rule module's code mentions a target by name."""
    names = set(TARGET_NAMES)
    for path in (LINT_RULES / f"{m}.py" for m in LINT_MODULES):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if tree.body and isinstance(tree.body[0], ast.Expr):
            tree.body = tree.body[1:]  # the docstring may name providers
        literals = {
            n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
        assert not (literals & names), f"{path.name} names a target: {literals & names}"


def test_resolve_and_ordered() -> None:
    assert [t.name for t in targets.resolve(["google", "nope", "openai-strict"])] == [
        "openai-strict",
        "google",
    ]
    assert targets.ordered({"google", "anthropic"}) == ("anthropic", "google")
    assert replace(TARGETS["openai"], max_tools=1).max_tools == 1  # frozen, but replaceable


def test_format_facts_are_checked_as_target_facts_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """data/formats.json is read through `fact_value`: a documented value without a source, or an unknown
    fact, stops the load rather than reaching a rule unchecked."""
    from importlib import resources

    from tooldiff import formats

    raw = json.loads(resources.files("tooldiff").joinpath("data/formats.json").read_bytes())
    assert formats.facts("mcp") is not None and formats.facts("mcp").label == "MCP"  # type: ignore[union-attr]

    def load(data: dict[str, Any]) -> None:
        class Fake:
            def read_bytes(self) -> bytes:
                return json.dumps(data).encode()

        class Files:
            def joinpath(self, _: str) -> Fake:
                return Fake()

        monkeypatch.setattr(formats.resources, "files", lambda _: Files())
        formats._table.cache_clear()
        try:
            formats._table()
        finally:
            formats._table.cache_clear()

    no_source = json.loads(json.dumps(raw))
    no_source["mcp"]["facts"]["refused_by"]["source"] = None
    with pytest.raises(TargetDataError, match="has no source"):
        load(no_source)
    extra = json.loads(json.dumps(raw))
    extra["mcp"]["facts"]["max_tools"] = {"value": 1, "source": "https://x"}
    with pytest.raises(TargetDataError, match="facts must be exactly"):
        load(extra)
