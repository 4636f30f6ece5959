"""The data that flows through the pipeline: tools, toolsets, findings and the report.

Stages hand values on; they never mutate what they were given. Most classes here are frozen to say so.
The four made per tool or per finding (`Tool`, `Problem`, `Finding`, `ToolReport`: 90,000 on 20k tools)
are not: a frozen dataclass sets each field through `object.__setattr__`, four times slower than a plain
slot, and that was 3% of a check. Nothing assigns to them after they are made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
SEVERITY_RANK: dict[str, int] = {"error": 0, "warning": 1, "info": 2}

Status = Literal["new", "existing", "baselined", "ignored", "resolved"]  # resolved: a diff's `resolved` only
STATUSES: tuple[Status, ...] = ("new", "existing", "baselined", "ignored")  # a report's findings
ACCEPTED: tuple[Status, ...] = ("baselined", "ignored")  # the statuses a team chose, each with a reason
Change = Literal["added", "removed", "modified", "renamed", "unchanged"]

# Source shapes the parsers recognise.
FORMATS = ("anthropic", "openai-chat", "openai-responses", "function", "mcp", "gemini", "bedrock")


@dataclass(slots=True, kw_only=True)
class Tool:
    """One tool definition, normalised from any source format.

    `pointer` locates the definition in its file (RFC 6901); `schema_pointer` locates its input schema,
    so a finding on `/input_schema/properties/x` maps back to the file as `schema_pointer + /properties/x`.
    """

    name: str
    description: str
    input_schema: Any
    format: str
    file: str
    line: int
    pointer: str
    schema_pointer: str
    toolset: str = ""
    end_line: int = 0
    strict: bool | None = None
    title: str | None = None
    annotations: Mapping[str, Any] | None = None
    output_schema: Any = None
    # The schema keyword the source used; "" when the tool has no input schema at all.
    schema_key: str = ""
    # Where the tool's record starts and ends in its file's text (characters), when the JSON parse saw it:
    # lines of findings inside the record are then found from there instead of from the top of the file.
    # -1: unknown.
    offset: int = -1
    end_offset: int = -1
    # YAML source only: plain yes/no/on/off in the input schema, which YAML 1.1 and 1.2 loaders read
    # differently: (pointer from /input_schema, the word, whether it is a key, its line). See
    # rules/yaml_truthy.py.
    yaml_words: tuple[tuple[str, str, bool, int], ...] = ()
    # Keys written twice in one object of the record, whose first value every parser drops: (pointer of the
    # key from the tool, the key, times written, ""), or above it ("", key, times, file pointer of the
    # object). See rules/duplicate_key.py.
    repeated_keys: tuple[tuple[str, str, int, str], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ParseError:
    file: str
    line: int
    message: str
    fix: str = ""  # when the usual one (make the file parse) does not fit: a wrong path, a file too big


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedFile:
    """`one_tool`: the file holds one tool record (once), so a folder of such files can be one toolset. A
    request capture, an agent's config or a log of requests that offers one tool is not one: each request
    offered its own tools."""

    path: str
    tools: tuple[Tool, ...] = ()
    errors: tuple[ParseError, ...] = ()
    one_tool: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Toolset:
    """Tools offered to a model together. `id` survives file renames (see discover.toolset_id)."""

    id: str
    files: tuple[str, ...]
    tools: tuple[Tool, ...]


@dataclass(slots=True, kw_only=True)
class Problem:
    """What a rule yields: a bare fact. The engine stamps code, severity, file, line and fingerprint.

    `pointer` is relative to the tool in canonical shape: "" is the tool itself, "/name", "/description",
    "/input_schema/properties/x" a part of it. `tools` names the tools involved when not just the one checked.
    """

    message: str
    fix: str = ""
    pointer: str = ""
    tools: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    evidence: Mapping[str, Any] = field(default_factory=dict)
    related: tuple[str, ...] = ()
    severity: Severity | None = None
    # The line, where the rule knows it and the pointer cannot tell it (YAML keys `on:` and `yes:` both load
    # as "true": one pointer, two lines); 0: the pointer's line.
    line: int = 0


@dataclass(slots=True, kw_only=True)
class Finding:
    code: str
    severity: Severity
    message: str
    fix: str
    tools: tuple[str, ...]
    toolset: str
    file: str
    line: int
    pointer: str
    targets: tuple[str, ...] = ()
    evidence: Mapping[str, Any] = field(default_factory=dict)
    related: tuple[str, ...] = ()
    status: Status = "new"
    fingerprint: str = ""
    reason: str = ""  # why it was accepted: the ignore's or the baseline entry's reason (those statuses only)
    # The file pointer of the tool it was reported at, as `ToolReport.pointer` (not in the JSON report): two
    # same-named tools of one file are told apart by it, not by lines, which a minified file or an anchor
    # outside both tools cannot tell. "" where unknown.
    tool_pointer: str = ""


def code_label(command: str) -> str:
    """The pseudo file name of tools a command prints (`$(make tools)`): no file of the repository holds
    them, so nothing links, annotates or locates one."""
    return f"$({command})"


def is_code_label(file: str) -> bool:
    return file.startswith("$(")


def fingerprint(code: str, toolset: str, tools: tuple[str, ...], pointer: str) -> str:
    """Identity of a finding: no line numbers, no message text, so it survives moves and rewording."""
    names = tools[0] if len(tools) == 1 else "\x1e".join(sorted(tools))  # most name one tool
    key = "\x1f".join([code, toolset, names, pointer])
    # A file name that is not UTF-8 reaches us with its bytes as lone surrogates (os and git paths are
    # decoded with surrogateescape): hash those bytes rather than fail.
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class Tokens:
    """Token counts of one tool or toolset, per counting method ("estimate", "openai-o200k", ...)."""

    counts: Mapping[str, int]


@dataclass(slots=True, kw_only=True)
class ToolReport:
    name: str
    toolset: str
    file: str
    line: int
    format: str
    targets: tuple[str, ...]
    schema_hash: str
    tokens: Mapping[str, Mapping[str, int | None]]  # method -> {base, head, delta}
    previous_schema_hash: str | None = None
    change: Change = "unchanged"
    changed_parts: tuple[str, ...] = ()
    previous_name: str | None = None
    end_line: int = 0
    # A diff's changes inside the tool, property by property (`tooldiff.schemadiff`).
    details: tuple[str, ...] = ()
    description_chars: int = 0  # as the token estimate counts characters (UTF-16 units)
    # A diff's tool that left one toolset for another (`TreeDiff.move_map`): on its added row the toolset it
    # came from, on its removed row the one it went to.
    moved: str | None = None
    pointer: str = ""  # the tool's file pointer (`Tool.pointer`; not in the JSON report)


def reported_at(f: Finding, t: ToolReport) -> bool:
    """Whether finding `f` was reported at tool `t` (of the same name and file): by the tool's pointer. By
    lines only where a report does not say it: two same-named tools of a minified file are both on line 1,
    and a finding in a YAML anchor is outside both tools' lines."""
    if f.tool_pointer and t.pointer:
        return f.tool_pointer == t.pointer
    return t.line <= f.line <= max(t.line, t.end_line)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolsetReport:
    id: str
    files: tuple[str, ...]
    tool_count: int
    tokens: Mapping[str, Mapping[str, int | None]]  # method -> {base, head, delta}
    budget: int | None = None
    change: Change = "unchanged"
    previous_id: str | None = None  # a diff's toolset whose id (its file) changed: the base's id


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """The v1 contract (`data/report.schema.json`). Holds no timings, so equal input gives equal output."""

    mode: Literal["check", "diff", "audit"]
    toolsets: tuple[ToolsetReport, ...]
    tools: tuple[ToolReport, ...]
    findings: tuple[Finding, ...]
    resolved: tuple[Finding, ...] = ()
    stats: Mapping[str, int] = field(default_factory=dict)
    token_methods: tuple[str, ...] = ("estimate",)
    notes: tuple[str, ...] = ()
    base_ref: str | None = None
    head_ref: str | None = None
    config_changes: tuple[str, ...] = ()
    # The config's `fail_on`, which `--fail-on` and the Action's input default to. Not in the JSON: a
    # verdict level, not a result.
    fail_on: str = "error"

    def noted(self, *notes: str) -> Report:
        """This report with `notes` said after its own (itself when there are none)."""
        return replace(self, notes=(*self.notes, *notes)) if notes else self

    def counts(self, status: Status | None = "new") -> dict[str, int]:
        out: dict[str, int] = {s: 0 for s in SEVERITIES}
        for f in self.findings:
            if status is None or f.status == status:
                out[f.severity] += 1
        return out
