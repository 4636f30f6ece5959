"""The demo PR comment rendered by a real GitHub-flavoured Markdown renderer, loaded in headless Chromium."""

from __future__ import annotations

import importlib.util
import re
import struct
import zlib
from pathlib import Path
from types import ModuleType

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tooldiff_docs_screenshot", DOCS / "screenshot.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shot = _load()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("page") / "comment.html"
    path.write_text(shot.to_html(shot.demo_markdown()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def browser() -> str:
    found = shot.find_chromium()
    if found is None:
        pytest.skip("no Chromium on PATH (Debian: apt-get install -y chromium); "
                    "the screenshot itself is `make docs`")
    return str(found)


def test_markdown_becomes_gfm_tables_and_drops_the_marker() -> None:
    md = "<!-- tooldiff:comment id=default -->\nHi\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n"
    out = shot.to_html(md)
    assert out.count("<table>") == 1 and '<td style="text-align:right">2</td>' in out
    assert "tooldiff:comment" not in out


def test_raw_html_in_the_comment_stays_text() -> None:
    out = shot.to_html("<script>alert(1)</script> and <img src=x onerror=alert(1)>\n")
    assert "<script>alert" not in out and "<img" not in out and "&lt;script&gt;" in out


def test_demo_page_has_its_tables(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert text.count("<table>") >= 2  # token cost and schemaHash changes
    assert "find_document" in text and "intent-overlap" in text


def test_chromium_loads_the_page_and_lays_out_the_tables(browser: str, page: Path) -> None:
    dom = shot.dump_dom(browser, page)
    html = page.read_text(encoding="utf-8")
    assert "<title>tooldiff PR comment</title>" in dom
    assert dom.count("<table>") == html.count("<table>") >= 2
    assert len(re.findall(r"<th[ >]", dom)) >= 10 and "Token cost" in dom


def _png_pixels(data: bytes) -> tuple[int, int, bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        if data[pos + 4:pos + 8] == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return width, height, zlib.decompress(idat)


def test_screenshot_is_a_real_picture(browser: str, page: Path, tmp_path: Path) -> None:
    png = tmp_path / "demo.png"
    shot.screenshot(browser, page, png)
    width, height, raw = _png_pixels(png.read_bytes())
    assert (width, height) == (shot.WIDTH, shot.HEIGHT)
    # Not a blank page: a good share of the (filtered) pixel bytes are not the background.
    varied = sum(1 for b in raw[:: 7] if b not in (0x00, 0xFF, 0xF6, 0xF8, 0xFA))
    assert varied > len(raw) // 7 // 200


def test_committed_screenshot_exists() -> None:
    png = DOCS / "demo.png"
    assert png.exists(), "docs/demo.png is missing: run `make docs`"
    width, _, _ = _png_pixels(png.read_bytes())
    assert width == shot.WIDTH and png.stat().st_size > 20_000
