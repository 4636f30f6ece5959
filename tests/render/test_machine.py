"""JSON against report.schema.json, SARIF against the SARIF 2.1.0 schema, annotations, text."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tooldiff.model import Report
from tooldiff.render import RenderContext, annotations, jsonout, sarif, text

from . import reports

CTX = RenderContext()
ALL = {**reports.CASES, "many": lambda: reports.many(300)}
SARIF_SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif-2.1.0.json"


def report_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files("tooldiff").joinpath("data/report.schema.json").read_text()
    )
    return data


def test_report_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(report_schema())


@pytest.mark.parametrize("case", sorted(ALL))
def test_json_follows_the_v1_contract(case: str) -> None:
    data = json.loads(jsonout.render(ALL[case](), CTX))
    jsonschema.Draft202012Validator(report_schema()).validate(data)
    assert data["version"] == 1


def test_json_is_strict() -> None:
    data = json.loads(jsonout.render(reports.overlap_pr(), CTX))
    data["findings"][0]["colour"] = "red"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(report_schema()).validate(data)


def test_json_does_not_depend_on_input_order() -> None:
    report = reports.overlap_pr()
    shuffled = list(report.findings)
    random.Random(7).shuffle(shuffled)
    other = replace(report, findings=tuple(shuffled), tools=tuple(reversed(report.tools)))
    assert jsonout.render(report, CTX) == jsonout.render(other, CTX)


def test_json_counts_and_tokens() -> None:
    data = json.loads(jsonout.render(reports.overlap_pr(), CTX))
    assert data["counts"]["new"] == {"error": 1, "warning": 2, "info": 1}
    assert data["counts"]["resolved"] == {"error": 0, "warning": 1, "info": 0}
    ts = data["toolsets"][0]["tokens"]
    assert ts["estimate"] == {"base": 402, "head": 460, "delta": 58}
    added = next(t for t in data["tools"] if t["name"] == "find_document")
    assert added["change"] == "added" and added["tokens"]["estimate"]["base"] is None


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


@pytest.mark.parametrize("case", sorted(ALL))
def test_sarif_is_valid_2_1_0(case: str, sarif_validator: jsonschema.Draft4Validator) -> None:
    data = json.loads(sarif.render(ALL[case](), CTX))
    sarif_validator.validate(data)


def test_sarif_results_point_at_rules_and_lines() -> None:
    data = json.loads(sarif.render(reports.overlap_pr(), CTX))
    run = data["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"]
        assert rule["helpUri"].endswith(f"docs/rules.md#{rule['id']}")
        assert len(result["partialFingerprints"]["tooldiff/v1"]) == 64
    top_k = next(r for r in run["results"] if r["ruleId"] == "optional-not-required")
    assert top_k["level"] == "error"
    assert top_k["locations"][0]["physicalLocation"]["region"] == {"startLine": 11}
    baselined = next(r for r in run["results"] if r["properties"]["status"] == "baselined")
    # Accepted, so code scanning does not open an alert for what the baseline or an ignore accepted.
    assert baselined["suppressions"][0]["kind"] == "external"
    assert baselined["suppressions"][0]["status"] == "accepted"


def test_sarif_uses_rule_docs_where_the_module_exists() -> None:
    from tooldiff import docs

    try:
        doc = docs.rule_doc("optional-not-required")
    except KeyError:
        pytest.skip("rule module optional_not_required is not written yet")
    data = json.loads(sarif.render(reports.overlap_pr(), CTX))
    rule = next(r for r in data["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "optional-not-required")
    assert rule["shortDescription"]["text"] == doc.summary
    assert "**What it finds**" in rule["help"]["markdown"]
    assert "What it finds" in rule["help"]["text"] and "**" not in rule["help"]["text"]  # text is plain
    for r in data["runs"][0]["tool"]["driver"]["rules"]:  # no fences or backticks either (the example's JSON)
        assert "`" not in r["help"]["text"] and "`" not in r["fullDescription"]["text"], r["id"]


def test_sarif_rule_level_follows_the_configured_severity() -> None:
    """A rule whose severity the config changed says so in `rules[]`, as its results do: code scanning shows
    the rule's default level where a result has none of its own."""
    code = "missing-description"  # a warning by default; the report's findings of it are info
    report = reports.overlap_pr()
    data = json.loads(sarif.render(report, CTX))
    rule = next(r for r in data["runs"][0]["tool"]["driver"]["rules"] if r["id"] == code)
    assert {f.severity for f in report.findings if f.code == code} == {"info"}
    assert rule["defaultConfiguration"]["level"] == "note"
    mixed = replace(report, findings=[*report.findings, *(
        replace(f, severity="error", fingerprint=f.fingerprint + "x")
        for f in report.findings if f.code == code
    )])
    data = json.loads(sarif.render(mixed, CTX))
    rule = next(r for r in data["runs"][0]["tool"]["driver"]["rules"] if r["id"] == code)
    assert rule["defaultConfiguration"]["level"] == "warning"  # severities differ: the rule's own


