"""`.tooldiff.yml`, validated strictly against `data/config.schema.json` (defaults: `default-config.yml`).

An unknown key or a bad value is a `ConfigError` naming the file, the line and the key.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import yaml

from tooldiff.model import Severity
from tooldiff.parsers.load import DocumentErrors, LoadError, load_yaml
from tooldiff.positions import LineIndex, mark_line, yaml_node
from tooldiff.rules import RULE_MODULES
from tooldiff.sources import link_text_leaves

RULE_CODES: frozenset[str] = frozenset(name.replace("_", "-") for name in RULE_MODULES)
DEFAULT_BASELINE = ".tooldiff-baseline.json"


class ConfigError(Exception):
    def __init__(self, file: str, line: int, key: str, message: str) -> None:
        self.file, self.line, self.key, self.message = file, line, key, message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {key + ': ' if key else ''}{message}")


@dataclass(frozen=True, slots=True)
class RuleConfig:
    enabled: bool = True
    severity: Severity | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Ignore:
    code: str  # a rule code or "*"
    tool: str  # a tool name or fnmatch glob
    reason: str


@dataclass(frozen=True, slots=True)
class ToolsetSpec:
    name: str
    files: tuple[str, ...]
    targets: tuple[str, ...] | None = None
    budget: int | None = None


SOURCE_TIMEOUT = 300  # seconds: a dump that imports a whole agent can be slow, a hung one must end


@dataclass(frozen=True, slots=True)
class CommandSource:
    command: str
    toolset: str
    timeout: int = SOURCE_TIMEOUT


@dataclass(frozen=True, slots=True)
class Budgets:
    toolset_tokens: int | None = None
    tool_tokens: int = 500


@dataclass(frozen=True, slots=True)
class DescriptionLimits:
    tool: int = 1024
    property: int = 512


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    toolsets: tuple[ToolsetSpec, ...] = ()
    targets: tuple[str, ...] | None = None
    toolset_targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    tool_settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    rules: Mapping[str, RuleConfig] = field(default_factory=dict)
    ignores: tuple[Ignore, ...] = ()
    baseline: str = DEFAULT_BASELINE
    budgets: Budgets = Budgets()
    description_limits: DescriptionLimits = DescriptionLimits()
    chars_per_token: float = 4
    max_file_bytes: int = 20_000_000
    sources: tuple[CommandSource, ...] = ()
    fail_on: str = "error"
    file: str = ""  # where it was read from; "" for the defaults

    @classmethod
    def default(cls) -> Config:
        return cls()

    def targets_override(self, toolset_id: str, tool_name: str) -> tuple[str, ...] | None:
        """Per-tool targets win over the toolset's, which win over the global list; None: by format."""
        per_tool = self.tool_settings.get(tool_name, {}).get("targets")
        if per_tool:
            return tuple(per_tool)
        for spec in self.toolsets:
            if spec.name == toolset_id and spec.targets:
                return spec.targets
        if toolset_id in self.toolset_targets:
            return self.toolset_targets[toolset_id]
        return self.targets

    def toolset_budget(self, toolset_id: str) -> int | None:
        """The budget `token-budget` holds the toolset to (the report shows it): its own, else the rule's."""
        budget = self.toolset_rule_options("token-budget", toolset_id).get("budget")
        return budget if isinstance(budget, int) else None

    def toolset_rule_options(self, code: str, toolset_id: str) -> dict[str, Any]:
        """`rule_options`, with what one toolset sets for itself on top (its own `budget` wins)."""
        out = self.rule_options(code)
        if code == "token-budget":
            own = [s.budget for s in self.toolsets if s.name == toolset_id and s.budget is not None]
            if own:
                out["budget"] = own[0]
        return out

    def rule_enabled(self, code: str) -> bool:
        rule = self.rules.get(code)
        return True if rule is None else rule.enabled

    def severity(self, code: str) -> Severity | None:
        rule = self.rules.get(code)
        return None if rule is None else rule.severity

    def rule_options(self, code: str) -> dict[str, Any]:
        """The rule's options: those derived from the global budgets and limits, then its own."""
        out: dict[str, Any] = {}
        if code == "heavy-definition":
            out["budget"] = self.budgets.tool_tokens
        elif code == "token-budget" and self.budgets.toolset_tokens is not None:
            out["budget"] = self.budgets.toolset_tokens
        elif code == "oversized-description":
            out["tool_max_chars"] = self.description_limits.tool
            out["property_max_chars"] = self.description_limits.property
        rule = self.rules.get(code)
        if rule is not None:
            out.update(rule.options)
        return out


