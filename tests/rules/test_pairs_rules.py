"""The overlap rules: documented examples, blast evidence, guards, one headline per pair."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tooldiff.blast import assess, guards
from tooldiff.docs import docstring
from tooldiff.eval import make_tool, run_toolset
from tooldiff.pairs import analyse, check_pair
from tooldiff.rules import PAIR_PRECEDENCE, get
from tooldiff.rules.base import Context

PAIR_CODES = ("mutual-nondistinction", "directional-domination", "intent-overlap", "blast-radius-twin")
TOOL_CODES = ("unanalysable-description", "escalation-flag", "mode-argument")
CTX = Context()


def _fires(module: ModuleType, tools: list[dict[str, Any]]) -> bool:
    made = [make_tool(t, i) for i, t in enumerate(tools)]
    if module.KIND == "pair":
        views = [analyse(t, CTX) for t in made]
        return any(
            module.check(views[i], views[j], CTX) is not None
            for i in range(len(views))
            for j in range(i + 1, len(views))
        )
    return any(list(module.check(t, CTX)) for t in made)


@pytest.mark.parametrize("code", PAIR_CODES + TOOL_CODES)
def test_example_fires_and_fixed_does_not(code: str) -> None:
    module = get(code)
    assert _fires(module, module.EXAMPLE), f"{code}: EXAMPLE must fire"
    assert not _fires(module, module.FIXED), f"{code}: FIXED must stay silent"


@pytest.mark.parametrize("code", PAIR_CODES + TOOL_CODES)
def test_docstring_has_the_sections(code: str) -> None:
    doc = docstring(get(code))
    for section in ("## What it finds", "## Why it matters", "## Example", "## Use instead", "## References"):
        assert section in doc, f"{code} lacks {section}"


def test_directional_domination_is_silent_below_two_terms() -> None:
    module = get("directional-domination")
    tools = [
        {"name": "docs", "description": ""},
        {"name": "docs_history", "description": "History of the docs."},
    ]
    assert not _fires(module, tools)


def test_directional_domination_says_which_added_terms_only_the_name_holds() -> None:
    """ionoscloud-mcp (docker registry): "every term of it (..., zone) ... which adds secondary, zone" read
    as a contradiction; `zone` is added to the name, while the other's description has it too."""
    tools = [
        {"name": "list_dns_records", "description": "List all DNS records across all zones"},
        {
            "name": "list_dns_secondary_zone_records",
            "description": "List all DNS records in a specific secondary zone",
            "input_schema": {"type": "object", "properties": {"secondary_zone_id": {"type": "string"}}},
        },
    ]
    a, b = (analyse(make_tool(t, i), CTX) for i, t in enumerate(tools))
    problem = get("directional-domination").check(a, b, CTX)
    assert problem is not None and "which adds secondary, and zone in its name." in problem.message, problem


def test_alias_notice_does_not_count_as_a_boundary() -> None:
    alias = [
        {"name": "read_file", "description": "Read the contents of a file. Deprecated: use read_text_file."},
        {"name": "read_text_file", "description": "Read the contents of a file as text."},
    ]
    got = run_toolset([make_tool(t, i) for i, t in enumerate(alias)])
    assert got.pairs[("read_file", "read_text_file")][0] == "intent-overlap"


def test_one_headline_per_pair_with_the_others_related() -> None:
    tools = [
        {"name": "search_docs", "description": "Search the docs.", "input_schema": {"type": "object"}},
        {"name": "find_docs", "description": "Find documentation.", "input_schema": {"type": "object"}},
    ]
    a, b = (analyse(make_tool(t, i), CTX) for i, t in enumerate(tools))
    got = check_pair(a, b, {code: CTX for code in PAIR_PRECEDENCE})
    assert got is not None
    code, problem = got
    assert code == "intent-overlap" and problem.related == ("mutual-nondistinction",)
    assert problem.tools == ("find_docs", "search_docs")
    # A disabled rule (absent from contexts) is not run.
    only = check_pair(a, b, {"mutual-nondistinction": CTX})
    assert only is not None and only[0] == "mutual-nondistinction" and only[1].related == ()


