"""Rule options in `.tooldiff.yml` are checked when the config loads, against what each rule declares."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldiff.cli import main
from tooldiff.config import ConfigError, load_config
from tooldiff.rules import registry

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "helpdesk" / "head" / "tools.json"


def error(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_config(".tooldiff.yml", text)
    return info.value


@pytest.mark.parametrize(
    ("text", "line", "key", "says"),
    [
        ('rules:\n  heavy-definition:\n    options: {budget: "x"}\n', 3,
         "rules.heavy-definition.options.budget", '"x" is not of type'),
        ("rules:\n  heavy-definition:\n    options:\n      budget: 0\n", 4,
         "rules.heavy-definition.options.budget", "less than the minimum"),
        ("rules:\n  oversized-description: {options: {tool_max_chars: [1]}}\n", 2,
         "rules.oversized-description.options.tool_max_chars", "is not of type"),
        ("rules:\n  token-budget:\n    options:\n      chars_per_token: -1\n", 4,
         "rules.token-budget.options.chars_per_token", "minimum"),
        ("rules:\n  heavy-definition:\n    options:\n      budgett: 800\n", 4,
         "rules.heavy-definition.options.budgett", "unknown option: did you mean 'budget'?"),
        ("rules:\n  intent-overlap: {options: {threshold: 1}}\n", 2,
         "rules.intent-overlap.options.threshold", "intent-overlap takes no options"),
    ],
)
def test_bad_rule_options_name_file_line_and_key(text: str, line: int, key: str, says: str) -> None:
    exc = error(text)
    assert (exc.file, exc.line, exc.key) == (".tooldiff.yml", line, key)
    assert says in exc.message


def test_good_rule_options_load() -> None:
    text = "rules:\n  heavy-definition: {options: {budget: null, chars_per_token: 3.5}}\n" \
           "  token-budget: {options: {budget: 4000}}\n"
    config = load_config(".tooldiff.yml", text)
    assert config.rule_options("heavy-definition")["budget"] is None
    assert config.rule_options("token-budget") == {"budget": 4000}


def test_every_option_a_rule_uses_is_declared() -> None:
    for code, module in registry().items():
        assert set(getattr(module, "OPTIONS", {})) == set(getattr(module, "OPTION_SCHEMAS", {})), code


def test_a_bad_option_exits_2_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools.json").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / ".tooldiff.yml").write_text('rules:\n  heavy-definition: {options: {budget: "x"}}\n',
                                            encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tooldiff: .tooldiff.yml:2: rules.heavy-definition.options.budget: ")
