"""Small hand-built Reports for action tests that do not need the engine."""

from __future__ import annotations

from tooldiff.model import Finding, Report, ToolReport, ToolsetReport, fingerprint


def finding(
    code: str,
    tools: tuple[str, ...],
    line: int,
    severity: str = "error",
    message: str = "overlap",
    file: str = "tools/a.json",
) -> Finding:
    return Finding(
        code=code,
        severity=severity,
        message=message,
        fix="merge them",
        tools=tools,  # type: ignore[arg-type]
        toolset="tools",
        file=file,
        line=line,
        pointer="",
        status="new",
        fingerprint=fingerprint(code, "tools", tools, ""),
    )


def tool(name: str, line: int, end: int, change: str = "added") -> ToolReport:
    return ToolReport(
        name=name,
        toolset="tools",
        file="tools/a.json",
        line=line,
        end_line=end,
        format="openai-chat",
        targets=(),
        schema_hash="0" * 16,
        tokens={"estimate": {"base": 0, "head": 50, "delta": 50}},
        change=change,
    )  # type: ignore[arg-type]


def diff_report(*findings: Finding, touched: bool = True) -> Report:
    tools = (tool("search_docs", 2, 10, "unchanged"), tool("find_document", 11, 30)) if touched else ()
    sets = (
        (
            ToolsetReport(
                id="tools",
                files=("tools/a.json",),
                tool_count=2,
                tokens={"estimate": {"base": 100, "head": 150, "delta": 50}},
                change="modified",
            ),
        )
        if touched
        else ()
    )
    return Report(
        mode="diff",
        toolsets=sets,
        tools=tools,
        findings=tuple(findings),
        base_ref="b" * 40,
        head_ref="a" * 40,
    )
