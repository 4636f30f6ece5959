"""Hand-built reports for the renderer tests: model objects constructed directly, no engine involved."""

from __future__ import annotations

from typing import Any

from tooldiff.model import Finding, Report, Severity, Status, ToolReport, ToolsetReport, fingerprint

HELPDESK = "tools/helpdesk.json"
SHA = "0123456789abcdef0123456789abcdef01234567"


def tokens(
    base: int | None, head: int | None, o200k: tuple[int | None, int | None] | None = None
) -> dict[str, Any]:
    def cell(b: int | None, h: int | None) -> dict[str, int | None]:
        return {"base": b, "head": h, "delta": None if b is None or h is None else h - b}

    out = {"estimate": cell(base, head)}
    if o200k:
        out["openai-o200k"] = cell(*o200k)
    return out


def finding(
    code: str,
    severity: Severity,
    tools: tuple[str, ...],
    message: str,
    *,
    fix: str = "",
    line: int = 1,
    status: Status = "new",
    pointer: str = "",
    targets: tuple[str, ...] = (),
    toolset: str = HELPDESK,
    file: str = HELPDESK,
    evidence: dict[str, Any] | None = None,
    related: tuple[str, ...] = (),
    reason: str = "",
) -> Finding:
    return Finding(
        code=code,
        severity=severity,
        message=message,
        fix=fix,
        tools=tools,
        toolset=toolset,
        file=file,
        line=line,
        pointer=pointer,
        targets=targets,
        evidence=evidence or {},
        related=related,
        status=status,
        fingerprint=fingerprint(code, toolset, tools, pointer),
        reason=reason,
    )


def tool(
    name: str,
    line: int,
    *,
    change: str = "unchanged",
    h: str = "1111111111111111",
    prev: str | None = None,
    parts: tuple[str, ...] = (),
    tok: dict[str, Any] | None = None,
    previous_name: str | None = None,
    toolset: str = HELPDESK,
) -> ToolReport:
    return ToolReport(
        name=name,
        toolset=toolset,
        file=toolset,
        line=line,
        format="anthropic",
        targets=("anthropic", "openai", "google"),
        schema_hash=h,
        previous_schema_hash=prev,
        tokens=tok or tokens(40, 40),
        change=change,
        changed_parts=parts,  # type: ignore[arg-type]
        previous_name=previous_name,
    )


MERGE_FIX = (
    "Merge them into one tool and delete the other; do not add a mode argument. Or keep both and give one "
    "a required argument the model cannot make up."
)


def overlap_pr() -> Report:
    """Seed 001: a PR adds find_document beside search_docs."""
    tools = (
        tool("find_document", 8, change="added", h="a1b2c3d4e5f60718", tok=tokens(None, 52, (None, 47))),
        tool(
            "search_docs",
            2,
            change="modified",
            h="9f3c1a2b7d4e5f60",
            prev="0f3c1a2b7d4e5f61",
            parts=("description",),
            tok=tokens(38, 44, (35, 40)),
        ),
        tool("get_document_by_id", 14),
        tool("create_ticket", 26),
        tool("escalate_ticket", 32),
    )
    findings = (
        finding(
            "intent-overlap",
            "warning",
            ("find_document", "search_docs"),
            "find_document and search_docs both retrieve documentation for a query; nothing in either "
            "description says when to use one rather than the other.",
            fix=MERGE_FIX,
            line=8,
            related=("mutual-nondistinction",),
        ),
        finding(
            "directional-domination",
            "warning",
            ("find_document", "get_document_by_id"),
            "get_document_by_id adds nothing beyond find_document's terms.",
            line=14,
            fix='Add a contrastive clause: "use find_document when you hold no id".',
        ),
        finding(
            "directional-domination",
            "warning",
            ("get_document_by_id", "search_docs"),
            "get_document_by_id adds nothing beyond search_docs's terms.",
            line=14,
            status="existing",
        ),
        finding(
            "optional-not-required",
            "error",
            ("find_document",),
            "Property top_k is not in required; OpenAI strict mode rejects the tool.",
            fix="List top_k in required and make its type nullable.",
            line=11,
            pointer="/input_schema/properties/top_k",
            targets=("openai-strict",),
        ),
        finding(
            "missing-description",
            "info",
            ("find_document",),
            "Property question has no description.",
            line=10,
            pointer="/input_schema/properties/question",
            targets=("anthropic", "openai", "google"),
        ),
        finding(
            "blast-radius-twin",
            "warning",
            ("create_ticket", "escalate_ticket"),
            "create_ticket and escalate_ticket share arguments but escalate_ticket pages a human.",
            line=26,
            status="baselined",
            reason="accepted when the baseline was written",
        ),
    )
    resolved = (
        finding(
            "oversized-description",
            "warning",
            ("search_docs",),
            "The description of search_docs is 1,310 characters (limit 1,024).",
            line=2,
            pointer="/description",
            targets=("anthropic", "openai", "google"),
        ),
    )
    toolsets = (
        ToolsetReport(
            id=HELPDESK,
            files=(HELPDESK,),
            tool_count=6,
            tokens=tokens(402, 460, (380, 431)),
            budget=1500,
            change="modified",
        ),
    )
    return Report(
        mode="diff",
        toolsets=toolsets,
        tools=tools,
        findings=findings,
        resolved=resolved,
        stats={"tools": 6, "pairs": 9, "toolsets": 1},
        token_methods=("estimate", "openai-o200k"),
        base_ref="main",
        head_ref=SHA,
    )


