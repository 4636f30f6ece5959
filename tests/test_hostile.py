"""Hostile and broken input through the real CLI (issue 6): each case ends within 10 s and 512 MB with a
`parse-error` (file and line) or a correct analysis, and the good file beside it is still analysed.

The corpus is `tests/hostile/` (small files committed, big ones written by `hostile/generate.py`).
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gitbuild import commit, init
from hostile import generate
from hostile.harness import (
    GOOD_TOOLS,
    HERE,
    SECONDS,
    TIMINGS,
    MemorySource,
    assert_good_analysed,
    check_json,
    cli,
    network_trap,
    one_parse_error,
    parse_errors,
    workspace,
)
from tooldiff.check import run_check
from tooldiff.config import Config
from tooldiff.diffrun import run_diff
from tooldiff.discover import TOOL_HINTS


@pytest.fixture(scope="module", autouse=True)
def _print_timings() -> Iterator[None]:
    """With `pytest -s`, the slowest child run of each case, for BENCHMARKS-style reporting."""
    yield
    for case, seconds in sorted(TIMINGS.items(), key=lambda kv: -kv[1]):
        print(f"{seconds:6.2f} s  {case}")


def lines(name: str) -> int:
    return (HERE / name).read_bytes().count(b"\n") + 1


# --- malformed input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "line"), [("malformed.json", 8), ("malformed.yaml", 6)])
def test_malformed_json_and_yaml(tmp_path: Path, name: str, line: int) -> None:
    report = check_json(workspace(tmp_path, name), case=name)
    assert one_parse_error(report, name, lines(name))["line"] == line
    assert_good_analysed(report)


def _parses(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


TRUNCATED = ["anthropic.json", "mcp-records.yaml", "functions.jsonl", "gemini-tools.yaml"]


@pytest.mark.parametrize("name", TRUNCATED)
def test_truncated_at_every_byte_offset(name: str) -> None:
    """Every prefix of a real tool file, in-process: never an exception, the good file always analysed."""
    data = (Path(__file__).parent / "fixtures" / "formats" / name).read_bytes()
    good = (HERE / "good.json").read_bytes()
    config = Config.default()
    for cut in range(len(data)):
        part = data[:cut]
        source = MemorySource({"good.json": good, name: part})
        # Named on the command line, a broken file always reports; discovered, only when it looks like tools.
        for paths in (("good.json", name), ()):
            report = run_check(source, config, paths)
            assert {t.name for t in report.tools if t.file == "good.json"} == GOOD_TOOLS, cut
            errors = [f for f in report.findings if f.code == "parse-error" and f.file == name]
            assert all(1 <= f.line <= part.count(b"\n") + 1 for f in errors), (cut, errors)
            if name.endswith(".json") and (paths or any(h in part for h in TOOL_HINTS)) and not _parses(part):
                assert errors, f"a strict prefix of a JSON document parsed (cut at {cut})"


def test_corrupted_byte_at_every_offset() -> None:
    """One byte replaced by a structural character, at every offset of a JSON and a YAML file."""
    good = (HERE / "good.json").read_bytes()
    config = Config.default()
    for name in ("openai-chat.json", "gemini-tools.yaml"):
        data = (Path(__file__).parent / "fixtures" / "formats" / name).read_bytes()
        for at in range(len(data)):
            for junk in (b'"', b"{", b":", b"\xff"):
                bad = data[:at] + junk + data[at + 1:]
                report = run_check(MemorySource({"good.json": good, name: bad}), config)
                assert {t.name for t in report.tools if t.file == "good.json"} == GOOD_TOOLS


# --- expansion, depth and size ------------------------------------------------------------------------------


def test_yaml_alias_bomb(tmp_path: Path) -> None:
    report = check_json(workspace(tmp_path, "alias-bomb.yaml"), case="alias-bomb")
    error = one_parse_error(report, "alias-bomb.yaml", lines("alias-bomb.yaml"))
    assert "out of proportion" in error["message"]
    assert_good_analysed(report)


DEEP = [("deep.json", generate.deep_json), ("deep.yaml", generate.deep_yaml)]


@pytest.mark.parametrize(("name", "data"), DEEP)
def test_nesting_100000_levels_deep(tmp_path: Path, name: str, data: Any) -> None:
    report = check_json(workspace(tmp_path, extra={name: data()}), case=name)
    assert re.search("deep|nesting", one_parse_error(report, name, 4)["message"])
    assert_good_analysed(report)


def test_schema_nested_as_deep_as_the_parser_takes(tmp_path: Path) -> None:
    report = check_json(workspace(tmp_path, extra={"deep-schema.json": generate.deep_schema(480)}),
                        case="deep schema")
    codes = [f["code"] for f in report["findings"] if f["file"] == "deep-schema.json"]
    assert codes.count("missing-description") == 480
    assert_good_analysed(report)


def test_file_of_50_mb_over_the_default_limit(tmp_path: Path) -> None:
    ws = workspace(tmp_path, extra={"big.json": generate.big_file()})
    for paths in ((), ("big.json", "good.json")):  # discovered, and named on the command line
        report = check_json(ws, *paths, case="50 MB")
        assert "over the limit" in one_parse_error(report, "big.json", 1)["message"]
        assert_good_analysed(report)


def test_file_of_50_mb_under_a_raised_limit_is_analysed(tmp_path: Path) -> None:
    ws = workspace(tmp_path, extra={"big.json": generate.big_file()})
    (ws / ".tooldiff.yml").write_text("max_file_bytes: 60000000\n")
    report = check_json(ws, case="50 MB analysed")
    assert [t["name"] for t in report["tools"] if t["file"] == "big.json"] == ["huge"]
    assert {f["code"] for f in report["findings"] if f["file"] == "big.json"} >= {"oversized-description"}


# --- encodings and keys -------------------------------------------------------------------------------------


def test_nul_byte(tmp_path: Path) -> None:
    report = check_json(workspace(tmp_path, "nul-byte.json"), case="nul")
    assert "NUL" in one_parse_error(report, "nul-byte.json", 6)["message"]
    assert one_parse_error(report, "nul-byte.json", 6)["line"] == 3
    assert_good_analysed(report)


def test_utf16_with_bom(tmp_path: Path) -> None:
    """Found by discovery too: its tool hints hide between NUL bytes, but it must not vanish unseen."""
    report = check_json(workspace(tmp_path, "utf16-bom.json"), case="utf-16")
    assert "UTF-16" in one_parse_error(report, "utf16-bom.json", 1)["message"]
    assert_good_analysed(report)


def test_duplicate_keys(tmp_path: Path) -> None:
    """The last value wins, as in every provider's JSON parser and in PyYAML; the tool is analysed as the
    model gets it, and the repeated key is a finding on the line of the value kept."""
    report = check_json(workspace(tmp_path, "duplicate-keys.json", "duplicate-keys.yaml"), case="duplicates")
    assert not [f for f in report["findings"] if f["code"] == "parse-error"]
    for name, line, kept in (("duplicate-keys.json", 3, 7), ("duplicate-keys.yaml", 2, 5)):
        (tool,) = [t for t in report["tools"] if t["file"] == name]
        assert tool["name"] == "send_email" and tool["line"] == line
        (found,) = [f for f in report["findings"] if f["code"] == "duplicate-key" and f["file"] == name]
        assert found["pointer"] == "/description" and found["tools"] == ["send_email"]
        assert found["line"] == kept  # the description kept, not the record's first line
    explained = cli(workspace(tmp_path, "duplicate-keys.json"), "describe", "duplicate-keys.json")
    assert "send_email" in explained.stdout and "duplicate-key" in explained.stdout
    assert_good_analysed(report)


def test_duplicate_keys_json_analyses_what_the_model_gets() -> None:
    from tooldiff.parsers import parse_bytes

    (tool,) = parse_bytes("d.json", (HERE / "duplicate-keys.json").read_bytes()).tools
    assert tool.description == "Send an email to every customer at once."


def test_yaml_python_tags_are_never_constructed(tmp_path: Path) -> None:
    ws = workspace(tmp_path, "python-tag.yaml")
    report = check_json(ws, case="python tag")
    assert "constructor" in one_parse_error(report, "python-tag.yaml", lines("python-tag.yaml"))["message"]
    assert not (ws / "tooldiff-pwned").exists()
    assert_good_analysed(report)


# --- $ref ---------------------------------------------------------------------------------------------------


def test_ref_cycles_end_and_are_reported(tmp_path: Path) -> None:
    report = check_json(workspace(tmp_path, "ref-cycle.json"), case="ref cycle")
    refs = [f for f in report["findings"] if f["code"] == "unresolved-ref"]
    assert {f["line"] for f in refs} >= {11, 12, 16, 17}
    assert all("recursive" in f["message"] for f in refs)
    assert_good_analysed(report)


def _remote_refs(url: str) -> bytes:
    doc = json.loads((HERE / "ref-remote.json").read_text())
    props = doc["tools"][0]["input_schema"]["properties"]
    props["local_trap"] = {"$ref": f"{url}/schema.json"}
    doc["tools"][0]["input_schema"]["$schema"] = f"{url}/meta-schema"  # an unknown meta-schema, too
    return json.dumps(doc, indent=2).encode()


def test_the_network_trap_works(tmp_path: Path) -> None:
    """The guard must catch a connection, or the next test proves nothing."""
    with network_trap(tmp_path) as trap:
        port = trap.url.rsplit(":", 1)[1]
        connect = f"import socket; socket.create_connection(('127.0.0.1', {port}))"
        proc = subprocess.run([sys.executable, "-c", connect], env=trap.env, capture_output=True,
                              timeout=SECONDS, check=False)
        assert proc.returncode != 0 and b"refused by the hostile-input test" in proc.stderr
        assert len(trap.attempts()) == 1
        raw = socket.create_connection(("127.0.0.1", int(port)))  # this process is not guarded
        raw.close()
        assert any("listener reached" in a for a in trap.attempts())


def test_remote_refs_are_never_fetched(tmp_path: Path) -> None:
    with network_trap(tmp_path) as trap:
        ws = workspace(tmp_path, extra={"ref-remote.json": _remote_refs(trap.url)})
        report = check_json(ws, case="remote refs", env=trap.env)
        cli(ws, "check", "--format", "sarif", "--tokens", "all", env=trap.env)
        assert trap.attempts() == []
    refs = [f["message"] for f in report["findings"] if f["code"] == "unresolved-ref"]
    for url in ("https://evil.example/", "http://169.254.169.254/", "file:///etc/passwd", "other.json#",
                f"{trap.url}/schema.json"):
        (message,) = [m for m in refs if url in m]
        assert "never fetched" in message
    assert sum("points nowhere" in m for m in refs) == 1
    assert_good_analysed(report)


def test_remote_refs_in_process_open_no_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    files = {"good.json": (HERE / "good.json").read_bytes(), "r.json": _remote_refs("https://evil.example")}
    report = run_check(MemorySource(files), Config.default(), token_methods=None)
    assert sum(f.code == "unresolved-ref" for f in report.findings) == 6


# --- scale --------------------------------------------------------------------------------------------------


def test_ten_thousand_tools_added_in_one_pr(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"good.json": (HERE / "good.json").read_bytes()}, "base")
    commit(repo, {"agent/tools.json": generate.many_tools(10_000)}, "add 10,000 tools")
    start = time.monotonic()
    report = run_diff(repo, "HEAD~1", "HEAD")
    seconds = time.monotonic() - start
    added = [t for t in report.tools if t.change == "added"]
    assert len(added) == 10_000 and {t.file for t in added} == {"agent/tools.json"}
    assert not [f for f in report.findings if f.code == "parse-error"]
    assert report.stats["pairs_analysed"] < 200_000  # far from the 50 million of all pairs
    from tooldiff.render import RenderContext, render

    comment = render("markdown", report, RenderContext())
    assert len(comment) <= 65_536
    print(f"\n10,000 tools in one PR: run_diff {seconds:.2f} s")
    assert seconds < SECONDS


def test_tool_name_of_5000_characters(tmp_path: Path) -> None:
    ws = workspace(tmp_path, extra={"long.json": generate.long_name(5000)})
    report = check_json(ws, case="5,000-char name")
    assert [len(t["name"]) for t in report["tools"] if t["file"] == "long.json"] == [5000]
    assert "invalid-name" in {f["code"] for f in report["findings"] if f["file"] == "long.json"}
    assert_good_analysed(report)
    for fmt in ("markdown", "github", "text", "sarif"):
        out = cli(ws, "check", "--format", fmt, "--tokens", "estimate", case="5,000-char name").stdout
        assert len(out) < 65_536 or fmt == "sarif"


# --- symlinks -----------------------------------------------------------------------------------------------


def _forbidden() -> list[str]:
    """Lines of /etc/passwd and the planted secret: none may appear in any output."""
    passwd = Path("/etc/passwd")
    found = [line for line in passwd.read_text().splitlines() if line.strip()] if passwd.exists() else []
    return [*found, generate.SECRET]


def _assert_clean(*outputs: str) -> None:
    for out in outputs:
        for secret in _forbidden():
            assert secret not in out


def test_symlinks_out_of_the_workspace_are_never_followed(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    links = generate.symlinks(ws, tmp_path / "outside")
    report = check_json(ws, case="symlinks")
    for name in ("passwd.json", "passwd.yaml", "secret-abs.json", "secret-rel.json"):
        assert "not followed" in one_parse_error(report, name, 1)["message"]
    assert {t["file"] for t in report["tools"]} == {"good.json"}
    assert_good_analysed(report)
    named = cli(ws, "check", *links, "outside/secret.json", "etc/passwd", "--format", "json",
                "--tokens", "estimate", case="symlinks")
    texts = [cli(ws, "check", "--format", fmt, "--tokens", "estimate").stdout for fmt in ("text", "markdown")]
    _assert_clean(json.dumps(report), named.stdout, named.stderr, *texts)
    assert all(t["file"] == "good.json" for t in named.report["tools"])


def test_a_config_path_out_of_the_workspace_is_never_read(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    generate.symlinks(ws, tmp_path / "outside")
    (ws / ".tooldiff.yml").write_text("baseline: etc/passwd\n")  # inside: there is no such file
    run = cli(ws, "check", "--format", "json", "--tokens", "estimate", case="config path")
    _assert_clean(run.stdout, run.stderr)
    assert_good_analysed(run.report)
    for outside in ("/etc/passwd", "../outside/secret.json"):  # a config error, before anything is read
        (ws / ".tooldiff.yml").write_text(f"baseline: {outside}\n")
        run = cli(ws, "check", "--format", "json", case="config path", codes=(2,))
        _assert_clean(run.stdout, run.stderr)
        assert "baseline:" in run.stderr and "outside the repository" in run.stderr and not run.stdout


def test_symlinks_in_a_pr_are_never_followed(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"good.json": (HERE / "good.json").read_bytes()}, "base")
    outside = tmp_path / "outside"
    generate.symlinks(repo, outside)
    commit(repo, {}, "links")
    run = cli(repo, "diff", "--base", "HEAD~1", "--format", "json", "--tokens", "estimate",
              case="symlinks, diff")
    for name in ("passwd.json", "passwd.yaml", "secret-abs.json", "secret-rel.json"):
        assert "not followed" in one_parse_error(run.report, name, 1)["message"]
    md = cli(repo, "diff", "--base", "HEAD~1", "--format", "markdown", case="symlinks, diff")
    _assert_clean(run.stdout, run.stderr, md.stdout, md.stderr)


# --- file names ---------------------------------------------------------------------------------------------


def test_file_names_with_spaces_unicode_and_newlines(tmp_path: Path) -> None:
    odd = generate.odd_names()
    report = check_json(workspace(tmp_path, extra=odd), case="odd names")
    assert {t["file"] for t in report["tools"]} == {*odd, "good.json"}
    assert_good_analysed(report)


def test_file_names_with_spaces_unicode_and_newlines_in_a_pr(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"good.json": (HERE / "good.json").read_bytes()}, "base")
    odd = generate.odd_names()
    commit(repo, odd, "odd names")
    run = cli(repo, "diff", "--base", "HEAD~1", "--format", "json", "--tokens", "estimate",
              case="odd names, diff")
    assert {t["file"] for t in run.report["tools"] if t["change"] == "added"} == set(odd)
    assert not parse_errors(run.report, "good.json")
    renamed = {name: None for name in odd} | {f"renamed\n{name}": data for name, data in odd.items()}
    commit(repo, renamed, "rename them")
    moved = cli(repo, "diff", "--base", "HEAD~1", "--format", "json", "--tokens", "estimate").report
    assert [t["change"] for t in moved["tools"]] == []  # git's renames are followed, odd names and all
    assert moved["findings"] == []


@pytest.mark.parametrize(
    ("config", "code", "says"),
    [
        ((HERE / "alias-bomb.yaml").read_text(), 2, "out of proportion"),
        ("[" * 100_000 + "]" * 100_000 + "\n", 2, "nesting"),
        ("baseline: \"a\\0b\"\n", 0, ""),
        ("baseline: .\n", 0, ""),
        ("\ufeff\ufeffpaths: 3\n", 2, ".tooldiff.yml"),
    ],
    ids=["alias-bomb", "deep", "nul-in-baseline", "baseline-folder", "bad-value"],
)
def test_a_hostile_config_is_an_error_or_harmless(tmp_path: Path, config: str, code: int, says: str) -> None:
    """Under `pull_request` the head's config is used, so a PR author writes it: no crash, no hang."""
    ws = workspace(tmp_path)
    (ws / ".tooldiff.yml").write_text(config)
    run = cli(ws, "check", "--format", "json", "--tokens", "estimate", codes=(code,), case="hostile config")
    assert says in run.stderr
    if code == 0:
        assert_good_analysed(run.report)