def _tool(name: str, desc: str, **extra: Any) -> Any:
    return make_tool({"name": name, "description": desc, "input_schema": {"type": "object"}, **extra})


def test_blast_evidence_order_config_then_annotations_then_lexicon() -> None:
    t = _tool("purge_cache", "Permanently delete every cached page.", annotations={"readOnlyHint": True})
    assert assess(t, {"purge_cache": {"blast": "write"}}).evidence == "config"
    assert assess(t).evidence == "annotations" and assess(t).level == "read"
    lex = assess(_tool("purge_cache", "Permanently delete every cached page."))
    assert (lex.level, lex.evidence) == ("destructive", "lexicon")
    page = assess(_tool("escalate_ticket", "Create a P1 incident and page the on-call engineer."))
    assert page.level == "external" and "page" in page.detail
    assert assess(_tool("get_page", "Get one documentation page.")).level == "read"


def test_undo_sentences_are_not_the_tool_effect() -> None:
    t = _tool("link_contacts", "Record that two contacts are the same person. Undo by deleting the link.")
    assert not assess(t).dangerous


def test_guards_are_values_the_model_cannot_make_up() -> None:
    def schema(**props: Any) -> dict[str, Any]:
        return {"type": "object", "properties": props, "required": list(props)}

    approval = {
        "type": "string",
        "description": "Id of the human approval record, as returned by request_approval",
    }
    assert guards(make_tool({"name": "m", "input_schema": schema(confirmed_by=approval)})) == (
        "confirmed_by",
    )
    assert guards(make_tool({"name": "m", "input_schema": schema(confirmation_token={"type": "string"})}))
    # A required free-text reason is a description with a colon in it.
    assert guards(make_tool({"name": "m", "input_schema": schema(reason={"type": "string"})})) == ()
    # So is anything else the model can fill in from its own reasoning, whatever its name says.
    made_up = {
        "confirm": {"type": "boolean", "description": "Set to true to confirm the merge"},
        "max_tokens": {"type": "integer", "description": "Length of the merge summary"},
        "signature": {"type": "string", "description": "Your signature line for the audit note"},
        "revision": {"type": "string", "description": "Free-text revision note"},
        # Seed 001: a word the description dictates, or a name the model can write, is no guard either.
        "confirm_merge": {"type": "string", "description": "Write yes to confirm"},
        "confirmation": {"type": "string", "description": "Type CONFIRM to proceed with the merge"},
        "approved_by": {"type": "string", "description": "Name of the person who approved the merge"},
        "approver": {"type": "string", "description": "Who approved this merge"},
        "signature_line": {"type": "string", "description": "Sign with the assistant's name"},
        "confirmed_by": {"type": "string", "description": "Your name, to confirm the merge"},
    }
    for name, prop in made_up.items():
        assert guards(make_tool({"name": "m", "input_schema": schema(**{name: prop})})) == (), name
    version = {"type": "integer", "description": "The version as returned by get_contact"}
    assert guards(make_tool({"name": "m", "input_schema": schema(expected_version=version)}))


def test_blast_twin_message_names_evidence_and_guard() -> None:
    module = get("blast-radius-twin")
    a, b = (analyse(make_tool(t, i), CTX) for i, t in enumerate(module.EXAMPLE))
    problem = module.check(a, b, CTX)
    assert problem is not None
    assert "lexicon" in problem.message and "Do not merge" in problem.message
    assert "approval" in problem.fix and problem.evidence["dangerous"] == "merge_contacts"


