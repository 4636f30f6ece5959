"""H1.6 term extraction (seed 000): splitting, stopwords, possessives, plurals, synonyms, clauses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldiff import terms as terms_module
from tooldiff.terms import (
    _IDENT,
    analysable,
    extract,
    fold_plural,
    mentions,
    names_alias,
    normalise,
    split_identifier,
    text_terms,
)


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("search_docs", ("search", "docs")),
        ("getDocumentByID", ("get", "document", "by", "id")),
        ("list-open-tickets", ("list", "open", "tickets")),
        ("HTTPServer.start", ("http", "server", "start")),
        ("API-post-search", ("api", "post", "search")),
        # An acronym's plural is the acronym: "APIs" was "ap" and "is", "URLs" "ur" and "ls".
        ("APIs", ("api",)),
        ("getURLs", ("get", "url")),
        ("listPRsByIDs", ("list", "pr", "by", "id")),
        ("LLMs", ("llm",)),
        ("IDsList", ("id", "list")),
        ("USERS", ("users",)),
        ("Is", ("is",)),
        ("macOS", ("mac", "os")),
    ],
)
def test_split_identifier(name: str, parts: tuple[str, ...]) -> None:
    assert split_identifier(name) == parts


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("tickets", "ticket"),
        ("entries", "entry"),
        ("boxes", "box"),
        ("status", "status"),
        ("indexes", "index"),
        ("kubernetes", "kubernetes"),
        ("bus", "bus"),
        # A singular in -ie takes -s: "movies" is not "movy", and `get_movie` / `list_movies` share `movie`.
        ("movies", "movie"),
        ("cookies", "cookie"),
        ("calories", "calorie"),
        ("species", "species"),
        ("supplies", "supply"),
        ("buses", "bus"),
        ("heroes", "hero"),
        ("nodejs", "nodejs"),  # a technology in -js is no plural
        ("macos", "macos"),
        ("photos", "photo"),
        ("matrices", "matrix"),
        ("physics", "physics"),
    ],
)
def test_fold_plural(word: str, folded: str) -> None:
    assert fold_plural(word) == folded


def test_stopwords_low_information_and_possessive_are_dropped() -> None:
    assert text_terms("Find documents relevant to a user's question.") == [
        "search",
        "document",
        "relevant",
        "user",
        "question",
    ]
    assert normalise("the") is None and normalise("tool") is None and normalise("42") is None


def test_synonyms_fold_the_domain_nouns_and_the_verbs() -> None:
    # documentation/page/document/doc/article; ticket/issue; message/post; web/internet
    assert {normalise(w) for w in ("documentation", "pages", "docs", "article")} == {"document"}
    assert {normalise(w) for w in ("ticket", "issues")} == {"ticket"}
    assert {normalise(w) for w in ("web", "internet")} == {"web"}
    assert {normalise(w) for w in ("retrieve", "fetch", "get")} == {"retrieval"}
    assert {normalise(w) for w in ("create", "adds")} == {"creation"}
    assert {normalise(w) for w in ("delete", "removes")} == {"deletion"}
    assert {normalise(w) for w in ("update", "edit")} == {"modification"}
    assert {normalise(w) for w in ("send", "transmit")} == {"transmission"}


def test_seed_pair_shares_terms_after_the_lexicon() -> None:
    a = extract("search_docs", "Search the documentation corpus for pages matching a query.")
    b = extract("find_document", "Find documents relevant to a user's question.")
    assert {"search", "document"} <= a.all & b.all


def test_negation_is_folded_so_unstaged_differs_from_staged() -> None:
    assert "unstaged" in extract("git_diff_unstaged", "Shows changes not yet staged").all
    assert "unstaged" not in extract("git_diff_staged", "Shows changes that are staged for commit").all


def test_what_a_tool_does_without_is_not_one_of_its_terms() -> None:
    """filesystem's get_file_info works "without reading the actual content": it does not read."""
    text = "Retrieve detailed metadata about a file. For file characteristics without reading the content."
    terms = extract("get_file_info", text)
    assert "read" not in terms.all and "file" in terms.all
    assert "read" in extract("read_file", "Read the complete contents of a file as text.").all


def test_contrastive_clause_keeps_the_neighbour_as_a_boundary_not_as_words() -> None:
    t = extract("search_docs", "Search the docs by keyword. For one page by its id, use get_document_by_id.")
    assert mentions(t.contrast_sentences, "get_document_by_id")
    assert "id" not in t.all  # the quoted name is not split into words