# --- comment injection -----------------------------------------------------------------------------------

MARKER = "<!-- tooldiff:comment id=default -->"
SHA_RE = "[0-9a-f]{40}"
OUR_HTML = re.compile(r"</?details>|</?summary>|<!-- tooldiff:finding fp=[0-9a-f]+ -->")  # line comments
OUR_LINKS = re.compile(rf"https://github\.com/(?:tooldiff/tooldiff/|(?:octo/helpdesk|Codertocat/Hello-World)/blob/{SHA_RE}/)")
MENTION = re.compile(r"(?<![A-Za-z0-9_`])@[A-Za-z0-9]")
# GitHub's (cmark-gfm) extended autolinks: a scheme URL anywhere, `www.` after a space or delimiter.
AUTOLINK = re.compile(r"(?:https?|ftp)://[A-Za-z0-9]|(?:^|[\s*_~(\"'])www\.", re.I)
HOSTILE_FILE = "<img src=x onerror=alert(1)> @org team|x [a](javascript:b).json"


@pytest.fixture(scope="module")
def injected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Any]:
    """A PR adding the injection corpus under a hostile file name, and remote refs (URLs in messages)."""
    repo = init(tmp_path_factory.mktemp("inject") / "repo")
    commit(repo, {"good.json": (HERE / "good.json").read_bytes()}, "base")
    payload = (HERE / "injection.json").read_bytes()
    head = commit(repo, {"injection.json": payload, HOSTILE_FILE: payload,
                         "ref-remote.json": (HERE / "ref-remote.json").read_bytes()}, "inject")
    return repo, head, run_diff(repo, "HEAD~1", "HEAD")