def test_configured_blast_makes_a_twin_where_wording_cannot() -> None:
    tools = [
        {
            "name": "restart_service",
            "description": "Restart every instance of a service.",
            "input_schema": {
                "type": "object",
                "properties": {"service": {"type": "string"}},
                "required": ["service"],
            },
        },
        {
            "name": "reboot_service",
            "description": "Reboot the instances of a service.",
            "input_schema": {
                "type": "object",
                "properties": {"service": {"type": "string"}},
                "required": ["service"],
            },
        },
    ]
    made = [make_tool(t, i) for i, t in enumerate(tools)]
    assert run_toolset(made).pairs[("reboot_service", "restart_service")][0] == "intent-overlap"
    got = run_toolset(made, {"reboot_service": {"blast": "destructive"}})
    assert got.pairs[("reboot_service", "restart_service")][0] == "blast-radius-twin"


@pytest.mark.parametrize(("tool_name", "flag", "fires"), [
    ("kubectl_delete", "allNamespaces", True),  # Flux159 mcp-server-kubernetes
    ("databricks_delete_workspace", "recursive", True),
    ("fs_watch_directory", "recursive", False),  # watches more, destroys nothing
    ("create_directory", "recursive", False),  # mkdir -p
    ("kubectl_get", "allNamespaces", False),
])
def test_a_flag_that_widens_a_delete_is_an_escalation(tool_name: str, flag: str, fires: bool) -> None:
    tool = make_tool({"name": tool_name, "description": "Act on one path (or one resource by name).",
                      "input_schema": {"type": "object", "properties": {
                          "name": {"type": "string"}, flag: {"type": "boolean"}}}})
    assert bool(list(get("escalation-flag").check(tool, CTX))) is fires


@pytest.mark.parametrize("text", [
    "List code scanning alerts from a code host, e.g. GitHub.",  # "e.g." ends no sentence
    "List code scanning alerts. Source: GitHub.",  # nor does a colon
])
def test_a_vendor_named_after_an_abbreviation_or_a_colon_is_still_a_name(text: str) -> None:
    tool = make_tool({"name": "github_list_code_scanning_alerts", "description": text,
                      "input_schema": {"type": "object", "properties": {
                          "severity": {"type": "string", "enum": ["critical", "high", "medium", "low"]}}}})
    assert not list(get("escalation-flag").check(tool, CTX))


def test_an_undescribed_force_on_a_tool_that_writes_nothing_is_no_escalation() -> None:
    """dftracer-agents: `event_count(force)`, `aggregator(force)`, no word on what force does, on a tool that
    counts. On a tool that copies or deletes, the same undescribed force is one."""
    def tool(name: str, text: str) -> Any:
        props = {"path": {"type": "string"}, "force": {"type": "boolean", "description": ""}}
        return make_tool({"name": name, "description": text,
                          "input_schema": {"type": "object", "properties": props}})

    counts = tool("event_count", "Count valid events in the files.")
    assert not list(get("escalation-flag").check(counts, CTX))
    for name, text in (("delete_folder", "Delete a folder and its files."),
                       ("copy_file", "Copy a file to a destination path.")):
        assert list(get("escalation-flag").check(tool(name, text), CTX)), name


def test_a_force_that_only_silences_a_missing_path_is_no_escalation() -> None:
    """fastfs `fastfs_rm(force)`: "Suppress errors if path doesn't exist", as `rm -f`; the tool deletes either
    way. A force that overwrites is still one."""
    def rm(desc: str) -> Any:
        props = {"path": {"type": "string"}, "force": {"type": "boolean", "description": desc}}
        return make_tool({"name": "fastfs_rm", "description": "Remove a file or directory.",
                          "input_schema": {"type": "object", "properties": props}})

    assert not list(get("escalation-flag").check(rm("Suppress errors if path doesn't exist"), CTX))
    assert list(get("escalation-flag").check(rm("Overwrite protected files"), CTX))
    # only a missing path, on a plain force of a removal, earns it (a read-through's cases)
    for text in ("Ignore errors if approval is missing.",
                 "Suppress errors if the safeguard is already gone."):
        assert list(get("escalation-flag").check(rm(text), CTX)), text
    props = {"force": {"type": "boolean", "description": "Suppress errors if path doesn't exist"}}
    push = make_tool({"name": "git_push", "description": "Push the branch to its remote.",
                      "input_schema": {"type": "object", "properties": props}})
    assert list(get("escalation-flag").check(push, CTX))
    # a force that says more than that is judged as any force (a read-through's cases)
    for more in ("Kill and remove a running container; suppress errors if it is already gone",
                 "Force-delete even when unmerged, and ignore errors",
                 "Remove even if it is not empty; does not fail when it is missing"):
        assert list(get("escalation-flag").check(rm(more), CTX)), more


