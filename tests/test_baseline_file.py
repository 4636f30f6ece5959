"""A baseline file that is not one says what is wrong and where, not a Python exception's text."""

from __future__ import annotations

import pytest

from tooldiff.baseline import BaselineError, load_baseline


@pytest.mark.parametrize(("text", "says"), [
    ('{"findings": [\n  {"fingerprint": "ab",}\n]}', ".tooldiff-baseline.json:2: invalid JSON: "),
    ("[]", ".tooldiff-baseline.json: not a tooldiff baseline: expected an object with a `findings` list"),
    ('{"findings": {}}', "not a tooldiff baseline: expected an object with a `findings` list"),
    ('{"findings": [{"code": "x"}]}', ".tooldiff-baseline.json: findings[0] has no `fingerprint` string"),
    ('{"findings": [{"fingerprint": "ab"}, 7]}', "findings[1] is not an object"),
])
def test_a_bad_baseline_names_what_is_wrong_and_where(text: str, says: str) -> None:
    with pytest.raises(BaselineError) as err:
        load_baseline(text.encode())
    assert says in str(err.value)
    assert "list indices" not in str(err.value) and "('fingerprint')" not in str(err.value)


def test_a_good_baseline_loads() -> None:
    baseline = load_baseline(b'{"findings": [{"fingerprint": "ab", "reason": "known"}]}')
    assert baseline.entries == {"ab": "known"}