def _tokens(text: str) -> list[Any]:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    out: list[Any] = []
    stack = md.parse(text)
    while stack:
        tok = stack.pop()
        out.append(tok)
        stack.extend(tok.children or [])
    return out


def assert_inert_markdown(out: str, *, marker: bool) -> None:
    """Rendered as GitHub would: only our tags, only our links, no image, no mention, no autolink."""
    assert out.count(MARKER) == (1 if marker else 0)  # quoted markers survive only as escaped text
    if marker:
        assert out.startswith(MARKER + "\n")
    assert not re.search(r"javascript\s*:", out, re.I)
    for tok in _tokens(out):
        if tok.type in ("html_block", "html_inline"):
            for tag in re.findall(r"<[^>]*>", tok.content):
                assert tag == MARKER or OUR_HTML.fullmatch(tag), tag
        elif tok.type == "link_open":
            assert OUR_LINKS.match(str(tok.attrs["href"])), tok.attrs
        elif tok.type in ("image", "html_inline") or tok.tag == "img":
            raise AssertionError(f"live {tok.type}: {tok.content!r}")
        elif tok.type == "text":
            assert not MENTION.search(tok.content), tok.content
            assert not AUTOLINK.search(tok.content), tok.content


def test_injection_markdown_comment_is_inert(injected: tuple[Path, str, Any]) -> None:
    from tooldiff.render import RenderContext, render

    _, head, report = injected
    ctx = RenderContext(repo_url="octo/helpdesk", head_sha=head)
    assert {"invalid-name", "missing-description"} <= {f.code for f in report.findings}
    assert any(f.file == HOSTILE_FILE for f in report.findings)
    assert_inert_markdown(render("markdown", report, ctx), marker=True)
    assert_inert_markdown(render("github", report, ctx), marker=False)


