"""What changed inside a tool, property by property (`tooldiff.schemadiff`)."""

from __future__ import annotations

from typing import Any

from tooldiff.model import Tool
from tooldiff.schemadiff import MAX_DETAILS, details


def t(schema: Any, annotations: dict[str, Any] | None = None, title: str | None = None) -> Tool:
    return Tool(name="git_log", description="Shows the commit logs.", input_schema=schema, format="mcp",
                file="tools.json", line=1, pointer="/0", schema_pointer="/0/inputSchema",
                annotations=annotations, title=title)


BASE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "repo_path": {"type": "string", "description": "Path to the repository."},
        "max_count": {"type": "integer", "minimum": 1},
        "order": {"type": "string", "enum": ["newest", "oldest"]},
        "paths": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["repo_path"],
}


def edited(**changes: Any) -> dict[str, Any]:
    import copy

    out = copy.deepcopy(BASE)
    for key, value in changes.items():
        if key == "props":
            out["properties"].update(value)
        else:
            out[key] = value
    return out


def test_added_and_removed_properties_say_whether_required() -> None:
    new = edited(props={"since": {"type": "string"}, "author": {"type": "string"}},
                 required=["repo_path", "author"])
    assert details(t(BASE), t(new)) == ("author: added, required", "since: added, optional")
    gone = edited()
    del gone["properties"]["order"]
    assert details(t(BASE), t(gone)) == ("order: removed",)


def test_required_type_enum_and_constraints() -> None:
    assert details(t(BASE), t(edited(required=["repo_path", "max_count"]))) == ("max_count: now required",)
    assert details(t(BASE), t(edited(required=[]))) == ("repo_path: now optional",)
    assert details(t(BASE), t(edited(props={"max_count": {"type": "string", "minimum": 1}}))) == (
        'max_count: type "integer" → "string"',)
    assert details(t(BASE), t(edited(props={"order": {"type": "string", "enum": ["newest", "random"]}}))) == (
        'order: enum +"random" −"oldest"',)
    capped = {"max_count": {"type": "integer", "minimum": 1, "maximum": 50}}
    assert details(t(BASE), t(edited(props=capped))) == ("max_count: maximum unset → 50",)
    assert details(t(BASE), t(edited(additionalProperties=True))) == ("additionalProperties: unset → true",)


def test_nested_items_and_descriptions() -> None:
    assert details(t(BASE), t(edited(props={"paths": {"type": "array", "items": {"type": "integer"}}}))) == (
        'paths[]: type "string" → "integer"',)
    text = {"repo_path": {"type": "string", "description": "Absolute path to the repository."}}
    assert details(t(BASE), t(edited(props=text))) == ("repo_path: description changed",)
    assert details(t(BASE), t(edited(anyOf=[{"required": ["order"]}]))) == ("anyOf changed",)
    assert details(t(BASE), t([1, 2])) == ("the schema replaced",)


def test_annotations_name_the_hint() -> None:
    old = t(BASE, {"readOnlyHint": False, "destructiveHint": True})
    new = t(BASE, {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}, title="Log")
    assert details(old, new) == ("destructiveHint: true → false", "idempotentHint: unset → true",
                                 'title: unset → "Log"')


def test_a_long_list_is_cut_with_a_count_for_an_output() -> None:
    from tooldiff.schemadiff import capped

    new = edited(props={f"p{i:02d}": {"type": "string"} for i in range(MAX_DETAILS + 5)})
    got = details(t(BASE), t(new))
    assert len(got) == MAX_DETAILS + 5  # every change found; outputs cut
    shown = capped(got)
    assert len(shown) == MAX_DETAILS + 1 and shown[-1] == "and 5 more"
    assert shown[:-1] == list(got[:MAX_DETAILS])
    assert capped(got[: MAX_DETAILS + 1]) == list(got[: MAX_DETAILS + 1])  # one more is named, not counted


def test_no_change_no_details() -> None:
    assert details(t(BASE), t(edited())) == ()


def test_the_comment_names_the_changes_escaped() -> None:
    from tooldiff.model import ToolReport
    from tooldiff.render.markdown import DETAILS_SHOWN, what_changed

    new = edited(props={f"p_{i:02d}": {"type": "string"} for i in range(8)})
    report = ToolReport(name="git_log", toolset="tools.json", file="tools.json", line=1, format="mcp",
                        targets=(), schema_hash="", tokens={}, change="modified", changed_parts=("schema",),
                        details=details(t(BASE), t(new)))
    cell = what_changed(report)
    assert cell.startswith("schema: p\\_00: added, optional; p\\_01: added, optional")
    assert cell.endswith(f"; and {8 - DETAILS_SHOWN} more")


def test_titles_root_descriptions_and_required_names_without_a_property() -> None:
    titled = edited(props={"order": {"type": "string", "enum": ["newest", "oldest"], "title": "Order"}})
    assert details(t(BASE), t(titled)) == ("order: title changed",)
    assert details(t(BASE), t(edited(description="Log options."))) == ("the schema's description changed",)
    assert details(t(BASE), t(edited(required=["repo_path", "ghost"]))) == ("ghost: now required",)


def test_a_long_property_name_is_shortened_not_its_change() -> None:
    name = "p" * 300
    got = details(t(BASE), t(edited(props={name: {"type": "string"}})))
    assert got[0].endswith("…: added, optional") and len(got[0]) < 80


def test_a_big_enum_names_what_it_gained_and_lost() -> None:
    values = [f"v{i}" for i in range(30_000)]  # compared as sets: a list search per value took 8 s here
    old = edited(props={"order": {"type": "string", "enum": values}})
    new = edited(props={"order": {"type": "string", "enum": [*values[1:], "w"]}})
    assert details(t(old), t(new)) == ('order: enum +"w" −"v0"',)


def test_an_enum_that_drops_a_repeat_is_changed_not_reordered() -> None:
    def enum(values: list[Any]) -> dict[str, Any]:
        return edited(props={"order": {"type": "string", "enum": values}})

    assert details(t(enum(["a", "a"])), t(enum(["a"]))) == ("order: enum changed",)
    assert details(t(enum(["a", "b"])), t(enum(["b", "a"]))) == ("order: enum reordered",)


def test_a_format_or_strict_change_is_said_first_as_it_changes_the_targets() -> None:
    import dataclasses

    from tooldiff.diff import _parts

    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    base = t(schema)
    strict = dataclasses.replace(base, strict=True)
    assert details(base, strict) == ("strict: unset → true",)
    moved = dataclasses.replace(base, format="bedrock", input_schema={**schema, "required": ["city"]})
    found = details(base, moved)
    assert found[0] == f"format: {base.format} → bedrock" and len(found) == 2
    assert _parts(base, moved) == ("schema", "format")
