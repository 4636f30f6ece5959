"""The rule registry: an explicit table, one entry per rule module (see `rules.base` for the contract)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from functools import cache
from types import ModuleType
from typing import Any

# Provider schema lint (seed 002 and issue 2), then its toolset rules.
LINT_MODULES: tuple[str, ...] = (
    "parse_error",
    "optional_forced_required",
    "optional_not_required",
    "missing_additional_properties_false",
    "implicit_strict",
    "unsupported_keyword",
    "root_not_object",
    "invalid_name",
    "oversized_description",
    "heavy_definition",
    "invalid_json_schema",
    "unresolved_ref",
    "schema_limit",
    "missing_description",
    "yaml_truthy",
    "duplicate_key",
    "duplicate_name",
    "too_many_tools",
    "token_budget",
)
# Differentia (seed 000, H1.6), then overlap and blast radius (seed 001).
OVERLAP_MODULES: tuple[str, ...] = (
    "mutual_nondistinction",
    "directional_domination",
    "unanalysable_description",
    "blast_radius_twin",
    "intent_overlap",
    "escalation_flag",
    "mode_argument",
)
# Order is the order of `tooldiff rules` and docs/rules.md.
RULE_MODULES: tuple[str, ...] = LINT_MODULES + OVERLAP_MODULES

# A pair gets one headline finding, chosen in this order; the others go under `related`.
PAIR_PRECEDENCE: tuple[str, ...] = (
    "blast-radius-twin",
    "intent-overlap",
    "mutual-nondistinction",
    "directional-domination",
)


@cache
def registry() -> dict[str, ModuleType]:
    """Code -> rule module, in documentation order."""
    out: dict[str, ModuleType] = {}
    for name in RULE_MODULES:
        module = importlib.import_module(f"tooldiff.rules.{name}")
        out[module.CODE] = module
    return out


def get(code: str) -> ModuleType:
    return registry()[code]


CheckFn = Callable[..., Iterable[Any]]


def applies(module: ModuleType, ctx: Any) -> bool:
    """False when the rule's `applies` says it cannot find anything under these targets and options."""
    test: Callable[[Any], bool] | None = getattr(module, "applies", None)
    return test is None or test(ctx)


def tool_rule_parts(module: ModuleType) -> tuple[CheckFn | None, CheckFn | None]:
    """(the part that depends on the schema alone, the rest) of a tool rule; either may be None."""
    if getattr(module, "SCHEMA_ONLY", False):
        return module.check, None
    schema_part: CheckFn | None = getattr(module, "check_schema", None)
    if schema_part is not None:
        return schema_part, module.check_tool
    return None, module.check
