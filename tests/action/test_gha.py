"""Runner protocols: the output file, the job summary limit, workflow commands."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tooldiff import gha


def parse_outputs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    lines = iter(text.split("\n"))
    for line in lines:
        if not line:
            continue
        name, delim = line.split("<<", 1)
        body = []
        for inner in lines:
            if inner == delim:
                break
            body.append(inner)
        out[name] = "\n".join(body)
    return out


def test_outputs_use_a_random_delimiter_and_survive_hostile_values(tmp_path: Path) -> None:
    path = tmp_path / "out"
    hostile = "line one\nEOF\nghadelimiter_\nnew-errors<<EOF\n99"
    gha.write_outputs(path, {"changed-tools": hostile, "new-errors": "2"})
    gha.write_outputs(path, {"sarif": ""})
    text = path.read_text()
    delims = re.findall(r"<<(ghadelimiter_[0-9a-f]{32})\n", text)
    assert len(set(delims)) == 3
    assert parse_outputs(text) == {"changed-tools": hostile, "new-errors": "2", "sarif": ""}


def test_summary_is_appended_and_kept_under_one_mebibyte(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    gha.append_summary(path, "# first\n")
    gha.append_summary(path, "é" * 2_000_000)
    data = path.read_bytes()
    assert data.startswith(b"# first\n") and len(data) < 1024 * 1024
    assert data.decode("utf-8").endswith(gha.TRUNCATED_NOTE)
    gha.append_summary(path, "more")  # full: nothing more is written, the file stays valid
    assert len(path.read_bytes()) < 1024 * 1024


def test_summary_without_a_path_is_a_no_op() -> None:
    gha.append_summary(None, "x")
    gha.write_outputs(None, {"a": "b"})


def test_commands_escape_data_and_properties() -> None:
    line = gha.command("warning", "50% done\r\n::error::injected", file="a,b:c.json", line=3, title=None)
    assert line == "::warning file=a%2Cb%3Ac.json,line=3::50%25 done%0D%0A::error::injected"
    assert "\n" not in line


def test_add_mask() -> None:
    out = io.StringIO()
    gha.add_mask("s3cr3t", out)
    gha.add_mask("", out)
    assert out.getvalue() == "::add-mask::s3cr3t\n"


def test_a_plain_log_line_cannot_issue_an_old_style_workflow_command() -> None:
    """The runner also reads `##[command]data` anywhere in a line that is no `::` command: a PR's file name
    or config key in a log line could stop command processing (`##[stop-commands]`) or forge an error."""
    from tooldiff import gha

    line = gha.plain_line("refused a comment on ##[stop-commands]tok.json\n##[error file=x]Approved")
    assert "##[" not in line and "\n" not in line
    shown = "refused a comment on ##[stop-commands]tok.json ##[error file=x]Approved"
    assert line.replace("\u2060", "") == shown


def test_an_internal_error_s_traceback_issues_no_workflow_command(capsys: pytest.CaptureFixture[str]) -> None:
    """An exception's message may quote a PR's text (a file name, a key): printed raw, its traceback could
    carry `::stop-commands::` or `##[error]` to the runner."""
    from tooldiff import action

    try:
        raise ValueError("tools/x.json\n::stop-commands::tok\n##[error file=a]Approved")
    except ValueError as exc:
        action.plain_traceback(type(exc), exc, exc.__traceback__)
    err = capsys.readouterr().err
    assert "ValueError" in err and "##[" not in err
    assert not any(line.startswith("::") for line in err.splitlines())
