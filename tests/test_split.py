"""A check split across workers gives byte for byte the report of one process."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tooldiff import split
from tooldiff.check import find_config, run_check
from tooldiff.config import Config, load_config
from tooldiff.render import render
from tooldiff.sources import WorktreeSource

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="workers fork only on Linux")


def _tool(name: str, text: str = "") -> dict[str, object]:
    return {
        "name": name,
        "description": text or f"Get the {name.split('_')[-1]} by its id.",
        "input_schema": {"type": "object", "properties": {"id": {"type": "str"}}, "required": ["id"]},
    }


def _tree(root: Path) -> None:
    """Every grouping the split must respect."""
    one = root / "one_tool_folder"  # a folder of one-tool files: one toolset
    one.mkdir()
    for i in range(12):
        long = f"Get the doc {i} by its id. " + "It returns the title, the body and the author. " * 12
        (one / f"t{i:02d}.json").write_text(json.dumps(_tool(f"get_doc_{i}", long)), "utf-8")
    mixed = root / "mixed"  # one-tool files beside a two-tool file: a toolset per file
    mixed.mkdir()
    for i in range(9):
        long = f"Find page {i}. " + "It matches the words of the query in titles. " * 12
        (mixed / f"m{i}.json").write_text(json.dumps(_tool(f"find_page_{i}", long)), "utf-8")
    (mixed / "m9_two.json").write_text(json.dumps([_tool("search_docs"), _tool("find_document")]), "utf-8")
    sets = root / "sets"
    sets.mkdir()
    for k in range(6):
        tools = [_tool(f"list_item_{k}_{i}", "List the items of a folder.") for i in range(8)]
        (sets / f"set{k}.json").write_text(json.dumps(tools), "utf-8")
    (sets / "broken.json").write_text('{"tools": [{"name": "x", "input_schema": ', "utf-8")
    cfg = root / "cfg"  # a config toolset across two folders stays whole
    (cfg / "a").mkdir(parents=True)
    (cfg / "b").mkdir()
    (cfg / "a" / "x.json").write_text(json.dumps(_tool("delete_record")), "utf-8")
    (cfg / "b" / "y.json").write_text(json.dumps(_tool("remove_record")), "utf-8")
    (root / ".tooldiff.yml").write_text("toolsets:\n  - name: records\n    files: ['cfg/**']\n", "utf-8")


def _report(root: Path, jobs: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TOOLDIFF_JOBS", jobs)
    source = WorktreeSource(root)
    return render("json", run_check(source, find_config(source)))


@linux_only
def test_split_check_equals_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path)
    serial = _report(tmp_path, "1", monkeypatch)
    monkeypatch.setattr(split, "PARALLEL_MIN_BYTES", 1)
    calls: list[int] = []
    deferred: list[str] = []
    real = split.run_part

    def counted(*args: object, **kwargs: object) -> split.Part:
        calls.append(1)
        if len(args) == 7:  # the main process's run over the deferred files of split folders
            deferred.extend(args[2])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(split, "run_part", counted)
    for jobs in ("2", "3", "4"):
        assert _report(tmp_path, jobs, monkeypatch) == serial, jobs
    assert calls  # the split path ran
    assert any(p.startswith("one_tool_folder/") for p in deferred)  # split folders decided here
    data = json.loads(serial)
    ids = {ts["id"] for ts in data["toolsets"]}
    assert {"one_tool_folder", "records", "mixed/m9_two.json", "mixed/m0.json"} <= ids
    assert any(f["code"] == "parse-error" for f in data["findings"])


def test_plan_keeps_config_toolsets_whole_and_splits_big_folders() -> None:
    config = load_config(".tooldiff.yml", "toolsets:\n  - name: records\n    files: ['cfg/**']\n")
    paths = [f"big/f{i}.json" for i in range(10)] + ["cfg/a/x.json", "cfg/b/y.json", "small/s.json"]
    sizes = {p: 1_000_000 for p in paths}
    pieces = split.plan(paths, sizes, config, 2)
    assert len(pieces) >= 4  # several pieces per worker, taken in turn
    assert sorted(p for g in pieces for p in g) == sorted(paths)  # each file once
    owner = {p: k for k, g in enumerate(pieces) for p in g}
    assert owner["cfg/a/x.json"] == owner["cfg/b/y.json"]
    assert split.split_folders(pieces, config) == frozenset({"big"})
    assert max(len(g) for g in pieces) <= 3


def test_small_checks_stay_in_one_process() -> None:
    paths = ["a.json", "b/c.json"]
    assert split.plan(paths, {p: 10_000 for p in paths}, Config.default(), 4) == [paths]
    assert split.plan(paths, {p: 10**8 for p in paths}, Config.default(), 1) == [paths]


def test_pack_unpack_gives_equal_parts(tmp_path: Path) -> None:
    _tree(tmp_path)
    source = WorktreeSource(tmp_path)
    config = find_config(source)
    paths = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.json"))
    part = split.run_part(source, config, paths, False, frozenset({"mixed"}), ("estimate",))
    back = split.unpack(split.pack(part))
    assert back == part and back.findings and back.tools and back.deferred
