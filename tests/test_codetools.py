"""`sources` commands (code-defined tools) run by `codetools.run_commands`, with small self-contained
scripts."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tooldiff import codetools
from tooldiff.config import CommandSource


def run_script(tmp_path: Path, script: str, **kwargs: int) -> codetools.CommandTools:
    (tmp_path / "dump.py").write_text(script, encoding="utf-8")
    return codetools.run_commands([CommandSource(f"{sys.executable} dump.py", "agent")], tmp_path, **kwargs)


def test_a_command_that_prints_without_end_is_stopped_at_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Output was read whole into memory until the timeout: `yes`-like output took gigabytes in seconds."""
    monkeypatch.setattr(codetools, "TIMEOUT_S", 20)
    # 25 MB, over the default limit of 20 MB (`max_file_bytes`), then a hang: the limit must end it.
    script = ("import sys, time\nfor _ in range(400):\n    sys.stdout.write('y' * 65536)\n"
              "sys.stdout.flush()\ntime.sleep(60)\n")
    start = time.monotonic()
    out = run_script(tmp_path, script)
    assert time.monotonic() - start < 15
    [err] = out.errors
    assert "more than 20,000,000 bytes" in err.message and out.toolsets == []
