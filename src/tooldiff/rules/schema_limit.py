"""A schema beyond a structured-output size limit the provider documents.

## What it finds
For targets whose table records the limits (OpenAI strict: Structured Outputs), a schema with
- more than 10 levels of object nesting;
- more than 5,000 object properties in total;
- more than 1,000 enum values in total;
- a single string enum of more than 250 values whose strings total more than 15,000 characters;
- more than 120,000 characters of property names, definition names, enum values and const values.

## Why it matters
OpenAI rejects the request ("6 levels of nesting exceeds limit of 5" in the old limits). Generated schemas
(ORM models, OpenAPI conversions, country or currency enums) cross these without anyone noticing.

## Example
A tool with a `country` enum of 300 long country names plus an `airport` enum of 800 codes.

## Use instead
Take free text and validate it in code, split the tool, or move the large enum into a lookup tool.

## References
- https://developers.openai.com/api/docs/guides/structured-outputs#objects-have-limitations-on-nesting-depth-and-size
- https://developers.openai.com/api/docs/guides/structured-outputs#limitations-on-enum-size
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from tooldiff import schemawalk
from tooldiff.model import Problem, Severity, Tool
from tooldiff.rules.base import Context
from tooldiff.targets import Target

CODE = "schema-limit"
SEVERITY: Severity = "error"
KIND = "tool"
SCHEMA_ONLY = True  # problems depend on the schema, format and targets alone: shared by equal schemas


def _nested(levels: int) -> dict[str, object]:
    schema: dict[str, object] = {"type": "object", "properties": {"leaf": {"type": "string"}}}
    for i in range(levels - 1):
        schema = {"type": "object", "properties": {f"level_{i}": schema}}
    return schema


EXAMPLE = [{"name": "save_tree", "description": "Save a deeply nested record.", "input_schema": _nested(12)}]
FIXED = [{"name": "save_tree", "description": "Save a nested record.", "input_schema": _nested(4)}]


@dataclass(slots=True)
class Stats:
    depth: int = 0
    depth_pointer: str = "/input_schema"
    properties: int = 0
    enum_values: int = 0
    string_chars: int = 0
    large_enums: list[tuple[str, int, int]] = field(default_factory=list)  # pointer, values, chars


def measure(tool: Tool, threshold: int | None) -> Stats:
    st = Stats()
    for node in schemawalk.nodes(tool):
        s = node.schema
        if not isinstance(s, dict):
            continue
        if node.depth > st.depth:
            st.depth, st.depth_pointer = node.depth, node.pointer
        if node.via in ("$defs", "definitions") and node.key:
            st.string_chars += len(node.key)
        props = schemawalk.properties_of(s)
        st.properties += len(props)
        st.string_chars += sum(len(str(k)) for k in props)
        enum = s.get("enum")
        if isinstance(enum, list):
            st.enum_values += len(enum)
            strings = [v for v in enum if isinstance(v, str)]
            chars = sum(len(v) for v in strings)
            st.string_chars += chars
            # A nullable string enum (`["a", ..., null]`) is still a string enum: the null is not a value.
            nulls = enum.count(None)
            if threshold is not None and len(strings) > threshold and len(strings) + nulls == len(enum):
                st.large_enums.append((node.pointer + "/enum", len(enum), chars))
        const = s.get("const")
        if isinstance(const, str):
            st.string_chars += len(const)
    return st


def _over(targets: tuple[Target, ...], attr: str, value: int) -> tuple[tuple[str, ...], int]:
    hit = [
        (t.name, getattr(t, attr))
        for t in targets
        if getattr(t, attr) is not None and value > getattr(t, attr)
    ]
    return tuple(n for n, _ in hit), min((lim for _, lim in hit), default=0)


def _limited(ctx: Context) -> tuple[Target, ...]:
    """The targets with a structured-output limit (worked out once per context)."""
    limited = ctx.memo.get(CODE)
    if limited is None:
        limited = ctx.memo[CODE] = tuple(
            t
            for t in ctx.targets
            if t.max_nesting_depth
            or t.max_total_properties
            or t.max_total_enum_values
            or t.max_total_string_chars
            or t.max_large_enum_string_chars
        )
    return limited


def applies(ctx: Context) -> bool:
    return bool(_limited(ctx))


def check(tool: Tool, ctx: Context) -> Iterator[Problem]:
    limited = _limited(ctx)
    if not limited or not schemawalk.has_schema(tool):
        return
    thresholds = [t.large_enum_threshold for t in limited if t.large_enum_threshold is not None]
    st = measure(tool, min(thresholds) if thresholds else None)
    checks = (
        ("max_nesting_depth", st.depth, st.depth_pointer, "levels of object nesting", "Flatten the schema"),
        (
            "max_total_properties",
            st.properties,
            "/input_schema",
            "object properties in total",
            "Split the tool",
        ),
        (
            "max_total_enum_values",
            st.enum_values,
            "/input_schema",
            "enum values in total",
            "Replace large enums with free text validated in code",
        ),
        (
            "max_total_string_chars",
            st.string_chars,
            "/input_schema",
            "characters of property names, definition names, enum and const values",
            "Shorten names and enums",
        ),
    )
    for attr, value, pointer, what, fix in checks:
        names, limit = _over(limited, attr, value)
        if names:
            yield Problem(
                message=f"The schema has {value} {what}; the limit is {limit}.",
                fix=f"{fix}.",
                pointer=pointer,
                targets=names,
                evidence={"limit": attr, "value": value, "max": limit},
            )
    for pointer, count, chars in st.large_enums:
        hit = [
            t
            for t in limited
            if t.large_enum_threshold is not None
            and count > t.large_enum_threshold
            and t.max_large_enum_string_chars is not None
            and chars > t.max_large_enum_string_chars
        ]
        if hit:
            limit = min(t.max_large_enum_string_chars or 0 for t in hit)
            yield Problem(
                message=f"This enum has {count} values totalling {chars} characters; the limit is {limit}.",
                fix="Replace the enum with free text validated in code, or shorten its values.",
                pointer=pointer,
                targets=tuple(t.name for t in hit),
                evidence={
                    "limit": "max_large_enum_string_chars",
                    "values": count,
                    "value": chars,
                    "max": limit,
                },
            )
