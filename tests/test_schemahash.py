"""RFC 8785 canonical JSON and schemaHash, against the vectors in tests/fixtures/schemahash_vectors.json."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldiff.model import Tool
from tooldiff.schemahash import _fast, _slow, canonical_json, lenient_json, number, schema_hash, tool_json

VECTORS = json.loads(
    (Path(__file__).parent / "fixtures" / "schemahash_vectors.json").read_text(encoding="utf-8")
)


def as_tool(record: dict[str, Any], fmt: str = "anthropic") -> Tool:
    return Tool(
        name=record["name"],
        description=record["description"],
        input_schema=record["input_schema"],
        format=fmt,
        file="f",
        line=1,
        pointer="",
        schema_pointer="",
        schema_key="input_schema",
    )


@pytest.mark.parametrize("vector", VECTORS["numbers"], ids=lambda v: v["ieee754"])
def test_rfc8785_numbers(vector: dict[str, str]) -> None:
    value = struct.unpack(">d", bytes.fromhex(vector["ieee754"]))[0]
    assert number(value) == vector["canonical"]
    assert canonical_json([value]) == f"[{vector['canonical']}]"


@pytest.mark.parametrize("doc", VECTORS["documents"], ids=lambda d: d["name"])
def test_rfc8785_documents(doc: dict[str, str]) -> None:
    value = json.loads(doc["input"])
    assert canonical_json(value) == doc["canonical"]
    assert _slow(value) == doc["canonical"]


@pytest.mark.parametrize("vector", VECTORS["tools"], ids=lambda v: v["name"])
def test_tool_hash_is_the_same_across_syntax_and_key_order(vector: dict[str, Any]) -> None:
    for variant in vector["variants"]:
        text = variant["text"]
        record = json.loads(text) if variant["syntax"] == "json" else yaml.safe_load(text)
        assert schema_hash(as_tool(record)) == vector["hash"]


def test_fast_path_agrees_with_the_full_serializer() -> None:
    value = {"b": [1, 'x\u0001"\\', None, True], "a": {"é": "\u2028", "z": -3}, "": []}
    assert canonical_json(value) == _slow(value)


# Every kind of number token (floats, long and huge integers, non-finite), digits in keys and strings, keys
# outside the BMP: what decides between the fast path and the full serializer.
_NUMBERS = st.one_of(
    st.integers(), st.integers(min_value=10**15, max_value=10**30), st.floats(), st.just(10**400),
    st.sampled_from([0.5, -1e-07, 1e21, 123456789012345678, -(2**60), float("nan"), float("-inf")]),
)
_TEXTS = st.one_of(
    st.text(max_size=6), st.sampled_from(["1.5", "NaN", "Infinity", ":1e5", "[3.", "\U0001f600"])
)
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), _NUMBERS, _TEXTS),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXTS, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(_VALUES)
def test_fast_path_agrees_with_the_full_serializer_on_any_value(value: Any) -> None:
    """The fast path answers only where it writes what the full serializer writes, and lets it fail where it
    must (NaN, infinity)."""
    fast = _fast(value)
    try:
        slow = _slow(value)
    except ValueError:
        assert fast is None
        with pytest.raises(ValueError):
            canonical_json(value)
        assert lenient_json(value)
        return
    assert fast is None or fast == slow
    assert canonical_json(value) == slow


def test_hash_ignores_format_and_position_but_not_content() -> None:
    record = {"name": "get_weather", "description": "Weather.", "input_schema": {"type": "object"}}
    base = schema_hash(as_tool(record))
    assert schema_hash(as_tool(record, fmt="mcp")) == base
    assert len(base) == 16 and int(base, 16) >= 0
    assert schema_hash(as_tool({**record, "description": "Weather!"})) != base
    assert schema_hash(as_tool({**record, "input_schema": {"type": "object", "properties": {}}})) != base
    assert tool_json(as_tool(record)) == canonical_json(record)


def test_non_finite_numbers_are_rejected_by_jcs_but_hashed_leniently() -> None:
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})
    record = {"name": "t", "description": "", "input_schema": {"default": float("inf")}}
    assert len(schema_hash(as_tool(record))) == 16


def test_deep_documents_do_not_recurse() -> None:
    deep: Any = 1.5
    for _ in range(50_000):
        deep = [deep]
    text = canonical_json(deep)
    assert text.startswith("[[[") and "1.5" in text


def test_an_integer_beyond_the_double_range_is_hashed_like_the_same_number_in_e_notation() -> None:
    """JCS (RFC 8785 section 3.2.2.3) reads every number as an IEEE-754 double, so the integer literal 1
    followed by 400 zeros is the number 1e400, Infinity to JSON.parse. Python parses `1e400` to inf (hashed
    leniently as the text "Infinity") but keeps the integer exact, and float() of it raised OverflowError,
    which crashed every command on such a file."""
    huge = json.loads("1" + "0" * 400)
    assert isinstance(huge, int)
    with pytest.raises(ValueError):
        canonical_json({"maximum": huge})  # not finite: JCS has no form for it
    record = {"name": "t", "description": "", "input_schema": {"maximum": huge}}
    same = {"name": "t", "description": "", "input_schema": {"maximum": json.loads("1e400")}}
    assert schema_hash(as_tool(record)) == schema_hash(as_tool(same))
    negative = {"name": "t", "description": "", "input_schema": {"maximum": -huge}}
    assert schema_hash(as_tool(negative)) == schema_hash(
        as_tool({**negative, "input_schema": {"maximum": float("-inf")}})
    )