def test_sarif_file_uris_are_escaped() -> None:
    report = reports.hostile()
    data = json.loads(sarif.render(report, CTX))
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in data["runs"][0]["results"]
    ]
    assert all(" " not in u and "\n" not in u and "<" not in u for u in uris)


def test_annotation_escaping_follows_the_runner() -> None:
    assert annotations.escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert annotations.escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_annotations_most_severe_first_and_capped_per_level() -> None:
    out = annotations.render(reports.many(90), CTX).splitlines()
    levels = [line.split(" ", 1)[0] for line in out if line.startswith("::")]
    assert levels == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"] * 10
    assert out[-1] == "tooldiff: 60 more new findings are not annotated; see the job summary."
    first = out[0]
    assert first.startswith("::error file=tools/helpdesk.json,line=1,title=tooldiff optional-not-required")


def test_annotations_only_for_new_findings() -> None:
    out = annotations.render(reports.audit(), CTX)
    assert "baselined" not in out and "unsupported-keyword" not in out
    assert out.startswith("::error file=servers/files/read_file.json,title=tooldiff too-many-tools::")


def test_text_lines_are_ruff_like_and_colour_only_when_asked() -> None:
    plain_out = text.render(reports.overlap_pr(), CTX)
    assert "tools/helpdesk.json:11: error optional-not-required [openai-strict] Property top_k" in plain_out
    assert "\x1b[" not in plain_out
    summary = "(1 error, 2 warnings, 1 info); also 1 baselined, 1 existing, 1 resolved."
    assert plain_out.rstrip().endswith(summary)
    assert "\x1b[31;1merror\x1b[0m" in text.render(reports.overlap_pr(), replace(CTX, colour=True))


