"""`tooldiff init`: write the workflow and a commented `.tooldiff.yml`, never clobbering a user's edits."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from tooldiff.sources import NOT_REGULAR

FILES = {
    ".github/workflows/tooldiff.yml": "workflow.yml",
    ".tooldiff.yml": "default-config.yml",
}


def _template(name: str) -> str:
    return resources.files("tooldiff").joinpath("data", name).read_text(encoding="utf-8")


def run_init(root: Path, *, force: bool = False) -> int:
    """0 when every file is in place; 1 when a file differs and `force` was not given; 2 when a file
    cannot be read or written (a folder in its place, no permission): 1 would say a file was left as is."""
    status = 0
    for rel, template in FILES.items():
        path = root / rel
        text = _template(template)
        try:
            if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO: reading it would wait
                raise OSError(0, NOT_REGULAR)
            if path.exists() and _read(path) == text:
                print(f"{'unchanged':<10} {rel}")
                continue
            if path.exists() and not force:
                print(f"{'skipped':<10} {rel}: it differs from what init writes (use --force to overwrite)",
                      file=sys.stderr)
                status = max(status, 1)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            existed = path.exists()
            path.write_text(text, encoding="utf-8")
        except OSError as exc:  # the other file may still be written: go on, and exit 2
            print(f"tooldiff: cannot write {rel}: {exc.strerror or exc}", file=sys.stderr)
            status = 2
            continue
        print(f"{'overwrote' if existed else 'wrote':<10} {rel}")
    return status


def _read(path: Path) -> str | None:
    """The file's text; None for one that is not UTF-8, which differs from what init writes."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None
