"""Big runs on several cores: forked workers that share this process's state instead of receiving it.

`pool_map` serves a check: workers fork before anything is parsed and take pieces of the tree from a
shared queue (`tooldiff.split`). `fork_map` serves an analysis whose tools are already parsed (a diff
that re-checks everything): each worker gets one group and inherits the tools. Only results travel back:
through a pipe, or for `pool_map` one by one through an in-memory file, read while this process works.
Forking is used only on Linux, where it is safe and cheap; elsewhere, with one CPU, or with
`TOOLDIFF_JOBS=1`, everything runs in this process. A worker that fails for any reason is redone here,
so the output never depends on how the work was split.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import tempfile
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

    A worker sends `pack(result)` as soon as it has it (see `_Stream`), and this process `unpack`s what has
    come in between its own items: by the time the queue is empty, most of the results are in, and what is
    left to do after the last worker ends is its last item."""
    jobs = min(jobs, len(items))
    if jobs < 2 or sys.platform != "linux" or len(items) > QUEUE_MAX:
        return fork_map(fn, items) if jobs >= 2 else [fn(x) for x in items]
    queue_read, queue_write = os.pipe()
    # The whole queue is written before anyone reads, in one write that fits the pipe's buffer, so each
    # 4-byte read takes exactly one index.
    os.write(queue_write, struct.pack(f"<{len(items)}I", *range(len(items))))
    os.close(queue_write)

    def take() -> int | None:
        raw = os.read(queue_read, 4)
        return struct.unpack("<I", raw)[0] if len(raw) == 4 else None

    def serve(stream: _Stream) -> None:
        encode = pack or _same
        while (index := take()) is not None:
            stream.send(index, encode(fn(items[index])))

    streams = [s for s in (_Stream.start(serve) for _ in range(jobs - 1)) if s is not None]
    decode = unpack or _same
    results: dict[int, R] = {}
    try:
        while (index := take()) is not None:
            results[index] = fn(items[index])
            for stream in streams:
                stream.receive(results, decode, wait=False)
        for stream in streams:
            stream.receive(results, decode, wait=True)
        for index in range(len(items)):
            if index not in results:
                results[index] = fn(items[index])
    finally:
        os.close(queue_read)
        for stream in streams:
            stream.close()
    return [results[i] for i in range(len(items))]


class _Stream:
    """One pool worker and what it sends: each result is appended, framed, to an in-memory file (a write
    there never waits for this process to read), then one byte on a pipe says a frame is complete. This
    process reads only frames whose byte it has seen, and the pipe's end of file says the worker is gone."""

    def __init__(self, pid: int, data_fd: int, bell_fd: int) -> None:
        self.pid, self.data_fd, self.bell_fd = pid, data_fd, bell_fd
        self.offset = 0
        self.open = True  # still to be read from
        self.ended = False  # its bell pipe reached end of file: the worker has exited

    @classmethod
    def start(cls, serve: Callable[[_Stream], None]) -> _Stream | None:
        try:
            data_fd = _memory_file()
        except OSError:
            return None
        bell_read, bell_write = os.pipe()

        def child() -> None:  # a failed item is redone by the parent, which also takes the rest of the queue
            os.close(bell_read)
            serve(cls(0, data_fd, bell_write))

        try:
            pid = _fork(child)
        except OSError:
            for fd in (data_fd, bell_read, bell_write):
                os.close(fd)
            return None
        os.close(bell_write)
        os.set_blocking(bell_read, False)
        return cls(pid, data_fd, bell_read)

    def send(self, index: int, value: Any) -> None:
        data = pickle.dumps((index, value), protocol=pickle.HIGHEST_PROTOCOL)
        _write_all(self.data_fd, struct.pack("<Q", len(data)) + data)
        os.write(self.bell_fd, b"\x01")

    def receive(self, results: dict[int, Any], decode: Callable[[Any], Any], *, wait: bool) -> None:
        """Unpack every complete frame into `results`; with `wait`, until the worker has ended."""
        while self.open:
            if wait:
                select.select([self.bell_fd], [], [])
            try:
                rung = os.read(self.bell_fd, 4096)
            except BlockingIOError:
                return
            if not rung:  # the worker is gone; every frame it finished has rung
                self.open, self.ended = False, True
                return
            for _ in range(len(rung)):
                size = struct.unpack("<Q", os.pread(self.data_fd, 8, self.offset))[0]
                data = os.pread(self.data_fd, size, self.offset + 8)
                self.offset += 8 + size
                if len(data) != size:  # cannot happen with a memory file; the item is redone if it does
                    self.open = False
                    return
                index, value = pickle.loads(data)
                results[index] = decode(value)

    def close(self) -> None:
        for fd in (self.data_fd, self.bell_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        _wait(self.pid, kill=not self.ended)  # not ended: this process failed, or a frame was short


def _memory_file() -> int:
    try:
        return os.memfd_create("tooldiff-results", os.MFD_CLOEXEC)
    except (AttributeError, OSError):  # no memfd: an unnamed temporary file
        return os.dup(tempfile.TemporaryFile().fileno())


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _fork(child: Callable[[], None]) -> int:
    """Fork; the child runs `child` and leaves (status 0, or 1 if it raised) without returning here or
    running the parent's exit handlers. The parent gets the child's pid; OSError if there is no child."""
    with warnings.catch_warnings():
        # 3.12+ warns when other threads exist (the progress ticker); the child runs only its own work and
        # never takes a lock those threads use.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid != 0:
        return pid
    global _IN_WORKER
    _IN_WORKER = True
    code = 1
    try:
        child()
        code = 0
    except BaseException:  # the parent sees the status and redoes the work
        pass
    finally:
        os._exit(code)


def _same(value: Any) -> Any:
    return value


QUEUE_MAX = 8192  # indices the queue pipe holds before a write would block (its buffer is 64 KiB)


def _spawn(fn: Callable[[T], R], item: T) -> tuple[int, int] | None:
    read_fd, write_fd = os.pipe()

    def child() -> None:  # compute and send; on failure the parent redoes this item
        os.close(read_fd)
        data = pickle.dumps(fn(item), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_fd, "wb") as out:
            out.write(data)

    try:
        pid = _fork(child)
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
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
    return _wait(pid, kill=kill)


def _wait(pid: int, *, kill: bool = True) -> int:
    try:
        if kill:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            os.kill(pid, signal.SIGKILL)
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return -1  # reaped before