@pytest.mark.parametrize(("name", "annotations"), [
    ("github_list_code_scanning_alerts", None),  # a namespace word before the read verb
    ("alerts_by_severity", {"readOnlyHint": True}),  # the author says it reads
])
def test_a_read_tool_behind_a_prefix_or_its_annotation_is_no_escalation(
        name: str, annotations: dict[str, Any] | None) -> None:
    """Putting `github_` before every tool name made `list_code_scanning_alerts(severity: critical)` page
    someone; `readOnlyHint: true` was not read at all."""
    record: dict[str, Any] = {
        "name": name,
        "description": "List code scanning alerts in a GitHub repository.",
        "input_schema": {"type": "object", "properties": {
            "severity": {"type": "string", "enum": ["critical", "high", "medium", "low"]}}},
    }
    if annotations:
        record["annotations"] = annotations
    assert not list(get("escalation-flag").check(make_tool(record), CTX))
    # a word the description does not write as a name may be the tool's own verb (a read-through's cases)
    for verb, text, prop in (
            ("page_get_oncall", "Get the on-call engineer for a service and page them.",
             {"urgency": {"type": "string", "enum": ["P1", "P2", "P3"]}}),
            ("email_list_members", "List the members of a team and email each of them.",
             {"notify_all": {"type": "boolean"}}),
            ("page_get_oncall", "Get the on-call engineer for a service. Page them when urgent is set.",
             {"urgency": {"type": "string", "enum": ["P1", "P2", "P3"]}}),
            ("email_list_members", "List the members of a team. Email them all: notify_all does.",
             {"notify_all": {"type": "boolean"}}),
            ("page_get_oncall", "Get the on-call engineer for a service.\n1) Page them when urgent is set.",
             {"urgency": {"type": "string", "enum": ["P1", "P2", "P3"]}})):
        own = make_tool({"name": verb, "description": text,
                         "input_schema": {"type": "object", "properties": prop}})
        assert list(get("escalation-flag").check(own, CTX)), verb
    # a verb leading the name is the tool's action, whatever follows: `notify_list_members` notifies
    paging = make_tool({**record, "name": "notify_list_members", "annotations": None,
                        "description": "Notify the members of a mailing list; critical ones page them."})
    assert list(get("escalation-flag").check(paging, CTX))


@pytest.mark.parametrize(
    ("prop", "fires"),
    [
        ({"type": "boolean", "description": "Notify every member of the channel"}, True),
        ({"type": "boolean"}, False),  # named "recursive" below
    ],
)
def test_escalation_flag_reads_the_argument(prop: dict[str, Any], fires: bool) -> None:
    name = "broadcast" if fires else "recursive"
    tool = make_tool(
        {
            "name": "post",
            "description": "Post a message.",
            "input_schema": {"type": "object", "properties": {name: prop}},
        }
    )
    assert bool(list(get("escalation-flag").check(tool, CTX))) is fires


def test_a_severity_filter_on_a_read_tool_is_no_escalation() -> None:
    """github-mcp-server: `list_code_scanning_alerts(severity: critical)` lists the critical alerts; it wakes
    nobody, though its text says "alerts"."""
    tool = make_tool({
        "name": "list_code_scanning_alerts",
        "description": "List code scanning alerts in a GitHub repository.",
        "input_schema": {"type": "object", "properties": {
            "severity": {"type": "string", "enum": ["critical", "high", "medium", "low"]},
            "owner": {"type": "string"},
        }},
    })
    assert not list(get("escalation-flag").check(tool, CTX))


