"""Discovery in a real temp tree: by content, by paths and globs; guards; toolset grouping."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tooldiff.config import Config, ToolsetSpec, load_config
from tooldiff.discover import discover, glob_match, group_toolsets
from tooldiff.parsers import parse_bytes
from tooldiff.sources import WorktreeSource


def tool(name: str) -> dict[str, object]:
    return {"name": name, "description": f"{name} things", "inputSchema": {"type": "object"}}


def write(root: Path, rel: str, value: object | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(value if isinstance(value, bytes) else json.dumps(value, indent=2).encode())


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path, "tools/support.json", {"tools": [tool("a"), tool("b")]})
    write(tmp_path, "snaps/__toolsnaps__/get_me.snap.json", tool("get_me"))
    write(tmp_path, "snaps/__toolsnaps__/list_issues.json", tool("list_issues"))
    write(tmp_path, "package.json", {"name": "x", "dependencies": {}})
    write(tmp_path, "package-lock.json", {"tools": [tool("lock")]})
    write(tmp_path, "node_modules/dep/tools.json", [tool("vendored")])
    write(tmp_path, "data/broken.json", b'{"name": "nothing to see"')
    write(tmp_path, "tools/broken.json", b'{"tools": [{"name": "x", "inputSchema": {]}')
    write(tmp_path, "README.md", b"# hi")
    return tmp_path


def test_content_discovery_and_grouping(repo: Path) -> None:
    found = discover(WorktreeSource(repo), Config.default())
    assert sorted(found.files) == [
        "snaps/__toolsnaps__/get_me.snap.json", "snaps/__toolsnaps__/list_issues.json",
        "tools/broken.json", "tools/support.json",
    ]
    assert [(ts.id, [t.name for t in ts.tools]) for ts in found.toolsets] == [
        ("snaps/__toolsnaps__", ["get_me", "list_issues"]),
        ("tools/support.json", ["a", "b"]),
    ]
    assert all(t.toolset == ts.id for ts in found.toolsets for t in ts.tools)
    # A broken file that could hold tools is reported; a broken file without tool keys is not ours.
    assert [(e.file, e.line) for e in found.errors] == [("tools/broken.json", 1)]


def test_explicit_paths(repo: Path) -> None:
    source = WorktreeSource(repo)
    found = discover(source, Config.default(), ["tools/support.json", "data"])
    assert [ts.id for ts in found.toolsets] == ["tools/support.json"]
    assert [e.file for e in found.errors] == ["data/broken.json"]  # named explicitly: always reported
    assert [e.file for e in discover(source, Config.default(), ["nope"]).errors] == ["nope"]
    everything = discover(source, Config.default(), ["."])
    assert len(everything.toolsets) == 2


def test_a_skipped_folder_is_read_where_a_path_names_it(repo: Path) -> None:
    """node_modules, dist, build...: left out of discovery, but a path on the command line or a config glob
    that names one outright is honoured (tools generated into dist/ are common)."""
    write(repo, "dist/tools.json", [tool("built")])
    write(repo, "dist/node_modules/x/tools.json", [tool("deeper")])
    source = WorktreeSource(repo)
    assert "dist/tools.json" not in source.list_files()
    write(repo, "node_modules/other/tools.json", [tool("sibling")])
    listed = source.list_files(["node_modules/dep/tools.json"])
    assert "node_modules/dep/tools.json" in listed and "node_modules/other/tools.json" not in listed

    def toolsets(paths: list[str], config: Config | None = None) -> list[str]:
        found = discover(source, config or Config.default(), paths)
        assert found.errors == [] or [e.file for e in found.errors] == ["tools/broken.json"]
        return [ts.id for ts in found.toolsets]

    assert toolsets(["node_modules/dep/tools.json"]) == ["node_modules/dep/tools.json"]
    assert toolsets(["dist"]) == ["dist/tools.json"]  # below the named folder, node_modules is skipped again
    assert toolsets([], load_config("c.yml", "paths: ['dist/*.json']\n")) == ["dist/tools.json"]
    assert toolsets([], load_config("c.yml", "paths: [dist]\n")) == ["dist/tools.json"]
    assert "dist/tools.json" not in toolsets([], load_config("c.yml", "paths: ['**/tools.json']\n"))
    assert toolsets([]) == ["snaps/__toolsnaps__", "tools/support.json"]


def test_a_toolset_glob_that_names_a_skipped_folder_reads_it(tmp_path: Path) -> None:
    """As a `paths` glob does: `dist/*.json` names dist outright; `**/*.json` reaches it by wildcard only."""
    write(tmp_path, "dist/built.json", [tool("built")])
    write(tmp_path, "dist/node_modules/x/tools.json", [tool("deeper")])
    write(tmp_path, "src/more.jsonl", json.dumps(tool("typed")).encode() + b"\n")
    write(tmp_path, "build/other.json", [tool("other")])
    source = WorktreeSource(tmp_path)
    text = "toolsets: [{name: agent, files: ['dist/*.json', 'src/*.jsonl']}]\n"
    config = load_config(".tooldiff.yml", text)
    found = discover(source, config)
    assert [(ts.id, sorted(t.name for t in ts.tools)) for ts in found.toolsets] == [
        ("agent", ["built", "typed"])]
    wildcard = load_config(".tooldiff.yml", "toolsets:\n  - {name: agent, files: ['**/*.json', 'src/*']}\n")
    assert [(ts.id, len(ts.tools)) for ts in discover(source, wildcard).toolsets] == [("agent", 1)]
    deeper = load_config(".tooldiff.yml", "toolsets:\n  - {name: agent, files: ['dist/**/*.json']}\n")
    names = {ts.id: [t.name for t in ts.tools] for ts in discover(source, deeper).toolsets}
    assert names == {"agent": ["built"], "src/more.jsonl": ["typed"]}  # dist/node_modules is skipped again


def test_a_toolset_outside_the_configured_paths_is_still_read(tmp_path: Path) -> None:
    """A toolset's `files` name its files outright, as `paths` globs do: with `paths` set as well, the
    toolset must not vanish (with its targets and budget) because its files are not under `paths`."""
    write(tmp_path, "tools/support.json", {"tools": [tool("a")]})
    write(tmp_path, "agents/billing.json", {"tools": [tool("bill"), tool("refund")]})
    text = "paths: ['tools/**']\ntoolsets: [{name: billing, files: ['agents/*.json'], budget: 1}]\n"
    found = discover(WorktreeSource(tmp_path), load_config(".tooldiff.yml", text))
    assert sorted(ts.id for ts in found.toolsets) == ["billing", "tools/support.json"]


def test_a_toolset_glob_reads_the_files_it_names_whatever_their_extension(tmp_path: Path) -> None:
    """github-mcp-server keeps one MCP tool per `.snap` file: `paths: ['*/*.snap']` reads them, and a
    toolset naming the same files must too (it read nothing); a file there without tools is still skipped."""
    for name in ("get_me", "list_issues"):
        write(tmp_path, f"__toolsnaps__/{name}.snap", tool(name))
    write(tmp_path, "__toolsnaps__/README.snap", b"not a tool file")
    text = "toolsets: [{name: github, files: ['__toolsnaps__/*.snap']}]\n"
    found = discover(WorktreeSource(tmp_path), load_config(".tooldiff.yml", text))
    assert [(ts.id, sorted(t.name for t in ts.tools)) for ts in found.toolsets] == [
        ("github", ["get_me", "list_issues"])]
    assert found.errors == []


def test_a_path_that_names_nothing_says_so_and_how_to_fix_it(tmp_path: Path) -> None:
    from tooldiff.engine import parse_error_findings

    (tmp_path / "empty").mkdir()
    found = discover(WorktreeSource(tmp_path), Config.default(), ["empty", "nope.json"])
    assert [e.file for e in found.errors] == ["empty", "nope.json"]
    findings = parse_error_findings(found.errors, Config.default())
    assert all("nothing to read" in f.message and f.fix.startswith("Check the path") for f in findings)


def test_config_paths_exclude_and_named_toolsets(repo: Path) -> None:
    config = load_config(".tooldiff.yml", "paths: ['**/*.json']\nexclude: [tools/broken.json]\n"
                         "toolsets:\n  - {name: all, files: ['tools/*', 'snaps/**']}\n")
    found = discover(WorktreeSource(repo), config)
    assert [(ts.id, len(ts.tools)) for ts in found.toolsets] == [("all", 4)]
    assert [e.file for e in found.errors] == ["data/broken.json"]


def test_symlinks_are_never_followed(tmp_path: Path) -> None:
    write(tmp_path, "tools.json", [tool("a")])
    os.symlink("/etc/passwd", tmp_path / "passwd.json")
    os.symlink("../../outside.json", tmp_path / "up.yaml")
    os.symlink("tools.json", tmp_path / "alias.json")
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert sorted((e.file, e.line) for e in found.errors) == [("passwd.json", 1), ("up.yaml", 1)]
    assert all("symlink" in e.message for e in found.errors)
    assert [ts.id for ts in found.toolsets] == ["tools.json"]


class CountingSource(WorktreeSource):
    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.read: list[str] = []

    def read_many(self, paths):  # type: ignore[no-untyped-def]
        paths = list(paths)
        self.read.extend(paths)
        return super().read_many(paths)


def test_oversize_is_an_error_where_it_may_hold_tools(tmp_path: Path) -> None:
    write(tmp_path, "big.json", [tool("x" * 400)])
    write(tmp_path, "small.json", [tool("s")])
    write(tmp_path, "data/rows.json", [{"id": i, "city": "Lyon"} for i in range(40)])  # no tool keys
    source = CountingSource(tmp_path)
    found = discover(source, Config(max_file_bytes=300))
    assert [(e.file, e.line) for e in found.errors] == [("big.json", 1)]
    assert "over the limit" in found.errors[0].message and "max_file_bytes" in found.errors[0].fix
    # Each big file is read once, for its tool keys only; a data file without them is not a tool file.
    assert sorted(source.read) == ["big.json", "data/rows.json", "small.json"]
    named = discover(WorktreeSource(tmp_path), Config(max_file_bytes=300), ["data/rows.json"])
    assert [e.file for e in named.errors] == ["data/rows.json"]  # named: the user expects it read


def test_hostile_file_names(tmp_path: Path) -> None:
    write(tmp_path, "we ird/tøøls\nnew.json", [tool("a")])
    found = discover(WorktreeSource(tmp_path), Config.default())
    assert [ts.id for ts in found.toolsets] == ["we ird/tøøls\nnew.json"]


def parsed(path: str, *names: str) -> object:
    return parse_bytes(path, json.dumps([tool(n) for n in names]).encode())


def test_folder_of_one_tool_files_is_one_toolset_unless_a_file_holds_several() -> None:
    files = [parsed("a/x.json", "x"), parsed("a/y.json", "y"), parsed("b/z.json", "z"),
             parsed("c/p.json", "p"), parsed("c/q.json", "q", "r"), parsed("top.json", "t")]
    groups = group_toolsets(files, Config.default())  # type: ignore[arg-type]
    assert [(g.id, g.files) for g in groups] == [
        ("a", ("a/x.json", "a/y.json")),
        ("b/z.json", ("b/z.json",)),
        ("c/p.json", ("c/p.json",)),
        ("c/q.json", ("c/q.json",)),
        ("top.json", ("top.json",)),
    ]


def test_config_toolsets_win() -> None:
    files = [parsed("a/x.json", "x"), parsed("a/y.json", "y"), parsed("b/z.json", "z")]
    config = Config(toolsets=(ToolsetSpec(name="agent", files=("a/x.json", "b/*")),))
    groups = group_toolsets(files, config)  # type: ignore[arg-type]
    assert [(g.id, [t.name for t in g.tools]) for g in groups] == [("a/y.json", ["y"]), ("agent", ["x", "z"])]
    assert {t.toolset for t in groups[1].tools} == {"agent"}


@pytest.mark.parametrize(
    ("path", "pattern", "hit"),
    [
        ("a/b/c.json", "**/*.json", True),
        ("c.json", "**/*.json", True),
        ("a/b/c.json", "a/*.json", False),
        ("a/b/c.json", "a/**", True),
        ("a/b/c.json", "a/b", True),
        ("a/b/c.json", "c.json", True),
        ("a/b/c.yaml", "*.json", False),
        ("ab/c.json", "a", False),
    ],
)
def test_glob_match(path: str, pattern: str, hit: bool) -> None:
    assert glob_match(path, pattern) is hit


def test_folder_symlink_out_of_the_tree_is_reported(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, "tools.json", [tool("a")])
    write(tmp_path, "outside/t.json", [tool("stolen")])
    os.symlink("../outside", repo / "linkdir")
    (repo / "node_modules").mkdir()
    os.symlink("../../outside", repo / "node_modules" / "pkg")  # a skipped folder: not looked at
    for paths in ([], ["linkdir"]):
        found = discover(WorktreeSource(repo), Config.default(), paths)
        assert [(e.file, e.message) for e in found.errors] == [
            ("linkdir", "symlink leaves the repository; not followed")]
        assert all(t.name != "stolen" for ts in found.toolsets for t in ts.tools)


def test_symlinks_resolving_inside_the_tree_are_not_reported(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, "tools.json", [tool("a")])
    os.symlink(repo / "tools.json", repo / "absolute.json")
    os.symlink(f"../{repo.name}/tools.json", repo / "roundabout.json")
    os.symlink(f"../../{tmp_path.name}/{repo.name}/tools.json", repo / "further.json")
    found = discover(WorktreeSource(repo), Config.default())
    assert found.errors == []
    assert [ts.id for ts in found.toolsets] == ["tools.json"]


def _request(name: str) -> dict[str, object]:
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": tool(name)}]}


def test_request_captures_and_logs_are_not_one_tool_files() -> None:
    """Each request (or each log of requests) offered its own tools: a folder of captures that each offer
    one tool is not one toolset, or the same tool sent twice reads as a duplicate name."""
    log = "\n".join(json.dumps(_request("get_weather")) for _ in range(2)).encode()
    files = [parse_bytes("logs/a.jsonl", log), parse_bytes("logs/b.jsonl", log),
             parse_bytes("req/a.json", json.dumps(_request("x")).encode()),
             parse_bytes("req/b.json", json.dumps(_request("y")).encode()),
             parse_bytes("defs/a.json", json.dumps({"tools": [tool("x")]}).encode()),
             parse_bytes("defs/b.yaml", b"- name: y\n  description: Get y.\n  parameters: {type: object}\n"),
             # Still definitions: a Gemini tools list, a schema-tagged or versioned file, a tools/list reply.
             parse_bytes("defs/c.json",
                         json.dumps({"tools": [{"functionDeclarations": [tool("c")]}]}).encode()),
             parse_bytes("defs/d.json", json.dumps({"$schema": "s.json", "version": 1,
                                                    "tools": [tool("d")]}).encode()),
             parse_bytes("defs/e.json", json.dumps({
                 "tools": [{**tool("e"), "inputSchema": {"type": "object"}}], "nextCursor": "2"}).encode())]
    assert [len(f.tools) for f in files] == [1, 1, 1, 1, 1, 1, 1, 1, 1]
    groups = group_toolsets(files, Config.default())
    assert [g.id for g in groups] == ["defs", "logs/a.jsonl", "logs/b.jsonl", "req/a.json", "req/b.json"]


def test_a_request_one_level_down_is_not_a_one_tool_file() -> None:
    """A Batch line keeps its request under `body`, a proxy capture under `request`: requests still."""
    batch = {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions",
             "body": _request("search_docs")}
    capture = {"request": _request("search_docs"), "response": {"id": "x"}}
    files = [parse_bytes(f"batches/r{k}.jsonl", json.dumps(batch).encode()) for k in (1, 2)]
    files += [parse_bytes(f"proxy/c{k}.json", json.dumps(capture).encode()) for k in (1, 2)]
    assert [len(f.tools) for f in files] == [1, 1, 1, 1] and not any(f.one_tool for f in files)
    assert len(group_toolsets(files, Config.default())) == 4
