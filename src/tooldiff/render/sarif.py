"""SARIF 2.1.0 for code scanning (`github/codeql-action/upload-sarif`).

`rules[]` carry the rule docs and a `helpUri` to the rule's section of docs/rules.md. Each result has a
physical location and the baseline's fingerprint as the partial fingerprint `tooldiff/v1`, and as
`primaryLocationLineHash`, the one code scanning matches alerts on ("Code scanning only uses the
primaryLocationLineHash"): upload-sarif would hash the text of the result's line, which one line of
minified JSON shares among all its results and a reworded description changes. Baselined and ignored
findings are results with an accepted suppression.

Code scanning rejects a whole file with more than 25,000 results in a run, so past that the most severe new
findings are kept, then accepted ones, and the run's invocation says how many were left out.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import tooldiff
from tooldiff.docs import PROJECT_URL, RuleDoc, rule_doc
from tooldiff.model import ACCEPTED, Finding, Report, is_code_label
from tooldiff.render.context import RenderContext
from tooldiff.render.escape import url_path
from tooldiff.render.view import ordered

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
# GitHub's hard limit: "Results per run: 25,000"; over it the upload is rejected, not truncated.
MAX_RESULTS = 25_000
BASELINE_STATE = {"new": "new", "existing": "unchanged", "baselined": "unchanged", "ignored": "unchanged"}


def _rule(code: str, example: Finding, severity: str | None) -> dict[str, Any]:
    """`severity`: what every finding of the code has, when they agree (the config may have changed it)."""
    try:
        doc: RuleDoc | None = rule_doc(code)
    except KeyError:
        doc = None  # a code without a rule module (a future rule, a plug-in): describe it from the finding
    if doc is None:
        return {
            "id": code,
            "name": code,
            "shortDescription": {"text": code},
            "helpUri": f"{PROJECT_URL}/blob/main/docs/rules.md#{quote(code, safe='')}",
            "defaultConfiguration": {"level": LEVELS.get(example.severity, "warning")},
        }
    help_md = "\n\n".join(f"**{title}**\n\n{body}" for title, body in doc.sections.items() if body)
    help_text = "\n\n".join(f"{title}\n\n{_plain(body)}" for title, body in doc.sections.items() if body)
    return {
        "id": code,
        "name": code,
        "shortDescription": {"text": doc.summary or code},
        "fullDescription": {"text": _cut(_plain(doc.sections.get("What it finds") or doc.summary or code))},
        "help": {"text": help_text or doc.summary or code, "markdown": help_md or doc.summary or code},
        "helpUri": doc.help_uri,
        "defaultConfiguration": {"level": LEVELS.get(severity or doc.severity, "warning")},
        "properties": {"tags": [doc.kind], "kind": doc.kind, "targets": list(doc.targets)},
    }


_FENCE = re.compile(r"^```\w*\n?", re.M)
# Code scanning's limit on `fullDescription.text`: "Limited to 1024 characters".
MAX_DESCRIPTION = 1024


def _cut(text: str) -> str:
    """At most MAX_DESCRIPTION characters, cut after a paragraph, a sentence or a word (the whole doc is in
    `help`)."""
    if len(text) <= MAX_DESCRIPTION:
        return text
    head = text[: MAX_DESCRIPTION - 2]  # room for " …"
    for stop in ("\n\n", ". ", " "):
        at = head.rfind(stop)
        if at > MAX_DESCRIPTION // 2:
            return head[: at + (1 if stop == ". " else 0)].rstrip() + " …"
    return head + " …"


def _plain(markdown: str) -> str:
    """A rule doc's Markdown as text: code fences and backticks dropped, the code kept."""
    return _FENCE.sub("", markdown).replace("`", "")


Places = dict[tuple[str, str], list[tuple[str, int]]]  # (toolset, tool name) -> where each such tool is


def _places(report: Report) -> Places:
    out: Places = {}
    for t in report.tools:
        if t.file and not is_code_label(t.file) and t.change != "removed":
            out.setdefault((t.toolset, t.name), []).append((t.file, t.line))
    return out


def _location(file: str, line: int) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": url_path(file), "uriBaseId": "%SRCROOT%"}}
    if line > 0:
        location["region"] = {"startLine": line}
    return {"physicalLocation": location}


