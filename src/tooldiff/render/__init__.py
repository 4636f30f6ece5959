"""Renderers: pure functions from a Report to text, chosen by name.

`render(name, report, ctx)` is all the CLI and the action need; each module also exposes its own `render`.
"""

# No `from __future__ import annotations` here: it would bind the name `annotations` in this package and
# shadow the `annotations` renderer module. Nothing below needs postponed evaluation on Python 3.11.

from collections.abc import Callable

from tooldiff.model import Report
from tooldiff.render import annotations, jsonout, markdown, sarif, summary, text
from tooldiff.render.context import RenderContext

Renderer = Callable[[Report, RenderContext], str]

RENDERERS: dict[str, Renderer] = {
    "text": text.render,
    "json": jsonout.render,
    "markdown": markdown.render,
    "sarif": sarif.render,
    "github": summary.render,
    "annotations": annotations.render,
}


def render(name: str, report: Report, ctx: RenderContext | None = None) -> str:
    """Render `report` in the named format; KeyError names the formats there are."""
    try:
        renderer = RENDERERS[name]
    except KeyError:
        raise KeyError(f"unknown format {name!r}; choose one of {', '.join(sorted(RENDERERS))}") from None
    return renderer(report, ctx or RenderContext())


__all__ = ["RENDERERS", "RenderContext", "Renderer", "render"]
