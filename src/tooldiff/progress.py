"""Colour and a progress line, for a person at a terminal only.

Both stay off when the stream is not a terminal (piped, redirected, captured by a runner), when `CI` is set,
and when `TERM=dumb`; `NO_COLOR` (https://no-color.org) turns colour off as well. The progress line goes to
stderr, so stdout stays exactly the report; it appears only once a run has taken `delay` seconds, so quick
checks print nothing extra, and it is erased before the report is written.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from types import TracebackType
from typing import TextIO

# Seconds before the line first appears; runs quicker than this print nothing extra.
DELAY = 0.5


def interactive(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """A person is watching `stream`: a terminal, outside CI, not a dumb terminal."""
    env = os.environ if env is None else env
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False
    return tty and not env.get("CI") and env.get("TERM") != "dumb"


def colour_wanted(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return interactive(stream, env) and not env.get("NO_COLOR")


class Progress:
    """A status line redrawn in place by a background ticker: `tooldiff: <phase>... 3.2s`.

    `update(phase)` is cheap and thread-safe; callers report phases, the ticker shows the elapsed time.
    """

    def __init__(self, stream: TextIO, enabled: bool, *, delay: float | None = None,
                 interval: float = 0.1) -> None:
        self.stream = stream
        self.enabled = enabled
        self.delay = DELAY if delay is None else delay
        self.interval = interval
        self._phase = "starting"
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._drawn = False

    def update(self, phase: str) -> None:
        with self._lock:
            self._phase = phase
            if self._thread is not None and time.monotonic() - self._start >= self.delay:
                self._draw()  # a new phase shows at once, not at the next tick

    def __enter__(self) -> Progress:
        if self.enabled:
            self._start = time.monotonic()
            self._thread = threading.Thread(target=self._tick, name="tooldiff-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        self._thread = None
        with self._lock:
            if self._drawn:
                self.stream.write("\r\x1b[2K")  # erase the line: the report starts on a clean one
                self.stream.flush()
                self._drawn = False

    def _tick(self) -> None:
        if self._stop.wait(self.delay):
            return
        while True:
            with self._lock:
                self._draw()
            if self._stop.wait(self.interval):
                return

    def _draw(self) -> None:
        # Called with the lock held. Truncated so the line never wraps, which would break the redraw.
        line = f"tooldiff: {self._phase}... {time.monotonic() - self._start:.1f}s"[:79]
        self.stream.write(f"\r\x1b[2K{line}")
        self.stream.flush()
        self._drawn = True