def config_hash(config: Config) -> str:
    """Stable digest of everything that changes findings (not where the file was), for diff scoping."""
    return hashlib.sha256(_canonical(config).encode("utf-8")).hexdigest()[:16]


def _canonical(config: Config) -> str:
    def plain(value: Any) -> Any:
        if hasattr(value, "__dataclass_fields__"):
            return {k: plain(getattr(value, k)) for k in value.__dataclass_fields__ if k != "file"}
        if isinstance(value, Mapping):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    return json.dumps(plain(config), sort_keys=True, separators=(",", ":"), default=str)


@cache
def schema() -> dict[str, Any]:
    text = resources.files("tooldiff").joinpath("data/config.schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


def load_config(path: str, text: str) -> Config:
    try:
        docs = load_yaml(text)
    except LoadError as exc:
        raise ConfigError(path, exc.line, "", exc.message) from None
    except DocumentErrors as exc:  # a later YAML document is broken: a config is one document anyway
        raise ConfigError(path, exc.errors[0].line, "", exc.errors[0].message) from None
    if (index := LineIndex(text)).quirky:
        for d in docs:
            _count_lines_by_newline(d.node, index)
    said = [d for d in docs if d.value is not None]  # a `---` with nothing after it says nothing
    if len(said) > 1:
        second = said[1].node
        line = second.start_mark.line + 1 if second is not None else 1
        raise ConfigError(path, line, "", "a config is one YAML document, and another starts here (after "
                                          "`---`): merge the two, or delete one")
    if not said:
        return Config(file=path)
    doc = said[0]
    data, node = doc.value, doc.node
    assert node is not None
    if doc.repeated:  # tool files are analysed as loaded; a config must say one thing
        where, key, _ = doc.repeated[0]
        _, key_node = yaml_node(node, (*where, key))
        line = key_node.start_mark.line + 1 if key_node is not None else 1
        raise ConfigError(path, line, ".".join((*where, key)), f"duplicate key {key!r} in YAML mapping")
    data = _snake_keys(data, node)
    _check_finite(path, node, data)
    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(data), key=_error_order)
    if errors:
        raise _config_error(path, node, errors[0])
    _check_codes(path, node, data)
    _check_options(path, node, data)
    _check_targets(path, node, data)
    _check_toolset_names(path, node, data)
    _check_baseline(path, node, data)
    return _build(path, _whole(data))


def _count_lines_by_newline(node: yaml.Node | None, index: LineIndex) -> None:
    """PyYAML's marks count U+2028, U+2029, NEL and a lone CR as line breaks; where the text holds one, the
    marks' lines are set to the file's (`positions.mark_line`), so an error names the line an editor shows."""
    if node is None:
        return
    seen: set[int] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if id(n) in seen:  # an alias is its anchor's node
            continue
        seen.add(id(n))
        m = n.start_mark  # the C loader's marks are read-only: a new one in its place
        n.start_mark = yaml.Mark(m.name, m.index, mark_line(m, index) - 1, m.column, None, None)  # type: ignore[arg-type]
        if isinstance(n, yaml.MappingNode):
            todo.extend(part for pair in n.value for part in pair)
        elif isinstance(n, yaml.SequenceNode):
            todo.extend(n.value)


# Mappings whose keys are ours (not tool names or rule codes): `chars-per-token` means `chars_per_token`.
_FIXED_KEY_MAPPINGS = ((), ("budgets",), ("description_limits",))


def _snake_keys(data: Any, node: yaml.Node) -> Any:
    """Accept kebab-case spellings of our own keys, in the data and in the node tree used for lines."""
    if not isinstance(data, dict):
        return data
    for where in _FIXED_KEY_MAPPINGS:
        found, _ = yaml_node(node, [*where])
        target: Any = data
        for key in where:
            target = target.get(key) if isinstance(target, dict) else None
        if not isinstance(found, yaml.MappingNode) or not isinstance(target, dict):
            continue
        for key_node, _value in found.value:
            name = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if isinstance(name, str) and "-" in name:
                snake = name.replace("-", "_")
                if name in target and snake not in target:
                    target[snake] = target.pop(name)
                    key_node.value = snake
    return data


def _error_order(error: jsonschema.ValidationError) -> tuple[int, str]:
    return (len(error.absolute_path), str(list(error.absolute_path)))


