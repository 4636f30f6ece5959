"""What a renderer knows besides the report: where links point, which comment it is, its size budget."""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass

from tooldiff.model import is_code_label
from tooldiff.render.escape import url_path

_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_SHA = re.compile(r"[0-9a-fA-F]{7,64}")
_COMMENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True, slots=True)
class PathsFrom:
    """Where a text report's paths (relative to the run's root) are shown from: `here`, the folder the
    command ran in, when it is inside the root ("agents/helpdesk": `agents/helpdesk/tools.json` shows as
    `tools.json`); else `up`, the root from that folder ("../repo"). Both empty: from the root itself."""

    here: str = ""
    up: str = ""

    def show(self, path: str) -> str:
        if not path or os.path.isabs(path):  # a diff's base outside the root is named in full
            return path
        if self.here:  # both relative to the root: relpath's result does not depend on the process's folder
            return posixpath.relpath(posixpath.normpath(path), self.here)
        return posixpath.normpath(posixpath.join(self.up, path)) if self.up else path


AT_ROOT = PathsFrom()


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderContext:
    """`repo_url` is `owner/name` (joined to `server_url`) or a full `https://` URL of the repository."""

    repo_url: str | None = None
    head_sha: str | None = None
    base_sha: str | None = None  # a diff's base commit: where removed tools and resolved findings are
    comment_id: str = "default"
    max_chars: int = 65_000
    full_report_hint: str | None = None
    server_url: str = "https://github.com"
    colour: bool = False
    statistics: bool = False  # text: one line per rule code with its count, instead of every finding
    # Text: a `path:line` opens from where the command ran. The machine formats keep root paths.
    paths_from: PathsFrom = AT_ROOT
    # Annotations the run printed itself before the findings', per command (`notice`, `warning`, `error`):
    # they take some of the runner's 10 per level and step.
    annotated: tuple[tuple[str, int], ...] = ()

    def shown_path(self, path: str) -> str:
        return self.paths_from.show(path)

    def repo_base(self) -> str | None:
        repo = (self.repo_url or "").strip().rstrip("/")
        if repo.startswith("https://"):
            return repo if " " not in repo and "(" not in repo and ")" not in repo else None
        if not _REPO.fullmatch(repo):
            return None
        return f"{self.server_url.rstrip('/')}/{repo}"

    def blob_url(self, file: str, line: int, *, at_base: bool = False) -> str | None:
        """`{server}/{repo}/blob/{sha}/{file}#L{line}` at head (or the base), or None when the repository or
        that commit is unknown."""
        base = self.repo_base()
        sha = self.base_sha if at_base else self.head_sha
        if base is None or not sha or not _SHA.fullmatch(sha) or not file or is_code_label(file):
            return None  # `$(command)`: a code-defined tool, in no file of the repository
        anchor = f"#L{line}" if line > 0 else ""
        return f"{base}/blob/{sha}/{url_path(file)}{anchor}"

    def safe_comment_id(self) -> str:
        # The id goes into our hidden marker: nothing that could close the HTML comment.
        return self.comment_id if _COMMENT_ID.fullmatch(self.comment_id) else "default"