@pytest.mark.parametrize("written", ["getDocumentById", "get-document-by-id", "GetDocumentByID"])
def test_a_boundary_may_spell_the_neighbours_name_in_another_case_style(written: str) -> None:
    t = extract("search_docs", f"Search the docs by keyword. For one page by its id, use {written}.")
    assert mentions(t.contrast_sentences, "get_document_by_id")
    assert not mentions(t.contrast_sentences, "get_document")  # still a whole name, not a prefix


@pytest.mark.parametrize(("written", "name"), [("getPage", "get_page"), ("GetPage", "get_page"),
                                              ("get_page", "getPage"), ("getPage", "getPage")])
def test_a_two_word_name_in_camel_case_is_found_by_its_hump(written: str, name: str) -> None:
    t = extract("get_doc", f"Fetch a document. Not for web pages; use {written} instead.")
    assert mentions(t.contrast_sentences, name)


def test_a_path_name_keeps_its_humps_as_written() -> None:
    """`/stations/{stationId}/observations` is one name: its `stationId` is not split (the corpora's
    weather API pair kept its boundary)."""
    name = "/stations/{stationId}/observations"
    t = extract("latest", f"Latest observation. Not for the history of a station; use {name}.")
    assert mentions(t.contrast_sentences, name)


def test_a_two_word_name_run_together_is_an_ordinary_word() -> None:
    """`set_up` and `log_in` written as one word are "setup" and "login": words, not the tools."""
    t = extract("run_wizard", "Run the wizard. Not for a full setup or a login flow; use the installer.")
    assert not mentions(t.contrast_sentences, "set_up") and not mentions(t.contrast_sentences, "log_in")


def test_alias_notice_is_not_a_boundary() -> None:
    t = extract("read_file", "Read a file. DEPRECATED: Use read_text_file instead.")
    assert mentions(t.alias_sentences, "read_text_file")
    assert not mentions(t.contrast_sentences, "read_text_file")
    assert "read_text_file" in t.alias_mentions


@pytest.mark.parametrize("text", [
    "Read a file. Deprecated; use read_text_file.",
    "Read a file. This tool is deprecated and will be removed; use read_text_file.",
    "Read a file. Legacy name; use read_text_file.",
    # The notices a read-through wrote (each an alias before the retirement notices were narrowed):
    "The read tool is deprecated and will be removed. Use read_text_file instead.",
    "Note: this tool is deprecated and will be removed. Use read_text_file instead.",
    "Read a file. This is deprecated. Use read_text_file instead.",
    "Read a file. The v1 endpoint is obsolete; use read_text_file.",
    "Read a file. Now obsolete: use read_text_file.",
    "Read a file. Deprecated and will be removed in v3; use read_text_file instead.",
    "Read a file. Deprecated in version 2; use read_text_file instead.",
    "Read a file. Deprecated now, use read_text_file instead.",
    "Read a file. Deprecated and scheduled for removal; use read_text_file.",
    # The tool names itself as the subject:
    "read_file is deprecated. Use read_text_file instead.",
    "Read a file. `read_file` is now obsolete; use read_text_file.",
])
def test_a_retirement_notice_takes_its_pointer_from_the_next_sentence(text: str) -> None:
    t = extract("read_file", text)
    assert names_alias(t.alias_sentences, "read_text_file")
    assert not mentions(t.contrast_sentences, "read_text_file")


@pytest.mark.parametrize("text", [
    "List the deprecated packages; use audit_packages for a full audit.",
    "Remove obsolete cache entries; use purge_cache to empty it.",
    # What the tool reports on is deprecated, not the tool (a read-through of the retirement notices):
    "Search the docs for whether an API method is deprecated or removed; use audit_docs for anything else.",
    "Says whether a package is obsolete, not for security audits: use audit_packages.",
])
def test_deprecated_things_a_tool_works_on_leave_its_boundary_alone(text: str) -> None:
    t = extract("list_packages", text)
    other = next(w.strip(".") for w in text.split() if "_" in w)
    assert mentions(t.contrast_sentences, other)
    assert not names_alias(t.alias_sentences, other)


@pytest.mark.parametrize(("text", "other"), [
    ("Lists deprecated and removed endpoints of the API, see list_endpoints for the live ones.",
     "list_endpoints"),
    ("Lists tools. A tool is deprecated when unused. Call purge_tools to remove them.", "purge_tools"),
])
def test_a_name_after_deprecated_things_is_no_alias(text: str, other: str) -> None:
    t = extract("list_retired", text)
    assert not names_alias(t.alias_sentences, other)


