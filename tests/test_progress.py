"""Colour and the progress line: on a terminal only, never when piped or in CI."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tooldiff import cli, progress

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "helpdesk" / "head" / "tools.json"
ESC = "\x1b["


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def pty_stream() -> Iterator[io.TextIOWrapper]:
    master, slave = os.openpty()
    stream = open(slave, "w", encoding="utf-8", closefd=True)  # noqa: SIM115 - closed below
    try:
        yield stream
    finally:
        stream.close()
        os.close(master)


def test_a_terminal_outside_ci_is_interactive(pty_stream: io.TextIOWrapper) -> None:
    assert progress.interactive(pty_stream, {"TERM": "xterm"})
    assert progress.colour_wanted(pty_stream, {"TERM": "xterm"})


@pytest.mark.parametrize("env", [{"CI": "true"}, {"CI": "1", "TERM": "xterm"}, {"TERM": "dumb"}])
def test_ci_or_dumb_terminal_turns_both_off(pty_stream: io.TextIOWrapper, env: dict[str, str]) -> None:
    assert not progress.interactive(pty_stream, env)
    assert not progress.colour_wanted(pty_stream, env)


def test_no_color_turns_colour_off_but_not_progress(pty_stream: io.TextIOWrapper) -> None:
    assert progress.interactive(pty_stream, {"NO_COLOR": "1"})
    assert not progress.colour_wanted(pty_stream, {"NO_COLOR": "1"})


def test_a_pipe_or_a_closed_stream_is_not_interactive() -> None:
    assert not progress.interactive(io.StringIO(), {})
    closed = io.StringIO()
    closed.close()
    assert not progress.interactive(closed, {})


def test_progress_draws_phases_then_erases_itself() -> None:
    out = FakeTTY()
    with progress.Progress(out, True, delay=0, interval=0.01) as p:
        p.update("reading tool files")
        time.sleep(0.05)
        p.update("analysing 3 tools in 1 toolset")
    text = out.getvalue()
    assert "tooldiff: reading tool files..." in text and "tooldiff: analysing 3 tools in 1 toolset..." in text
    assert text.endswith("\r\x1b[2K") and "\n" not in text
    assert all(len(line) <= 79 for line in text.split("\r\x1b[2K"))


def test_quick_runs_print_nothing() -> None:
    out = FakeTTY()
    with progress.Progress(out, True, delay=5) as p:
        p.update("reading tool files")
    assert out.getvalue() == ""


def test_disabled_progress_prints_nothing() -> None:
    out = FakeTTY()
    with progress.Progress(out, False, delay=0, interval=0.001) as p:
        p.update("reading tool files")
        time.sleep(0.02)
    assert out.getvalue() == ""


def _check(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stderr: io.StringIO,
           ci: bool) -> str:
    monkeypatch.setattr(progress, "DELAY", 0)
    monkeypatch.setattr(sys, "stderr", stderr)
    if ci:
        monkeypatch.setenv("CI", "true")
    else:
        monkeypatch.delenv("CI", raising=False)
    assert cli.main(["check", str(EXAMPLE)]) == 0
    return capsys.readouterr().out


def test_check_shows_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    err = FakeTTY()
    out = _check(monkeypatch, capsys, err, ci=False)
    assert "tooldiff: analysing 6 tools in 1 toolset..." in err.getvalue()
    assert err.getvalue().endswith("\r\x1b[2K")
    assert ESC not in out and "\r" not in out  # stdout is captured, not a terminal: the plain report


@pytest.mark.parametrize("stderr, ci", [(FakeTTY(), True), (io.StringIO(), False)], ids=["ci", "piped"])
def test_check_is_quiet_when_piped_or_in_ci(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            stderr: io.StringIO, ci: bool) -> None:
    out = _check(monkeypatch, capsys, stderr, ci)
    assert stderr.getvalue() == ""
    assert ESC not in out and "intent-overlap" in out


def _run_on_pty(env: dict[str, str]) -> str:
    """`tooldiff check` with stdout on a real terminal; what the terminal received."""
    master, slave = os.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "tooldiff", "check", str(EXAMPLE)], stdout=slave,
                              stderr=subprocess.DEVNULL, env=env, timeout=60, check=False)
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the terminal is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
    assert proc.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_on_a_real_terminal_and_not_in_ci() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR")} | {"TERM": "xterm"}
    assert ESC in _run_on_pty(env)
    plain = _run_on_pty(env | {"CI": "true"})
    assert ESC not in plain and "intent-overlap" in plain
    assert ESC not in _run_on_pty(env | {"NO_COLOR": "1"})
