"""diff_toolsets on hand-built toolsets: classification, renames, moves, canonical comparison."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tooldiff.diff import diff_tools, diff_toolsets
from tooldiff.model import Tool, Toolset
from tooldiff.scope import FULL, scopes


def t(name: str, desc: str = "Search the docs for a query.", schema: Any = None, file: str = "a.json",
      **kw: Any) -> Tool:
    schema = schema if schema is not None else {"type": "object", "properties": {"q": {"type": "string"}}}
    return Tool(name=name, description=desc, input_schema=schema, format="anthropic", file=file, line=1,
                pointer="/0", schema_pointer="/0/input_schema", **kw)


def ts(id: str, *tools: Tool, files: tuple[str, ...] | None = None) -> Toolset:
    return Toolset(id=id, files=files or (id,), tools=tools)


def changes(base: list[Tool], head: list[Tool]) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {c.name: (c.change, c.changed_parts) for c in diff_tools(base, head)}


def test_reorder_and_key_order_change_nothing() -> None:
    s1 = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    s2 = {"properties": {"b": {"type": "integer"}, "a": {"type": "string"}}, "type": "object"}
    got = changes([t("x", schema=s1), t("y")], [t("y"), t("x", schema=s2)])
    assert got == {"x": ("unchanged", ()), "y": ("unchanged", ())}


def test_added_removed_modified() -> None:
    got = changes(
        [t("keep"), t("gone", "Delete every ticket in the queue."), t("edit")],
        [t("keep"), t("edit", "Search the docs for a query, by title only.",
                      {"type": "object", "properties": {}}), t("fresh", "Create a new ticket.")],
    )
    assert got == {
        "keep": ("unchanged", ()),
        "gone": ("removed", ()),
        "edit": ("modified", ("description", "schema")),
        "fresh": ("added", ()),
    }


def test_annotations_and_strict_are_changes() -> None:
    got = changes([t("a"), t("b")], [t("a", annotations={"destructiveHint": True}), t("b", strict=True)])
    assert got == {"a": ("modified", ("annotations",)), "b": ("modified", ("strict",))}


def test_rename_needs_same_schema_and_close_description() -> None:
    desc = "Search the knowledge base documents for a query and return matching articles."
    [c] = [c for c in diff_tools([t("search_docs", desc)], [t("search_documents", desc + " ")])
           if c.change != "unchanged"]
    assert (c.change, c.previous_name, c.changed_parts) == ("renamed", "search_docs", ("description",))
    other = {"type": "object", "properties": {"q": {"type": "integer"}}}
    got = changes([t("search_docs", desc)], [t("search_documents", desc, other)])
    assert got == {"search_docs": ("removed", ()), "search_documents": ("added", ())}
    got = changes([t("search_docs", desc)], [t("find_user", "Find a user account by e-mail address.")])
    assert got == {"search_docs": ("removed", ()), "find_user": ("added", ())}


def test_moved_file_keeps_its_toolset() -> None:
    base = [ts("tools/a.json", t("x"), t("y"))]
    head = [ts("agent/a.json", t("x", file="agent/a.json"), t("y", file="agent/a.json"))]
    d = diff_toolsets(base, head, {"tools/a.json": "agent/a.json"})
    [only] = d.toolsets
    assert (only.id, only.base_id, only.status) == ("agent/a.json", "tools/a.json", "renamed")
    assert d.toolset_map() == {"tools/a.json": "agent/a.json"}
    # Analysed again under its new id (settings keyed by path may differ), though no tool changed.
    assert d.changed == (only,) and only.changes == ()


def test_renamed_folder_toolset_follows_its_files() -> None:
    base = [ts("mcp/tools", t("x", file="mcp/tools/x.json"), t("y", file="mcp/tools/y.json"),
               files=("mcp/tools/x.json", "mcp/tools/y.json"))]
    head = [ts("server/tools", t("x", file="server/tools/x.json"),
               t("y2", "Other.", file="server/tools/y2.json"),
               files=("server/tools/x.json", "server/tools/y2.json"))]
    d = diff_toolsets(base, head, {"mcp/tools/x.json": "server/tools/x.json"})
    [only] = d.toolsets
    assert (only.id, only.base_id, only.status) == ("server/tools", "mcp/tools", "modified")
    assert {c.name: c.change for c in only.changes} == {"y": "removed", "y2": "added"}


def test_new_file_beside_renamed_one_is_added() -> None:
    base = [ts("a.json", t("x"))]
    head = [ts("b.json", t("x", file="b.json")), ts("a.json", t("z", "Brand new tool here."))]
    d = diff_toolsets(base, head, {"a.json": "b.json"})
    assert {(x.id, x.base_id, x.status) for x in d.toolsets} == {
        ("b.json", "a.json", "renamed"), ("a.json", None, "added")}


def test_scopes_cover_both_sides() -> None:
    base = [ts("s", t("keep"), t("gone", "Remove things."), t("old_name", "Tell the time of day now."))]
    head = [ts("s", t("keep"), t("new_name", "Tell the time of day now!"), t("fresh", "Create items."))]
    d = diff_toolsets(base, head, {})
    b, h = scopes(d)
    names = {("s", n) for n in ("gone", "old_name", "new_name", "fresh")}
    assert b.changed == h.changed == names  # a changed name is in scope on both sides
    assert h.in_scope_pair("s", "keep", "fresh") and not h.in_scope_pair("s", "keep", "keep2")
    assert h.in_scope_toolset("s") and not h.in_scope_toolset("other")
    assert not h.in_scope_tool("s", "keep") and FULL.in_scope_tool("s", "keep")
    unchanged = diff_toolsets(base, base, {})
    assert scopes(unchanged)[1].changed == frozenset() and unchanged.changed == ()


def test_a_duplicate_name_added_puts_the_unchanged_twin_in_scope_at_base() -> None:
    base = [ts("s", t("list_issues"), t("other", "Something else entirely."))]
    head = [ts("s", t("list_issues"), t("other", "Something else entirely."),
               t("list_issues", "List issues with custom fields.", {"type": "object"}))]
    d = diff_toolsets(base, head, {})
    assert [(c.name, c.change) for c in d.toolsets[0].changes] == [("list_issues", "added")]
    b, h = scopes(d)
    assert b.in_scope_tool("s", "list_issues") and h.in_scope_tool("s", "list_issues")
    assert not b.in_scope_tool("s", "other")


def test_a_same_named_variant_added_before_the_original_is_the_added_one() -> None:
    original = t("escalate_ticket", "Escalate a ticket to a human agent.")
    variant = t("escalate_ticket", "Escalate a ticket to the on-call engineer as a P1 incident.")
    changes = diff_tools([original], [variant, original])
    got = sorted((c.change, c.base is original, c.head is variant) for c in changes)
    assert got == [("added", False, True), ("unchanged", True, False)]


def test_a_renamed_tool_reports_its_other_changed_parts() -> None:
    text = "Delete one file from the workspace."
    old = replace(t("delete_file", text), annotations={"readOnlyHint": True})
    new = replace(t("remove_file", text), annotations={"destructiveHint": True})
    [change] = diff_tools([old], [new])
    assert (change.change, change.previous_name, change.changed_parts) == ("renamed", "delete_file",
                                                                          ("annotations",))


def test_a_strict_flip_is_its_own_part() -> None:
    old = replace(t("get_forecast"), strict=True)
    [change] = diff_tools([old], [replace(old, strict=False)])
    assert (change.change, change.changed_parts) == ("modified", ("strict",))


def test_a_same_named_variant_in_a_new_file_leaves_the_edited_original_modified() -> None:
    """github-mcp-server's toolsnaps: list_issues.json loses a property while a feature-flag variant file
    holds the old definition. The file that was there is the one modified; the new file is the one added."""
    old = t("list_issues", "List issues.", file="list_issues.json")
    edited = t("list_issues", "List issues, newest first.", file="list_issues.json")
    variant = t("list_issues", "List issues.", file="list_issues_ff.json")
    got = sorted((c.change, (c.head or c.base).file) for c in diff_tools([old], [edited, variant]))  # type: ignore[union-attr]
    assert got == [("added", "list_issues_ff.json"), ("modified", "list_issues.json")]


def test_a_rename_that_adds_a_sentence_to_a_short_description() -> None:
    """git_log -> git_history with " Newest first." added: the old text is kept whole (ratio 0.75)."""
    got = diff_tools([t("git_log", "Shows the commit logs")],
                     [t("git_history", "Shows the commit logs. Newest first.")])
    [c] = got
    assert (c.change, c.previous_name) == ("renamed", "git_log")
    [c] = diff_tools([t("git_log", "Shows the commit logs. Newest first.")],
                     [t("git_history", "Shows the commit logs.")])  # the text got shorter: the same
    assert (c.change, c.previous_name) == ("renamed", "git_log")
    # a word or two kept is no rename
    got2 = changes([t("git_log", "Logs")], [t("git_history", "Logs of the repository's pushes and merges.")])
    assert got2 == {"git_log": ("removed", ()), "git_history": ("added", ())}


def test_a_rename_that_adds_or_drops_a_property_keeps_its_description() -> None:
    desc = "Shows the commit logs of the repository."
    old = {"type": "object", "properties": {"repo_path": {"type": "string"}}, "required": ["repo_path"]}
    props = {"repo_path": {"type": "string"}, "max_count": {"type": "integer"}}
    new = {"type": "object", "properties": props, "required": ["repo_path"]}
    [c] = diff_tools([t("git_log", desc, old)], [t("git_history", desc, new)])
    assert (c.change, c.previous_name, c.changed_parts) == ("renamed", "git_log", ("schema",))
    [c] = diff_tools([t("git_log", desc, new)], [t("git_history", desc, old)])
    assert (c.change, c.previous_name) == ("renamed", "git_log")
    # a property that changed is not "added or dropped"; nor is a rename under another description
    changed = {"type": "object", "properties": {"repo_path": {"type": "integer"}}, "required": ["repo_path"]}
    assert changes([t("git_log", desc, old)], [t("git_history", desc, changed)]) == {
        "git_log": ("removed", ()), "git_history": ("added", ())}
    assert changes([t("git_log", desc, old)], [t("git_history", "List branches.", new)]) == {
        "git_log": ("removed", ()), "git_history": ("added", ())}


def test_non_finite_numbers_do_not_crash_a_diff() -> None:
    """YAML `.inf` and `.nan` (which JSON cannot hold) in a schema or annotations: compared by their text."""
    inf = {"type": "object", "properties": {"rate": {"type": "number", "maximum": float("inf")}}}
    nan = {"type": "object", "properties": {"rate": {"type": "number", "maximum": float("nan")}}}
    same = changes([t("set_rate", schema=inf)], [t("set_rate", schema=inf)])
    assert same == {"set_rate": ("unchanged", ())}
    old = t("set_rate", schema=inf, annotations={"x": float("nan")})
    got = diff_tools([old], [t("set_rate", schema=nan)])
    [c] = got
    assert c.change == "modified" and c.changed_parts == ("schema", "annotations")
    from tooldiff.schemadiff import details

    assert c.base is not None and c.head is not None
    assert details(c.base, c.head) == ("rate: maximum Infinity → NaN", "x: NaN → unset")


def test_a_rename_check_survives_junk_schemas() -> None:
    desc = "Shows the commit logs of the repository."
    for junk in ({"type": "object", "properties": 5}, {"type": "object", "properties": True},
                 {"type": "object", "properties": {"a": {}}, "required": [{"x": 1}]}):
        empty = {"type": "object", "properties": {}}
        got = changes([t("git_log", desc, empty)], [t("git_history", desc, junk)])
        assert got == {"git_log": ("removed", ()), "git_history": ("added", ())}


def test_a_rename_prefers_the_tool_with_equal_schemas() -> None:
    desc = "Shows the commit logs of the repository."
    old = {"type": "object", "properties": {"repo": {"type": "string"}}}
    grown = {"type": "object", "properties": {"repo": {"type": "string"}, "n": {"type": "integer"}}}
    got = changes([t("git_log", desc, old)], [t("git_history", desc, grown), t("git_logs", desc, old)])
    assert got["git_logs"][0] == "renamed" and got["git_history"] == ("added", ())


NOARGS: dict[str, Any] = {"type": "object", "properties": {}}


def test_a_short_text_kept_inside_another_tool_is_no_rename() -> None:
    """list_users "List all users." is not renamed to delete_inactive_users because the new text mentions it:
    a false rename would carry the old tool's findings onto a new, dangerous tool."""
    text = "Delete every inactive user account permanently. List all users first to review."
    got = changes([t("list_users", "List all users.", NOARGS)], [t("delete_inactive_users", text, NOARGS)])
    assert got == {"list_users": ("removed", ()), "delete_inactive_users": ("added", ())}
    got = changes([t("get_user_data", "Get user data.")],
                  [t("purge_user", "Get user data. Then erase the user and all backups.")])
    assert got == {"get_user_data": ("removed", ()), "purge_user": ("added", ())}


