"""Forked workers: same results as one process, in order, whatever happens to a worker."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tooldiff import engine, workers
from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.model import Toolset
from tooldiff.render import render
from tooldiff.sources import WorktreeSource

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="workers fork only on Linux")
PARENT = os.getpid()


def _square(x: int) -> tuple[int, bool]:
    return x * x, os.getpid() != PARENT


@linux_only
def test_fork_map_keeps_order_and_really_forks() -> None:
    got = workers.fork_map(_square, [1, 2, 3, 4])
    assert [v for v, _ in got] == [1, 4, 9, 16]
    assert [child for _, child in got] == [False, True, True, True]


def _fails_in_child(x: int) -> int:
    if os.getpid() != PARENT:
        raise RuntimeError("worker failure")
    return -x


def _dies_in_child(x: int) -> int:
    if os.getpid() != PARENT:
        os._exit(3)
    return -x


def _unpicklable_in_child(x: int) -> object:
    if os.getpid() != PARENT:
        return lambda: x  # pickling fails in the child
    return -x


@linux_only
@pytest.mark.parametrize("fn", [_fails_in_child, _dies_in_child, _unpicklable_in_child])
def test_a_failed_worker_is_redone_here(fn: object) -> None:
    assert workers.fork_map(fn, [1, 2, 3]) == [-1, -2, -3]  # type: ignore[arg-type]


def test_exceptions_of_this_process_still_propagate() -> None:
    def boom(x: int) -> int:
        if x == 0 and os.getpid() == PARENT:
            raise ValueError("here")
        return x

    with pytest.raises(ValueError, match="here"):
        workers.fork_map(boom, [0, 1])


def _slow_square(x: int) -> tuple[int, bool]:
    time.sleep(0.005)  # long enough that every process gets some of the queue
    return _square(x)


@linux_only
def test_pool_map_keeps_order_shares_the_queue_and_redoes_a_dead_worker() -> None:
    got = workers.pool_map(_slow_square, list(range(40)), 3)
    assert [v for v, _ in got] == [x * x for x in range(40)]
    assert any(child for _, child in got) and not all(child for _, child in got)
    assert workers.pool_map(_dies_in_child, list(range(10)), 2) == [-x for x in range(10)]
    assert workers.pool_map(_square, [3], 4) == [(9, False)]


_CALLS: list[int] = []


def _slow_square_dies_on_third(x: int) -> tuple[int, bool]:
    if os.getpid() != PARENT:
        _CALLS.append(x)
        if len(_CALLS) == 3:
            os._exit(3)  # after sending its first two results
    return _slow_square(x)


@linux_only
def test_pool_map_keeps_what_a_worker_sent_before_it_died_and_redoes_the_rest() -> None:
    got = workers.pool_map(_slow_square_dies_on_third, list(range(30)), 2)
    assert [v for v, _ in got] == [x * x for x in range(30)]
    assert sum(child for _, child in got) == 2


@pytest.mark.parametrize(("raw", "want"), [("1", 1), ("3", 3), ("0", 1), ("x", 1)])
def test_jobs_from_the_environment(monkeypatch: pytest.MonkeyPatch, raw: str, want: int) -> None:
    monkeypatch.setenv("TOOLDIFF_JOBS", raw)
    assert workers.jobs_available() == want


def test_split_work_balances_and_keeps_every_toolset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_toolsets(tmp_path, sizes=[50, 40, 30, 20, 10, 5])
    found = _discover(tmp_path)
    work = [engine.Work(ts, 0, len(ts.tools), True) for ts in found]
    assert engine.split_work(work, None, 1) == [work]  # one job: one group
    assert engine.split_work(work, None, 2) == [work]  # too little work to fork for
    monkeypatch.setattr(engine, "PARALLEL_MIN_TOOLS", 1)
    groups = engine.split_work(work, None, 2)
    assert sorted(w.toolset.id for g in groups for w in g) == sorted(ts.id for ts in found)
    loads = [sum(w.hi - w.lo for w in g) for g in groups]
    assert len(groups) == 2 and abs(loads[0] - loads[1]) <= 10


def test_one_big_toolset_is_dealt_out_in_slices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_toolsets(tmp_path, sizes=[45])
    (ts,) = _discover(tmp_path)
    monkeypatch.setattr(engine, "PARALLEL_MIN_TOOLS", 1)
    monkeypatch.setattr(engine, "SLICE_TOOLS", 10)
    groups = engine.split_work([engine.Work(ts, 0, 45, True)], None, 2)
    pieces = [w for g in groups for w in g]
    assert [w for w in pieces if w.whole] == [engine.Work(ts, 0, 0, True)]  # toolset and pair rules once
    covered = sorted(i for w in pieces for i in range(w.lo, w.hi))
    assert covered == list(range(45))  # every tool's rules exactly once


@linux_only
def test_a_big_toolset_split_across_workers_gives_the_serial_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_toolsets(tmp_path, sizes=[60])
    serial, sliced = _serial_and_sliced(tmp_path, monkeypatch)
    assert sliced == serial


def _serial_and_sliced(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The JSON report of `root` in this process, then with each toolset cut into slices of 7 tools for
    three processes."""
    monkeypatch.setenv("TOOLDIFF_JOBS", "1")
    serial = render("json", run_check(WorktreeSource(root), Config.default()))
    monkeypatch.setattr(engine, "PARALLEL_MIN_TOOLS", 1)
    monkeypatch.setattr(engine, "SLICE_TOOLS", 7)
    monkeypatch.setenv("TOOLDIFF_JOBS", "3")
    return serial, render("json", run_check(WorktreeSource(root), Config.default()))