@pytest.mark.parametrize(
    ("name", "prop"),
    [  # playwright and chrome-devtools servers (mcp/live_tools_list): a full-page screenshot, a cold reload
        ("full_page", {"type": "boolean", "description": "Take a screenshot of the full scrollable page."}),
        ("fullPage", {"type": "boolean"}),
        ("ignoreCache", {"type": "boolean", "description": "Whether to bypass the HTTP cache when reloading "
                         "the page, to measure a cold page load."}),
    ],
)
def test_a_page_of_a_document_or_a_cache_bypass_is_no_escalation(name: str, prop: dict[str, Any]) -> None:
    tool = make_tool({"name": "take_screenshot", "description": "Take a screenshot of the current page.",
                      "input_schema": {"type": "object", "properties": {name: prop}}})
    assert not list(get("escalation-flag").check(tool, CTX))


@pytest.mark.parametrize(
    ("name", "prop"),
    [  # mcp/docker_mcp_registry: CodeMCP's refreshArchitecture, federationSync and indexDocs; dftracer
        ("force", {"type": "boolean", "description": "Force refresh even if data is fresh"}),
        ("force", {"type": "boolean", "description": "Force sync even if data is fresh"}),
        ("force", {"type": "boolean", "description": "Force re-index all docs even if unchanged"}),
        ("force_rebuild", {"type": "boolean"}),
        ("forceRefresh", {"type": "boolean"}),
    ],
)
def test_forcing_work_to_be_redone_is_no_escalation(name: str, prop: dict[str, Any]) -> None:
    tool = make_tool({"name": "sync_index", "description": "Rebuild the index from the repositories.",
                      "input_schema": {"type": "object", "properties": {name: prop}}})
    assert not list(get("escalation-flag").check(tool, CTX))


@pytest.mark.parametrize("description", [
    "If true, the copy operation will overwrite existing files at the destination.",
    "Force update if repository exists",
    "Overwrite existing files (default: false)",
    "",
])
def test_forcing_over_existing_state_stays_an_escalation(description: str) -> None:
    tool = make_tool({"name": "copy_file", "description": "Copy a file to a destination path.",
                      "input_schema": {"type": "object", "properties": {
                          "force": {"type": "boolean", "description": description}}}})
    assert list(get("escalation-flag").check(tool, CTX))


def test_only_a_force_flag_is_read_as_redoing_work() -> None:
    purge = {"type": "boolean", "description": "Purge the cache even if it is fresh."}  # it still purges
    tool = make_tool({"name": "refresh_cache", "description": "Refresh the cache.",
                      "input_schema": {"type": "object", "properties": {"purge": purge}}})
    assert list(get("escalation-flag").check(tool, CTX))


def test_a_flag_whose_false_skips_the_confirmation_says_false() -> None:
    """github-mcp-server `create_pull_request(show_ui)`: "Set to false to skip the form and execute
    directly"."""
    prop = {"type": "boolean", "description": "Whether to render the MCP App form instead of executing the "
            "request immediately. Defaults to true. Set to false to skip the form and execute directly."}
    tool = make_tool({"name": "create_pull_request", "description": "Create a new pull request.",
                      "input_schema": {"type": "object", "properties": {"show_ui": prop}}})
    [problem] = list(get("escalation-flag").check(tool, CTX))
    assert problem.message.startswith("setting show_ui to false switches"), problem.message


def test_priority_p1_counts_only_when_it_pages() -> None:
    schema = {"type": "object", "properties": {"priority": {"enum": ["P3", "P2", "P1"]}}}
    quiet = make_tool({"name": "create_task", "description": "Create a task.", "input_schema": schema})
    loud = make_tool(
        {"name": "create_task", "description": "Create a task; P1 pages the on-call.", "input_schema": schema}
    )
    assert not list(get("escalation-flag").check(quiet, CTX))
    assert next(iter(get("escalation-flag").check(loud, CTX))).pointer == "/input_schema/properties/priority"