def test_sarif_stays_within_code_scanning_result_limit() -> None:
    # Code scanning rejects a whole SARIF file with more than 25,000 results in a run ("Analysis SARIF
    # file rejected due to result limits"); an audit of a 20k-tool corpus gives 60k findings.
    report = reports.many(25_009)
    data = json.loads(sarif.render(report, CTX))
    run = data["runs"][0]
    assert len(run["results"]) == sarif.MAX_RESULTS == 25_000
    # The most severe are kept, and the cut is said in the run, not silent.
    levels = [r["level"] for r in run["results"]]
    assert levels.count("error") == sum(1 for f in report.findings if f.severity == "error")
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert "9 more results" in notes[0]["message"]["text"]
    rules = run["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])


def test_sarif_cut_keeps_new_findings_before_accepted_ones(
    monkeypatch: pytest.MonkeyPatch, sarif_validator: jsonschema.Draft4Validator
) -> None:
    monkeypatch.setattr(sarif, "MAX_RESULTS", 3)
    report = reports.audit()  # 3 new, then 2 accepted (baselined, ignored) that sort among them
    data = json.loads(sarif.render(report, CTX))
    run = data["runs"][0]
    assert [r["properties"]["status"] for r in run["results"]] == ["new", "new", "new"]
    assert "2 more results" in run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
    sarif_validator.validate(data)


def test_a_pair_finding_points_at_the_other_tool_too() -> None:
    run = json.loads(sarif.render(reports.overlap_pr(), CTX))["runs"][0]
    pair = next(r for r in run["results"] if r["ruleId"] == "intent-overlap")
    [other] = pair["relatedLocations"]
    assert other["message"]["text"] == "search_docs"
    assert other["physicalLocation"]["artifactLocation"]["uri"] == "tools/helpdesk.json"
    assert other["physicalLocation"]["region"]["startLine"] != pair["locations"][0]["physicalLocation"][
        "region"]["startLine"]



def test_a_pair_of_same_named_tools_lists_each_other_place_once() -> None:
    """Two `create_directory` tools of one toolset (two MCP servers in one capture): the pair names the
    tool twice, and each of its other places was a related location twice."""
    pair = reports.finding("intent-overlap", "warning", ("create_directory", "create_directory"),
                           "A router cannot separate them.", line=30)
    report = Report(mode="check", toolsets=(), findings=(pair,), resolved=(), stats={},
                    tools=(reports.tool("create_directory", 2), reports.tool("create_directory", 30)))
    [result] = json.loads(sarif.render(report, CTX))["runs"][0]["results"]
    places = [(r["id"], r["physicalLocation"]["region"]["startLine"]) for r in result["relatedLocations"]]
    assert places == [(0, 2)]

def test_a_code_defined_tool_is_annotated_without_a_file() -> None:
    """Tools a command or a dump file gave have no file in the repository: `file=$(make tools)` would point
    the runner at a file that does not exist. The label goes into the message instead."""
    label = "$(head-tools head-tools.json)"
    f = reports.finding("missing-description", "warning", ("lookup",), "lookup has no description.",
                        file=label, toolset=label, line=3)
    got = annotations.annotation(f)
    assert got.startswith("::warning title=tooldiff missing-description (lookup)::")
    assert "file=" not in got and "line=" not in got
    assert got.endswith(f"::{label}: lookup has no description.")


def test_a_text_path_is_shown_from_where_the_command_ran_unless_it_is_absolute() -> None:
    from tooldiff.render.context import PathsFrom

    assert PathsFrom(here="agents").show("agents/tools.json") == "tools.json"
    assert PathsFrom(here="agents").show("/tmp/base/tools.json") == "/tmp/base/tools.json"
    assert PathsFrom(here="agents").show("C:/tools.json") == "../C:/tools.json"  # a folder, on POSIX


def test_sarif_gives_code_scanning_the_fingerprint_it_matches_alerts_on() -> None:
    """Code scanning "only uses the primaryLocationLineHash"; upload-sarif fills it from the text at the
    result's line unless it is there. On a one-line JSON file every result of a rule had one hash (alerts
    collapsed), and a reworded line opened a new alert and closed the old one. Ours survives both; two
    findings with one fingerprint (same-named tools) are told apart by an occurrence count."""
    base = reports.overlap_pr()
    twin = replace(base.findings[0], line=base.findings[0].line + 40)
    data = json.loads(sarif.render(replace(base, findings=(*base.findings, twin)), CTX))
    results = data["runs"][0]["results"]
    hashes = [r["partialFingerprints"]["primaryLocationLineHash"] for r in results]
    assert len(set(hashes)) == len(hashes)
    for r in results:
        fp = r["partialFingerprints"]["tooldiff/v1"]
        assert r["partialFingerprints"]["primaryLocationLineHash"] in (f"{fp[:32]}:1", f"{fp[:32]}:2")
    moved = replace(base, findings=tuple(replace(f, line=f.line + 3, message=f.message + " More.")
                                         for f in base.findings))
    again = json.loads(sarif.render(moved, CTX))["runs"][0]["results"]
    assert {r["partialFingerprints"]["primaryLocationLineHash"] for r in again} <= set(hashes)


def test_sarif_rule_descriptions_stay_within_code_scanning_s_limit() -> None:
    """`fullDescription.text`: "Limited to 1024 characters"; intent-overlap's was 4,289."""
    from tooldiff import docs

    findings = tuple(reports.finding(code, "warning", ("a",), "m") for code in docs.codes())
    data = json.loads(sarif.render(replace(reports.overlap_pr(), findings=findings), CTX))
    texts = [r["fullDescription"]["text"] for r in data["runs"][0]["tool"]["driver"]["rules"]]
    assert texts and all(len(t) <= 1024 for t in texts)
    assert any(t.endswith("…") for t in texts)


def test_annotations_leave_room_for_the_run_s_own_notices() -> None:
    """The runner shows 10 annotations of a level per step. A run that printed a notice of its own (the SARIF
    file holds the changed tools only) then showed 10 findings' notices: the 10th was dropped unseen, and
    the count of those not annotated was one short."""
    infos = tuple(reports.finding("missing-description", "info", (f"t{i}",), f"m{i}", line=i + 1)
                  for i in range(12))
    report = replace(reports.overlap_pr(), findings=infos)
    out = annotations.render(report, replace(CTX, annotated=(("notice", 1),))).splitlines()
    assert sum(line.startswith("::notice ") for line in out) == 9
    assert out[-1] == "tooldiff: 3 more new findings are not annotated; see the job summary."
