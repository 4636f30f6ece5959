"""Read files at a commit straight from git objects: no checkout, no shell, one `cat-file` process.

Paths come NUL-separated (`-z`) with `core.quotepath=off`, so names with spaces, unicode or newlines
survive. Shallow clones (CI's `fetch-depth: 1`) get exactly the commits a merge base needs, fetched
on demand; when they cannot be had, `GitError` says so and how to fix it.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tooldiff.sources import NONE_UNREADABLE, WorktreeSource, link_text_leaves

SYMLINK_MODE = "120000"
_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")
# Depths tried before giving up and unshallowing: most PR branches fork within a few hundred commits.
_DEPTHS = (50, 400, 3000)


class GitError(RuntimeError):
    """A git command failed, or a commit cannot be had; the message says what to do."""


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


@dataclass(frozen=True, slots=True)
class TreeEntry:
    mode: str
    oid: str
    path: str
    size: int


class GitRepo:
    """A repository on disk, driven through the `git` command."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        top = self._run("rev-parse", "--show-toplevel", check=False)
        if top.returncode != 0:
            raise GitError(f"{self.path} is not inside a git repository")
        self.root = Path(_decode(top.stdout).strip())
        self._trees: dict[str, dict[str, TreeEntry]] = {}
        self._commits: set[str] = set()  # shas `rev_parse` verified as commits here: no need to ask again
        self._changes: dict[tuple[str, str], list[tuple[str, str, str | None]]] = {}

    # -- plumbing ----------------------------------------------------------------------------------
    def _run(
        self, *args: str, check: bool = True, stdin: bytes | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
        proc = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args],
            cwd=self.path, input=stdin, capture_output=True, env=env, check=False,
        )
        if check and proc.returncode != 0:
            err = _decode(proc.stderr).strip()
            raise GitError(f"git {' '.join(args[:3])} failed: {err}")
        return proc

    # -- commits -----------------------------------------------------------------------------------
    def rev_parse(self, ref: str) -> str:
        """The commit sha `ref` names; GitError when it names none here."""
        proc = self._run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
                         check=False)
        if proc.returncode != 0:
            raise GitError(f"unknown revision {ref!r} in {self.root}")
        sha = _decode(proc.stdout).strip()
        self._commits.add(sha)
        return sha

    def has_commit(self, sha: str) -> bool:
        if sha in self._commits:
            return True
        return self._run("cat-file", "-e", f"{sha}^{{commit}}", check=False).returncode == 0

    def is_shallow(self) -> bool:
        return _decode(self._run("rev-parse", "--is-shallow-repository").stdout).strip() == "true"

    def has_commits(self) -> bool:
        """False in a repository whose first commit is still being made (HEAD is unborn)."""
        return self._run("rev-parse", "--verify", "--quiet", "HEAD", check=False).returncode == 0

    def merge_base(self, a: str, b: str) -> str:
        proc = self._run("merge-base", a, b, check=False)
        if proc.returncode != 0:
            raise GitError(f"no merge base between {a} and {b}")
        return _decode(proc.stdout).strip()

    def resolve(self, ref: str, remote: str = "origin") -> str:
        """`rev_parse`, fetching `ref` (a sha or a branch) from `remote` when this clone lacks it."""
        try:
            return self.rev_parse(ref)
        except GitError:
            pass
        unborn = not self.has_commits()
        # Before the first commit, HEAD is not a misspelling, and no remote has it.
        no_commits = (f"{self.root} has no commits yet, so {ref} names none: commit first, or lint the "
                      "files as they are with `tooldiff check`")
        if unborn and (ref == "HEAD" or ref.startswith(("HEAD~", "HEAD^", "HEAD@"))):
            raise GitError(no_commits)
        name = ref.removeprefix(f"{remote}/").removeprefix("refs/heads/")
        target = name if _SHA.match(name) else f"+refs/heads/{name}:refs/remotes/{remote}/{name}"
        try:
            self._fetch(["--depth=1", remote, target], what=ref, hint=f" Check the spelling of {ref}.")
        except GitError as exc:
            raise (GitError(no_commits) if unborn else exc) from None
        return self.rev_parse(name if _SHA.match(name) else f"refs/remotes/{remote}/{name}")

    def ensure_commits(self, shas: Sequence[str], remote: str = "origin") -> None:
        """Fetch any of `shas` missing here (one commit deep: history comes from `merge_base_fetching`)."""
        missing = [s for s in shas if not self.has_commit(s)]
        if missing:
            self._fetch(["--depth=1", remote, *missing], what=", ".join(missing))

    def merge_base_fetching(self, a: str, b: str, remote: str = "origin") -> str:
        """The merge base of two commits, deepening a shallow clone step by step until it shows."""
        self.ensure_commits([a, b], remote)
        for depth in (*_DEPTHS, 0):
            try:
                return self.merge_base(a, b)
            except GitError:
                if not self.is_shallow():
                    raise
            args = ["--unshallow", remote] if depth == 0 else [f"--depth={depth}", remote, a, b]
            self._fetch(args, what=f"the history of {a[:12]} and {b[:12]}")
        return self.merge_base(a, b)

    def _fetch(self, args: list[str], *, what: str, hint: str = "") -> None:
        remote = next(a for a in args if not a.startswith("-"))
        remotes = _decode(self._run("remote").stdout).split()
        if remote not in remotes:
            raise GitError(f"{what} is not in this repository, and there is no remote {remote!r} to fetch "
                           f"it from.{hint}")
        proc = self._run("fetch", "--no-tags", "--quiet", *args, check=False)
        if proc.returncode != 0:
            lines = _decode(proc.stderr).strip().splitlines()
            fatal = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
            err = (fatal or lines or [""])[0]
            raise GitError(
                f"{what} is not in this clone and could not be fetched from {remote!r} "
                f"({err or 'git fetch failed'}). "
                "Fetch it first, e.g. `git fetch origin <ref>`, or check out with `fetch-depth: 0`."
            )

    # -- trees and blobs ---------------------------------------------------------------------------
    def tree(self, commit: str) -> dict[str, TreeEntry]:
        """Every blob and symlink at `commit` by path, from one `ls-tree` call (cached)."""
        if commit not in self._trees:
            out = self._run("ls-tree", "-r", "-z", "-l", "--full-tree", commit).stdout
            entries: dict[str, TreeEntry] = {}
            for rec in out.split(b"\0"):
                if not rec:
                    continue
                meta, _, raw_path = rec.partition(b"\t")
                mode, kind, oid, size = meta.split()
                if kind != b"blob":  # submodules are commits of another repository
                    continue
                path = _decode(raw_path)
                entries[path] = TreeEntry(mode.decode(), oid.decode(), path, int(size))
            self._trees[commit] = entries
        return self._trees[commit]

    def ls_tree(self, commit: str) -> list[tuple[str, str, int]]:
        return [(e.mode, e.path, e.size) for e in sorted(self.tree(commit).values(), key=lambda e: e.path)]

    def read_objects(self, oids: Iterable[str]) -> dict[str, bytes]:
        """Object contents by id, all through ONE `git cat-file --batch` process."""
        wanted = sorted(set(oids))
        if not wanted:
            return {}
        out = self._run("cat-file", "--batch", stdin="".join(f"{o}\n" for o in wanted).encode()).stdout
        result: dict[str, bytes] = {}
        pos = 0
        for oid in wanted:
            nl = out.index(b"\n", pos)
            header = out[pos:nl].split()
            pos = nl + 1
            if len(header) < 3:  # "<oid> missing"
                continue
            size = int(header[2])
            result[oid] = out[pos:pos + size]
            pos += size + 1
        return result

    def read_blobs(self, commit: str, paths: Iterable[str]) -> dict[str, bytes]:
        tree = self.tree(commit)
        entries = [tree[p] for p in paths if p in tree]
        blobs = self.read_objects(e.oid for e in entries)
        return {e.path: blobs[e.oid] for e in entries if e.oid in blobs}

    # -- changes -----------------------------------------------------------------------------------
    def _name_status(self, base: str, head: str | None) -> list[tuple[str, str, str | None]]:
        """git's changes from base to head (`None`: the work tree). Between two commits they never change,
        so the changed paths and the renames share one call."""
        if head is not None and (base, head) in self._changes:
            return self._changes[(base, head)]
        args = ["diff", "-M", "--name-status", "-z", "--no-color", "--no-ext-diff", base]
        if head is not None:
            args.append(head)
        fields = [_decode(f) for f in self._run(*args, "--").stdout.split(b"\0")]
        out: list[tuple[str, str, str | None]] = []
        i = 0
        while i < len(fields) and fields[i]:
            status = fields[i]
            if status[0] in "RC":
                out.append((status[0], fields[i + 1], fields[i + 2]))
                i += 3
            else:
                out.append((status[0], fields[i + 1], None))
                i += 2
        if head is not None:
            self._changes[(base, head)] = out
        return out

    def renames(self, base: str, head: str | None) -> dict[str, str]:
        """Old path -> new path, by git's rename detection (`head=None`: the work tree, where a move not yet
        added is found by content too)."""
        changes = self._name_status(base, head)
        out = {old: new for st, old, new in changes if st == "R" and new is not None}
        if head is None:
            out.update(self._untracked_renames(base, [old for st, old, _ in changes if st == "D"]))
        return out

    def changed_paths(self, base: str, head: str | None) -> list[str]:
        """Every path added, removed, modified or renamed (both names of a rename)."""
        out: set[str] = set()
        for _, old, new in self._name_status(base, head):
            out.add(old)
            if new is not None:
                out.add(new)
        return sorted(out)

    def worktree_files(self) -> list[str]:
        """Tracked and untracked-but-not-ignored files present in the work tree."""
        proc = self._run("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name")
        paths = {_decode(p) for p in proc.stdout.split(b"\0") if p}
        return sorted(p for p in paths if os.path.lexists(self.root / p))

    def _untracked_renames(
        self, base: str, deleted: list[str], max_bytes: int = 20_000_000
    ) -> dict[str, str]:
        """Old path -> new path for tracked files deleted from the work tree whose exact content is back as
        an untracked file: a move not yet `git add`-ed, which git's own rename detection cannot see."""
        if not deleted:
            return {}
        tree = self.tree(base)
        by_oid = {tree[p].oid: p for p in deleted if p in tree}
        if not by_oid:
            return {}
        algorithm = "sha1" if len(next(iter(by_oid))) == 40 else "sha256"  # the repository's object format
        suffixes = {posixpath.splitext(p)[1] for p in by_oid.values()}
        out: dict[str, str] = {}
        for path in self.untracked_files():
            file = self.root / path
            if posixpath.splitext(path)[1] not in suffixes or file.is_symlink():
                continue
            try:
                if file.stat().st_size > max_bytes:
                    continue
                data = file.read_bytes()
            except OSError:
                continue
            digest = hashlib.new(algorithm, b"blob %d\0" % len(data) + data)
            old = by_oid.pop(digest.hexdigest(), None)
            if old is not None:
                out[old] = path
                if not by_oid:
                    break
        return out

    def untracked_files(self) -> list[str]:
        proc = self._run("ls-files", "-z", "--others", "--exclude-standard", "--full-name")
        return sorted(_decode(p) for p in proc.stdout.split(b"\0") if p)

    def add_worktree(self, commit: str, dest: Path) -> None:
        self._run("worktree", "add", "--detach", "--quiet", str(dest), commit)

    def remove_worktree(self, dest: Path) -> None:
        self._run("worktree", "remove", "--force", str(dest), check=False)


