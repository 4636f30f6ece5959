"""Big runs on several cores: forked workers that share this process's state instead of receiving it.

`pool_map` serves a check: workers fork before anything is parsed and take pieces of the tree from a
shared queue (`tooldiff.split`). `fork_map` serves an analysis whose tools are already parsed (a diff
that re-checks everything): each worker gets one group and inherits the tools. Only results travel back,
through a pipe. Forking is used only on Linux, where it is safe and cheap; elsewhere, with one CPU, or
with `TOOLDIFF_JOBS=1`, everything runs in this process. A worker that fails for any reason is redone
here, so the output never depends on how the work was split.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_JOBS = 4  # more workers add memory (each copies the pages it touches) faster than they save time


_IN_WORKER = False  # a worker never forks again: the CPUs are taken


def jobs_available() -> int:
    """Workers to use: `TOOLDIFF_JOBS` if set (1 turns forking off), else the CPUs this process may use."""
    if _IN_WORKER:
        return 1
    raw = os.environ.get("TOOLDIFF_JOBS", "").strip()
    if raw:
        try:
            return max(1, int(raw))
        except ValueError:
            return 1
    if sys.platform != "linux":
        return 1
    return max(1, min(MAX_JOBS, len(os.sched_getaffinity(0))))


def fork_map(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`[fn(x) for x in items]`, with items[1:] each in a forked child on Linux. Results come in order."""
    if len(items) < 2 or sys.platform != "linux":
        return [fn(x) for x in items]
    children: list[tuple[int, int] | None] = []
    for item in items[1:]:
        children.append(_spawn(fn, item))
    results: list[R] = []
    try:
        results.append(fn(items[0]))
        for k, item in enumerate(items[1:]):
            child, children[k] = children[k], None
            got: tuple[R] | None = _collect(child) if child is not None else None
            results.append(fn(item) if got is None else got[0])
    finally:
        for child in children:
            if child is not None:
                _reap(child)
    return results


def pool_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    pack: Callable[[R], Any] | None = None,
    unpack: Callable[[Any], R] | None = None,
) -> list[R]:
    """`[fn(x) for x in items]` on `jobs` processes, this one included, each taking the next item from a
    shared queue when it is done with the last: items of uneven cost still end together. Results in order.
    The items a failed worker had taken are redone here.

    A worker applies `pack` to each result as soon as it has it, and this process `unpack` to what comes
    back: a cheaper form to send than the objects, made while this process is still busy, not after."""
    jobs = min(jobs, len(items))
    if jobs < 2 or sys.platform != "linux" or len(items) > QUEUE_MAX:
        return fork_map(fn, items) if jobs >= 2 else [fn(x) for x in items]
    queue_read, queue_write = os.pipe()
    # The whole queue is written before anyone reads, in one write that fits the pipe's buffer, so each
    # 4-byte read takes exactly one index.
    os.write(queue_write, struct.pack(f"<{len(items)}I", *range(len(items))))
    os.close(queue_write)

    def take(encode: Callable[[R], Any]) -> dict[int, Any]:
        done: dict[int, Any] = {}
        while len(raw := os.read(queue_read, 4)) == 4:
            index = struct.unpack("<I", raw)[0]
            done[index] = encode(fn(items[index]))
        return done

    children: list[tuple[int, int] | None] = [
        _spawn(lambda _: take(pack or _same), None) for _ in range(jobs - 1)
    ]
    try:
        results: dict[int, R] = take(_same)
        for k, child in enumerate(children):
            children[k] = None
            got: tuple[dict[int, Any]] | None = _collect(child) if child is not None else None
            if got is not None:
                decode = unpack or _same
                results.update((index, decode(value)) for index, value in got[0].items())
        for index in range(len(items)):
            if index not in results:
                results[index] = fn(items[index])
    finally:
        os.close(queue_read)
        for child in children:
            if child is not None:
                _reap(child)
    return [results[i] for i in range(len(items))]


def _same(value: Any) -> Any:
    return value


QUEUE_MAX = 8192  # indices the queue pipe holds before a write would block (its buffer is 64 KiB)


def _spawn(fn: Callable[[T], R], item: T) -> tuple[int, int] | None:
    read_fd, write_fd = os.pipe()
    try:
        with warnings.catch_warnings():
            # 3.12+ warns when other threads exist (the progress ticker); the child runs only `fn` and never
            # takes a lock those threads use.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:  # the child: compute, send, and leave without running the parent's exit handlers
        global _IN_WORKER
        _IN_WORKER = True
        code = 1
        try:
            os.close(read_fd)
            data = pickle.dumps(fn(item), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as out:
                out.write(data)
            code = 0
        except BaseException:  # the parent redoes this item
            pass
        finally:
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd


def _collect(child: tuple[int, int]) -> tuple[R] | None:
    """The child's result, or None when it failed (the caller then computes it here)."""
    read_fd = child[1]
    with os.fdopen(read_fd, "rb", closefd=False) as src:
        data = src.read()
    status = _reap(child, kill=False)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0 or not data:
        return None
    try:
        return (pickle.loads(data),)
    except Exception:  # a truncated or foreign stream: redo it here
        return None


def _reap(child: tuple[int, int], *, kill: bool = True) -> int:
    """Close the pipe and wait for the child (with `kill`, ending it first if it still runs); its status."""
    pid, read_fd = child
    with contextlib.suppress(OSError):  # already closed
        os.close(read_fd)
    try:
        if kill:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            os.kill(pid, signal.SIGKILL)
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return -1  # reaped before