def test_proper_nouns_name_systems() -> None:
    assert "github" in extract("search_repositories", "Search for GitHub repositories").proper


@pytest.mark.parametrize(
    "text",
    [
        "查询指定城市的天气预报，返回未来三天的温度和降水概率。",
        "Busca las facturas del cliente por fecha y devuelve las que coinciden con el filtro.",
        "Envoie un message au canal indiqué et retourne l'identifiant du message créé.",
    ],
)
def test_non_english_is_unanalysable(text: str) -> None:
    assert analysable(text)[0] is False


@pytest.mark.parametrize(
    "text", ["Get the CI status of a GitHub pull request.", "List files.", "", "Navigate to a URL"]
)
def test_english_is_analysable(text: str) -> None:
    assert analysable(text)[0] is True


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("create_issue", "Create an issue in the tracker."),  # the opening verb: settled without a split
        ("github_search", "Search GitHub for code. GitHub rate limits apply."),
        ("search_github", "GitHub search. Use Search for the rest."),
        ("get_page", "Get a page. Get the page's children with get_children."),
        ("send_slack", "Sends a message to Slack."),
        ("slack_send", "Slack: send a message. Send it now."),
        ("create_thing", "Creates a thing. Create Thing is its button."),
        ("list_items", "- List items\n- List more Items"),
    ],
)
def test_written_as_name_agrees_with_the_proper_nouns_of_the_description(name: str, description: str) -> None:
    terms = extract(name, description)
    for term in terms.name_seq:
        assert terms.written_as_name(term) == (term in terms.proper_any), term


def test_a_plural_in_ies_of_a_singular_in_ie_shares_its_terms() -> None:
    one, many = extract("get_movie", "Get one movie by its id."), extract("list_movies", "List the movies.")
    assert "movie" in one.name & many.name and "movie" in one.desc & many.desc


def test_urls_and_html_tags_give_no_terms() -> None:
    """A URL's scheme and host and a `<br>` are no words of what the tool does; pairs "shared" https."""
    t = extract("get_page", 'Get a page of the docs.<br>See <a href="https://docs.example.com/api">the '
                "reference</a> or www.example.org/help for <code>page_id</code> values.")
    assert t.desc.isdisjoint({"https", "http", "br", "href", "example", "com", "org", "www"})
    assert {"document", "reference"} <= t.desc, sorted(t.desc)


def test_acronym_plurals_give_the_acronym_term() -> None:
    terms = extract("call_api", "Call one of the REST APIs by their URLs and IDs, or open PRs.")
    assert {"url", "pr"} <= terms.desc  # api and id are low-information words, as written singular
    assert not {"ap", "ur", "ls", "ds", "rs"} & terms.desc


def test_languages_written_with_symbols_are_terms() -> None:
    """"C# Versions" and "C++ Versions" were one tool to H1.6: both gave only "versions"."""
    cs = extract("C# Versions", "List the released versions of C#.")
    cpp = extract("C++ Versions", "List the released versions of c++.")
    assert "csharp" in cs.name and "csharp" in cs.desc
    assert "cpp" in cpp.name and "cpp" in cpp.desc
    assert "dotnet" in extract("build", "Build a .NET project.").desc
    assert "cpp" not in extract("add", "Add 2+2 or count #tags.").all


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("hsl_to_rgb", "rgb_to_hsl", True),
        ("convert_hsl_to_rgb", "convert_rgb_to_hsl", True),  # a shared verb before the direction
        # ToolBench: a shared `_for_<api>` after it, where MN called the two "the same analysed terms"
        ("uuid_to_username_for_teamriverbubbles_random_utilities",
         "username_to_uuid_for_teamriverbubbles_random_utilities", True),
        ("hsl_to_rgb", "hsl_to_hex", False),
        ("convert_hsl_to_rgb", "convert_hsl_to_rgb", False),
        ("text2speech", "speech2text", True),
        ("text_2_speech", "speech_2_text", True),
    ],
)
def test_reversed_direction(a: str, b: str, expected: bool) -> None:
    from tooldiff.terms import reversed_direction

    assert reversed_direction(a, b) is expected


def test_a_word_no_prose_has_gives_no_term() -> None:
    """A 5,900-letter "word" was a term of its own, copied into the message and evidence of every pair that
    shared it (a 32 KB file of aliased descriptions wrote a 1 GB report)."""
    long = "x" * 5900
    got = extract("tool_a", f"Find {long} in the index.")
    assert long not in got.all and "index" in got.all