def test_a_move_needs_the_same_tool_not_only_its_name() -> None:
    web = t("search", "Search the web for pages.", file="web.json")
    base = [ts("web.json", web, t("fetch", file="web.json")), ts("docs.json", t("index", file="docs.json"))]
    other = t("search", "Delete every document in the archive.", NOARGS, file="docs.json")
    head = [ts("web.json", t("fetch", file="web.json")), ts("docs.json", t("index", file="docs.json"), other)]
    assert diff_toolsets(base, head, {}).move_map() == {}
    same = t("search", "Search the web for pages.", file="docs.json")
    head = [ts("web.json", t("fetch", file="web.json")), ts("docs.json", t("index", file="docs.json"), same)]
    assert diff_toolsets(base, head, {}).move_map() == {("web.json", "search"): "docs.json"}


def test_a_name_that_stays_in_its_toolset_does_not_move() -> None:
    """Two tools named `search` in a.json, one moves to b.json: the findings keyed (a.json, search) may be the
    one that stayed, so none of them moves."""
    one, two = t("search", "Search the wiki."), t("search", "Search the web for pages.")
    base = [ts("a.json", one, two, t("fetch")), ts("b.json", t("index", file="b.json"))]
    moved = replace(two, file="b.json")
    head = [ts("a.json", one, t("fetch")), ts("b.json", t("index", file="b.json"), moved)]
    assert diff_toolsets(base, head, {}).move_map() == {}


