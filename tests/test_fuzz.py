"""Fuzz parsers -> engine -> every renderer with generated tool files in all six formats (issue 6).

Properties: no exception; the same input gives byte-identical JSON twice; the JSON follows the v1 schema;
the PR comment stays within GitHub's 65,536 characters. `make test` runs a bounded, derandomised fuzz
(about 100 examples in all); `TOOLDIFF_FUZZ_EXAMPLES=5000` (`make fuzz`) runs long and random.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hostile.harness import HERE, MemorySource
from strategies import tool_files
from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.diffrun import Side, diff_sides
from tooldiff.discover import discover
from tooldiff.model import Report
from tooldiff.render import RENDERERS, RenderContext, render

LONG = os.environ.get("TOOLDIFF_FUZZ_EXAMPLES")
EXAMPLES = int(LONG) if LONG else 50  # per test; two tests make the ~100 of `make test`
COMMENT_LIMIT = 65_536
CTX = RenderContext(repo_url="octo/helpdesk", head_sha="0" * 40)

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,  # no example database: a run depends on nothing but the code
    derandomize=not LONG,  # bounded runs are the same every time, so CI is stable
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


@cache
def report_validator() -> jsonschema.Draft202012Validator:
    text = resources.files("tooldiff").joinpath("data", "report.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def render_all(report: Report) -> dict[str, str]:
    out = {fmt: render(fmt, report, CTX) for fmt in RENDERERS}
    assert len(out["markdown"]) <= COMMENT_LIMIT
    assert out["markdown"].startswith("<!-- tooldiff:comment id=default -->")
    report_validator().validate(json.loads(out["json"]))
    json.loads(out["sarif"])
    assert all(line.startswith(("::", "tooldiff:")) for line in out["annotations"].splitlines())
    return out


# Found by the fuzz: a property named like the position trie's marker string.
MARKER_KEY = (b'[{"name": "get_user", "input_schema": {"type": "object", '
              b'"properties": {"id": {}, "\\u0000wanted": {}}}}]')


@FUZZ
@given(files=tool_files())
@example(files={"anthropic-0.json": MARKER_KEY})
def test_check_any_tool_files(files: dict[str, bytes]) -> None:
    config = Config.default()
    first = render_all(run_check(MemorySource(files), config, token_methods=None))
    again = render_all(run_check(MemorySource(files), config, token_methods=None))
    assert first == again  # every format, byte for byte: not only the JSON


def _side(files: dict[str, bytes], config: Config) -> Side:
    source = MemorySource(files)
    found = discover(source, config)
    return Side(source, list(found.toolsets), dict(found.files), list(found.errors))


@FUZZ
@given(base=tool_files(max_files=2), head=tool_files(max_files=2), keep=st.booleans())
def test_diff_any_pair_of_trees(base: dict[str, bytes], head: dict[str, bytes], keep: bool) -> None:
    """A PR from one generated tree to another (`keep`: the head also keeps the base's files)."""
    config = Config.default()
    head = {**base, **head} if keep else head

    def run() -> dict[str, str]:
        report = diff_sides(_side(base, config), _side(head, config), {}, config, full=False)
        return render_all(report)

    assert run() == run()


def test_json_is_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    """Set and dict order must not leak into the output: two processes, two hash seeds, one JSON."""
    for name in ("good.json", "injection.json", "ref-cycle.json", "duplicate-keys.json"):
        (tmp_path / name).write_bytes((HERE / name).read_bytes())
    formats = Path(__file__).parent / "fixtures" / "formats"
    for src in formats.iterdir():
        if src.suffix in (".json", ".yaml", ".jsonl"):
            (tmp_path / src.name).write_bytes(src.read_bytes())
    outs: list[Any] = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        args = [sys.executable, "-m", "tooldiff", "check", "--format", "json", "--tokens", "all"]
        proc = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, timeout=30, check=False)
        assert proc.returncode in (0, 1), proc.stderr.decode()[-2000:]
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert len(json.loads(outs[0])["findings"]) > 5
