"""Render the demo PR comment (`make demo`) as GitHub would show it, and screenshot it: docs/demo.png.

The Markdown goes through markdown-it-py with GitHub's table and strikethrough extensions, raw HTML off
(GitHub sanitises it; the only HTML in a comment is the hidden marker, which is dropped as GitHub hides it),
inside a page styled like a GitHub comment. Headless Chromium takes the picture; on Debian
`apt-get install -y chromium` (and `fonts-noto-color-emoji` for the status emoji).

    python docs/screenshot.py [--out docs/demo.png] [--html page.html]

Exit 0 with the PNG written, 3 when no Chromium is installed.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1000, 1400
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--force-device-scale-factor=1",
)

CSS = """
body { margin: 0; background: #f6f8fa; color: #1f2328;
  font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif,
        "Apple Color Emoji", "Noto Color Emoji"; }
.comment { max-width: 920px; margin: 24px auto; background: #fff; border: 1px solid #d1d9e0;
  border-radius: 6px; }
.header { padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d1d9e0;
  border-radius: 6px 6px 0 0; color: #59636e; }
.header b { color: #1f2328; }
.markdown-body { padding: 16px; }
.markdown-body > :first-child { margin-top: 0; }
h3 { font-size: 1.25em; font-weight: 600; margin: 24px 0 16px; padding-bottom: .3em;
  border-bottom: 1px solid #d1d9e0; }
p, ul, table { margin: 0 0 16px; }
ul { padding-left: 2em; }
li + li { margin-top: .25em; }
a { color: #0969da; text-decoration: none; }
code { font: 85% ui-monospace, SFMono-Regular, "DejaVu Sans Mono", monospace; padding: .2em .4em;
  background: rgba(129, 139, 152, .12); border-radius: 6px; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; }
th, td { padding: 6px 13px; border: 1px solid #d1d9e0; }
th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
em { color: #59636e; }
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title><style>{css}</style></head>
<body><div class="comment"><div class="header"><b>tooldiff</b> bot commented</div>
<div class="markdown-body">
{body}</div></div></body></html>
"""


def demo_markdown() -> str:
    """The PR comment `make demo` prints."""
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py")], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    return out.stdout


def to_html(markdown: str, title: str = "tooldiff PR comment") -> str:
    """A standalone page: GitHub-flavoured tables, no raw HTML, GitHub-like styling."""
    markdown = re.sub(r"<!--.*?-->\n?", "", markdown, flags=re.S)  # GitHub hides comment markers
    # Comments on GitHub break lines where the source does (`breaks`), unlike rendered files.
    md = MarkdownIt("commonmark", {"html": False, "breaks": True}).enable(["table", "strikethrough"])
    return PAGE.format(title=html.escape(title), css=CSS, body=md.render(markdown))


def find_chromium() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def _chromium(browser: str, page: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="tooldiff-chromium-") as profile:
        cmd = [browser, *FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def screenshot(browser: str, page: Path, png: Path, width: int = WIDTH, height: int = HEIGHT) -> None:
    proc = _chromium(browser, page, f"--screenshot={png.resolve()}", f"--window-size={width},{height}")
    if proc.returncode != 0 or not png.exists():
        raise RuntimeError(f"chromium failed ({proc.returncode}): {proc.stderr[-2000:]}")


def dump_dom(browser: str, page: Path) -> str:
    """The page's DOM after Chromium has loaded and laid it out."""
    proc = _chromium(browser, page, "--dump-dom")
    if proc.returncode != 0:
        raise RuntimeError(f"chromium failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "demo.png")
    parser.add_argument("--html", type=Path, help="also keep the HTML page here")
    args = parser.parse_args(argv)
    browser = find_chromium()
    if browser is None:
        print("screenshot: no Chromium found; on Debian: apt-get install -y chromium fonts-noto-color-emoji",
              file=sys.stderr)
        return 3
    with tempfile.TemporaryDirectory(prefix="tooldiff-page-") as tmp:
        page = Path(args.html) if args.html else Path(tmp) / "comment.html"
        page.write_text(to_html(demo_markdown()), encoding="utf-8")
        screenshot(browser, page, args.out)
    print(f"screenshot: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