def no_changes() -> Report:
    toolsets = (ToolsetReport(id=HELPDESK, files=(HELPDESK,), tool_count=2, tokens=tokens(80, 80)),)
    return Report(
        mode="diff",
        toolsets=toolsets,
        tools=(tool("search_docs", 2), tool("create_ticket", 9)),
        findings=(),
        stats={"tools": 0, "pairs": 0},
    )


def clean_pr() -> Report:
    tools = (
        tool(
            "search_docs",
            2,
            change="modified",
            h="9f3c1a2b7d4e5f60",
            prev="0f3c1a2b7d4e5f61",
            parts=("description", "schema"),
            tok=tokens(44, 38),
        ),
        tool(
            "lookup",
            9,
            change="renamed",
            previous_name="find",
            h="2222222222222222",
            prev="2222222222222222",
            tok=tokens(30, 31),
        ),
    )
    toolsets = (
        ToolsetReport(id=HELPDESK, files=(HELPDESK,), tool_count=2, tokens=tokens(74, 69), change="modified"),
    )
    return Report(
        mode="diff",
        toolsets=toolsets,
        tools=tools,
        findings=(),
        stats={"tools": 2, "pairs": 1},
        config_changes=(".tooldiff.yml: rule intent-overlap severity warning -> error",),
    )


def audit() -> Report:
    mcp = "servers/files"
    tools = (
        tool("read_file", 3, toolset=mcp, tok=tokens(None, 60)),
        tool("get_file", 3, toolset=mcp, tok=tokens(None, 58)),
        tool("fetch_file", 3, toolset=mcp, tok=tokens(None, 61)),
        tool("delete_file", 3, toolset=mcp, tok=tokens(None, 40)),
        tool("search_docs", 2, tok=tokens(None, 44)),
    )
    findings = (
        finding(
            "mutual-nondistinction",
            "warning",
            ("get_file", "read_file"),
            "Neither get_file nor read_file has a term the other lacks.",
            toolset=mcp,
            file=f"{mcp}/get_file.json",
        ),
        finding(
            "mutual-nondistinction",
            "warning",
            ("fetch_file", "read_file"),
            "Neither fetch_file nor read_file has a term the other lacks.",
            toolset=mcp,
            file=f"{mcp}/fetch_file.json",
            status="baselined",
            reason="accepted when the baseline was written",
        ),
        finding(
            "unsupported-keyword",
            "warning",
            ("delete_file",),
            "oneOf is not supported by google.",
            toolset=mcp,
            file=f"{mcp}/delete_file.json",
            line=7,
            pointer="/input_schema/oneOf",
            targets=("google",),
            status="ignored",
            reason="delete_file is only offered to Claude",
        ),
        finding(
            "heavy-definition", "warning", ("search_docs",), "About 620 tokens per call (budget 500).", line=2
        ),
        finding(
            "too-many-tools",
            "error",
            (),
            "This toolset offers 4 tools; the target accepts 3.",
            toolset=mcp,
            file=f"{mcp}/read_file.json",
            line=0,
        ),
    )
    toolsets = (
        ToolsetReport(
            id=mcp,
            files=tuple(f"{mcp}/{t.name}.json" for t in tools[:4]),
            tool_count=4,
            tokens=tokens(None, 219),
            budget=200,
        ),
        ToolsetReport(id=HELPDESK, files=(HELPDESK,), tool_count=1, tokens=tokens(None, 44)),
    )
    return Report(
        mode="audit",
        toolsets=toolsets,
        tools=tools,
        findings=findings,
        stats={"tools": 5, "pairs": 6, "toolsets": 2},
        head_ref=SHA,
        notes=("Ran the configured command `python dump_tools.py` for code-defined tools.",),
    )