def test_identifier_matching_is_unchanged_by_the_possessive_and_bounded_forms() -> None:
    """`_IDENT` took quadratic time on `aAAA...A_` and `a/a/a/..._`; its bounded form must find the same
    identifiers as the original pattern wherever a path has at most 16 slashes."""
    import random
    import re

    original = re.compile(
        r"\b(?:[A-Za-z][A-Za-z0-9\-]*+(?:/[A-Za-z0-9\-]++)*+[_.:][A-Za-z0-9\-]+(?:[_./:][A-Za-z0-9\-]+)*"
        r"|[a-z]++(?:[A-Z][a-z0-9]*)+[A-Za-z0-9]*)\b")
    rng = random.Random(11)
    for alphabet in ("aAbB0_.:-/ zZ", "a/_.", "aA0-/", "abAB:/-_ "):
        for _ in range(5000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
            assert _IDENT.findall(text) == original.findall(text), text


# Words and breaks that make one-sentence and many-sentence descriptions, with capitalised words (system
# names, an opening verb that may come again) for the proper-noun paths.
_PIECES = ["Get", "get", "GitHub", "github", "Slack", "slack", "Search", "search", "issue", "Issues", "the",
           "Pokémon", "Create", "create_issue", "`Slack`", ".", ". ", "! ", "; ", "\n\n", "\n- ", " ", "e.g.",
           "Get."]
_DESCRIPTIONS = st.one_of(st.lists(st.sampled_from(_PIECES), max_size=14).map(" ".join),
                          st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))


@given(st.sampled_from(["get_issue", "search_github", "slack_search", "create_issue", "get_pokemon"]),
       _DESCRIPTIONS)
def test_the_one_sentence_shortcuts_agree_with_the_sentence_split(name: str, description: str) -> None:
    """`Terms.summary`, `proper` and `proper_any` skip the sentence split for a one-sentence description:
    the same sets as splitting it (the general path, written out here)."""
    terms = extract(name, description)
    first_words, later_caps = terms_module._by_sentence(terms.stripped)
    first = {t for w in first_words for t in terms_module._TERMS[w]}
    if terms.out_of_sense:
        first = set(terms_module._unfolded(first, terms.out_of_sense))
    proper = {terms_module._CAPS[w] for w in set(first_words[1:]) if w in terms_module._CAPS}
    assert terms.summary == terms.name | first
    assert terms.proper == proper
    assert terms.proper_any == ((proper | later_caps) & terms.name if terms.caps_in_name else set())
    assert terms.words == set(terms_module._WORD.findall(terms.stripped))


_NEGATION_WORDS = ["not", "NOT", "Not", "without", "Without", "created", "reading", "yet", "staged", "cannot",
                   "nothing", "wıthout", "é", "files", " ", "\n"]


@given(st.lists(st.sampled_from(_NEGATION_WORDS), max_size=10).map(" ".join))
def test_text_terms_skips_the_negation_pattern_only_where_it_cannot_match(text: str) -> None:
    folded = terms_module._NEGATED.sub(terms_module._un, text)
    terms_module._learn(terms_module._WORD.findall(folded))
    assert text_terms(text) == [t for w in terms_module._WORD.findall(folded) for t in terms_module._TERMS[w]]


@given(st.text(max_size=30))
def test_has_digit_is_any_isdigit(name: str) -> None:
    assert terms_module._has_digit(name) == any(map(str.isdigit, name))


@given(st.lists(st.sampled_from([*_NEGATION_WORDS, "List", "search", "get", "users", "Fetch"]), max_size=10)
       .map(" ".join))
def test_first_term_in_is_the_first_of_text_terms_in_the_set(text: str) -> None:
    wanted = frozenset({"listing", "search", "retrieval", "unstaged"})
    first = next((t for t in text_terms(text) if t in wanted), None)
    assert terms_module.first_term_in(text, wanted) == first


_BREAKS = [".", "!", "?", ";", ":", "\n", " ", "\t", "-", "*", "•", "a", "B", "\u2028"]


@given(st.lists(st.sampled_from(_BREAKS), max_size=12).map("".join))
def test_the_first_break_is_where_the_sentence_pattern_first_matches(text: str) -> None:
    m = terms_module._SENTENCE.search(text)
    assert terms_module._first_break(text) == (m.start() if m else None)


def test_extract_does_not_keep_every_tools_words() -> None:
    # extract's results live for the whole run (its cache holds 20k tools): a set of words in each was
    # ~27 MB of peak memory, twice (2bf506e took it out, a speed change put it back)
    found = extract("get_weather", "Get the weather for a city, as GitHub reports it.")
    assert "words" not in found._memo
    assert "GitHub" in found.words
