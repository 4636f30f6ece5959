"""Replay real tool-definition histories (`../shared/corpora/histories/`) as pull requests.

One git repository per history, one commit per version (built with ONE `git fast-import`), then every
consecutive pair of versions is a PR. The invariant of issue 3: on the changed toolsets, the diff's new
findings are check(head) - check(base) by fingerprint, and the resolved ones the reverse.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from gitbuild import fast_import
from paths import SHARED
from tooldiff import pairs
from tooldiff.config import Config
from tooldiff.diff import diff_toolsets
from tooldiff.diffreport import translate
from tooldiff.diffrun import Side, diff_sides, run_diff
from tooldiff.discover import discover
from tooldiff.engine import analyse
from tooldiff.gitread import GitRepo, GitSource
from tooldiff.model import Finding, Report, Tool
from tooldiff.rules.base import Context
from tooldiff.terms import Terms

Files = dict[str, bytes]


def _dump(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


def github_files(doc: Any) -> Files:
    """One MCP tool record per file, as the repository's own `__toolsnaps__` folder holds them."""
    out = {}
    for rec in doc:
        # Named after the snap file: one version holds two snaps of `list_issues` (a feature-flag variant).
        name = rec["snap_file"].removesuffix(".snap")
        rec = {k: v for k, v in rec.items() if k != "snap_file"}
        out[f"pkg/github/__toolsnaps__/{name}.json"] = _dump(rec)
    return out


LAYOUTS: dict[str, Callable[[Any], Files]] = {
    "github-mcp-server": github_files,
    "kubernetes-mcp-server": lambda doc: {"pkg/mcp/testdata/toolsets-full-tools.json": _dump(doc)},
    "notion-mcp-server-openapi": lambda doc: {"scripts/notion-openapi.json": _dump(doc)},
    "posthog-mcp": lambda doc: {"schema/tool-definitions.json": _dump(doc["tool_definitions"]),
                                "schema/tool-inputs.json": _dump(doc["tool_inputs"])},
}
COUNTED = ("github-mcp-server", "kubernetes-mcp-server")  # in scope: the tool count must match


@dataclass
class History:
    name: str
    manifest: dict[str, Any]
    repo: GitRepo
    shas: list[str]
    sides: list[Side]
    checks: list[list[Finding]]
    reports: dict[int, Report] = field(default_factory=dict)

    def pair(self, i: int) -> Report:
        """The diff of version i+1 against version i, from the discovered sides (computed once)."""
        if i not in self.reports:
            renames = self.repo.renames(self.shas[i], self.shas[i + 1])
            self.reports[i] = diff_sides(self.sides[i], self.sides[i + 1], renames, CONFIG, full=False)
        return self.reports[i]


@pytest.fixture(scope="module", autouse=True)
def _memo_views() -> Iterator[None]:
    """Test speed only: most tools are unchanged from one version to the next, so build each distinct
    tool's pair view once (the view of a tool depends on the tool, with one config, and on the vendor
    words its toolset shows: `pairs.analyse_toolset`)."""
    real = pairs.analyse
    memo: dict[str, pairs.ToolView] = {}

    def analyse(
        tool: Tool, ctx: Context, vendors_shown: frozenset[str] | None = None, terms: Terms | None = None
    ) -> pairs.ToolView:
        shown = None if vendors_shown is None else sorted(vendors_shown)
        key = json.dumps([tool.name, tool.description, tool.input_schema, tool.annotations, tool.title,
                          tool.strict, tool.format, shown], sort_keys=True, default=str)
        if key not in memo:
            memo[key] = real(tool, ctx, vendors_shown, terms)
        v = memo[key]
        view = pairs.ToolView(tool=tool, name=v.name, terms=v.terms, name_seq=v.name_seq,
                              desc_terms=v.desc_terms, core=v.core, actions=v.actions, core_set=v.core_set,
                              flex=v.flex, tool_settings=v.tool_settings)
        view._memo = v._memo  # what the view worked out depends on the same tool content
        return view

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pairs, "analyse", analyse)
        yield


CONFIG = Config.default()