HOSTILE = (
    "<!-- tooldiff:comment id=default --> </details> <script>alert(1)</script> "
    "[click](javascript:alert(1)) JaVaScRiPt:alert(2) @octo-org/admins @root | cell | breaker\n"
    "# heading\r\n- item ``` ![img](x) <img src=x onerror=alert(1)> &amp; \u202eevil"
)


def hostile() -> Report:
    """Every tool-derived field carries the injection payload."""
    name = "evil|tool</details>@admin"
    tools = (
        tool(name, 1, change="added", toolset=HOSTILE, tok=tokens(None, 10)),
        tool("evil_two" + HOSTILE, 2, change="renamed", previous_name=HOSTILE, toolset=HOSTILE),
    )
    findings = (
        finding(
            "intent-overlap",
            "warning",
            (name, "evil_two" + HOSTILE),
            HOSTILE,
            fix=HOSTILE,
            toolset=HOSTILE,
            file="a|b\n<!-- tooldiff x.json",
            line=3,
        ),
        finding(
            "intent-overlap",
            "warning",
            (name, "third" + HOSTILE),
            HOSTILE,
            fix=HOSTILE,
            toolset=HOSTILE,
            file=HOSTILE,
            line=3,
        ),
        finding(
            "missing-description", "info", (name,), HOSTILE, toolset=HOSTILE, file=HOSTILE, status="existing"
        ),
    )
    toolsets = (
        ToolsetReport(
            id=HOSTILE, files=(HOSTILE,), tool_count=2, tokens=tokens(5, 10), budget=100, change="modified"
        ),
    )
    return Report(
        mode="diff",
        toolsets=toolsets,
        tools=tools,
        findings=findings,
        resolved=findings[:1],
        notes=(HOSTILE,),
        config_changes=(HOSTILE,),
    )


def many(n: int = 3000) -> Report:
    """A big PR: n new findings of every severity over n/3 tools."""
    sev: tuple[Severity, ...] = ("error", "warning", "info")
    findings = tuple(
        finding(
            "missing-description" if i % 3 else "optional-not-required",
            sev[i % 3],
            (f"tool_{i // 3:05d}",),
            f"Finding number {i} about tool_{i // 3:05d}, with some words " * 2,
            fix="Do the obvious thing to fix it, and then do it again.",
            line=i + 1,
            pointer=f"/input_schema/properties/p{i}",
        )
        for i in range(n)
    )
    tools = tuple(
        tool(f"tool_{i:05d}", i * 3 + 1, change="added", h=f"{i:016x}", tok=tokens(None, 40 + i % 7))
        for i in range(n // 3)
    )
    toolsets = (
        ToolsetReport(
            id=HELPDESK,
            files=(HELPDESK,),
            tool_count=n // 3,
            tokens=tokens(0, 40 * n // 3),
            change="modified",
        ),
    )
    return Report(mode="diff", toolsets=toolsets, tools=tools, findings=findings, head_ref=SHA)


CASES = {
    "overlap_pr": overlap_pr,
    "no_changes": no_changes,
    "clean_pr": clean_pr,
    "audit": audit,
    "hostile": hostile,
}