def _line(node: yaml.Node, path: list[str]) -> int:
    found, key = yaml_node(node, path)
    while found is None and path:
        path = path[:-1]
        found, key = yaml_node(node, path)
    target = key or found
    return target.start_mark.line + 1 if target is not None else 1


@dataclass(frozen=True, slots=True)
class Selection:
    """`--select` and `--ignore`: the rules of one run, on top of the config. With `select`, only those
    rules run (and `parse-error`: a file that does not parse never passes unseen); `ignore` turns rules
    off, and wins. Codes as `explain` takes them: any case, `_` for `-`."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()  # `--targets`: the config's global `targets` for this run
    warn_above: int | None = None  # `--warn-above`: heavy-definition's budget for this run

    @classmethod
    def parse(cls, select: Iterable[str] | None, ignore: Iterable[str] | None,
              targets: Iterable[str] | None = None, warn_above: int | None = None) -> Selection:
        """From the flags' values (each may hold several codes, comma-separated); ConfigError names an
        unknown code or target and the flag it came from."""
        def names(flag: str, values: Iterable[str] | None, known: frozenset[str], what: str
                  ) -> tuple[str, ...]:
            out: list[str] = []
            for value in values or ():
                for raw in value.split(","):
                    name = raw.strip().lower().replace("_", "-")
                    if not name:
                        continue
                    if name not in known:
                        raise ConfigError(flag, 0, "", unknown(f"{what} {raw.strip()!r}", name, known))
                    out.append(name)
            return tuple(dict.fromkeys(out))

        return cls(names("--select", select, RULE_CODES, "rule"),
                   names("--ignore", ignore, RULE_CODES, "rule"),
                   names("--targets", targets, known_targets(), "target"), warn_above)

    def apply(self, config: Config) -> Config:
        # Per-toolset and per-tool targets in the config still win, as over the config's own global list.
        config = replace(config, targets=self.targets) if self.targets else config
        if self.warn_above is not None:  # over `budgets.tool_tokens` and the rule's own `budget` option
            heavy = config.rules.get("heavy-definition", RuleConfig())
            options = {k: v for k, v in heavy.options.items() if k != "budget"}
            config = replace(config, budgets=replace(config.budgets, tool_tokens=self.warn_above),
                             rules={**config.rules, "heavy-definition": replace(heavy, options=options)})
        if not self.select and not self.ignore:
            return config

        def enabled(code: str) -> bool:
            if code in self.ignore:
                return False
            if self.select and code != "parse-error":
                return code in self.select  # named on the command line: on, whatever the config says
            return config.rule_enabled(code) or code in self.select

        rules = {code: replace(config.rules.get(code, RuleConfig()), enabled=enabled(code))
                 for code in sorted(RULE_CODES)}
        return replace(config, rules=rules)


def unknown(what: str, name: str, known: Iterable[str]) -> str:
    """`unknown key: did you mean 'rules'? (known: ...)`: the closest known name first, as ruff does."""
    import difflib  # only on this error path: not at every start

    names = sorted(known)
    folded = {n.replace("-", "_"): n for n in names}  # keys are accepted in either spelling
    close = difflib.get_close_matches(name.replace("-", "_"), list(folded), n=1)
    hint = f": did you mean {folded[close[0]]!r}?" if close else ""
    return f"unknown {what}{hint} (known: {', '.join(names)})"


def _config_error(path: str, node: yaml.Node, error: jsonschema.ValidationError) -> ConfigError:
    where = [str(p) for p in error.absolute_path]
    key = ".".join(where)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra and isinstance(error.schema.get("additionalProperties"), bool):
            bad = [*where, str(extra[0])]
            return ConfigError(path, _line(node, bad), ".".join(bad), unknown("key", str(extra[0]), allowed))
    if error.validator == "required":
        missing = error.message.split("'")[1] if error.message.count("'") >= 2 else ""
        message = f'add "{missing}": it is required here' if missing else error.message
        return ConfigError(path, _line(node, where), key or "(top level)", message)
    # A name pattern's regular expression tells a user nothing: say what the value should be.
    if error.validator == "pattern" and len(where) >= 2 and _is_target_list(where[:-1]):
        name = str(error.instance)
        return ConfigError(path, _line(node, where), key, unknown(f"target {name!r}", name, known_targets()))
    if error.validator == "minItems" and _is_target_list(where):
        message = ("an empty list of targets would mean the default ones: name at least one target, or leave "
                   "the key out (turn rules off under `rules`)")
        return ConfigError(path, _line(node, where), key, message)
    if error.validator == "pattern" and where[-1:] == ["reason"]:
        message = "the reason is blank: say why the finding is accepted"
        return ConfigError(path, _line(node, where), key, message)
    if error.validator == "oneOf" and isinstance(error.instance, dict):
        # A mapping can only mean the object form: report what is wrong inside it.
        inner = [e for e in error.context if e.schema_path and e.schema_path[0] == 2]
        if inner:
            return _config_error(path, node, sorted(inner, key=_error_order)[0])
    if error.validator == "oneOf" and where and where[0] == "rules":
        message = "must be true/false, a severity (error, warning, info) or {enabled, severity, options}"
        return ConfigError(path, _line(node, where), key, message)
    return ConfigError(path, _line(node, where), key or "(top level)", _as_written(error))


def _as_written(error: jsonschema.ValidationError) -> str:
    """jsonschema opens most messages with the value's Python repr (None, True, 'abc'); a config's author
    wrote YAML, so the value is shown as JSON (null, true, "abc")."""
    value, message = error.instance, str(error.message)
    if error.validator == "enum" and isinstance(error.validator_value, list):
        return f"{_as_yaml(value)} is not one of {', '.join(map(_as_yaml, error.validator_value))}"
    shown = repr(value)
    if message.startswith(shown):
        return _as_yaml(value) + message[len(shown):]
    return message


def _as_yaml(value: Any) -> str:
    """A value as its author wrote it: scalars as `_yaml_scalar`, lists and mappings as JSON (flow YAML)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return _yaml_scalar(value)
    return json.dumps(value, ensure_ascii=False, default=str)


