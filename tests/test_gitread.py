"""GitRepo and GitSource against real repositories: odd file names, symlinks, renames, shallow clones."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitbuild import commit, git, init
from tooldiff.gitread import GitError, GitRepo, GitSource, GitWorktreeSource

ODD = ["with space.json", "ünïcødé/工具.json", "new\nline.json", "tab\there.json"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init(tmp_path / "r")
    commit(root, {name: f'{{"n": {i}}}' for i, name in enumerate(ODD)} | {"plain.json": "[]"})
    os.symlink("plain.json", root / "link.json")
    os.symlink("../../etc/passwd", root / "escape.json")
    commit(root, message="links")
    return root


def test_ls_tree_and_blobs_with_odd_names(repo: Path) -> None:
    g = GitRepo(repo)
    head = g.rev_parse("HEAD")
    paths = [p for _, p, _ in g.ls_tree(head)]
    for name in ODD:
        assert name in paths
    blobs = g.read_blobs(head, [*ODD, "absent.json"])
    assert blobs == {name: f'{{"n": {i}}}'.encode() for i, name in enumerate(ODD)}
    modes = {p: m for m, p, _ in g.ls_tree(head)}
    assert modes["link.json"] == "120000"
    sizes = {p: s for _, p, s in g.ls_tree(head)}
    assert sizes["plain.json"] == 2


def test_git_source_never_follows_symlinks(repo: Path) -> None:
    g = GitRepo(repo)
    src = GitSource(g, g.rev_parse("HEAD"))
    assert src.symlink_target("link.json") == "plain.json"
    assert src.symlink_target("escape.json") == "../../etc/passwd"
    assert src.symlink_target("plain.json") is None
    assert "link.json" not in src.read_many(["link.json", "plain.json"])
    assert src.read_many(["plain.json"]) == {"plain.json": b"[]"}
    assert src.list_files() == sorted(src.list_files())
    assert src.size("with space.json") == len(b'{"n": 0}')


def test_renames_and_changed_paths(repo: Path) -> None:
    g = GitRepo(repo)
    base = g.rev_parse("HEAD")
    (repo / "moved dir").mkdir()
    git(repo, "mv", "ünïcødé/工具.json", "moved dir/工具 2.json")
    (repo / "plain.json").write_text("[1]")
    head = commit(repo, message="move")
    assert g.renames(base, head) == {"ünïcødé/工具.json": "moved dir/工具 2.json"}
    assert g.changed_paths(base, head) == sorted(["ünïcødé/工具.json", "moved dir/工具 2.json", "plain.json"])


def test_worktree_source_sees_uncommitted_edits(repo: Path) -> None:
    g = GitRepo(repo)
    (repo / "plain.json").write_text("[2]")
    (repo / "untracked.json").write_text("{}")
    (repo / ".gitignore").write_text("ignored.json\n")
    (repo / "ignored.json").write_text("{}")
    src = GitWorktreeSource(g)
    files = src.list_files()
    assert "untracked.json" in files and "ignored.json" not in files
    assert src.read_many(["plain.json"]) == {"plain.json": b"[2]"}
    assert g.changed_paths(g.rev_parse("HEAD"), None) == ["plain.json"]


def test_merge_base_and_unknown_ref(repo: Path) -> None:
    g = GitRepo(repo)
    fork = g.rev_parse("HEAD")
    git(repo, "checkout", "-q", "-b", "feature")
    feat = commit(repo, {"a.json": "[]"})
    git(repo, "checkout", "-q", "main")
    main = commit(repo, {"b.json": "[]"})
    assert g.merge_base(main, feat) == fork
    with pytest.raises(GitError, match="unknown revision"):
        g.rev_parse("no-such-branch")
    with pytest.raises(GitError, match="not inside a git repository"):
        GitRepo(repo.parent)


def test_shallow_clone_fetches_what_the_merge_base_needs(tmp_path: Path) -> None:
    origin = init(tmp_path / "origin")
    fork = ""
    for i in range(60):  # deeper than the first deepening step
        fork = commit(origin, {"f.json": f"[{i}]"})
    git(origin, "checkout", "-q", "-b", "feature")
    for i in range(3):
        commit(origin, {"g.json": f"[{i}]"})
    git(origin, "checkout", "-q", "main")
    for i in range(70):
        commit(origin, {"f.json": f"[{i}, 0]"})
    main = git(origin, "rev-parse", "main")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{origin}", str(clone))
    g = GitRepo(clone)
    assert g.is_shallow() and not g.has_commit(main)
    head = g.rev_parse("HEAD")
    assert g.resolve("main") == main
    assert g.merge_base_fetching(main, head) == fork
    assert g.read_blobs(fork, ["f.json"]) == {"f.json": b"[59]"}


def test_missing_commit_that_cannot_be_fetched_is_a_clear_error(tmp_path: Path) -> None:
    origin = init(tmp_path / "origin")
    commit(origin, {"a.json": "[]"})
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(tmp_path / "clone"))
    g = GitRepo(tmp_path / "clone")
    with pytest.raises(GitError, match=r"0{40} is not in this clone and could not be fetched from 'origin'"):
        g.ensure_commits(["0" * 40])
    with pytest.raises(GitError, match="no remote 'origin'") as err:
        GitRepo(origin).resolve("no-such-branch")
    assert "Check the spelling of no-such-branch." in str(err.value)  # base or head: the ref asked for
    with pytest.raises(GitError) as err:
        GitRepo(origin).ensure_commits(["0" * 40])
    assert "base ref" not in str(err.value) and "spelling" not in str(err.value)
