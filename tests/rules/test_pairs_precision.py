"""Pairs of real tools from one MCP server that the pair rules must not flag (or must flag), found by sampling
the findings on `../shared/corpora` (each pair cites its server and corpus file). Descriptions are verbatim;
schemas are cut to the arguments that matter."""

from __future__ import annotations

from typing import Any

import pytest

from tooldiff.eval import make_tool, run_toolset

DOCKER = "mcp/docker_mcp_registry/tools.json"
K8S = "histories/kubernetes-mcp-server (head)"


def _schema(**props: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {k: {"type": v} for k, v in props.items()},
        "required": list(props),
    }


def _headline(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    got = run_toolset([make_tool(a, 0), make_tool(b, 1)])
    found = got.pairs.get(tuple(sorted((a["name"], b["name"]))))  # type: ignore[call-overload]
    return found[0] if found else None


def _t(name: str, description: str, schema: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, "input_schema": schema or {"type": "object"}, **extra}


# A word that is filler in prose ("Note: ...", "runs the query", "returns") names the object in a tool name.
NAME_NOUNS = [
    pytest.param(  # autotask-mcp, DOCKER: mutual-nondistinction on (autotask, creation, ticket)
        _t("autotask_create_ticket", "Create a new ticket in Autotask", _schema(companyID="number")),
        _t("autotask_create_ticket_note", "Create a new note for a ticket", _schema(ticketId="number")),
        id="autotask-ticket-vs-ticket-note",
    ),
    pytest.param(  # nex, DOCKER: intent-overlap on (creation)
        _t("create_object", "Create a new custom object type definition.", _schema(name="string")),
        _t("create_note", "Create a new note, optionally linked to a record.", _schema(content="string")),
        id="nex-object-vs-note",
    ),
    pytest.param(  # dbt-mcp, DOCKER: intent-overlap on (job, retrieval)
        _t("get_job_details", "Get detailed information about a specific job"),
        _t("get_job_run_details", "Get detailed information about a specific job run"),
        id="dbt-job-vs-job-run",
    ),
    pytest.param(  # pancake-mcp, DOCKER: mutual-nondistinction on (creation, order)
        _t("create_order", "Create a new order"),
        _t("create_return_order", "Create a return order"),
        id="pancake-order-vs-return-order",
    ),
    pytest.param(  # K8S: blast-radius-twin "pods_get and pods_run overlap in intent"
        _t(
            "pods_get",
            "Get a Kubernetes Pod in the current or provided namespace with the provided name",
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            annotations={"readOnlyHint": True, "openWorldHint": True, "destructiveHint": False},
        ),
        _t(
            "pods_run",
            "Run a Kubernetes Pod in the current or provided namespace with the provided container image and "
            "optional name",
            {"type": "object", "properties": {"image": {"type": "string"}}, "required": ["image"]},
            annotations={"readOnlyHint": False, "openWorldHint": True, "destructiveHint": False},
        ),
        id="k8s-pods-get-vs-pods-run",
    ),
    pytest.param(  # serena, DOCKER: intent-overlap, "after" and "before" dropped as stopwords
        _t("insert_after_symbol", "Inserts content after the end of the definition of a given symbol."),
        _t("insert_before_symbol",
           "Inserts content before the beginning of the definition of a given symbol."),
        id="serena-insert-after-vs-before",
    ),
]


@pytest.mark.parametrize(("a", "b"), NAME_NOUNS)
def test_a_noun_of_the_name_distinguishes_even_when_prose_calls_it_filler(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    # One name extending the other (ticket / ticket_note) is seed 000's directional domination, as
    # get_page / get_page_history: the longer name adds a term. Never an overlap or "the same terms".
    assert _headline(a, b) in (None, "directional-domination")


def test_run_and_execute_in_names_still_meet() -> None:
    """The noun kept in a name must not split two tools named by synonyms of one verb."""
    a = _t("run_query", "Run a read-only SQL query against the database.", _schema(sql="string"))
    b = _t("execute_query", "Execute a read-only SQL query against the database.", _schema(sql="string"))
    assert _headline(a, b) == "intent-overlap"


# The last word of a name that its own description paraphrases ("config" / "XML configuration") is not a
# vendor suffix (`web_search_exa`) when the neighbour shares the rest of the name or its namespace.
NOT_A_VENDOR = [
    pytest.param(  # jenkins, DOCKER: intent-overlap on (jenkin, job, retrieval)
        _t("get_job", "Get detailed information about a specific Jenkins job", _schema(job_name="string")),
        _t("get_job_config", "Get the XML configuration of a Jenkins job", _schema(job_name="string")),
        id="jenkins-job-vs-job-config",
    ),
    pytest.param(  # helpscout-mcp-server, DOCKER
        _t("getOrganization", "Get an organization by ID with optional customer and conversation counts"),
        _t("getOrganizationMembers", "Get all customers belonging to an organization"),
        id="helpscout-organization-vs-members",
    ),
    pytest.param(  # tesserin, DOCKER (after the name words above, "connections" was the stripped edge)
        _t(
            "get_note",
            "Retrieve the full content and metadata of a single note by its ID.",
            _schema(note_id="string"),
        ),
        _t(
            "get_note_with_connections",
            "Get a note along with all its backlinks and outgoing wiki-links.",
            _schema(note_id="string"),
        ),
        id="tesserin-note-vs-note-with-connections",
    ),
    pytest.param(  # math-mcp-server, DOCKER: intent-overlap on (complex)
        _t("complex_conj", "Complex conjugate", _schema(real="number", imag="number")),
        _t("complex_rect", "Convert polar form to complex number", _schema(r="number", theta="number")),
        id="math-complex-conj-vs-rect",
    ),
    pytest.param(  # posthog, DOCKER: intent-overlap on (retrieval, survey)
        _t("surveys-get-all", "Get all surveys in the project with optional filtering"),
        _t("survey-stats", "Get response statistics for a specific survey"),
        id="posthog-surveys-vs-survey-stats",
    ),
]


@pytest.mark.parametrize(("a", "b"), NOT_A_VENDOR)
def test_a_paraphrased_last_word_is_not_a_vendor_suffix_next_to_a_sibling(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    assert _headline(a, b) in (None, "directional-domination")


# A number written onto a name word is part of it: log10 is not log2, sha1 is not sha256; a version is not.
DIGITS = [
    pytest.param(  # math-mcp-server, DOCKER: intent-overlap on (base, log, logarithm)
        _t("log10", "Base-10 logarithm of x", _schema(x="number")),
        _t("log2", "Base-2 logarithm of x", _schema(x="number")),
        id="math-log10-vs-log2",
    ),
    pytest.param(  # math-mcp-server, DOCKER: intent-overlap on (exp, power, raised)
        _t("exp", "e raised to the power x (e^x)", _schema(x="number")),
        _t("exp2", "2 raised to the power x (2^x)", _schema(x="number")),
        id="math-exp-vs-exp2",
    ),
    pytest.param(  # devutils-mcp-server, DOCKER: intent-overlap on (generate, hash, input, sha)
        _t("hash_sha1", "Generate a SHA-1 hash of the given input string.", _schema(input="string")),
        _t("hash_sha256", "Generate a SHA-256 hash of the given input string.", _schema(input="string")),
        id="devutils-sha1-vs-sha256",
    ),
]


@pytest.mark.parametrize(("a", "b"), DIGITS)
def test_a_number_on_a_name_word_distinguishes(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert _headline(a, b) in (None, "directional-domination")


def test_a_version_suffix_is_not_a_term() -> None:
    a = _t("search_docs", "Search the documentation for pages matching a query.", _schema(query="string"))
    b = _t("search_docs_v2", "Search the documentation for pages matching a query.", _schema(query="string"))
    assert _headline(a, b) == "intent-overlap"


def test_a_name_word_with_digits_is_not_a_vendor_prefix() -> None:
    # devutils-mcp-server, DOCKER: once "base64" was a term, its description's "Base64" (split "base") left it
    # unused, so it was dropped as a vendor prefix and base64_encode met hex_encode.
    a = _t("base64_encode", "Encode a string to Base64.", _schema(input="string"))
    b = _t("hex_encode", "Encode a string to its hexadecimal representation.", _schema(input="string"))
    assert _headline(a, b) is None


@pytest.mark.parametrize(
    ("name", "description"),
    [("archive_cycle", "Archive a cycle"), ("remove_role", "Remove a role from a server member")],  # plane,
)  # discord-agent (DOCKER): blast-radius-twin called them "read" next to delete_cycle / delete_role
def test_archive_and_remove_are_writes(name: str, description: str) -> None:
    from tooldiff.blast import assess

    assert assess(make_tool(_t(name, description))).level == "write"


@pytest.mark.parametrize(("name", "description"), [
    ("remove_file", "Remove a file from the workspace by path."),
    ("rm_dir", "Removes the directory and everything in it."),
    ("remove_container", "Remove a stopped container."),
    ("delete_branch", "Remove a branch from the repository."),
])
def test_removing_a_file_or_a_resource_destroys_it(name: str, description: str) -> None:
    """A first-time user's `remove_file` was called a mere write beside `write_file`: a file, a folder, a
    container or a branch removed is gone, as a role removed from a member is not."""
    from tooldiff.blast import assess

    assert assess(make_tool(_t(name, description))).level == "destructive"


# openWorldHint says a tool talks to an open world (the web, GitHub), not that a wrong call reaches people.
_WRITE_OPEN = {
    "destructiveHint": False,
    "idempotentHint": False,
    "openWorldHint": True,
    "readOnlyHint": False,
}
_REVIEW_ARGS = ("owner", "repo", "pullNumber", "path", "body", "subjectType")
_REVIEW = {
    "type": "object",
    "properties": {k: {"type": "string"} for k in _REVIEW_ARGS},
    "required": list(_REVIEW_ARGS),
}


def test_an_open_world_write_is_a_write_unless_its_wording_says_more() -> None:
    from tooldiff.blast import assess

    scrape = make_tool(  # firecrawl-mcp, mcp/live_tools_list/tools.json
        _t(
            "firecrawl_scrape",
            "Scrape content from a single URL with advanced options.",
            annotations=_WRITE_OPEN,
        )
    )
    got = assess(scrape)
    assert (got.level, got.evidence) == ("write", "annotations")
    send = make_tool(_t("send_message", "Send a message to a Slack channel.", annotations=_WRITE_OPEN))
    assert assess(send).level == "external"


def test_two_copies_of_one_tool_are_an_overlap_not_a_blast_twin() -> None:
    # github-mcp-server (head of histories/github-mcp-server): the same schema, one without openWorldHint.
    a = _t(
        "add_comment_to_pending_review",
        "Add review comment to the requester's latest pending pull request review. A pending review needs to "
        "already exist to call this (check with the user if not sure).",
        _REVIEW,
        annotations={"idempotentHint": False, "readOnlyHint": False},
    )
    b = _t(
        "add_pull_request_review_comment",
        "Add a review comment to the current user's pending pull request review.",
        _REVIEW,
        annotations=_WRITE_OPEN,
    )
    assert _headline(a, b) == "intent-overlap"


def test_opposite_directions_are_distinct_terms_for_h16() -> None:
    # math-mcp-server, DOCKER: mutual-nondistinction "the same analysed terms (convert, degree, radian)".
    a = _t("degrees_to_radians", "Convert degrees to radians", _schema(degrees="number"))
    b = _t("radians_to_degrees", "Convert radians to degrees", _schema(radians="number"))
    assert _headline(a, b) is None


def test_slash_separated_prose_words_are_words_not_a_tool_name() -> None:
    # frihet, DOCKER: "leave/PTO" was blanked as an identifier, so "leave" looked unused by the description
    # and was dropped as a vendor word; the pair was an intent overlap on "listing" alone.
    a = _t(
        "leave_list",
        "List leave/PTO requests with optional filters. Filter by employee, status "
        "(pending/approved/rejected/cancelled), or period (date range). Useful for HR dashboards, calendar "
        "views, balance tracking. / Lista solicitudes de permisos con filtros opcionales (empleado, estado, "
        "periodo).",
    )
    b = _t(
        "list_vendors",
        "List all vendors/suppliers with optional pagination and search. Returns contact info, tax IDs, and "
        "addresses. / Lista todos los proveedores con paginacion y busqueda opcional. Devuelve informacion "
        "de contacto, NIF/CIF y direcciones.",
    )
    assert _headline(a, b) is None


def _by_identifier(thing: str) -> dict[str, Any]:
    """pokeapi's schema: one required `identifier`, described as "<thing> name or ID"."""
    described = {"type": "string", "description": f"{thing} name or ID"}
    return {"type": "object", "properties": {"identifier": described}, "required": ["identifier"]}


_POKEMON = _t(  # pokeapi, DOCKER
    "get_pokemon",
    "Get detailed Pokémon information including stats, types, abilities, and sprites by name or ID",
    _by_identifier("Pokémon"),
)
_ABILITY = _t(
    "get_ability",
    "Get ability information including effects and Pokémon that have it",
    _by_identifier("Ability"),
)
_POKEDEX = _t(
    "get_pokedex",
    "Get Pokédex entries and descriptions",
    _by_identifier("Pokédex"),
)


def test_an_accented_word_is_one_word() -> None:
    # pokeapi, DOCKER: "Pokémon" was split into "pok" and "mon", so get_pokemon's own "pokemon" looked unused,
    # was dropped as a vendor word, and get_pokedex / get_pokemon were an intent overlap on (pok, retrieval).
    from tooldiff.terms import extract

    assert {"pokemon", "ability"} <= extract(_ABILITY["name"], _ABILITY["description"]).desc
    assert "pokedex" in extract(_POKEDEX["name"], _POKEDEX["description"]).desc
    assert _headline(_POKEDEX, _POKEMON) is None


@pytest.mark.xfail(strict=True, reason="each description names the other's object as related content")
def test_names_with_different_objects_that_mention_each_other() -> None:
    # Still an intent overlap on (ability, pokemon, retrieval): get_ability lists "Pokémon that have it" and
    # get_pokemon "abilities"; each name's object is in the other's text, and `identifier` matches by name.
    assert _headline(_POKEMON, _ABILITY) is None


_CLIP = {
    "type": "object",
    "properties": {"clip_id": {"type": "string"}, "duration": {"type": "number"}},
    "required": ["clip_id", "duration"],
}
PARTICLES = [
    pytest.param(  # vidmagik-mcp, DOCKER: intent-overlap on (afx, audio, fade)
        _t("afx_audio_fade_in", "Audio fade in.", _CLIP),
        _t("afx_audio_fade_out", "Audio fade out.", _CLIP),
        id="vidmagik-fade-in-vs-fade-out",
    ),
    pytest.param(  # mysql-mcp, DOCKER: intent-overlap on (mysql, payment, rollback)
        _t("mysql_transaction_rollback", "Rollback the current transaction."),
        _t("mysql_transaction_rollback_to", "Rollback to a savepoint within the current transaction."),
        id="mysql-rollback-vs-rollback-to",
    ),
]


@pytest.mark.parametrize(("a", "b"), PARTICLES)
def test_a_particle_that_ends_a_name_is_a_word_of_it(a: dict[str, Any], b: dict[str, Any]) -> None:
    # fade_in / fade_out, step_into / step_over, compose_up / compose_down: the stopword that ends the name
    # is its direction, not a preposition before an object.
    assert _headline(a, b) in (None, "directional-domination")


_AB = _schema(a="integer", b="integer")
_MASKS = _schema(clip_id="string", other_clip_id="string")
OPERATORS = [
    pytest.param(  # vidmagik-mcp, DOCKER: intent-overlap on (logical, mask, vfx)
        _t("vfx_masks_and", "Logical AND of masks.", _MASKS),
        _t("vfx_masks_or", "Logical OR of masks.", _MASKS),
        id="vidmagik-masks-and-vs-or",
    ),
    pytest.param(  # math-mcp-server, DOCKER: bit_and / bit_or / bit_not all come down to (bit, bitwise)
        _t("bit_and", "Bitwise AND of a and b", _AB),
        _t("bit_or", "Bitwise OR of a and b", _AB),
        id="math-bit-and-vs-or",
    ),
    pytest.param(  # math-mcp-server, DOCKER
        _t("bit_not", "Bitwise NOT of a (complement)", _schema(a="integer")),
        _t("bit_or", "Bitwise OR of a and b", _AB),
        id="math-bit-not-vs-or",
    ),
]


@pytest.mark.parametrize(("a", "b"), OPERATORS)
def test_a_logical_operator_that_ends_a_name_is_a_word_of_it(a: dict[str, Any], b: dict[str, Any]) -> None:
    # and / or / not are stopwords in prose, but the operator a name ends in is what the tool computes.
    assert _headline(a, b) is None


def test_a_name_word_the_description_writes_as_two_words_is_those_words() -> None:
    # vidmagik-mcp, DOCKER: intent-overlap "A router cannot separate write_audiofile and write_videofile":
    # "audiofile" is never a word of "Write an audio clip to a file", so it was stripped as a vendor suffix
    # and both names came down to (write). A name word the description spells as two words is those words.
    clip = {"clip_id": "string", "filename": "string", "fps": "integer", "codec": "string"}
    a = _t("write_audiofile", "Write an audio clip to a file.", _schema(**clip))
    b = _t("write_videofile", "Write a video clip to a file.", _schema(**clip, audio_codec="string"))
    assert _headline(a, b) is None


def test_a_transaction_is_not_a_payment() -> None:
    # mysql-mcp, DOCKER: mysql_transaction_rollback / mysql_transaction_rollback_to "share mysql, payment,
    # rollback". A transaction is also a database's, a blockchain's or Sentry's: the word stays itself.
    from tooldiff.terms import extract

    got = extract("mysql_transaction_rollback", "Rollback the current transaction.")
    assert got.all == {"mysql", "transaction", "rollback"}


def test_chat_is_not_a_message() -> None:
    # google-workspace, DOCKER: intent-overlap on (google, listing, message, space): "chat" was a synonym of
    # message, so "Google Chat" put the messages of chat_list_messages into chat_list_spaces.
    a = _t("chat_list_spaces", "List all Google Chat spaces the user is a member of")
    b = _t("chat_list_messages", "List messages in a Google Chat space")
    assert _headline(a, b) in (None, "directional-domination")


def test_a_plural_filler_word_does_not_make_a_name_plural() -> None:
    # postgres-mcp-enhanced, DOCKER: intent-overlap on (object): "details" ended the name, so
    # get_object_details read as a plural retrieval ("returns many"), which a router cannot tell from
    # list_objects.
    obj = {"type": "string"}
    a = _t(
        "list_objects",
        "List objects in a schema",
        {
            "type": "object",
            "properties": {"schema_name": obj, "object_type": obj},
            "required": ["schema_name", "object_type"],
        },
    )
    b = _t(
        "get_object_details",
        "Show detailed information about a database object",
        {
            "type": "object",
            "properties": {"schema_name": obj, "object_name": obj, "object_type": obj},
            "required": ["schema_name", "object_name", "object_type"],
        },
    )
    assert _headline(a, b) in (None, "directional-domination")


def test_a_required_name_of_the_thing_routes_like_its_id() -> None:
    # jenkins, DOCKER: intent-overlap "get_jobs and get_job ... no routing argument tells them apart". A
    # request that names one job (job_name) goes to get_job as surely as one holding its id. (H1.6 still
    # reads the same terms in both, plural folded: that is seed 000's term model, not a merge.)
    a = _t("get_jobs", "Get all jobs from Jenkins server")
    b = _t(
        "get_job",
        "Get detailed information about a specific Jenkins job",
        {
            "type": "object",
            "properties": {"job_name": {"type": "string", "description": "Name of the job"}},
            "required": ["job_name"],
        },
    )
    assert _headline(a, b) not in ("intent-overlap", "blast-radius-twin")


@pytest.mark.xfail(strict=True, reason="'current' is low-information; as a name word it split true twins")
def test_current_in_a_name_distinguishes_it_from_historical() -> None:
    # yahoo-finance, mcp/livemcpbench/tools.json: directional-domination "get_current_stock_price adds no term
    # beyond get_historical_stock_prices's": "current" is low-information, in the name as in prose. Keeping
    # it as a name word (lexicon name_words) fixes this but makes get_current_weather / get_weather,
    # api.weather / get_current_weather and 5 more weather twins of the 20k corpus distinct: not done.
    symbol = {"symbol": {"type": "string", "description": "Stock symbol in Yahoo Finance format."}}
    a = _t(
        "get_current_stock_price",
        "Get the current stock price based on stock symbol.",
        {"type": "object", "properties": symbol, "required": ["symbol"]},
    )
    b = _t(
        "get_historical_stock_prices",
        "Get historical stock prices for a given stock symbol.",
        {
            "type": "object",
            "properties": {**symbol, "period": {"type": "string"}, "interval": {"type": "string"}},
            "required": ["symbol"],
        },
    )
    assert _headline(a, b) is None


@pytest.mark.xfail(strict=True, reason="'data' is low-information in a name; keeping it split true twins")
def test_table_properties_against_table_data() -> None:
    # mcp-clickzetta-server, DOCKER: blast-radius-twin "a wrong call of modify_dynamic_table_data is
    # destructive (lexicon: delete)". The blast is right (it runs DELETE); the overlap is not: altering a
    # table's properties is not changing its rows, but "data" is dropped from the name, so both names are
    # (modify, dynamic, table). Keeping "data" as a name word drops this and 26 true twins of the 20k
    # corpus (getGeologyData / getGeologyInfo, weather.get / weather.get_weather_data): not done.
    s = {"type": "string"}
    a = _t(
        "alter_dynamic_table",
        "Modify dynamic table properties.",
        {
            "type": "object",
            "properties": {"table_name": s, "operation": s, "column_name": s},
            "required": ["table_name", "operation", "column_name"],
        },
    )
    b = _t(
        "modify_dynamic_table_data",
        "Perform insert, update, delete, and merge operations on dynamic tables.",
        {"type": "object", "properties": {"sql": s, "table_name": s}, "required": ["sql", "table_name"]},
    )
    assert _headline(a, b) in (None, "directional-domination")


LIVE = "mcp/live_tools_list/tools.json"


def test_complete_in_a_name_is_what_the_tool_does() -> None:
    # taskade, DOCKER: intent-overlap "A router cannot separate projectGet and projectComplete" and
    # directional-domination "taskComplete adds no term beyond taskMove's": "complete" is filler in prose
    # ("the complete list") but the verb of a name.
    project = _schema(projectId="string")
    task = _schema(projectId="string", taskId="string")
    assert (
        _headline(
            _t("projectGet", "Get project", project),
            _t("projectComplete", "Mark the project as completed", project),
        )
        is None
    )
    assert (
        _headline(
            _t("taskComplete", "Complete a task in a project", task),
            _t(
                "taskMove",
                "Move a task within the project",
                _schema(taskId="string", position="string", projectId="string"),
            ),
        )
        is None
    )


def test_removing_an_item_from_a_container_is_not_deleting_it() -> None:
    # plane, DOCKER: directional-domination "delete_work_item adds no term beyond
    # remove_work_item_from_cycle's" (and _from_module): taking a work item out of a cycle leaves the item;
    # "remove" folded into deletion made them one act.
    a = _t("delete_work_item", "Delete a work item by ID")
    b = _t("remove_work_item_from_cycle", "Remove a work item from a cycle")
    assert _headline(a, b) is None


def test_the_verb_reply_is_not_the_noun_replies() -> None:
    # @modelcontextprotocol/server-slack, LIVE: directional-domination "slack_reply_to_thread adds no term
    # beyond slack_get_thread_replies's": "replies" folded to the verb "reply". Posting a reply is not
    # reading the replies.
    ts = {"type": "string", "description": "The timestamp of the parent message"}
    thread = {"channel_id": {"type": "string", "description": "The ID of the channel containing the thread"}}
    a = _t(
        "slack_reply_to_thread",
        "Reply to a specific message thread in Slack",
        {
            "type": "object",
            "properties": {
                **thread,
                "thread_ts": ts,
                "text": {"type": "string", "description": "The reply text"},
            },
            "required": ["channel_id", "thread_ts", "text"],
        },
    )
    b = _t(
        "slack_get_thread_replies",
        "Get all replies in a message thread",
        {
            "type": "object",
            "properties": {**thread, "thread_ts": ts},
            "required": ["channel_id", "thread_ts"],
        },
    )
    assert _headline(a, b) is None


DERIVED = [
    pytest.param(  # docker-mcp-server, DOCKER: intent-overlap on (container, docker)
        _t(
            "container_stats",
            "Get real-time resource usage statistics for a Docker container (CPU, memory, network, I/O).",
        ),
        _t(
            "exec_in_container",
            "Execute a command inside a running Docker container. Returns stdout, stderr, and exit code.",
        ),
        id="docker-stats-vs-exec",
    ),
    pytest.param(  # mcpindex, DOCKER: intent-overlap on (server)
        _t(
            "compare_servers",
            "Side-by-side comparison of 2 to 5 MCP servers: quality scores, install paths, transport types, "
            "env vars.",
        ),
        _t(
            "assess_server",
            "Aggregated pre-flight advisory trust assessment across all tools on an MCP server.",
        ),
        id="mcpindex-compare-vs-assess",
    ),
]


@pytest.mark.parametrize(("a", "b"), DERIVED)
def test_a_name_word_the_description_derives_is_not_a_vendor_word(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    # "stats" / "statistics", "exec" / "Execute", "compare" / "comparison", "assess" / "assessment": the
    # description uses the name word in a longer form, so it is the tool's own word, not a vendor prefix.
    assert _headline(a, b) is None


LMB = "mcp/livemcpbench/tools.json"

_NCT = {
    "type": "object",
    "properties": {"nct_id": {"type": "string", "description": "NCT ID (e.g., 'NCT06524388')"}},
    "required": ["nct_id"],
}
_TRIAL = _t(  # BioMCP, LMB
    "trial_getter",
    "Fetch comprehensive details for a specific clinical trial.\n\n    Retrieves all available "
    "information for a clinical trial by its NCT ID.\n    This includes protocol details, locations, "
    "outcomes, and references.\n\n    For specific sections only, use the specialized getter tools:\n"
    "    - trial_protocol_getter: Core protocol information\n    - trial_locations_getter: Site locations "
    "and contacts\n    - trial_outcomes_getter: Primary/secondary outcomes and results\n"
    "    - trial_references_getter: Publications and references\n    ",
    _NCT,
)


def test_a_contrast_clause_that_opens_a_bullet_list_names_each_item() -> None:
    # BioMCP, LMB: intent-overlap "A router cannot separate trial_getter and trial_protocol_getter": the
    # boundary ("use the specialized getter tools:") names them in the bullets that follow it.
    protocol = _t(
        "trial_protocol_getter",
        "Fetch core protocol information for a clinical trial.\n\n    Retrieves essential protocol "
        "details including:\n    - Official title and brief summary\n    - Study status and sponsor "
        "information\n    - Study design (type, phase, allocation, masking)\n    - Eligibility criteria\n"
        "    - Primary completion date\n    ",
        _NCT,
    )
    assert _headline(_TRIAL, protocol) is None


def test_bullets_after_a_plain_sentence_are_not_a_boundary() -> None:
    from tooldiff.terms import extract

    got = extract("x", "Returns fields including:\n- see_also: other records\n- title")
    assert not any("title" in s for s in got.contrast_sentences)
    # sentry, DOCKER: get_doc lists its own uses; "documentation" there is no boundary to a tool of that name
    got = extract(
        "get_doc",
        "Fetch the full markdown content of a Sentry documentation page.\n\nUse this tool when you need to:\n"
        "- Read the complete documentation for a specific topic\n- Get detailed implementation examples",
    )
    assert got.contrast_sentences == ("use this tool when you need to:",)


_DISPATCH = {
    "type": "object",
    "properties": {"action": {"type": "string"}, "params": {"type": "object"}},
    "required": ["action", "params"],
}
_RUNNER = _t(  # gitlab-mcp-server, DOCKER (12,766 characters; cut to the first actions)
    "gitlab_runner",
    'Use {"action":"list","params":{...}}; only top-level keys are action and params.\nAction '
    "params schema: gitlab://tools/gitlab_runner.<action>.\nAction guidance:\n- delete_by_token"
    ": Delete a registered runner using its authentication token instead of a runner_id. Use "
    "when the runner agent's token is available but the numeric runner_id is not; prefer runn"
    "er.delete_registered when you have the runner_id.\n- delete_registered: Delete a register"
    "ed runner by its numeric runner_id. Use this runner-registration-API variant when you ha"
    "ve the runner_id; prefer runner.delete_by_token when only the authentication token is kn"
    "own.\n- disable_project: Remove a runner assignment from a project. Provide project_id fo"
    "r the project and runner_id for the runner to unassign; this detaches the runner without"
    " unregistering it (use runner.remove to delete the runner itself).\n- enable_project: Ass"
    "ign an existing runner to a project. Provide project_id for the target project and runne"
    "r_id for the runner to enable; use runner.list to find an available runner_id first.\n- g"
    "et: Get the full configuration of one runner by its numeric runner_id. Use after a runne"
    "r.list result or when the prompt names a concrete runner to inspect tags, lock state, ac"
    "cess level, and timeout.\n- list: List runners owned by the authenticated user. Use type,"
    " status, tag_list, and scope filters to narrow results when the prompt asks for the call"
    "er's own runners; prefer runner.list_all for an instance-wide admin view.",
    _DISPATCH,
)
_USER = _t(  # gitlab-mcp-server, DOCKER (24,741 characters; cut to the first actions and create_runner)
    "gitlab_user",
    'Use {"action":"list","params":{...}}; only top-level keys are action and params.\nAction '
    "params schema: gitlab://tools/gitlab_user.<action>.\nAction guidance:\n- activate: Activat"
    "e a deactivated user account by user_id (admin only). Use when the prompt asks to reacti"
    "vate a dormant user.\n- activities: List recent user activities (last_activity_on per use"
    "rname) optionally filtered by a from-date (admin only). Use when the prompt asks who has"
    " been active recently.\n- add_email: Add a new email address to the authenticated user's "
    "own account. The email must be a valid RFC 5322 address that is not already taken; skip_"
    "confirmation requires an admin token.\n- add_email_for_user: Add a new email address to a"
    " specific user's account by user_id (admin only). The email must be a valid RFC 5322 add"
    "ress that is not already taken.\n- add_gpg_key: Add a GPG key to the authenticated user's"
    " own account. The key must be an ASCII-armored OpenPGP public key block whose fingerprin"
    "t is unique across GitLab.\n- add_gpg_key_for_user: Add a GPG key to a specific user's ac"
    "count by user_id (admin only). The key must be an ASCII-armored OpenPGP public key block"
    " whose fingerprint is unique across GitLab.\n- create_runner: Register a CI runner scoped"
    " to the current user as instance, group, or project type. Use when the prompt asks to cr"
    "eate a runner and provide an authentication token.",
    _DISPATCH,
)


def test_an_oversized_description_does_not_hold_what_it_mentions_in_passing() -> None:
    # gitlab-mcp-server, DOCKER: 12 intent overlaps between its one-object tools on (gitlab): gitlab_user's
    # action list mentions runners ("create_runner: Register a CI runner ...") and gitlab_runner's mentions
    # the authenticated user, so each name's object was "in the other's text".
    assert len(_RUNNER["description"]) > 1024 and len(_USER["description"]) > 1024
    assert _headline(_RUNNER, _USER) is None


def test_an_oversized_description_still_holds_its_own_first_sentence() -> None:
    # The same limit must not split a long description from a twin named in its opening sentence.
    long = "Search the documentation for pages matching a query. " + "Results are ranked by relevance. " * 40
    a = _t("search_docs", long, _schema(query="string"))
    b = _t("find_docs", "Search the documentation for pages matching a query.", _schema(query="string"))
    assert _headline(a, b) == "intent-overlap"


ONE_OR_ALL = [
    pytest.param(  # jenkins, DOCKER: mutual-nondistinction "the same analysed terms (jenkin, job, retrieval)"
        _t("get_jobs", "Get all jobs from Jenkins server"),
        _t("get_job", "Get detailed information about a specific Jenkins job", _schema(job_name="string")),
        id="jenkins-jobs-vs-job",
    ),
    pytest.param(  # taskade, DOCKER: mutual-nondistinction on (field, retrieval, task, value)
        _t(
            "taskFieldsValueGet",
            "Get all field values for a task",
            _schema(projectId="string", taskId="string"),
        ),
        _t(
            "taskFieldValueGet",
            "Get the field value of a task",
            _schema(projectId="string", taskId="string", fieldId="string"),
        ),
        id="taskade-fields-vs-field",
    ),
    pytest.param(  # taskade, DOCKER: directional-domination "projectGet adds no term beyond meProjectsGet's"
        _t("projectGet", "Get project", _schema(projectId="string")),
        _t(
            "meProjectsGet",
            "Get all projects of mine",
            _schema(limit="number", page="number", sort="string"),
        ),
        id="taskade-project-vs-my-projects",
    ),
]


@pytest.mark.parametrize(("a", "b"), ONE_OR_ALL)
def test_one_thing_and_all_of_them_are_told_apart_by_the_names(a: dict[str, Any], b: dict[str, Any]) -> None:
    # The names say one returns one job, the other all jobs: a router reads the number before the words.
    assert _headline(a, b) is None


def test_singular_and_plural_twins_with_the_same_number_still_meet() -> None:
    a = _t("search_docs", "Search the documentation for pages matching a query.", _schema(query="string"))
    b = _t("find_docs", "Find documentation pages matching a query.", _schema(query="string"))
    assert _headline(a, b) == "intent-overlap"


# An alias notice names the tool it stands for right after its phrase. A tool whose name is a plain word met
# elsewhere in a sentence with "deprecated" or "same as" in it is no alias (docker registry, combined corpus).
NOT_AN_ALIAS = [
    pytest.param(
        _t("Steps", "Gets a random selection of WikiHow steps.", _schema(count="string")),
        _t("audit_package", "Deep package intelligence. Returns breaking changes across versions, CVE list "
           "with CVSS scores, official migration steps, and deprecated API surface."),
        id="steps-vs-deprecated-api-surface",
    ),
    pytest.param(
        _t("awsinspect", "INSPECTION: Inspect AWS infrastructure for a deployed project.",
           _schema(session_id="string", service="string")),
        _t("awsinspect_batch", "BATCH INSPECTION: run up to 32 AWS inspect probes in one call.\n"
           "PREREQUISITE: Same as awsinspect — deploy attempt required.", _schema(session_id="string")),
        id="prerequisite-same-as",
    ),
    pytest.param(
        _t("search", "Search the collection by keyword.", _schema(q="string")),
        _t("collection", "Get the collection. All of the other parameters are identical to the search page "
           "on the website.", _schema(q="string")),
        id="parameters-identical-to",
    ),
]


@pytest.mark.parametrize(("a", "b"), NOT_AN_ALIAS)
def test_a_name_met_in_a_sentence_that_says_deprecated_is_no_alias(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    assert _headline(a, b) is None


ALIASES = [
    pytest.param(
        _t("get_trade_call", "Returns a composite verdict for one crypto perpetual future. Read-only."),
        _t("get_trade_signal", "Returns a composite verdict for one crypto perpetual future. Read-only. "
           "[ALIAS] This tool is an alias of get_trade_call — same behavior, kept for backward "
           "compatibility."),
        id="alias-of",
    ),
    pytest.param(
        _t("transcribe_status", "Check the status of a Scriptivox transcription job.",
           _schema(transcription_id="string")),
        _t("transcription_status", "[DEPRECATED — use transcribe_status instead] Alias kept for backward "
           "compatibility with @scriptivox/mcp-server@1.0.x.", _schema(transcription_id="string")),
        id="deprecated-use",
    ),
    pytest.param(
        _t("read_text_file", "Read a text file.", _schema(path="string")),
        _t("read_file", "Read the contents of a file. Deprecated: use `read_text_file`.",
           _schema(path="string")),
        id="deprecated-colon-use-quoted",
    ),
    # A deprecation notice whose pointer is a sentence of its own ("; use X", "! Use X"), or that says more
    # before it: still a notice, not a boundary (seed 000: an alias is a collision).
    *(pytest.param(_t("find_docs", "Search the docs."), _t("search_docs", f"Search the docs. {notice}"),
                   id=f"notice-{k}")
      for k, notice in enumerate([
          "Deprecated; use find_docs.", "Deprecated! Use find_docs.", "Deprecated alias; use find_docs.",
          "This tool is deprecated and will be removed; use find_docs.", "Obsolete, use find_docs instead.",
          "Legacy name; use find_docs."])),
]


@pytest.mark.parametrize(("a", "b"), ALIASES)
def test_an_alias_notice_that_names_the_other_tool_is_an_overlap(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    assert _headline(a, b) == "intent-overlap"


def test_summaries_with_no_term_in_common_are_no_overlap() -> None:
    """Combined corpus: "they share their purpose" — each summary's terms are in the other's long text, but
    the two summaries name nothing in common; that is a tool listing what another returns, not a twin."""
    ticker = _t(
        "get_ticker_data",
        "\nReturns:\n- info: Core financial metrics (P/E ratios, margins, growth rates, debt ratios, "
        "market cap, EPS, etc.)\n- calendar: Upcoming earnings dates and dividend dates\n"
        "- news: Recent news articles (headlines, dates, sources)\n"
        "- recommendations: Latest analyst recommendations (buy/sell/hold ratings)\n",
        _schema(ticker="string", max_news="integer"),
    )
    earnings = _t("Earnings", "This endpoint returns the company earnings.",
                  _schema(to="string", symbol="string", period="string"))
    assert _headline(ticker, earnings) is None
    assert _headline(ticker, _t("metrics", "metrics")) is None


# A name led by a read verb says what the call does; danger words further on describe its object (docker
# registry: 16 of the 18 read-named tools the wording called dangerous).
@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("list_webhooks", "List all configured webhooks. Webhooks send HTTP POST notifications when events "
         "occur."),
        ("list_comments", "List the threaded comments on a page. Use this to find a comment's id before "
         "update_comment / delete_comment."),
        ("get_notifications", "List recent or pending notifications."),
        ("check_destructive", "Check if a command contains destructive patterns (rm -rf, DROP TABLE, etc.)."),
        ("estimate_sms_cost", "Estimate cost and message segments for SMS without sending it"),
        ("getLinkedinPosts", "Returns the LinkedIn post log including drafts and published posts"),
    ],
)
def test_a_name_led_by_a_read_verb_is_a_read_whatever_its_object_does(name: str, description: str) -> None:
    from tooldiff.blast import assess

    got = assess(make_tool(_t(name, description)))
    assert got.level == "read", got


@pytest.mark.parametrize(
    ("name", "description", "level"),
    [
        ("search_and_manage_resource_tags", "Search and manage tags. Supports list, get, create, and delete "
         "actions.", "destructive"),
        ("get_and_delete_message", "Get the next message from the queue and delete it.", "destructive"),
        ("list_and_send_reminders", "List due reminders and send each one by email.", "external"),
    ],
)
def test_a_read_verb_beside_a_write_verb_in_the_name_is_judged_by_the_words(
    name: str, description: str, level: str
) -> None:
    from tooldiff.blast import assess

    assert assess(make_tool(_t(name, description))).level == level


def test_a_deprecation_whose_replacement_is_in_the_next_sentence_is_an_alias_notice() -> None:
    a = _t("read_text_file", "Read a text file.", _schema(path="string"))
    b = _t("read_file", "Read the contents of a file. This tool is deprecated. Use read_text_file instead.",
           _schema(path="string"))
    got = run_toolset([make_tool(a, 0), make_tool(b, 1)])
    assert got.pairs[("read_file", "read_text_file")][0] == "intent-overlap"
    from tooldiff.terms import extract

    assert "read_text_file" in extract(b["name"], b["description"]).alias_mentions


def test_the_word_before_for_is_never_a_vendor_prefix() -> None:
    """ToolBench names a RapidAPI function `<function>_for_<api>`. The description quotes the name, which the
    analysis leaves out, so `odds` was "unused" and dropped as a vendor prefix: odds_for_fdj and
    matches_for_fdj then shared their whole core name (fdj) and overlapped."""
    boiler = ('This is the subfunction for tool "fdj", you can use this tool.'
              "The description of this function is: ")
    a = _t("odds_for_fdj", boiler + '"Latest odds_for_fdj for FDJ"', _schema())
    b = _t("matches_for_fdj", boiler + '"Latest matches_for_fdj for FDJ"', _schema())
    assert _headline(a, b) is None
    # A vendor prefix before such a name is still one (`exa_search_for_papers`: exa).
    from tooldiff.pairs import analyse
    from tooldiff.rules.base import Context

    view = analyse(make_tool(_t("exa_search_for_papers", "Search academic papers on the web.")), Context())
    assert view.core == ("search", "paper")


@pytest.mark.parametrize(
    ("name", "description", "level", "evidence"),
    [  # the 20k-tool corpus: dropDatabase and dropTable were "read" beside deleteDatabase ("deleteD")
        ("dropDatabase", "Drops a database.", "destructive", "drop Database"),
        ("dropTable", "Drop the given table from a database.", "destructive", "drop"),
        ("deleteDatabase", "Deletes a database.", "destructive", "delete"),
        ("drop_collection", "Drop a collection and all its documents.", "destructive", "drop collection"),
        ("drop_index", "Drop an index of a collection.", "write", "drop"),  # no data is lost
        # "wire" is a payment only as a wire transfer: a magnetic field around a wire reaches nobody
        ("calculate_magnetic_field", "Calculate the magnetic field of a current-carrying wire.", "read", ""),
        ("beneficiary_wire", "Wire funds to a beneficiary.", "external", "Wire funds"),
    ],
)
def test_blast_reads_camel_case_names_and_the_words_of_its_lexicon_whole(
    name: str, description: str, level: str, evidence: str
) -> None:
    from tooldiff.blast import assess

    got = assess(make_tool(_t(name, description)))
    assert got.level == level
    assert evidence in got.detail


def test_read_only_hint_false_is_at_least_a_write() -> None:
    # chrome-devtools-mcp (mcp/live_tools_list): `click` says `readOnlyHint: false` and nothing more; it
    # was rated "read" for want of write words. "Not read-only" is evidence; the wording may raise it.
    from tooldiff.blast import assess

    click = make_tool(_t("click", "Clicks on the provided element", annotations={"readOnlyHint": False}))
    got = assess(click)
    assert (got.level, got.evidence, got.detail) == ("write", "annotations", "readOnlyHint: false")
    wipe = _t("clear_cache", "Deletes every cached page.", annotations={"readOnlyHint": False})
    assert assess(make_tool(wipe)).level == "destructive"


@pytest.mark.parametrize("name", ["puppeteer_click", "puppeteer_fill", "press_key", "submit_form", "drag"])
def test_page_interactions_are_writes(name: str) -> None:
    # @modelcontextprotocol/server-puppeteer (mcp/live_tools_list), no annotations: a click changes the page.
    from tooldiff.blast import assess

    description = {"press_key": "Press a key on the keyboard", "submit_form": "Submit the form on the page",
                   "drag": "Drag an element onto another"}.get(name, "Click an element on the page")
    assert assess(make_tool(_t(name, description))).level == "write"


@pytest.mark.parametrize(("one", "every"), [
    # posthog-mcp (mcp/docker_mcp_registry): "a specific experiment by ID" against "all experiments".
    (_t("experiment-get", "Get a specific experiment by ID."),
     _t("experiment-get-all", "Get all experiments.")),
    (_t("get_task", "Get a task."), _t("get_all_tasks", "Get all tasks.")),
])
def test_a_retrieval_of_one_is_not_one_of_all(one: dict[str, Any], every: dict[str, Any]) -> None:
    assert _headline(one, every) is None


@pytest.mark.parametrize(("a", "b"), [
    (_t("get_all_countries", "Get all countries."), _t("list_countries", "List the countries.")),
    (_t("get_news", "Get the latest news."),  # news: one or many, the form does not say
     _t("get_all_news", "Get all the latest news.")),
    (_t("get_countries", "Get the countries."), _t("get_all_countries", "Get all the countries.")),
])
def test_all_of_them_is_a_listing_of_them(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert _headline(a, b) == "intent-overlap"


# Found on ../shared/corpora/mcp (one toolset per server), each a pair a maintainer would reject outright.
def _toolset_headline(tools: list[dict[str, Any]], a: str, b: str) -> str | None:
    got = run_toolset([make_tool(t, k) for k, t in enumerate(tools)])
    found = got.pairs.get(tuple(sorted((a, b))))  # type: ignore[call-overload]
    return found[0] if found else None


def test_an_edge_word_no_sibling_shares_is_the_tool_s_own_word_not_a_vendor() -> None:
    # reclaim-mcp-server, DOCKER: intent-overlap "they share task": `prioritize` was stripped as a vendor
    # prefix because the description never repeats it. No other tool of the server starts with it.
    tools = [_t("get_task", "Get task details by ID"), _t("prioritize_task", "Set task priority"),
             _t("create_task", "Create a new task"), _t("list_tasks", "List tasks")]
    assert _toolset_headline(tools, "get_task", "prioritize_task") is None


def test_an_object_named_in_passing_further_down_is_not_shared() -> None:
    # frihet, DOCKER: intent-overlap "they share creation": "Clients are used when creating invoices".
    client = _t("create_client", "Create a new client/customer. Requires at minimum a name. Clients are used "
                "when creating invoices and quotes. Example: name='Acme Corp', email='billing@acme.com'")
    invoice = _t("create_invoice", "Create a new invoice. Requires client name and at least one line item. "
                 "The invoice number is auto-generated. Defaults to draft status and today's date.")
    assert _headline(client, invoice) is None


def test_the_same_objects_in_the_opposite_order_are_an_inverse_relation() -> None:
    # zscaler, DOCKER: intent-overlap "they share group, identity, read, retrieval, user".
    assert _headline(_t("zid_get_group_users", "Get users in a ZIdentity group (read-only)"),
                     _t("zid_get_user_groups", "Get groups for a ZIdentity user (read-only)")) is None


def test_deactivate_beside_delete_is_a_blast_radius_twin() -> None:
    # okta, DOCKER: no finding, where archive_X / delete_X pairs are twins.
    schema = {"type": "object", "properties": {"policy_id": {"type": "string", "description": "The policy."}},
              "required": ["policy_id"]}
    got = _headline(_t("deactivate_policy", "Deactivate a policy. The user will be asked for confirmation "
                       "before the deactivation proceeds.", schema),
                    _t("delete_policy", "Delete a policy. The user will be asked for confirmation before the "
                       "deletion proceeds.", schema))
    assert got == "blast-radius-twin"


def test_an_action_enum_of_a_record_s_own_field_is_not_a_mode_argument() -> None:
    # consul, DOCKER: mode-argument "selects between behaviours (allow, deny)" on create_intention.
    schema = {"type": "object", "required": ["source", "destination"], "properties": {
        "source": {"type": "string", "description": "Source service name"},
        "destination": {"type": "string", "description": "Destination service name"},
        "action": {"type": "string", "description": "Action to perform (allow or deny)", "default": "allow",
                   "enum": ["allow", "deny"]}}}
    tool = _t("create_intention", "Create a Connect intention in Consul to control service-to-service "
              "communication", schema)
    assert "create_intention" not in run_toolset([make_tool(tool, 0)]).tools["mode-argument"]


@pytest.mark.parametrize(("values", "flagged"), [
    (["create_issue", "update_issue", "close_issue"], True),  # github-style multiplexed tools
    (["createIssue", "listIssues"], True),
    (["list-items", "delete-items"], True),
    (["get", "set"], True),
    (["screenshot", "left_click", "type"], True),  # computer use
    (["CREATE", "DELETE"], True),
    (["allow", "deny"], False),  # consul create_intention: the intention's own setting
    (["accept", "dismiss"], False),  # chrome-devtools handle_dialog: how to answer the one dialog
])
def test_an_action_enum_is_a_mode_argument_when_its_values_name_operations(
        values: list[str], flagged: bool) -> None:
    assert _mode_argument("action", values) is flagged


def _mode_argument(argument: str, values: list[str]) -> bool:
    """Whether a tool whose one argument is an enum of `values` gets `mode-argument`."""
    schema = {"type": "object", "required": [argument], "properties": {
        argument: {"type": "string", "description": "What to do.", "enum": values}}}
    tool = _t("run_thing", "Do something with the thing.", schema)
    return "run_thing" in run_toolset([make_tool(tool, 0)]).tools["mode-argument"]


def test_the_same_tool_from_two_vendors_overlaps_whatever_else_the_toolset_holds() -> None:
    """`brave_search` / `tavily_search`: each vendor word is on one tool only, but what is left of the two
    names is the same. A third, unrelated tool made them distinct (the vendor-edge rule of 36d2727)."""
    schema = _schema(query="string")
    brave = _t("brave_search", "Search the web and return the top results for a query.", schema)
    tavily = _t("tavily_search", "Search the web for a query and return the best results.", schema)
    weather = _t("get_weather", "Get the current weather for a city.", _schema(city="string"))
    assert _toolset_headline([brave, tavily, weather], "brave_search", "tavily_search") == "intent-overlap"
    assert _headline(brave, tavily) == "intent-overlap"


def test_a_preposition_puts_its_object_first_so_the_same_objects_are_not_an_inverse() -> None:
    """`get_repo_file` / `get_file_from_repo` name one thing: the file of a repo. Read as an inverse
    relation (`_swapped_objects`), their overlap lost its merge advice."""
    schema = _schema(repo="string", path="string")
    a = _t("get_repo_file", "Get the contents of a file in a repository.", schema)
    b = _t("get_file_from_repo", "Get a file's contents from a repository.", schema)
    assert _headline(a, b) == "intent-overlap"
    assert _headline(_t("zid_get_group_users", "Get users in a ZIdentity group (read-only)"),
                     _t("zid_get_user_groups", "Get groups for a ZIdentity user (read-only)")) is None


@pytest.mark.parametrize(("other", "named"), [
    ("firecrawl_batch_scrape", "batch_scrape"), ("firecrawl-batch-scrape", "batch-scrape"),
    ("firecrawlBatchScrape", "batchScrape"), ("firecrawl_batch_scrape", "batchScrape"),
])
def test_a_boundary_may_name_a_tool_without_its_vendor_in_any_spelling(other: str, named: str) -> None:
    from tooldiff import overlap, pairs
    from tooldiff.rules.base import Context

    a = _t("firecrawl_extract", "Extract structured data from web pages. Not recommended for: the full "
           f"content of many pages (use {named}).")
    b = _t(other, "Scrape many web pages at once and return their content.")
    c = _t("firecrawl_map", "Map a website to discover its URLs.")
    views = pairs.analyse_toolset([make_tool(t, k) for k, t in enumerate((a, b, c))], Context())
    assert overlap._bounds_short(views[0], views[1])


@pytest.mark.parametrize(("values", "flagged"), [
    (["read_only", "read_write"], False), (["fast_search", "deep_search"], False),
    (["auto_merge", "manual_review"], False), (["set", "add"], False), (["list", "create"], True),
])
def test_a_mode_of_settings_is_no_mode_argument_though_its_values_hold_verbs(
        values: list[str], flagged: bool) -> None:
    assert _mode_argument("mode", values) is flagged


@pytest.mark.parametrize(("name", "other"), [
    ("force_delete_branch", "delete_branch"), ("recursive_list_files", "list_files"),
    ("fuzzy_search", "search"), ("async_run_query", "run_query"), ("prioritize_task", "task"),
])
def test_a_modifier_before_a_sibling_s_name_is_no_vendor(name: str, other: str) -> None:
    """Only two tools that each lost an edge word and are left with one name show a vendor's word: a word
    before a sibling's whole name is a modifier (`force_delete_branch` beside `delete_branch`)."""
    a = _t(name, "Remove it and everything under it, without asking.", _schema(name="string"))
    b = _t(other, "Look it up by name and return what is found.", _schema(name="string"))
    c = _t("get_weather", "Get the current weather for a city.", _schema(city="string"))
    assert _toolset_headline([a, b, c], name, other) != "intent-overlap"


@pytest.mark.parametrize(("a", "b"), [
    ("encode_url", "url_encode"), ("circle_area", "geometry_area_circle"), ("source_news", "news_source"),
])
def test_a_name_said_two_ways_is_no_inverse_relation(a: str, b: str) -> None:
    """Only names ending on plurals are an inverse relation (`group_users` / `user_groups`)."""
    from tooldiff import overlap, pairs
    from tooldiff.rules.base import Context

    views = pairs.analyse_toolset([make_tool(_t(a, "Do it."), 0), make_tool(_t(b, "Do it."), 1)], Context())
    assert not overlap._swapped_objects(views[0], views[1])


def test_info_and_details_name_one_thing() -> None:
    """`get_instrument_details` / `get_instrument_info`: one tool from two servers, kept apart while `info`
    was a name word and `details` not."""
    schema = _schema(symbol="string")
    a = _t("get_instrument_details", "Get the details of a trading instrument by its symbol.", schema)
    b = _t("get_instrument_info", "Get information about a trading instrument by its symbol.", schema)
    assert _headline(a, b) == "intent-overlap"


@pytest.mark.parametrize(("a", "da", "b", "db"), [
    ("get_folder_files", "Get the files in a folder.", "get_file_folder", "Get the folder of a file."),
    ("get_team_members", "Get the members of a team.", "get_member_team", "Get the team of a member."),
])
def test_a_one_to_many_inverse_is_no_overlap(a: str, da: str, b: str, db: str) -> None:
    schema = _schema(id="string")
    c = _t("get_weather", "Get the current weather for a city.", _schema(city="string"))
    assert _toolset_headline([_t(a, da, schema), _t(b, db, schema), c], a, b) is None


@pytest.mark.parametrize("values", [["create_issue", "list_issues"], ["createIssue", "listIssues"]])
def test_a_mode_of_operations_named_with_their_objects_is_a_mode_argument(values: list[str]) -> None:
    assert _mode_argument("mode", values)


# @playwright/mcp (mcp/live_tools_list/tools.json) writes `destructiveHint: true` on every tool that is not
# read-only, hovering included; chrome-devtools-mcp says `readOnlyHint: false` and leaves the hint unset, and
# @modelcontextprotocol/server-puppeteer sets no hints. Descriptions verbatim, schemas cut.
_PLAYWRIGHT = {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": True}
DEFAULT_HINT_TWINS = [
    pytest.param(
        _t("browser_hover", "Hover over element on page", _schema(target="string"), annotations=_PLAYWRIGHT),
        _t("puppeteer_hover", "Hover an element on the page", _schema(selector="string")),
        id="playwright-vs-puppeteer-hover",
    ),
    pytest.param(
        _t("browser_navigate", "Navigate to a URL", _schema(url="string"), annotations=_PLAYWRIGHT),
        _t("puppeteer_navigate", "Navigate to a URL", _schema(url="string")),
        id="playwright-vs-puppeteer-navigate",
    ),
    pytest.param(
        _t("browser_hover", "Hover over element on page", _schema(target="string"), annotations=_PLAYWRIGHT),
        _t("hover", "Hover over the provided element", _schema(uid="string"),
           annotations={"category": "input", "readOnlyHint": False}),
        id="playwright-vs-chrome-devtools-hover",
    ),
]


@pytest.mark.parametrize(("a", "b"), DEFAULT_HINT_TWINS)
def test_a_default_destructive_hint_is_no_blast_difference(a: dict[str, Any], b: dict[str, Any]) -> None:
    """`destructiveHint: true` is the MCP default for a tool that is not read-only: against a twin whose
    author left it unset, it says nothing the twin does not; the twins stay an intent overlap."""
    assert _headline(a, b) == "intent-overlap"


def test_a_destructive_hint_against_a_declared_safe_twin_is_still_a_blast_twin() -> None:
    # Constructed from the pair above: the other author says read-only, so the hints do differ.
    a = _t("browser_hover", "Hover over element on page", _schema(target="string"), annotations=_PLAYWRIGHT)
    b = _t("puppeteer_hover", "Hover an element on the page", _schema(selector="string"),
           annotations={"readOnlyHint": True})
    assert _headline(a, b) == "blast-radius-twin"
    # The wording still decides against a twin without hints: "Permanently delete" is destructive.
    note = _schema(note_id="string")
    c = _t("browser_delete_note", "Permanently delete a note.", note, annotations=_PLAYWRIGHT)
    d = _t("archive_note", "Archive a note.", note)
    assert _headline(c, d) == "blast-radius-twin"


# mcp/docker_mcp_registry/tools.json; descriptions verbatim, schemas cut. "event" folded into the calendar
# group wherever it stood: a cluster's or a namespace's events met reclaim-mcp-server's calendar.
_RECLAIM_LIST_EVENTS = _t("list_events", "List calendar events")
EVENTS_OUT_OF_SENSE = [
    pytest.param(  # directional-domination: list_events "adds no term beyond" the cluster events
        _t("databricks_list_cluster_events", "List recent events for a compute cluster.",
           _schema(cluster_id="string")),
        _RECLAIM_LIST_EVENTS,
        id="databricks-cluster-events-vs-calendar-events",
    ),
    pytest.param(  # intent-overlap: kubectl-mcp-server against reclaim-mcp-server
        _t("get_events", "Get all events in the specified namespace."),
        _RECLAIM_LIST_EVENTS,
        id="kubernetes-events-vs-calendar-events",
    ),
]


@pytest.mark.parametrize(("a", "b"), EVENTS_OUT_OF_SENSE)
def test_an_event_is_a_calendar_entry_only_where_the_text_names_the_calendar(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    assert _headline(a, b) is None


def test_calendar_events_still_meet_under_either_word() -> None:
    # google-workspace and reclaim-mcp-server (mcp/docker_mcp_registry/tools.json): both name the calendar.
    a = _t("calendar_create_event", "Create a new Google Calendar event")
    b = _t("create_event", "Create a calendar event")
    assert _headline(a, b) == "intent-overlap"