def test_opposite_directions_are_not_an_overlap() -> None:
    tools = [
        {"name": "hsl_to_rgb", "description": "Convert an HSL colour code to an RGB colour code."},
        {"name": "rgb_to_hsl", "description": "Convert an RGB colour code to an HSL colour code."},
    ]
    got = run_toolset([make_tool(t, i) for i, t in enumerate(tools)])
    assert got.pairs.get(("hsl_to_rgb", "rgb_to_hsl"), ("none",))[0] != "intent-overlap"


def test_get_one_is_not_list_many() -> None:
    def tool(name: str, desc: str) -> dict[str, Any]:
        return {"name": name, "description": desc, "input_schema": {"type": "object"}}

    one = run_toolset(
        [
            make_tool(tool("get_workspace", "Get details of a workspace."), 0),
            make_tool(tool("list_workspaces", "List the workspaces."), 1),
        ]
    )
    many = run_toolset(
        [
            make_tool(tool("get_workspaces", "Get the workspaces."), 0),
            make_tool(tool("list_workspaces", "List the workspaces."), 1),
        ]
    )
    assert ("get_workspace", "list_workspaces") not in one.pairs
    assert many.pairs[("get_workspaces", "list_workspaces")][0] == "intent-overlap"


@pytest.mark.parametrize("name", ["mode", "Mode", "op", "action_type", "actionType", "operationType",
                                  "operation-type", "OPERATION_TYPE"])
def test_mode_argument_in_any_spelling(name: str) -> None:
    tool = {"name": "manage_file", "description": "Manage a file: read it, write it or delete it.",
            "input_schema": {"type": "object", "required": [name], "properties": {
                name: {"type": "string", "enum": ["read", "write", "delete"], "description": "What to do."}}}}
    assert _fires(get("mode-argument"), [tool])


def _mode_tool(values: list[str], description: str = "", name: str = "mode") -> dict[str, Any]:
    prop: dict[str, Any] = {"type": "string", "enum": values}
    if description:
        prop["description"] = description
    return {"name": "plan_trip", "description": "Plan a trip between two places.",
            "input_schema": {"type": "object", "required": [name], "properties": {name: prop}}}


@pytest.mark.parametrize(("values", "description"), [
    (["driving", "walking", "bicycling", "transit"], "Travel mode (driving, walking, bicycling, transit)"),
    (["raw", "markdown", "truncate"], "The mode to process the fetched content."),
    (["CBC", "CFB", "OFB", "CTR", "ECB", "GCM"], "The encryption mode to use with the cipher."),
    (["cool", "heat", "dry", "fan", "auto"], "The air conditioner's operating mode."),
    (["rewrite", "append"], ""),
])
def test_mode_argument_is_silent_on_a_mode_of_settings(values: list[str], description: str) -> None:
    """Every `mode` enum in ../shared/corpora is a setting of one behaviour (travel modes, output formats,
    cipher modes, an appliance's modes), not behaviours that would be tools of their own."""
    assert not _fires(get("mode-argument"), [_mode_tool(values, description)])


def test_mode_argument_fires_on_a_mode_of_operations_or_of_behaviours_the_text_names() -> None:
    assert _fires(get("mode-argument"), [_mode_tool(["list", "create", "delete"])])
    seed = "keyword uses the old search_docs behaviour, question the old find_document behaviour"
    assert _fires(get("mode-argument"), [_mode_tool(["keyword", "question"], seed)])
    # `action` and `operation` say by their name that each value is an operation.
    assert _fires(get("mode-argument"), [_mode_tool(["cordon", "drain", "uncordon"], name="operation")])


def _headline(a: dict[str, Any], b: dict[str, Any]) -> str:
    ctx = Context()
    got = check_pair(analyse(make_tool(a, 0), ctx), analyse(make_tool(b, 1), ctx),
                     {code: ctx for code in PAIR_PRECEDENCE})
    assert got is not None
    return got[1].message