class GitSource:
    """`sources.FileSource` over the tree of one commit. Symlinks (mode 120000) are never followed."""

    def __init__(self, repo: GitRepo, commit: str, label: str | None = None) -> None:
        self.repo = repo
        self.commit = commit
        self.label = label or commit[:12]

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        return sorted(self.repo.tree(self.commit))  # every file of the commit: nothing to add

    unreadable: Mapping[str, str] = NONE_UNREADABLE  # a blob always is

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        tree = self.repo.tree(self.commit)
        wanted = [p for p in paths if p in tree and tree[p].mode != SYMLINK_MODE]
        return self.repo.read_blobs(self.commit, wanted)

    def symlink_target(self, path: str) -> str | None:
        entry = self.repo.tree(self.commit).get(path)
        if entry is None or entry.mode != SYMLINK_MODE:
            return None
        return _decode(self.repo.read_objects([entry.oid]).get(entry.oid, b""))

    def size(self, path: str) -> int:
        entry = self.repo.tree(self.commit).get(path)
        return entry.size if entry else 0

    folder_links: frozenset[str] = frozenset()  # a folder link is one blob in a commit, listed as a file

    def link_leaves(self, path: str, target: str) -> bool:
        return link_text_leaves(path, target)


class GitWorktreeSource:
    """The work tree with uncommitted edits, listed as git sees it (ignored files left out)."""

    def __init__(self, repo: GitRepo, label: str = "worktree") -> None:
        self.repo = repo
        self.label = label
        self._disk = WorktreeSource(repo.root, label)

    def list_files(self, also: Iterable[str] = ()) -> list[str]:
        return self.repo.worktree_files()  # git lists vendored folders too (ignored files aside)

    def read_many(self, paths: Iterable[str]) -> dict[str, bytes]:
        return self._disk.read_many(paths)

    @property
    def unreadable(self) -> Mapping[str, str]:
        return self._disk.unreadable

    def symlink_target(self, path: str) -> str | None:
        return self._disk.symlink_target(path)

    def size(self, path: str) -> int:
        return self._disk.size(path)

    folder_links: frozenset[str] = frozenset()  # git lists a folder link as one file

    def link_leaves(self, path: str, target: str) -> bool:
        # Judged as in a commit, so that --worktree and the committed head agree on a link.
        return link_text_leaves(path, target)
