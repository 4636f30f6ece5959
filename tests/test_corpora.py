"""Every real corpus file parses without a crash, and no parser loses tools.

Counts come from each corpus's `stats.json` where it gives one, else from a count recorded here
(checked by hand against the file's structure when it was recorded).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tooldiff.parsers import parse_bytes

pytestmark = pytest.mark.shared


def _stats(corpora: Path, rel: str, *keys: str) -> int:
    data: Any = json.loads((corpora / rel).read_text(encoding="utf-8"))
    for key in keys:
        data = data[key]
    assert isinstance(data, int)
    return data


# file -> (stats file, key path) or a recorded count
EXPECTED: dict[str, tuple[str, ...] | int] = {
    "api_bank/api_bank_tools.json": ("api_bank/stats.json", "unique_defs"),
    "bfcl/bfcl_v4_tools.json": ("bfcl/stats.json", "unique_defs"),
    "seal_tools/seal_tools_tools.json": ("seal_tools/stats.json", "unique_defs"),
    "toolalpaca/toolalpaca_eval_functions.json": ("toolalpaca/stats.json", "unique_defs"),
    "toolbench/toolbench_repo_functions.json": ("toolbench/stats_repo.json", "unique_defs"),
    "toolbench/stabletoolbench_apis.json": ("toolbench/stats_stabletoolbench.json", "unique_defs"),
    "mcp/docker_mcp_registry/tools.json": ("mcp/docker_mcp_registry/stats.json", "unique_defs"),
    "mcp/live_tools_list/tools.json": ("mcp/live_tools_list/stats.json", "unique_defs"),
    "mcp/live_tools_list/tools_list_by_server.json": ("mcp/live_tools_list/stats.json", "unique_defs"),
    "mcp/livemcpbench/tools.json": ("mcp/livemcpbench/stats.json", "unique_defs"),
    "combined/all_tools.jsonl": ("combined/stats.json", "total_unique"),
    # No stats count for these: recorded (stats' 184 for committed snapshots counts unique definitions,
    # the file keeps 196 records, some repeated across snapshot files).
    "mcp/committed_snapshots/tools.json": 196,
    "toolbench/colt_toolbench_corpora.json": 1883,  # = combined per_source colt 1755 + colt_dup 128
    # 3,102 functions over the 934 sets, 2,252 distinct: a function offered in several sets is one tool.
    "bfcl/bfcl_toolsets_multi.json": 2252,
    "bfcl/bfcl_multi_turn_toolsets.json": 162,  # dict of 12 toolsets
    "metatool/metatool_tools.json": 199,
    "metatool/chatgpt_plugins_original.json": 390,
    "labelled/openmetadata_premerge_tools_transcribed.json": 5,
    # Data about tools, not tool definitions.
    "labelled/pairs.json": 0,
    "metatool/multi_tool_query_golden.json": 0,
    "metatool/single_tool_queries.json": 0,
    "metatool/similar_tool_neighbors.json": 0,
    "mcp/docker_mcp_registry/servers_manifest.json": 0,
}
SKIP_NAMES = ("stats", "INDEX.json", "manifest.json")


def _corpus_files(corpora: Path) -> list[str]:
    out = []
    for path in sorted([*corpora.rglob("*.json"), *corpora.rglob("*.jsonl")]):
        rel = path.relative_to(corpora).as_posix()
        if "/versions/" in rel or path.name.startswith(SKIP_NAMES):
            continue
        out.append(rel)
    return out


def test_every_corpus_file_has_an_expected_count(shared_dir: Path) -> None:
    assert set(_corpus_files(shared_dir / "corpora")) == set(EXPECTED)


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_corpus_file_tool_count(shared_dir: Path, rel: str) -> None:
    corpora = shared_dir / "corpora"
    if not (corpora / rel).exists():
        pytest.skip(f"{rel} is not in this copy of the corpora")
    result = parse_bytes(rel, (corpora / rel).read_bytes())
    assert result.errors == ()
    spec = EXPECTED[rel]
    expected = spec if isinstance(spec, int) else _stats(corpora, *spec)
    assert len(result.tools) == expected
    assert all(t.line >= 1 and t.end_line >= t.line for t in result.tools)


def _versions(shared_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for manifest in sorted((shared_dir / "corpora" / "histories").glob("*/manifest.json")):
        data = json.loads(manifest.read_text(encoding="utf-8"))
        out.extend((manifest.parent / "versions" / v["file"], v) for v in data["versions"])
    return out


@pytest.mark.parametrize("repo", ["github-mcp-server", "kubernetes-mcp-server"])
def test_history_versions_hold_every_tool(shared_dir: Path, repo: str) -> None:
    versions = [(p, v) for p, v in _versions(shared_dir) if p.parent.parent.name == repo]
    assert versions
    for path, version in versions:
        result = parse_bytes(path.name, path.read_bytes())
        assert result.errors == ()
        assert len(result.tools) == version["n_tools"], path.name
        assert {t.format for t in result.tools} <= {"mcp"}


@pytest.mark.parametrize("repo", ["notion-mcp-server-openapi", "posthog-mcp"])
def test_history_versions_in_other_shapes_do_not_crash(shared_dir: Path, repo: str) -> None:
    # Notion is an OpenAPI spec and PostHog keys tools by name: neither is a tool list we read.
    versions = [(p, v) for p, v in _versions(shared_dir) if p.parent.parent.name == repo]
    assert versions
    for path, _ in versions:
        result = parse_bytes(path.name, path.read_bytes())
        assert result.errors == ()