def test_messages_list_terms_as_the_tools_wrote_them_where_the_analysis_mangled_them() -> None:
    """Over ../shared/corpora 1,275 messages listed "git, hub" (GitHub split at its capital), "postgre" (a
    plural folded from postgres) or "databrick": words no tool wrote."""
    message = _headline(
        {"name": "get_repo", "description": "Get a GitHub repository."},
        {"name": "get_repo_readme", "description": "Get the README of a GitHub repository."},
    )
    assert "(GitHub, repository, retrieval)" in message
    message = _headline(
        {"name": "add_postgres_server", "description": "Add a server to the postgres fleet."},
        {"name": "add_postgres_server_by_region",
         "description": "Add a server to the postgres fleet of one region."},
    )
    assert "postgres" in message and "postgre," not in message and "postgre)" not in message
    # A term some tool writes as it is stays as it is; the lexicon's own terms are never replaced.
    message = _headline(
        {"name": "list_clusters", "description": "List every cluster."},
        {"name": "list_clusters_by_region", "description": "List the clusters of one region."},
    )
    assert "(cluster, listing)" in message


def _view(name: str, description: str) -> Any:
    return analyse(make_tool({"name": name, "description": description}), Context())


def test_shown_keeps_split_words_apart_when_a_tool_writes_them_apart() -> None:
    from tooldiff.terms import shown

    a = _view("git_hub_sync", "Sync a git hub.")
    b = _view("sync_repo", "Sync a GitHub repo.")
    assert shown(["git", "hub", "sync"], a, b) == ["git", "hub", "sync"]
    assert shown(["git", "hub", "sync"], b) == ["GitHub", "sync"]
    # A term that only a capitalised word gives, listed without the word's other terms: the word.
    c = _view("add_server", "Add a PostgreSQL server.")
    assert shown(["postgre", "server"], c) == ["PostgreSQL", "server"]
    assert shown(["postgre", "server", "sql"], c) == ["PostgreSQL", "server"]


def test_shown_never_hides_a_term_the_tool_writes_inside_a_joined_word() -> None:
    from tooldiff.terms import shown

    flight = _view("Flight", "FlightsLogic provides Flight API to travel agents.")
    assert shown(flight.terms.all, flight) == ["agents", "flight", "FlightsLogic", "travel"]


FIRES = ("mutual-nondistinction", "directional-domination")  # the pair rules with a `fires`


def test_the_rules_with_fires_are_the_ones_tested() -> None:
    assert {code for code in PAIR_PRECEDENCE if hasattr(get(code), "fires")} == set(FIRES)


@pytest.mark.parametrize("code", FIRES)
def test_fires_says_what_check_finds(code: str) -> None:
    """`fires` (asked past a pair's headline) must agree with `check` on every pair of our labelled cases."""
    import json

    module = get(code)
    repo = Path(__file__).resolve().parents[2]
    cases = [c for f in ("own.json", "frozen.json")
             for c in json.loads((repo / "tests" / "eval" / f).read_text(encoding="utf-8"))]
    ctx = Context()
    checked = agreed = 0
    for tools in [module.EXAMPLE, module.FIXED, *(c["tools"] for c in cases)]:
        views = [analyse(make_tool(t, i), ctx) for i, t in enumerate(tools)]
        for i in range(len(views)):
            for j in range(i + 1, len(views)):
                found = module.check(views[i], views[j], ctx) is not None
                checked += 1
                agreed += found
                assert module.fires(views[i], views[j], ctx) == found
    assert agreed > 0 and checked > agreed


def test_a_pair_of_two_tools_of_one_name_says_where_each_is(tmp_path: Path) -> None:
    """1,211 pair findings of the 20k corpus read "cannot separate AddMeeting and AddMeeting" and no more."""
    import json

    from tooldiff.check import run_check
    from tooldiff.config import Config
    from tooldiff.sources import WorktreeSource

    schema = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
    tools = [{"name": "add_meeting", "description": "Add a meeting to the user's calendar.",
              "input_schema": schema},
             {"name": "add_meeting", "description": "Add a calendar meeting for the user.",
              "input_schema": schema}]
    (tmp_path / "tools.json").write_text(json.dumps(tools, indent=1), encoding="utf-8")
    report = run_check(WorktreeSource(tmp_path), Config.default())
    [pair] = [f for f in report.findings if f.code == "intent-overlap"]
    assert pair.message.endswith("Both are named add_meeting: the one at tools.json:2 and the one at "
                                 "tools.json:17."), pair.message


