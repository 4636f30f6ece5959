"""Rule documentation, parsed from each rule module's docstring: `docs/rules.md`, `tooldiff explain`, SARIF.

A docstring opens with a one-paragraph summary, then sections headed by a line of their own:
`What it finds`, `Why it matters`, `Example`, `Use instead`, `References` (as `## Title`, `**Title**`,
`*Title*`, `Title:` or an underlined title). `python -m tooldiff.docs` prints docs/rules.md.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from tooldiff.rules import registry

PROJECT_URL = "https://github.com/tooldiff/tooldiff"
SECTION_ORDER = ("What it finds", "Why it matters", "Example", "Use instead", "Options", "References")

_HEADING = re.compile(
    r"^(?:#{1,6}\s+(?P<a>.+?)\s*#*|\*{1,2}(?P<b>[^*]+?)\*{1,2}:?|(?P<c>[A-Z][A-Za-z /-]{2,40}):)$"
)
_UNDERLINE = re.compile(r"^(-{3,}|={3,})$")

# The target facts a lint rule reads: it applies to the targets whose table sets any of them (a test checks
# that each rule's EXAMPLE fires on no other target). Rules not listed apply to every target.
RULE_FACTS: dict[str, tuple[str, ...]] = {
    "optional-forced-required": ("all_properties_required",),
    "optional-not-required": ("all_properties_required",),
    "missing-additional-properties-false": ("additional_properties_false_required",),
    "unsupported-keyword": ("unsupported_keywords", "ignored_keywords", "supported_formats", "max_min_items"),
    "root-not-object": ("root_must_be_object", "root_type_required", "root_refused_keywords"),
    "implicit-strict": ("strict_when_unset_formats",),
    "schema-limit": ("max_nesting_depth", "max_total_properties", "max_total_enum_values",
                     "max_large_enum_string_chars", "max_total_string_chars"),
    "too-many-tools": ("max_tools", "max_request_optional_params", "max_request_union_params"),
}


@dataclass(frozen=True, slots=True)
class RuleDoc:
    code: str
    severity: str
    kind: str
    summary: str
    sections: dict[str, str] = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    severity_note: str = ""  # a rule that reports some cases at another severity: "info on a property"

    @property
    def severity_shown(self) -> str:
        return f"{self.severity} ({self.severity_note})" if self.severity_note else self.severity

    @property
    def anchor(self) -> str:
        return self.code

    @property
    def help_uri(self) -> str:
        return f"{PROJECT_URL}/blob/main/docs/rules.md#{self.anchor}"


def parse_docstring(text: str) -> tuple[str, dict[str, str]]:
    """(summary, sections): the first paragraph, then each headed section's body, dedented and trimmed."""
    lines = inspect.cleandoc(text or "").splitlines()
    summary: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        title = None
        if not in_fence:
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if line and not line.startswith(" ") and _UNDERLINE.match(nxt) and len(line) <= 40:
                title, i = line.strip(), i + 1
            elif (m := _HEADING.match(line)) and (current is not None or summary):
                # `## Anything` is a heading; `**Title**` and `Title:` only when it names a known section.
                title = (m.group("a") or m.group("b") or m.group("c")).strip()
                if not m.group("a") and _canonical(title) not in SECTION_ORDER:
                    title = None
        if title is not None:
            current = sections.setdefault(_canonical(title), [])
        elif current is not None:
            current.append(line)
        else:
            summary.append(line)
        i += 1
    first = "\n".join(summary).strip().split("\n\n")[0]
    return " ".join(first.split()), {k: "\n".join(v).strip() for k, v in sections.items()}


def _canonical(title: str) -> str:
    for known in SECTION_ORDER:
        if title.lower().rstrip(":?") == known.lower():
            return known
    return title.rstrip(":")


def _module(code: str) -> ModuleType:
    # The contract: a rule module is named after its kebab-case code.
    try:
        module = importlib.import_module(f"tooldiff.rules.{code.replace('-', '_')}")
    except ImportError as err:
        raise KeyError(f"no rule {code!r}") from err
    if getattr(module, "CODE", None) != code:
        raise KeyError(f"no rule {code!r}")
    return module


