"""`.tooldiff.yml`: strict validation with file, line and key; defaults; accessors; hash."""

from __future__ import annotations

from importlib import resources

import pytest

from tooldiff.config import Config, ConfigError, config_hash, load_config
from tooldiff.rules import RULE_MODULES


def error(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_config(".tooldiff.yml", text)
    assert info.value.file == ".tooldiff.yml"
    return info.value


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("paths: [a]\nbogus: 1\n", 2, "bogus"),
        ("budgets:\n  tool_tokens: 9\n  toolset: 3\n", 3, "budgets.toolset"),
        ("budgets:\n  tool_tokens: -3\n", 2, "budgets.tool_tokens"),
        ("rules:\n  heavy-definition: {severity: loud}\n", 2, "rules.heavy-definition.severity"),
        ("rules:\n  heavy-definition: loud\n", 2, "rules.heavy-definition"),
        ("rules:\n  optional-not-required: false\n  no-such-rule: false\n", 3, "rules.no-such-rule"),
        ("rules:\n  heavy-definition:\n    enabled: true\n    budget: 3\n", 4,
         "rules.heavy-definition.budget"),
        ("ignores:\n  - code: duplicate-name\n    tool: x\n", 2, "ignores.0"),
        ("ignores:\n  - {code: nope, tool: x, reason: y}\n", 2, "ignores.0.code"),
        ("targets: [openai, foo]\n", 1, "targets.1"),
        ("tools:\n  delete_all:\n    blast: huge\n", 3, "tools.delete_all.blast"),
        ("toolsets:\n  - name: x\n", 2, "toolsets.0"),
        ("toolsets:\n  - {name: mcp, files: [a/*]}\n  - {name: mcp, files: [b/*]}\n", 3, "toolsets.1.name"),
        ("chars_per_token: 0\n", 1, "chars_per_token"),
        ("fail_on: sometimes\n", 1, "fail_on"),
        ("- a\n- b\n", 1, "(top level)"),
        # A U+2028 in a string is no line break to an editor, though PyYAML counts one.
        ("ignores:\n  - {code: heavy-definition, tool: x, reason: \"a\u2028b\"}\nbogus: 1\n", 3, "bogus"),
        ("ignores:\n  - {code: heavy-definition, tool: x, reason: \"a\u2028b\u2028c\"}\ntools:\n"
         "  delete_all:\n    blast: huge\n", 5, "tools.delete_all.blast"),
    ],
)
def test_errors_name_file_line_and_key(text: str, line: int, key: str) -> None:
    exc = error(text)
    assert (exc.line, exc.key) == (line, key)
    assert str(exc).startswith(f".tooldiff.yml:{line}: {key}: ")


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("rulez:\n  x: 1\n", "unknown key: did you mean 'rules'?"),
        ("chars-per-tokens: 3\n", "did you mean 'chars_per_token'?"),
        ("rules:\n  intent-overlapp: false\n", "unknown rule code: did you mean 'intent-overlap'?"),
        ("ignores:\n  - {code: missing-descr, tool: x, reason: y}\n", "did you mean 'missing-description'?"),
        ("targets: [openai-strickt]\n", "unknown target 'openai-strickt': did you mean 'openai-strict'?"),
        # The schema's name pattern must not answer first with a regular expression.
        ("targets: [openai_strict]\n", "unknown target 'openai_strict': did you mean 'openai-strict'?"),
        ("tools:\n  x: {targets: [Anthropic]}\n", "unknown target 'Anthropic'"),
        ("ignores:\n  - {code: '*', tool: x, reason: '   '}\n", "blank: say why the finding is accepted"),
        ("targets: []\n", "an empty list of targets would mean the default ones"),
        ("tools:\n  x: {targets: []}\n", "name at least one target"),
        ("toolset_targets:\n  a.json: []\n", "name at least one target"),
        ("toolsets:\n  - {name: a, files: [a/*], targets: []}\n", "name at least one target"),
    ],
)
def test_unknown_names_suggest_the_closest_known_one(text: str, hint: str) -> None:
    assert hint in error(text).message


def test_no_suggestion_when_nothing_is_close() -> None:
    message = error("zzz: 1\n").message
    assert message.startswith("unknown key (known: ") and "did you mean" not in message


def test_bad_yaml_and_duplicate_keys() -> None:
    assert error("paths: [\n").line == 1  # the file has one line; PyYAML points past it
    exc = error("paths: []\npaths: [a]\n")
    assert exc.line == 2 and "duplicate" in exc.message
    exc = error("budgets:\n  tool_tokens: 9\n  token_budget: 3\n  tool_tokens: 8\n")
    assert exc.line == 4 and exc.key == "budgets.tool_tokens"