def _yaml_scalar(value: str | int | float | bool | None) -> str:
    """A scalar as a YAML author writes it: `café` kept (only what does not print is escaped, as repr did),
    `.inf` rather than JSON's Infinity."""
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ".inf" if value > 0 else "-.inf"
    text = json.dumps(value, ensure_ascii=False)
    return "".join(ch if ch.isprintable() else json.dumps(ch)[1:-1] for ch in text)


def _is_target_list(where: list[str]) -> bool:
    """targets, toolsets.N.targets, tools.NAME.targets or toolset_targets.ID."""
    return where[-1:] == ["targets"] or (len(where) == 2 and where[0] == "toolset_targets")


def _check_codes(path: str, node: yaml.Node, data: Mapping[str, Any]) -> None:
    for code in data.get("rules", {}):
        if code not in RULE_CODES:
            at = ["rules", code]
            raise ConfigError(path, _line(node, at), f"rules.{code}", unknown("rule code", code, RULE_CODES))
    for i, ignore in enumerate(data.get("ignores", [])):
        if ignore["code"] != "*" and ignore["code"] not in RULE_CODES:
            where = ["ignores", str(i), "code"]
            message = unknown(f"rule code {ignore['code']!r}", ignore["code"], [*RULE_CODES, "*"])
            raise ConfigError(path, _line(node, where), ".".join(where), message)


def _check_finite(path: str, node: yaml.Node, data: Any, where: tuple[str, ...] = ()) -> None:
    """YAML's .nan and .inf pass every bound of the schema (each comparison with NaN is false)."""
    if isinstance(data, float) and not math.isfinite(data):
        at = list(where)
        raise ConfigError(path, _line(node, at), ".".join(at), f"{_as_yaml(data)} is not a finite number")
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        _check_finite(path, node, value, (*where, str(key)))


def _check_options(path: str, node: yaml.Node, data: Mapping[str, Any]) -> None:
    """Each rule option against the rule's `OPTION_SCHEMAS`: a bad value would otherwise crash the rule."""
    for code, value in data.get("rules", {}).items():
        options = value.get("options") if isinstance(value, dict) else None
        if not options:
            continue
        import importlib  # only the rules given options: most configs import none here

        module = importlib.import_module(f"tooldiff.rules.{code.replace('-', '_')}")
        declared: Mapping[str, Any] = getattr(module, "OPTION_SCHEMAS", {})
        for name, option in options.items():
            at = ["rules", code, "options", str(name)]
            if name not in declared:
                message = unknown("option", str(name), declared) if declared else f"{code} takes no options"
                raise ConfigError(path, _line(node, at), ".".join(at), message)
            errors = jsonschema.Draft202012Validator(declared[name]).iter_errors(option)
            bad = jsonschema.exceptions.best_match(errors)
            if bad is not None:
                raise ConfigError(path, _line(node, at), ".".join(at), _as_written(bad))