def docstring(module: ModuleType) -> str:
    """A module's docstring, read from its source where mypyc compiled it (compiled modules have none)."""
    if module.__doc__:
        return module.__doc__
    source = Path(module.__file__ or "")
    source = source.with_name(source.name.split(".")[0] + ".py")
    if not source.is_file():
        return ""
    return ast.get_docstring(ast.parse(source.read_text(encoding="utf-8")), clean=False) or ""


def rule_doc(code: str) -> RuleDoc:
    """The documentation of one rule; KeyError when there is no such rule."""
    module = _module(code)
    summary, sections = parse_docstring(docstring(module))
    return RuleDoc(
        code=code,
        severity=str(module.SEVERITY),
        kind=str(getattr(module, "KIND", "tool")),
        summary=summary,
        sections=sections,
        targets=rule_targets(code),
        severity_note=str(getattr(module, "SEVERITY_NOTE", "")),
    )


def provider_free(code: str) -> bool:
    """A rule that judges tool text, not a provider's rules (its module's `PROVIDER_FREE`): its findings
    name no target."""
    return bool(getattr(_module(code), "PROVIDER_FREE", False))


def rule_targets(code: str) -> tuple[str, ...]:
    """The targets a rule can fire for: those setting a fact it reads (`RULE_FACTS`), else every target;
    none for a rule whose findings hold for any provider (`provider_free`). Not a module's `TARGETS`:
    rules import the target registry under that name."""
    from tooldiff.targets import TARGETS

    if provider_free(code):
        return ()
    facts = RULE_FACTS.get(code)
    if facts is None:
        return tuple(TARGETS)
    return tuple(name for name, t in TARGETS.items() if any(getattr(t, f) for f in facts))


def render_rule(doc: RuleDoc) -> str:
    # Targets come from the target data (`rule_targets`).
    targets = " · targets: " + (", ".join(f"`{t}`" for t in doc.targets) if doc.targets
                                 else "any provider (it judges the tool text)")
    severity = f"Severity: **{doc.severity_shown}** · kind: {doc.kind}{targets}"
    out = [f"## {doc.code}", "", doc.summary, "", severity]
    for title in [*SECTION_ORDER, *sorted(set(doc.sections) - set(SECTION_ORDER))]:
        if doc.sections.get(title):
            out += ["", f"### {title}", "", doc.sections[title]]
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def codes() -> tuple[str, ...]:
    """Every registered rule code, in documentation order."""
    return tuple(registry())


def render_rules_table() -> str:
    """`tooldiff rules`: one Markdown table row per rule."""
    out = ["| Code | Severity | Kind | What it finds |", "|---|---|---|---|"]
    for d in (rule_doc(code) for code in codes()):
        out.append(f"| [{d.code}](#{d.anchor}) | {d.severity_shown} | {d.kind} | {_cell(d.summary)} |")
    return "\n".join(out) + "\n"


def render_rules_text() -> str:
    """`tooldiff rules`: one aligned line per rule, for a terminal (the design notes' citations left to
    `explain` and docs/rules.md, which say what they are)."""
    rows = [("code", "severity", "kind", "what it finds")]
    rows += [(d.code, d.severity_shown, d.kind, _UNCITED.sub("", d.summary)) for d in map(rule_doc, codes())]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  ".join([*(c.ljust(w) for c, w in zip(r[:3], widths, strict=True)), r[3]]) for r in rows]
    return "\n".join(lines) + "\n\n`tooldiff explain CODE` for a rule's documentation.\n"


_UNCITED = re.compile(r" \(seed [^)]*\)")


def render_rule_markdown(code: str) -> str:
    """`tooldiff explain CODE`."""
    return render_rule(rule_doc(code))


def render_rules_markdown() -> str:
    """docs/rules.md: the table of rules, then each rule's section (anchor = its code)."""
    head = (
        "# Rules\n\nGenerated from the rule modules' docstrings by `make docs`; do not edit by hand.\n\n"
        "The sections cite tooldiff's three design notes: **seed 000**, the differentia analysis (H1.6: "
        "two tools are told apart only by the terms one has and the other lacks); **seed 001**, overlapping "
        "tools (an overlap in intent is a routing defect that a merge fixes, a difference in blast radius a "
        "safety boundary that a merge dissolves); **seed 002**, provider schema lint (rule codes, targets, "
        "the token estimate, schemaHash).\n\n"
    )
    return head + render_rules_table() + "\n" + "\n".join(render_rule(rule_doc(code)) for code in codes())


if __name__ == "__main__":
    print(render_rules_markdown(), end="")