def test_a_config_is_one_yaml_document() -> None:
    """A second document was dropped without a word, and an empty first one hid the one that followed."""
    exc = error("fail_on: warning\n---\nfail_on: never\n")
    assert exc.line == 3 and "one YAML document" in exc.message
    assert load_config(".tooldiff.yml", "---\n---\nfail_on: warning\n").fail_on == "warning"
    assert load_config(".tooldiff.yml", "---\nfail_on: warning\n---\n").fail_on == "warning"


def test_a_number_that_is_not_finite_is_refused() -> None:
    """`.nan` passed the schema's bounds (every comparison with NaN is false); estimates were divided by 1."""
    for text in ("chars_per_token: .nan\n", "chars_per_token: .inf\n",
                 "rules:\n  heavy-definition:\n    options:\n      chars_per_token: .nan\n"):
        exc = error(text)
        assert "chars_per_token" in exc.key and "finite" in exc.message, text


def test_rule_option_errors_are_written_as_in_yaml() -> None:
    exc = error("rules:\n  token-budget:\n    options:\n      budget: yes\n")
    assert exc.message.startswith("true is not of type"), exc.message


def test_values_in_messages_are_written_as_in_yaml() -> None:
    """A YAML user wrote null, yes or "abc": the message shows those, not Python's None, True or 'abc'."""
    assert error("budgets:\n  tool_tokens: null\n").message == "null is not of type 'integer'"
    assert error("budgets:\n  tool_tokens: yes\n").message == "true is not of type 'integer'"
    assert error("budgets:\n  tool_tokens: abc\n").message == "\"abc\" is not of type 'integer'"
    assert error("budgets:\n  tool_tokens: café\n").message == "\"café\" is not of type 'integer'"
    assert error("budgets:\n  tool_tokens: .inf\n").message == ".inf is not a finite number"
    # lists and choices as YAML and JSON write them, not as Python's ['paths'] and ['error', ...]
    assert error("budgets: [paths]\n").message == '["paths"] is not of type \'object\''
    assert error("fail_on: errors\n").message.startswith('"errors" is not one of "error", "warning"')
    # a character that is not printable stays escaped, as Python's repr had it
    assert error('budgets:\n  tool_tokens: "a\\u202eb"\n').message == "\"a\\u202eb\" is not of type 'integer'"


def test_empty_file_is_the_defaults() -> None:
    assert config_hash(load_config(".tooldiff.yml", "# nothing\n")) == config_hash(Config.default())


def test_shipped_default_config_is_valid_and_equals_the_defaults() -> None:
    text = resources.files("tooldiff").joinpath("data/default-config.yml").read_text(encoding="utf-8")
    assert config_hash(load_config("default-config.yml", text)) == config_hash(Config.default())


def test_full_config() -> None:
    config = load_config(".tooldiff.yml", """
paths: ["tools/**"]
exclude: ["tools/old/*"]
toolsets:
  - {name: agent, files: ["tools/*.json"], targets: [openai-strict], budget: 4000}
targets: [anthropic]
toolset_targets: {"mcp/server.json": [google]}
tools:
  delete_ticket: {blast: destructive, targets: [openai]}
rules:
  mode-argument: false
  heavy-definition: info
  oversized-description: {options: {tool_max_chars: 2000}}
ignores:
  - {code: intent-overlap, tool: "search_*", reason: "different indexes"}
baseline: .baseline.json
budgets: {toolset_tokens: 10000, tool_tokens: 800}
description_limits: {tool: 900, property: 300}
chars_per_token: 3.5
max_file_bytes: 1000
sources:
  - {command: "python dump.py", toolset: code}
  - {command: "node dump.js", toolset: web, timeout: 900}
fail_on: warning
""")
    assert config.targets_override("agent", "x") == ("openai-strict",)
    assert config.targets_override("agent", "delete_ticket") == ("openai",)
    assert config.targets_override("mcp/server.json", "y") == ("google",)
    assert config.targets_override("other.json", "y") == ("anthropic",)
    assert not config.rule_enabled("mode-argument") and config.rule_enabled("intent-overlap")
    assert config.severity("heavy-definition") == "info" and config.severity("intent-overlap") is None
    assert config.rule_options("heavy-definition") == {"budget": 800}
    assert config.rule_options("oversized-description") == {"tool_max_chars": 2000, "property_max_chars": 300}
    assert config.rule_options("token-budget") == {"budget": 10000}
    assert config.toolset_budget("agent") == 4000 and config.toolset_budget("x") == 10000
    assert config.ignores[0].reason == "different indexes"
    assert (config.baseline, config.chars_per_token, config.max_file_bytes, config.fail_on) == (
        ".baseline.json", 3.5, 1000, "warning")
    assert config.sources[0].command == "python dump.py"
    assert [s.timeout for s in config.sources] == [300, 900]
    assert config.tool_settings["delete_ticket"]["blast"] == "destructive"


