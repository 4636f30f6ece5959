"""The GitHub Actions runner's file and stdout protocols: outputs, the job summary, workflow commands.

Annotations for findings are rendered by `render.annotations` (10 per level, most severe first).

https://docs.github.com/actions/reference/workflow-commands-for-github-actions
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TextIO

# A job summary holds up to 1 MiB per step; stay under it with room for the truncation note.
SUMMARY_LIMIT = 1024 * 1024 - 1024
TRUNCATED_NOTE = "\n\n_(tooldiff: the summary was cut to fit the 1 MiB job-summary limit.)_\n"


def write_outputs(path: Path | None, outputs: Mapping[str, str]) -> None:
    """Append `name<<DELIM` blocks; a random delimiter so that no value can end its block early."""
    if path is None:
        return
    with path.open("a", encoding="utf-8") as fh:
        for name, value in outputs.items():
            delimiter = "ghadelimiter_" + secrets.token_hex(16)
            while delimiter in value:  # astronomically unlikely; still never write an ambiguous block
                delimiter = "ghadelimiter_" + secrets.token_hex(16)
            fh.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def truncate_utf8(text: str, limit: int) -> str:
    """At most `limit` bytes of UTF-8, cut on a character boundary."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def append_summary(path: Path | None, markdown: str) -> None:
    """Append to the job summary, keeping the step's total under 1 MiB."""
    if path is None:
        return
    used = path.stat().st_size if path.exists() else 0
    room = SUMMARY_LIMIT - used
    if room <= len(TRUNCATED_NOTE):
        return
    if len(markdown.encode("utf-8")) > room:
        markdown = truncate_utf8(markdown, room - len(TRUNCATED_NOTE.encode("utf-8"))) + TRUNCATED_NOTE
    with path.open("a", encoding="utf-8") as fh:
        fh.write(markdown)


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def plain_line(text: str) -> str:
    """A log line that is no command: the runner also reads the old `##[command]` form anywhere in a line
    that is not a `::` command, so a file name or config key of a PR could issue one (`##[stop-commands]`).
    A word joiner breaks the `##[` (and a leading `::`); the line reads the same. New lines are folded for
    the same reason."""
    text = text.replace("\r", " ").replace("\n", " ").replace("##[", "##\u2060[")
    if text.lstrip().startswith("::"):  # a line that starts as a `::` command is read as one
        at = text.index("::")
        text = text[:at] + ":\u2060:" + text[at + 2:]
    return text


def plain_lines(text: str) -> str:
    """`plain_line` for each line: a text report the CLI prints may be read by the runner too (a step or a
    pre-commit hook that runs `tooldiff check`), and its file and tool names are a PR's text."""
    return "\n".join(plain_line(line) for line in text.split("\n"))


def command(name: str, message: str, **properties: str | int | None) -> str:
    """One workflow command line, with data and properties escaped as the runner expects."""
    props = ",".join(f"{k}={_escape_property(str(v))}" for k, v in properties.items() if v not in (None, ""))
    return f"::{name}{' ' + props if props else ''}::{_escape_data(message)}"


def add_mask(value: str, out: TextIO | None = None) -> None:
    """Ask the runner to mask a secret in every later log line. The runner consumes this line."""
    if value:
        print(command("add-mask", value), file=out or sys.stdout, flush=True)


def emit(lines: Iterable[str], out: TextIO | None = None) -> None:
    stream = out or sys.stdout
    for line in lines:
        print(line, file=stream)
    stream.flush()