def test_injection_through_the_cli(injected: tuple[Path, str, Any]) -> None:
    repo, _, _ = injected
    out = cli(repo, "diff", "--base", "HEAD~1", "--format", "markdown", "--tokens", "estimate",
              case="injection").stdout
    assert_inert_markdown(out, marker=True)


def test_injection_tables_keep_their_columns(injected: tuple[Path, str, Any]) -> None:
    from markdown_it import MarkdownIt

    from tooldiff.render import RenderContext, render

    _, head, report = injected
    for fmt in ("markdown", "github"):
        html = MarkdownIt("commonmark", {"html": True}).enable("table").render(
            render(fmt, report, RenderContext(repo_url="octo/helpdesk", head_sha=head)))
        for table in re.findall(r"<table>(.*?)</table>", html, re.S):
            rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
            cells = {len(re.findall(r"<t[hd][ >]", row)) for row in rows}
            assert len(cells) == 1, table[:500]


def test_injection_text_annotations_and_sarif(injected: tuple[Path, str, Any]) -> None:
    from tooldiff.render import RenderContext, render

    _, head, report = injected
    ctx = RenderContext(repo_url="octo/helpdesk", head_sha=head)
    text = render("text", report, ctx)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", text)
    notes = render("annotations", report, ctx)
    assert notes and all(line.startswith("::") for line in notes.splitlines())  # no forged workflow command
    assert len(notes.splitlines()) == sum(1 for f in report.findings if f.status == "new")
    sarif = json.loads(render("sarif", report, ctx))
    for run in sarif["runs"]:
        for result in run["results"]:
            assert "markdown" not in result["message"]  # plain text: nothing for a viewer to render
        for rule in run["tool"]["driver"]["rules"]:
            assert "<img" not in json.dumps(rule)  # rule help is ours, never tool text
    data = json.loads(render("json", report, ctx))
    assert HOSTILE_FILE in {f["file"] for f in data["findings"]}  # machine output keeps the text verbatim