# Seed 001's pair, as the bundled example (examples/helpdesk) writes it.
_HELPDESK = json.loads((Path(__file__).resolve().parents[2] / "examples" / "helpdesk" / "head" / "tools.json")
                       .read_text(encoding="utf-8"))["tools"]
SEARCH_DOCS, FIND_DOCUMENT = (next(t for t in _HELPDESK if t["name"] == name)
                              for name in ("search_docs", "find_document"))


@pytest.mark.parametrize("guidance", [
    "Use for keyword lookups; for natural-language questions use find_document.",
    "Prefer find_document when the request is phrased as a natural language question.",
    "For exact keyword matches use this tool, not find_document.",
    "Use find_document instead for semantic search.",
    "For questions written in plain English use find_document.",
    "For conversational queries, use find_document instead.",
    # Reworded, as the seeds review wrote them:
    "Use find_document for questions asked in natural language.",
    "Use this for keywords; for questions use find_document.",
    "Not for questions, see find_document.",
])
def test_routing_guidance_by_phrasing_is_no_boundary(guidance: str) -> None:
    """Seed 001: three sentences of routing guidance ("search_docs is for keyword lookups and find_document
    is for natural-language questions") moved the traffic "not far enough to matter": the ambiguity is in
    the request. A boundary by how the request is worded leaves the overlap; a merge fixes it."""
    tools = [{**SEARCH_DOCS, "description": f"{SEARCH_DOCS['description']} {guidance}"}, FIND_DOCUMENT]
    got = run_toolset([make_tool(t, i) for i, t in enumerate(tools)])
    assert got.pairs[("find_document", "search_docs")][0] == "intent-overlap"


@pytest.mark.parametrize("boundary", [
    "For PDF files use find_document.",
    "For SEO keyword reports use find_document.",
    "For semantic versioning changelogs use find_document.",
    "For the keywords of a page's metadata, use find_document.",
    "For natural-language processing papers use find_document.",
    "For questions about billing use find_document.",
    "For questions customers ask about billing, use find_document.",
    "For questions that need an account lookup, use find_document.",
])
def test_boundary_by_what_the_request_names_still_counts(boundary: str) -> None:
    """A boundary by the thing asked for (PDF files, keyword reports) is one a request states, even where
    the thing is named with a word that elsewhere speaks of phrasing."""
    tools = [{**SEARCH_DOCS, "description": f"{SEARCH_DOCS['description']} {boundary}"}, FIND_DOCUMENT]
    got = run_toolset([make_tool(t, i) for i, t in enumerate(tools)])
    assert ("find_document", "search_docs") not in got.pairs


def test_a_vendor_word_written_as_a_name_is_found_as_before_in_linear_time() -> None:
    """`_written_as_a_name` copied the text before every match: "Foo. " 8,000 times took 24 s. It must say
    what the copying version said."""
    import random
    import re

    from tooldiff import blast

    def copying(word: str, description: str) -> bool:
        for m in re.finditer(rf"\b{re.escape(word)}\b", description, re.I):
            written = m.group()
            if written.islower() or written.isupper():
                continue
            before = description[:m.start()].rstrip(blast._OPENERS)
            ends = bool(before) and before[-1] in ".!?;…\n" and not blast._ABBREVIATION.search(before)
            if before and not ends:
                return True
        return False

    rng = random.Random(5)
    pieces = ["Foo", "foo", "FOO", " ", ". ", "e.g. ", "(", "'", "1", "\n", "bar", "; ", "etc. ", "vs. "]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        assert blast._written_as_a_name("foo", text) == copying("foo", text), text
    assert blast.read_lead("foo_list_items", "List it. " + "Foo. " * 20000) is None  # Foo opens sentences