def known_targets() -> frozenset[str]:
    folder = resources.files("tooldiff").joinpath("data/targets")
    return frozenset(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def _check_targets(path: str, node: yaml.Node, data: Mapping[str, Any]) -> None:
    known = known_targets()
    if not known:
        return
    lists: list[tuple[list[str], Any]] = [(["targets"], data.get("targets"))]
    for i, spec in enumerate(data.get("toolsets", [])):
        lists.append((["toolsets", str(i), "targets"], spec.get("targets")))
    lists += [(["toolset_targets", k], v) for k, v in data.get("toolset_targets", {}).items()]
    lists += [(["tools", k, "targets"], v.get("targets")) for k, v in data.get("tools", {}).items()]
    for where, names in lists:
        for i, name in enumerate(names or ()):
            if name not in known:
                at = [*where, str(i)]
                message = unknown(f"target {name!r}", name, known)
                raise ConfigError(path, _line(node, at), ".".join(at), message)


def _check_toolset_names(path: str, node: yaml.Node, data: Mapping[str, Any]) -> None:
    """Two toolsets of one name would silently be one toolset, compared pair by pair as one."""
    seen: set[str] = set()
    for i, spec in enumerate(data.get("toolsets", [])):
        if spec["name"] in seen:
            at = ["toolsets", str(i), "name"]
            message = f"toolset {spec['name']!r} is named twice: list all its globs under one `files`"
            raise ConfigError(path, _line(node, at), ".".join(at), message)
        seen.add(spec["name"])


def _whole(value: Any) -> Any:
    """100.0 as 100: the schema takes it as an integer, and budgets must print and compare as one."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


def _check_baseline(path: str, node: yaml.Node, data: Mapping[str, Any]) -> None:
    """A baseline outside the tree would be written by `tooldiff baseline` and never read: check, diff and
    the Action read it inside the tree (a diff and the Action from git)."""
    value = data.get("baseline")
    if value is None:
        return
    if link_text_leaves("", value.replace("\\", "/")):
        message = (f"{value!r} is outside the repository; the baseline must be a path inside the repository, "
                   "relative to its root, as runs read it there")
        raise ConfigError(path, _line(node, ["baseline"]), "baseline", message)


def _rule(value: Any) -> RuleConfig:
    if isinstance(value, bool):
        return RuleConfig(enabled=value)
    if isinstance(value, str):
        return RuleConfig(severity=value)  # type: ignore[arg-type]  # schema: a severity
    return RuleConfig(enabled=value.get("enabled", True), severity=value.get("severity"),
                      options=dict(value.get("options", {})))


def _build(path: str, d: Mapping[str, Any]) -> Config:
    budgets, limits = d.get("budgets", {}), d.get("description_limits", {})
    targets = d.get("targets")
    return Config(
        paths=tuple(d.get("paths", ())),
        exclude=tuple(d.get("exclude", ())),
        toolsets=tuple(
            ToolsetSpec(name=t["name"], files=tuple(t["files"]),
                        targets=tuple(t["targets"]) if t.get("targets") else None, budget=t.get("budget"))
            for t in d.get("toolsets", ())
        ),
        targets=tuple(targets) if targets else None,
        toolset_targets={k: tuple(v) for k, v in d.get("toolset_targets", {}).items()},
        tool_settings={name: dict(s) for name, s in d.get("tools", {}).items()},
        rules={code: _rule(v) for code, v in d.get("rules", {}).items()},
        ignores=tuple(Ignore(i["code"], i["tool"], i["reason"]) for i in d.get("ignores", ())),
        baseline=d.get("baseline", DEFAULT_BASELINE),
        budgets=Budgets(toolset_tokens=budgets.get("toolset_tokens"),
                        tool_tokens=budgets.get("tool_tokens", 500)),
        description_limits=DescriptionLimits(tool=limits.get("tool", 1024),
                                             property=limits.get("property", 512)),
        chars_per_token=d.get("chars_per_token", 4),
        max_file_bytes=d.get("max_file_bytes", 20_000_000),
        sources=tuple(CommandSource(s["command"], s["toolset"], s.get("timeout", SOURCE_TIMEOUT))
                      for s in d.get("sources", ())),
        fail_on=d.get("fail_on", "error"),
        file=path,
    )