def test_injection_through_the_action_edits_only_its_own_comment(tmp_path: Path, shared_dir: Path) -> None:
    """A stranger quotes our marker; the PR's tool text is hostile. Two runs: one bot comment, edited in
    place, inert; the stranger's comment untouched; review comments and the job summary inert too."""
    from fakegithub import FakeGitHub
    from prscenario import TOKEN, PullRequest, environment
    from tooldiff import action
    from tooldiff.github import make_client

    fake = FakeGitHub(repository="Codertocat/Hello-World")
    fake.token = TOKEN
    fake.start()
    try:
        pr = PullRequest(tmp_path, fake)
        payload = (HERE / "injection.json").read_bytes()
        pr.push({"injection.json": payload, HOSTILE_FILE: payload})
        forged = fake.add_comment(2, MARKER + "\nLGTM, no findings", login="stranger")
        files = tmp_path / "files"
        files.mkdir()
        for _ in range(2):
            env = environment("pull_request", fake.base, str(pr.repo), str(pr.event_dir / "event.json"),
                              str(files), pr.head, **{"review-comments": "true"})
            assert action.main([], env, make_client(fake.base, TOKEN, retries=1, backoff=0)) == 1
        [comment] = fake.bot_comments(2)
        assert fake.comments[forged["id"]]["body"] == MARKER + "\nLGTM, no findings"
        assert_inert_markdown(comment["body"], marker=True)
        assert_inert_markdown((files / "summary.md").read_text(), marker=False)
        assert fake.review_comments  # the hostile names reach line comments too
        for review in fake.review_comments.values():
            assert_inert_markdown(review["body"], marker=False)
        assert fake.errors == []
    finally:
        fake.stop()