def test_defaults() -> None:
    config = Config.default()
    assert config.targets_override("a.json", "t") is None
    assert config.rule_options("heavy-definition") == {"budget": 500}
    assert config.rule_options("oversized-description") == {"tool_max_chars": 1024, "property_max_chars": 512}
    assert config.rule_options("token-budget") == {}
    assert (config.baseline, config.chars_per_token, config.max_file_bytes) == (
        ".tooldiff-baseline.json", 4, 20_000_000)


def test_hash_is_stable_and_sees_changes() -> None:
    a = load_config("a.yml", "rules:\n  heavy-definition: info\npaths: [x]\n")
    b = load_config("b.yml", "paths: [x]\nrules:\n  heavy-definition: info\n")
    c = load_config("c.yml", "paths: [x]\nrules:\n  heavy-definition: warning\n")
    assert config_hash(a) == config_hash(b) != config_hash(c)


def test_every_registered_rule_code_is_accepted() -> None:
    text = "rules:\n" + "".join(f"  {m.replace('_', '-')}: true\n" for m in RULE_MODULES)
    assert len(load_config(".tooldiff.yml", text).rules) == len(RULE_MODULES)


def test_ignore_any_code() -> None:
    config = load_config(".tooldiff.yml", "ignores:\n  - {code: '*', tool: legacy_*, reason: frozen API}\n")
    assert config.ignores[0].code == "*"


def test_kebab_case_spellings_of_our_keys() -> None:
    text = "chars-per-token: 3\nfail-on: warning\nbudgets: {tool-tokens: 700}\nrules: {mode-argument: off}\n"
    config = load_config(".tooldiff.yml", text)
    assert (config.chars_per_token, config.fail_on, config.budgets.tool_tokens) == (3, "warning", 700)
    assert not config.rule_enabled("mode-argument")  # rule codes keep their dashes
    assert error("max-file-bytes: 1\nbogus-key: 2\n").key == "bogus_key"


@pytest.mark.parametrize("value", ["0", "3601", "1.5", "soon"])
def test_a_source_timeout_out_of_range_is_an_error_naming_it(value: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(".tooldiff.yml",
                    f"sources:\n  - command: python dump.py\n    toolset: code\n    timeout: {value}\n")
    assert "timeout" in str(err.value) and ".tooldiff.yml:4" in str(err.value)


@pytest.mark.parametrize("value", ["/tmp/baseline.json", "../baseline.json", "ci/../../baseline.json",
                                   "C:\\baseline.json", "C:baseline.json", "\\\\server\\share\\b.json"])
def test_a_baseline_outside_the_repository_is_an_error_naming_it(value: str) -> None:
    # `tooldiff baseline` would write it and no run would read it: check, diff and the Action read the
    # baseline inside the tree (a diff and the Action from git).
    with pytest.raises(ConfigError) as err:
        load_config(".tooldiff.yml", f"fail_on: warning\nbaseline: {value}\n")
    assert (err.value.line, err.value.key) == (2, "baseline") and "inside the repository" in err.value.message
    assert load_config(".tooldiff.yml", "baseline: ci/../tooldiff-baseline.json\n").baseline == (
        "ci/../tooldiff-baseline.json")


def test_a_whole_number_written_as_a_float_is_an_integer() -> None:
    # JSON Schema counts 100.0 as an integer; the report's budget column and messages must too.
    config = load_config(".tooldiff.yml", "budgets: {tool_tokens: 50.0}\n"
                                          "toolsets: [{name: a, files: ['a/*'], budget: 100.0}]\n")
    assert config.budgets.tool_tokens == 50 and type(config.budgets.tool_tokens) is int
    assert config.toolsets[0].budget == 100 and type(config.toolsets[0].budget) is int
    assert load_config(".tooldiff.yml", "chars_per_token: 3.5\n").chars_per_token == 3.5


def test_a_broken_second_yaml_document_is_a_config_error_not_a_crash() -> None:
    with pytest.raises(ConfigError) as err:
        load_config(".tooldiff.yml", "fail_on: error\n---\nfoo: [\n")
    assert err.value.line == 3 and "invalid YAML" in err.value.message


def test_a_missing_key_is_named_in_plain_words() -> None:
    """jsonschema says "'reason' is a required property"; the config's author is told what to add."""
    with pytest.raises(ConfigError) as err:
        load_config(".tooldiff.yml", "ignores:\n  - code: intent-overlap\n    tool: a\n")
    assert "'reason' is a required property" not in str(err.value)
    assert 'add "reason"' in str(err.value) and "ignores.0" in str(err.value)
