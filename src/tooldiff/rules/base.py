"""The contract every rule module follows.

A rule module is named after its kebab-case code (`optional-not-required` -> `optional_not_required.py`).
Its docstring is the user documentation, with the sections *What it finds*, *Why it matters*, *Example*,
*Use instead* and *References*. It defines:

- `CODE: str` and `SEVERITY: Severity`;
- `KIND`: `"tool"`, `"pair"`, `"toolset"` or `"file"` (`parse-error` only: the engine emits it);
- `check(...)`, by kind:
  - tool:    `check(tool: Tool, ctx: Context) -> Iterable[Problem]`
  - toolset: `check(toolset: Toolset, ctx: Context) -> Iterable[Problem]`
  - pair:    `check(a: ToolView, b: ToolView, ctx: Context) -> Problem | None` (see `tooldiff.pairs`)
- `EXAMPLE` and `FIXED`: tool lists in Anthropic shape; a test asserts the first fires, the second does not.
- optionally `SCHEMA_ONLY = True` (tool rules): its problems depend only on the tool's `input_schema`,
  `format` and `schema_key` and on the context's targets and options, never on its name or text. The engine
  then runs it once per distinct schema and hands the same problems to every tool with that schema.
- or, for a tool rule with only a part like that, `check_schema` (that part) and `check_tool` (the rest),
  with `check` yielding both: the engine runs `check_schema` once per distinct schema and `check_tool` per
  tool. `rules.tool_rule_parts` says which is which.
- optionally `OPTIONS` (name -> default) and `OPTION_SCHEMAS` (name -> JSON Schema of its value), the
  same names: the config's `rules.<code>.options` are checked against `OPTION_SCHEMAS` when it loads.
- optionally `fires(a, b, ctx) -> bool` (pair rules): whether `check` would return a problem, without
  writing its message. A pair gets one headline finding, so past the headline `tooldiff.pairs.check_pair`
  asks only this of the rules it lists under `related`.
- optionally `SEES_TOOLSET = True` (tool rules): the engine calls `check(tool, ctx, toolset)` with the
  toolset the tool is in (the whole of it, even when its tools are checked in slices), for a rule that
  judges the tool against its peers (`invalid-name` suggests no name another tool has); `toolset` must be
  optional, for a check of the tool alone.
- optionally `applies(ctx) -> bool` (tool rules): False when nothing in the context's targets and options
  lets the rule find anything (a strict-mode rule where no target is strict). The engine asks once per
  target set and leaves the rule out; `check` must then yield nothing anyway, as a test asserts.

Rules never do I/O; everything they need arrives in `Context`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tooldiff.model import Tool
    from tooldiff.targets import Target


def as_written(tool: Tool, pointer: str) -> str:
    """A pointer for a message: the input schema under the key the tool's file uses (`/parameters/...`,
    `/inputSchema/...`), as a finding's own pointer is in the normalised form (`/input_schema/...`)."""
    if tool.schema_key and tool.schema_key != "input_schema" and (
            pointer == "/input_schema" or pointer.startswith("/input_schema/")):
        return f"/{tool.schema_key}{pointer[len('/input_schema'):]}"
    return pointer


def targets_where(ctx: Context, code: str, has: Callable[[Target], object]) -> tuple[str, ...]:
    """The names of the context's targets that have a fact (`has`), worked out once per context: the
    memo is keyed by the rule's CODE, so a rule whose `applies` asks the same gets the same answer."""
    names: tuple[str, ...] | None = ctx.memo.get(code)
    if names is None:
        names = ctx.memo[code] = tuple(t.name for t in ctx.targets if has(t))
    return names


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    """What a rule may know besides the tool: its targets, this rule's options, per-tool settings."""

    targets: tuple[Target, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    # Per-tool settings from the config (`tools: {name: {blast: ..., targets: [...]}}`).
    tool_settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # For toolset rules: the targets of each tool (per-tool settings win over the toolset's).
    targets_of: Callable[[Tool], tuple[Target, ...]] | None = None
    # The same for a tool of any toolset, by its id: what a `SEES_TOOLSET` rule asks of its peers.
    targets_in: Callable[[str, Tool], tuple[Target, ...]] | None = None
    # Scratch space for what a rule derives from the targets and options alone: the engine shares one
    # context among the tools of a run, so it is worked out once, not once per tool. Key by CODE.
    # Not an init field: `dataclasses.replace` with new options starts from an empty memo.
    memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
