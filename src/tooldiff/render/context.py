"""What a renderer knows besides the report: where links point, which comment it is, its size budget."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from tooldiff.render.escape import url_path

_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_SHA = re.compile(r"[0-9a-fA-F]{7,64}")
_COMMENT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderContext:
    """`repo_url` is `owner/name` (joined to `server_url`) or a full `https://` URL of the repository."""

    repo_url: str | None = None
    head_sha: str | None = None
    comment_id: str = "default"
    max_chars: int = 65_000
    full_report_hint: str | None = None
    server_url: str = "https://github.com"
    colour: bool = False
    statistics: bool = False  # text: one line per rule code with its count, instead of every finding
    # Text: where the report's paths (relative to the run's root) are from where the command ran, so a
    # `path:line` opens from there (see `show_path`). The machine formats keep root paths.
    path_prefix: str = ""

    def shown_path(self, path: str) -> str:
        return show_path(path, self.path_prefix)

    def repo_base(self) -> str | None:
        repo = (self.repo_url or "").strip().rstrip("/")
        if repo.startswith("https://"):
            return repo if " " not in repo and "(" not in repo and ")" not in repo else None
        if not _REPO.fullmatch(repo):
            return None
        return f"{self.server_url.rstrip('/')}/{repo}"

    def blob_url(self, file: str, line: int) -> str | None:
        """`{server}/{repo}/blob/{sha}/{file}#L{line}`, or None when the repository or commit is unknown."""
        base = self.repo_base()
        if base is None or not self.head_sha or not _SHA.fullmatch(self.head_sha) or not file:
            return None
        anchor = f"#L{line}" if line > 0 else ""
        return f"{base}/blob/{self.head_sha}/{url_path(file)}{anchor}"

    def safe_comment_id(self) -> str:
        # The id goes into our hidden marker: nothing that could close the HTML comment.
        return self.comment_id if _COMMENT_ID.fullmatch(self.comment_id) else "default"


def show_path(path: str, prefix: str) -> str:
    """A report path (relative to the run's root) from the folder the command ran in. `prefix` is the root
    from there; from a folder inside the root, the way up, a NUL (which no path holds) and the folder, so
    that `agents/helpdesk/tools.json` shows as `tools.json` there, not as `../../agents/helpdesk/...`."""
    if not prefix or not path:
        return path
    up, _, here = prefix.partition("\0")
    if here:  # both relative to the root: relpath's result does not depend on the process's folder
        return posixpath.relpath(posixpath.normpath(path), here)
    return posixpath.normpath(posixpath.join(up, path))