@linux_only
def test_a_parallel_check_is_byte_identical_to_a_serial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_toolsets(tmp_path, sizes=[30, 25, 20, 15, 12, 8, 3])
    monkeypatch.setattr(engine, "PARALLEL_MIN_TOOLS", 1)
    monkeypatch.setenv("TOOLDIFF_JOBS", "1")
    serial = render("json", run_check(WorktreeSource(tmp_path), Config.default()))
    monkeypatch.setenv("TOOLDIFF_JOBS", "3")
    forks: list[int] = []
    real_spawn = workers._spawn
    monkeypatch.setattr(workers, "_spawn", lambda fn, item: forks.append(1) or real_spawn(fn, item))
    parallel = render("json", run_check(WorktreeSource(tmp_path), Config.default()))
    assert len(forks) == 2  # three groups: two workers and this process
    assert parallel == serial
    assert json.loads(parallel)["findings"]


def _write_toolsets(root: Path, sizes: list[int]) -> None:
    verbs = ["get", "list", "search", "delete", "create", "update", "send", "find"]
    nouns = ["document", "ticket", "user", "message", "file", "invoice", "event", "page"]
    for k, n in enumerate(sizes):
        tools = []
        for i in range(n):
            verb, noun = verbs[i % len(verbs)], nouns[(i // len(verbs) + k) % len(nouns)]
            tools.append({
                "name": f"{verb}_{noun}_{i}" if i % 5 else f"{verb}_{noun}",
                "description": f"{verb.title()} a {noun} by its id." if i % 3 else "",
                "input_schema": {
                    "type": "object",
                    "properties": {f"{noun}_id": {"type": "string"}, "force": {"type": "boolean"}},
                    "required": [f"{noun}_id"] if i % 2 else [],
                },
            })
        (root / f"set_{k}.json").write_text(json.dumps(tools, indent=2), encoding="utf-8")


def _discover(root: Path) -> list[Toolset]:
    from tooldiff.discover import discover

    return discover(WorktreeSource(root), Config.default()).toolsets


@linux_only
def test_same_named_tools_on_one_line_keep_the_serial_order_across_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A minified file of same-named tools: their findings tie on file, line, code, pointer and fingerprint,
    # and differ (the suggested names), so the order the slices come back in must not show.
    tools = [{"name": f"get.item{i % 4}", "description": "Get an item." + " More." * i,
              "input_schema": {"type": "object", "properties": {}}} for i in range(40)]
    (tmp_path / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    serial, sliced = _serial_and_sliced(tmp_path, monkeypatch)
    assert sliced == serial