def test_a_rename_beside_a_namesake_that_stays_keeps_no_findings() -> None:
    one, two = t("search", "Search the wiki."), t("search", "Search the web for pages.")
    head = [ts("a.json", one, t("fetch"), t("web_search", "Search the web for pages."))]
    tree = diff_toolsets([ts("a.json", one, two, t("fetch"))], head, {})
    assert [c.change for c in tree.toolsets[0].tools if c.name == "web_search"] == ["renamed"]
    assert tree.name_map() == {}


def _similar(n: int) -> list[str]:
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda",
             "mu", "nu", "xi", "omicron"]
    return [f"Get the {words[i % 15]} {words[(i // 15) % 15]} record number {i} from the store." for i in
            range(n)]


def _counting_ratio(monkeypatch: Any) -> list[int]:
    """Counts the costly description comparisons (`SequenceMatcher.ratio`) a diff makes."""
    import difflib

    calls = [0]
    real = difflib.SequenceMatcher.ratio

    def ratio(self: difflib.SequenceMatcher[str]) -> float:
        calls[0] += 1
        return real(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", ratio)
    return calls


def test_a_toolset_renamed_whole_pairs_each_tool_without_comparing_every_pair(monkeypatch: Any) -> None:
    """A prefix put on 400 no-argument tools with like descriptions (`get_7` -> `gh_get_7`): each pairs with
    itself. Comparing every removed with every added text took 5 s at 300 tools and grew as the square."""
    calls = _counting_ratio(monkeypatch)
    texts = _similar(400)
    base = [t(f"get_{i}", texts[i], NOARGS) for i in range(400)]
    same = diff_tools(base, [t(f"gh_get_{i}", texts[i], NOARGS) for i in range(400)])
    assert {(c.change, c.previous_name, c.name) for c in same} == {
        ("renamed", f"get_{i}", f"gh_get_{i}") for i in range(400)}
    assert calls[0] == 0  # the same text over the same schema is paired without a comparison
    reworded = diff_tools(base, [t(f"gh_get_{i}", texts[i] + " Returns JSON.", NOARGS) for i in range(400)])
    assert {(c.change, c.previous_name, c.name) for c in reworded} == {
        ("renamed", f"get_{i}", f"gh_get_{i}") for i in range(400)}
    assert calls[0] <= 4 * 400


def test_identical_tools_renamed_pair_in_order() -> None:
    """Two tools alike in all but name, both renamed: the first old one is the first new one."""
    got = diff_tools([t("a_one"), t("a_two")], [t("b_one"), t("b_two")])
    assert sorted((c.previous_name, c.name) for c in got) == [("a_one", "b_one"), ("a_two", "b_two")]


def test_a_move_under_a_new_name_needs_the_very_same_tool() -> None:
    text = "Create a support ticket for the customer."
    base = [ts("a.json", t("create_ticket", text, file="a.json"), t("fetch", file="a.json")),
            ts("b.json", t("index", file="b.json"))]
    head = [ts("a.json", t("fetch", file="a.json")),
            ts("b.json", t("index", file="b.json"), t("open_ticket", text, file="b.json"))]
    tree = diff_toolsets(base, head, {})
    assert tree.moved_renames() == {("a.json", "create_ticket"): ("b.json", "open_ticket")}
    assert tree.move_map() == {("a.json", "create_ticket"): "b.json"}
    assert tree.name_map() == {("a.json", "create_ticket"): "open_ticket"}
    # another text, a short one, or two alike in the head: no move
    for other in ([t("open_ticket", text + " Then page someone.", file="b.json")],
                  [t("open_ticket", text, {"type": "object"}, file="b.json")],
                  [t("open_ticket", text, file="b.json"), t("new_ticket", text, file="b.json")]):
        head = [ts("a.json", t("fetch", file="a.json")), ts("b.json", t("index", file="b.json"), *other)]
        assert diff_toolsets(base, head, {}).moved_renames() == {}, other
    short = [ts("a.json", t("ping", "Ping.", file="a.json")), ts("b.json", t("index", file="b.json"))]
    head = [ts("a.json"), ts("b.json", t("index", file="b.json"), t("health", "Ping.", file="b.json"))]
    assert diff_toolsets(short, head, {}).moved_renames() == {}


def test_a_move_under_a_new_name_never_takes_a_name_another_tool_holds() -> None:
    """create_ticket left tickets.json for users.json as open_ticket while users.json kept
    a create_ticket of its own (now with a new error), and a third file added another create_ticket. The
    moved tool's findings were keyed to users.json's create_ticket: its new error read as existing."""
    text = "Create a support ticket for the customer."
    mine = {"type": "object", "properties": {"body": {"type": "string"}}}
    theirs = {"type": "object", "properties": {"title": {"type": "string"}}}
    note = t("add_note", "Add a private note to a ticket.", file="tickets.json")
    base = [ts("tickets.json", t("create_ticket", text, mine, file="tickets.json"), note),
            ts("users.json", t("create_ticket", "Open a user ticket.", theirs, file="users.json"))]
    head = [ts("tickets.json", note),
            ts("users.json", t("create_ticket", "Open a user ticket now.", theirs, file="users.json"),
               t("open_ticket", text, mine, file="users.json")),
            ts("bugs.json", t("create_ticket", "File a bug.", theirs, file="bugs.json"))]
    tree = diff_toolsets(base, head, {})
    assert {d.id: d.status for d in tree.toolsets}["bugs.json"] == "added"
    assert tree.moved_renames() == {} and tree.move_map() == {}


def test_a_move_under_a_new_name_needs_its_old_name_to_leave_once() -> None:
    """Two create_ticket in tickets.json, one moves as open_ticket (strict now): whose findings are keyed
    (tickets.json, create_ticket) cannot be told, so none move."""
    text = "Create a support ticket for the customer."
    base = [ts("tickets.json", t("create_ticket", text, file="tickets.json", strict=False),
               t("create_ticket", text + " Strictly.", file="tickets.json", strict=True)),
            ts("users.json", t("get_user", file="users.json"))]
    for strict in (False, True):
        head = [ts("users.json", t("get_user", file="users.json"),
                   t("open_ticket", text, file="users.json", strict=strict))]
        assert diff_toolsets(base, head, {}).moved_renames() == {}


def test_a_move_under_a_new_name_is_never_picked_among_alike_tools() -> None:
    """Two tools alike on one side make the move ambiguous, even when one of them is ruled out for its name:
    the same text joining twice (as create_ticket and open_ticket), or leaving twice."""
    text = "Create a support ticket for the customer."
    other = {"type": "object", "properties": {}}
    base = [ts("a.json", t("keep", file="a.json")),
            ts("b.json", t("create_ticket", text, file="b.json"), t("x", file="b.json"))]
    head = [ts("a.json", t("keep", file="a.json"), t("create_ticket", text, file="a.json"),
               t("open_ticket", text, file="a.json")),
            ts("b.json", t("x", file="b.json")),
            ts("c.json", t("create_ticket", "File a bug.", other, file="c.json"))]
    assert diff_toolsets(base, head, {}).moved_renames() == {}
    base = [ts("a.json", t("create_ticket", text, file="a.json"), t("k", file="a.json")),
            ts("b.json", t("create_ticket", "File a bug.", other, file="b.json"),
               t("open_ticket", text, file="b.json"), t("k2", file="b.json"))]
    head = [ts("a.json", t("k", file="a.json")), ts("b.json", t("k2", file="b.json")),
            ts("c.json", t("new_ticket", text, file="c.json"))]
    assert diff_toolsets(base, head, {}).moved_renames() == {}


def test_a_move_under_a_new_name_beside_an_unrelated_namesake_elsewhere() -> None:
    """Findings are keyed by (toolset, name): another open_ticket added in a third file takes nothing from
    this one, which moved word for word from old.json to new.json."""
    text = "Create a support ticket for the customer."
    other = {"type": "object", "properties": {"id": {"type": "integer"}}}
    base = [ts("old.json", t("create_ticket", text, file="old.json"),
               t("k", "Keep.", other, file="old.json")),
            ts("other.json", t("k2", "Keep.", other, file="other.json"))]
    head = [ts("old.json", t("k", "Keep.", other, file="old.json")),
            ts("new.json", t("open_ticket", text, file="new.json")),
            ts("other.json", t("k2", "Keep.", other, file="other.json"),
               t("open_ticket", "Open a jira issue.", other, file="other.json"))]
    assert diff_toolsets(base, head, {}).moved_renames() == {
        ("old.json", "create_ticket"): ("new.json", "open_ticket")}


def test_a_twin_renamed_in_place_keeps_its_toolset_s_findings_from_a_twin_that_moved() -> None:
    """y.json had two tools named b: one is renamed to a in place, the other moves to x.json, which keeps an
    `a` of its own. The findings keyed (y.json, b) followed both maps at once and landed on x.json's a."""
    one, two = {"type": "object", "properties": {"q": {"type": "string"}}}, {"type": "object"}
    first, second = "Create a support ticket for the customer.", "Delete the given user account now."
    base = [ts("x.json", t("a", first, two, file="x.json")),
            ts("y.json", t("b", second, one, file="y.json"), t("b", first, one, file="y.json"))]
    head = [ts("x.json", t("a", first, two, file="x.json"), t("b", first, two, file="x.json")),
            ts("y.json", t("a", second, one, file="y.json"))]
    tree = diff_toolsets(base, head, {})
    key = ("y.json", "b")
    assert (tree.move_map().get(key, "y.json"), tree.name_map().get(key, "b")) != ("x.json", "a")