def test_terminal_output_carries_no_escape_sequence(tmp_path: Path) -> None:
    """`check` (text) and `describe` print tool names to a terminal: ESC, BEL, CR and bidi overrides in a
    name must not clear the screen, set the title, reorder text or forge a line."""
    name = "evil\x1b[2J\x1b]0;pwn\x07\u202egnp.exe\r\nforged: ok"
    data = generate.tools_file([generate.tool(name, "x\x1b[31mred", q="q")])
    ws = workspace(tmp_path, extra={"a.json": data})
    for args in (("check", "--format", "text"), ("describe", "a.json")):
        out = cli(ws, *args, case="terminal").stdout
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", out), out
        assert not any(line.startswith("forged") for line in out.splitlines())


FORGED_KEY = '"x\\n::error file=a::pwned\\n::stop-commands::t\\n\\u001b[2J": 1\n'


def _assert_no_forged_command(*outputs: str) -> None:
    for out in outputs:
        assert "\x1b" not in out
        for line in out.splitlines():
            assert not line.startswith(("::error file=a", "::stop-commands")), line


def test_a_config_key_cannot_forge_a_workflow_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shared_dir: Path
) -> None:
    """The runner reads `::command::` lines on stdout and stderr: a PR config key must not write one."""
    ws = workspace(tmp_path)
    (ws / ".tooldiff.yml").write_text(FORGED_KEY)
    run = cli(ws, "check", codes=(2,), case="forged command")
    assert "unknown key" in run.stderr
    _assert_no_forged_command(run.stdout, run.stderr)

    from fakegithub import FakeGitHub
    from prscenario import TOKEN, PullRequest, environment
    from tooldiff import action
    from tooldiff.github import make_client

    fake = FakeGitHub(repository="Codertocat/Hello-World")
    fake.token = TOKEN
    fake.start()
    try:
        pr = PullRequest(tmp_path / "pr", fake)
        pr.push({".tooldiff.yml": FORGED_KEY})
        files = tmp_path / "files"
        files.mkdir()
        env = environment("pull_request", fake.base, str(pr.repo), str(pr.event_dir / "event.json"),
                          str(files), pr.head)
        assert action.main([], env, make_client(fake.base, TOKEN, retries=1, backoff=0)) == 2
    finally:
        fake.stop()
    out = capsys.readouterr()
    assert "unknown key" in out.err
    _assert_no_forged_command(out.out, out.err)


def test_a_duplicate_key_in_every_record_costs_about_what_a_clean_file_does() -> None:
    """Each tool's repeated keys are found by its own path, not by scanning every repeat of the file: this
    was quadratic (10,000 records, 10 s against 0.1 s)."""
    from tooldiff.parsers import parse_bytes

    def records(extra: str) -> bytes:
        return ('{"tools": [' + ",\n".join(
            f'{{"name": "t{i}", {extra.format(i=i)}"description": "Tool {i}.", "input_schema": {{}}}}'
            for i in range(10_000)) + "]}").encode()

    clean, twice = records(""), records('"name": "t{i}", ')
    start = time.monotonic()
    assert len(parse_bytes("t.json", clean).tools) == 10_000
    clean_seconds = time.monotonic() - start
    start = time.monotonic()
    parsed = parse_bytes("t.json", twice)
    seconds = time.monotonic() - start
    assert sum(len(t.repeated_keys) for t in parsed.tools) == 10_000
    assert seconds < 5 * clean_seconds + 1.0, (seconds, clean_seconds)
