"""`sources` commands (code-defined tools) run by `codetools.run_commands`, with small self-contained
scripts."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tooldiff import codetools
from tooldiff.config import CommandSource


def run_script(tmp_path: Path, script: str, timeout: int = 300, **kwargs: int) -> codetools.CommandTools:
    (tmp_path / "dump.py").write_text(script, encoding="utf-8")
    source = CommandSource(f"{sys.executable} dump.py", "agent", timeout)
    return codetools.run_commands([source], tmp_path, **kwargs)


def test_a_command_that_prints_without_end_is_stopped_at_the_size_limit(
    tmp_path: Path,
) -> None:
    """Output was read whole into memory until the timeout: `yes`-like output took gigabytes in seconds."""
    # 25 MB, over the default limit of 20 MB (`max_file_bytes`), then a hang: the limit must end it.
    script = ("import sys, time\nfor _ in range(400):\n    sys.stdout.write('y' * 65536)\n"
              "sys.stdout.flush()\ntime.sleep(60)\n")
    start = time.monotonic()
    out = run_script(tmp_path, script, timeout=20)
    assert time.monotonic() - start < 15
    [err] = out.failed
    assert "more than 20,000,000 bytes" in err.message and out.toolsets == []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent has not reaped it yet


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_command_stopped_at_the_timeout_takes_its_child_processes_with_it(
    tmp_path: Path,
) -> None:
    """A dump that starts a server (a stdio MCP server, a helper) and hangs: stopping the command alone left
    the helper running after tooldiff exited, in a worktree that no longer exists."""
    script = ("import subprocess, sys, time\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
              "open('child.pid', 'w').write(str(child.pid))\n"
              "time.sleep(60)\n")
    out = run_script(tmp_path, script, timeout=2)
    [err] = out.failed
    assert "timed out after 2 seconds" in err.message and "`timeout`" in err.fix
    pid = int((tmp_path / "child.pid").read_text())
    for _ in range(40):
        if not _alive(pid):
            break
        time.sleep(0.05)
    assert not _alive(pid)


@pytest.mark.parametrize("printed", ["", "Tools written to tools.json\n", '{"server": "tickets"}'])
def test_a_command_that_prints_no_tools_is_an_error_not_an_empty_toolset(
    tmp_path: Path, printed: str
) -> None:
    """A dump refactored to write a file instead of stdout, or one that prints a shape tooldiff does not
    read, exits 0: its toolset was silently empty, so every tool showed as removed and the run passed."""
    out = run_script(tmp_path, f"print({printed!r}, end='')\n")
    [err] = out.failed
    assert "printed no tool definitions" in err.message and out.toolsets == []
    assert "stdout" in (err.fix or "")


@pytest.mark.parametrize("printed", ["[]", '{"tools": []}'])
def test_a_command_that_prints_an_empty_list_has_no_tools(tmp_path: Path, printed: str) -> None:
    out = run_script(tmp_path, f"print({printed!r})\n")
    assert out.errors == out.failed == [] and [ts.tools for ts in out.toolsets] == [()]


@pytest.mark.parametrize(("command", "why"),
                         [("python -c 'print(1)", "No closing quotation"), ("  ", "empty")])
def test_a_command_that_cannot_be_split_into_words_is_a_finding_not_a_crash(
    tmp_path: Path, command: str, why: str
) -> None:
    out = codetools.run_commands([CommandSource(command, "agent")], tmp_path)
    [err] = out.failed
    assert why in err.message and out.toolsets == []


def test_output_that_does_not_parse_says_to_fix_the_command_not_a_file(tmp_path: Path) -> None:
    """A log line printed before the JSON: the finding's fix said "Fix the file so that it parses", a file
    the user does not have."""
    tools = ('{"tools": [{"name": "get_ticket", "description": "Fetch a ticket.", '
             '"inputSchema": {"type": "object"}}]}')
    out = run_script(tmp_path, f"print('Loading server: tickets')\nprint({tools!r})\n")
    [err] = out.failed
    assert "stdout" in (err.fix or "") and "stderr" in (err.fix or "")


def test_a_source_sets_its_own_timeout(tmp_path: Path) -> None:
    """A dump that imports a big agent may need more than the default 5 minutes, a quick one far less."""
    (tmp_path / "dump.py").write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    start = time.monotonic()
    out = codetools.run_commands([CommandSource(f"{sys.executable} dump.py", "agent", timeout=1)], tmp_path)
    assert time.monotonic() - start < 10
    [err] = out.failed
    assert "timed out after 1 second;" in err.message