@pytest.fixture(scope="module", params=list(LAYOUTS))
def history(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> History:
    root = SHARED / "corpora" / "histories" / request.param
    if not root.is_dir():
        pytest.skip(f"needs {root} (../shared beside the repository)")
    manifest = json.loads((root / "manifest.json").read_text())
    layout = LAYOUTS[request.param]
    docs = [json.loads((root / "versions" / v["file"]).read_text()) for v in manifest["versions"]]
    versions = [(f"{v['seq']}: {v['message']}", layout(doc))
                for v, doc in zip(manifest["versions"], docs, strict=True)]
    path = tmp_path_factory.mktemp(request.param) / "repo"
    shas = fast_import(path, versions)
    repo = GitRepo(path)
    sides, checks = [], []
    for sha in shas:
        src = GitSource(repo, sha)
        found = discover(src, CONFIG)
        sides.append(Side(src, list(found.toolsets), dict(found.files), list(found.errors)))
        checks.append(analyse(found.toolsets, CONFIG, found.files, parse_errors=found.errors).findings)
    return History(request.param, manifest, repo, shas, sides, checks)


def test_each_version_yields_the_manifest_tool_count(history: History) -> None:
    if history.name not in COUNTED:
        pytest.skip(f"{history.name} is out of scope (tools are built in code); it must only not crash")
    for v, side in zip(history.manifest["versions"], history.sides, strict=True):
        assert sum(len(ts.tools) for ts in side.toolsets) == v["n_tools"], v["file"]


def test_invariant_new_and_resolved_are_check_differences(history: History) -> None:
    """Property over every consecutive pair: diff == check(head) - check(base) on the changed toolsets."""
    for i in range(len(history.shas) - 1):
        base, head = history.sides[i], history.sides[i + 1]
        renames = history.repo.renames(history.shas[i], history.shas[i + 1])
        tree = diff_toolsets(base.toolsets, head.toolsets, renames)
        changed = {d.id for d in tree.changed}
        full_base = {f.fingerprint for f in translate(history.checks[i], tree) if f.toolset in changed}
        full_head = {f.fingerprint for f in history.checks[i + 1] if f.toolset in changed}
        report = history.pair(i)
        new = {f.fingerprint for f in report.findings if f.status == "new"}
        resolved = {f.fingerprint for f in report.resolved}
        where = f"{history.name} {history.manifest['versions'][i + 1]['file']}"
        assert new == full_head - full_base, where
        assert resolved == full_base - full_head, where


def test_run_diff_through_git_matches_the_cached_sides(history: History) -> None:
    last = len(history.shas) - 2
    for i in sorted({0, last // 2, last}):
        via_git = run_diff(history.repo.root, history.shas[i], history.shas[i + 1])
        cached = history.pair(i)
        assert [f.fingerprint for f in via_git.findings] == [f.fingerprint for f in cached.findings]
        assert via_git.tools == cached.tools


def test_summary_of_each_series(history: History, capsys: pytest.CaptureFixture[str]) -> None:
    counts = [v["n_tools"] for v in history.manifest["versions"]]
    rows = []
    total_changed = total_new = total_resolved = 0
    total_delta = 0
    for i in range(len(history.shas) - 1):
        r = history.pair(i)
        kinds = [t.change for t in r.tools]
        added, removed = kinds.count("added"), kinds.count("removed")
        if history.name in COUNTED:
            # Every tool the manifest gained or lost shows up as added or removed (renames net out).
            assert added - removed == counts[i + 1] - counts[i], history.manifest["versions"][i + 1]["file"]
        delta = sum(int(ts.tokens.get("estimate", {}).get("delta") or 0) for ts in r.toolsets)
        new = sum(1 for f in r.findings if f.status == "new")
        total_changed += len(r.tools)
        total_new += new
        total_resolved += len(r.resolved)
        total_delta += delta
        if r.tools:
            rows.append(f"  v{i + 2:>3}: {len(r.tools):>3} tools changed ({added} added, {removed} removed), "
                        f"{new} new, {len(r.resolved)} resolved, {delta:+d} tokens (estimate)")
    with capsys.disabled():
        print(f"\n{history.name}: {len(history.shas)} versions, {total_changed} tool changes, "
              f"{total_new} new findings, {total_resolved} resolved, {total_delta:+d} tokens overall")
        print("\n".join(rows[-8:]))
    if history.name in COUNTED:
        assert total_changed > 0
        # Deltas telescope: their sum over the series is the last version's total minus the first's.
        first, last = history.sides[0], history.sides[-1]
        totals = [sum(map(history_tokens, side.toolsets)) for side in (first, last)]
        assert total_delta == totals[1] - totals[0]


def history_tokens(ts: Any) -> int:
    from tooldiff import tokens

    return sum(tokens.count_tool(t, chars_per_token=CONFIG.chars_per_token)["estimate"] for t in ts.tools)


def test_the_repo_has_one_commit_per_version(history: History) -> None:
    assert len(history.shas) == len(history.manifest["versions"])
