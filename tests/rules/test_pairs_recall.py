"""Pairs of real tools from one MCP server that the pair rules missed, found by a recall audit of 345 real
servers (the candidates: names with one object and synonym verbs, or near-identical descriptions). Each
pair cites its server; descriptions are verbatim, schemas cut to the arguments that matter (the Docker
registry lists some tools without their schema)."""

from __future__ import annotations

from typing import Any

import pytest

from tooldiff.eval import make_tool, run_toolset


def _t(name: str, description: str, schema: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, "input_schema": schema or {"type": "object"}, **extra}


def _headline(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    got = run_toolset([make_tool(a, 0), make_tool(b, 1)])
    found = got.pairs.get(tuple(sorted((a["name"], b["name"]))))  # type: ignore[call-overload]
    return found[0] if found else None


_QUERY = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}

# A listing that searches too, or a search that opens by listing, is one action with the search beside it.
LIST_THAT_SEARCHES = [
    pytest.param(  # google-workspace, Docker MCP registry
        _t(
            "gmail_list_messages",
            "List Gmail messages with optional filters (max_results, query, label_ids)",
        ),
        _t("gmail_search_messages", "Search Gmail messages using advanced query syntax"),
        id="google-workspace-gmail-list-vs-search",
    ),
    pytest.param(  # helpscout-mcp-server, Docker MCP registry
        _t("listAllInboxes", "List all inboxes with IDs"),
        _t("searchInboxes", "List or search inboxes by name"),
        id="helpscout-list-all-vs-list-or-search-inboxes",
    ),
]


@pytest.mark.parametrize(("a", "b"), LIST_THAT_SEARCHES)
def test_a_listing_that_searches_overlaps_the_search(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert _headline(a, b) == "intent-overlap"


# A plain listing next to a search by query stays apart: "list my sessions" is not "find the session about X".
LIST_ALL_AND_SEARCH = [
    pytest.param(  # post-cortex, Docker MCP registry
        _t("list_sessions", "List all sessions"),
        _t("search_sessions", "Search sessions by name or description", _QUERY),
        id="post-cortex-list-vs-search-sessions",
    ),
    pytest.param(  # keeper-secrets-manager, Docker MCP registry
        _t(
            "list_secrets",
            "List all secrets with metadata. Supports folder filtering.",
            {"type": "object", "properties": {"folder_uid": {"type": "string"}}, "required": ["folder_uid"]},
        ),
        _t("search_secrets", "Search secrets by title or content.", _QUERY),
        id="keeper-list-vs-search-secrets",
    ),
    # modelcontextprotocol/server-filesystem (live tools/list): "finding" is in a later sentence
    pytest.param(
        _t(
            "list_directory",
            "Get a detailed listing of all files and directories in a specified path. Results clearly "
            "distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is "
            "essential for understanding directory structure and finding specific files within a directory. "
            "Only works within allowed directories.",
            {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            annotations={"readOnlyHint": True, "openWorldHint": False},
        ),
        _t(
            "search_files",
            "Recursively search for files and directories matching a pattern. The patterns should be "
            "glob-style patterns that match paths relative to the working directory. Use pattern like "
            "'*.ext' to match files in current directory, and '**/*.ext' to match files in all "
            "subdirectories. Returns full paths to all matching items. Great for finding files when you "
            "don't know their exact location. Only searches within allowed directories.",
            {
                "type": "object",
                "properties": {"path": {"type": "string"}, "pattern": {"type": "string"}},
                "required": ["path", "pattern"],
            },
            annotations={"readOnlyHint": True, "openWorldHint": False},
        ),
        id="filesystem-list-directory-vs-search-files",
    ),
    pytest.param(  # BFCL (both tools): "Retrieves a list of" uses the word as a noun, it does not list
        _t(
            "Events_3_FindEvents",
            "Retrieves a list of cultural events such as concerts and plays happening in a specified city "
            "on a given date.",
        ),
        _t(
            "list_events",
            "Retrieves a list of events that occur within a specified date and time range, formatted "
            "according to ISO-8601 standards.",
        ),
        id="bfcl-find-cultural-events-vs-list-calendar-events",
    ),
]


@pytest.mark.parametrize(("a", "b"), LIST_ALL_AND_SEARCH)
def test_a_plain_listing_and_a_search_stay_apart(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert _headline(a, b) in (None, "directional-domination")


def test_searches_in_a_listing_name_are_its_object() -> None:
    """`list_searches` lists running searches; it does not search. From
    mcp/live_tools_list/tools_list_by_server.json: Desktop Commander's list_searches against another server's
    `query`, which a first draft of the listing/search rule flagged."""
    pad = "\n" + " " * 24
    a = _t(
        "list_searches",
        f"{pad}List all active searches.{pad}{pad}Shows search IDs, search types, patterns, status, and "
        f"runtime.{pad}Similar to list_sessions for terminal processes. Useful for managing{pad}multiple "
        "concurrent searches.",
    )
    b = _t(
        "query", "Run a read-only SQL query", {"type": "object", "properties": {"sql": {"type": "string"}}}
    )
    assert _headline(a, b) is None


def test_one_description_under_two_verbs_is_an_overlap() -> None:
    # A review's miss: both "Get the current weather for a city."; lookup is a search, get a retrieval, and
    # those two actions stay apart elsewhere (search_docs / get_doc), but here the text is all a router has.
    text = "Get the current weather for a city."
    city = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    a = {"name": "get_weather", "description": text, "input_schema": city}
    b = {"name": "lookup_weather", "description": text, "input_schema": city}
    assert _headline(a, b) == "intent-overlap"