def _related(f: Finding, places: Places) -> list[dict[str, Any]]:
    """The other tools of a pair finding, where the report knows them (a diff lists the changed ones)."""
    out: list[dict[str, Any]] = []
    # Each name once: a pair of same-named tools (two servers' `create_directory`) names it twice.
    for name in dict.fromkeys(f.tools):
        for file, line in places.get((f.toolset, name), ()):
            if (file, line) != (f.file, f.line):
                out.append({**_location(file, line), "id": len(out), "message": {"text": name}})
    return out


def _result(f: Finding, index: int, places: Places | None = None, occurrence: int = 1) -> dict[str, Any]:
    """`occurrence`: how many results so far had this fingerprint (two same-named tools' findings)."""
    text = f.message + (f"\nFix: {f.fix}" if f.fix else "")
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index,
        "level": LEVELS.get(f.severity, "warning"),
        "message": {"text": text or f.code},
        "baselineState": BASELINE_STATE.get(f.status, "new"),
        "partialFingerprints": {"tooldiff/v1": f.fingerprint,
                                "primaryLocationLineHash": f"{f.fingerprint[:32]}:{occurrence}"},
        "properties": {
            "status": f.status,
            "toolset": f.toolset,
            "tools": list(f.tools),
            "targets": list(f.targets),
            "pointer": f.pointer,
        },
    }
    if f.file:
        result["locations"] = [_location(f.file, f.line)]
        related = _related(f, places or {}) if len(f.tools) > 1 else []
        if related:
            result["relatedLocations"] = related
    if f.status in ACCEPTED:
        where = "an ignore in the tooldiff config" if f.status == "ignored" else "the tooldiff baseline"
        result["suppressions"] = [
            {"kind": "external", "status": "accepted",
             "justification": f"{f.reason} ({where})" if f.reason else where}
        ]
    return result


def _occurrences(findings: list[Finding]) -> list[int]:
    seen: dict[str, int] = {}
    out = []
    for f in findings:
        seen[f.fingerprint] = seen.get(f.fingerprint, 0) + 1
        out.append(seen[f.fingerprint])
    return out


def _kept(findings: list[Finding]) -> list[Finding]:
    """At most MAX_RESULTS of the (ordered) findings: new ones first, each group most severe first."""
    if len(findings) <= MAX_RESULTS:
        return findings
    rank = sorted(range(len(findings)), key=lambda i: (findings[i].status in ACCEPTED, i))
    keep = set(rank[:MAX_RESULTS])
    return [f for i, f in enumerate(findings) if i in keep]


def as_dict(report: Report) -> dict[str, Any]:
    every = ordered(report.findings)
    findings = _kept(every)
    codes: dict[str, Finding] = {}
    severities: dict[str, set[str]] = {}
    for f in findings:
        codes.setdefault(f.code, f)
        severities.setdefault(f.code, set()).add(f.severity)
    agreed = {code: next(iter(s)) if len(s) == 1 else None for code, s in severities.items()}
    index = {code: i for i, code in enumerate(sorted(codes))}
    places = _places(report)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "tooldiff",
                "version": tooldiff.__version__,
                "semanticVersion": tooldiff.__version__,
                "informationUri": PROJECT_URL,
                "rules": [_rule(code, codes[code], agreed[code]) for code in sorted(codes)],
            }
        },
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The repository root."}}},
        "results": [_result(f, index[f.code], places, n) for f, n in zip(findings, _occurrences(findings),
                                                                           strict=True)],
        "columnKind": "unicodeCodePoints",
    }
    if len(findings) < len(every):
        left = len(every) - len(findings)
        text = (
            f"{left:,} more results were left out: code scanning rejects a run of more than "
            f"{MAX_RESULTS:,} results. The most severe new findings were kept; `tooldiff --format json` "
            "has them all."
        )
        notice = {"level": "warning", "message": {"text": text}}
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": [notice]}]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [run],
    }


def render(report: Report, ctx: RenderContext) -> str:
    return json.dumps(as_dict(report), sort_keys=True, indent=2, ensure_ascii=True) + "\n"
