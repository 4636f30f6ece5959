"""Packaging: `python -m build` makes a wheel and an sdist that `twine check` passes, the wheel carries every
data file, and the wheel installed into a fresh venv runs. Needs PyPI for the build backend and the
dependencies (pip's cache makes later runs take about 15 s)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import tooldiff

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "tooldiff"
EXAMPLE = REPO / "examples" / "helpdesk" / "head" / "tools.json"
BIN = Path(sys.executable).parent


def _run(cmd: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k != "CI"} | env
    return subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=600,
                          check=False)


def _shipped_files() -> list[str]:
    """Every non-Python file the package needs at run time, relative to the package."""
    out = []
    for folder in (PACKAGE / "data", PACKAGE / "render" / "templates"):
        out += [p.relative_to(PACKAGE).as_posix() for p in folder.rglob("*") if p.is_file()]
    return sorted(out)


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if importlib.util.find_spec("build") is None:
        pytest.skip("the `build` package is not installed in this venv (it is a dev dependency)")
    out = tmp_path_factory.mktemp("dist")
    # The default build makes the sdist first and the wheel from it, so the sdist is proven complete too.
    proc = _run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], REPO)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    wheels, sdists = list(out.glob("*.whl")), list(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(out.iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


@pytest.fixture(scope="session")
def venv(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("venv") / "v"
    assert _run([sys.executable, "-m", "venv", str(root)], REPO).returncode == 0
    proc = _run([str(root / "bin" / "pip"), "install", "-q", str(dist["wheel"])], REPO)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return root


def test_version_agrees_everywhere() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == tooldiff.__version__
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(tooldiff.__version__)}\]", changelog, re.M), "no CHANGELOG section"


def test_twine_check_passes(dist: dict[str, Path]) -> None:
    twine = BIN / "twine"
    if not twine.exists():
        pytest.skip(f"twine is not installed in this venv ({twine})")
    proc = _run([str(twine), "check", "--strict", str(dist["wheel"]), str(dist["sdist"])], REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2


def test_wheel_carries_every_data_file_and_module(dist: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(dist["wheel"]).namelist())
    needed = [f"tooldiff/{f}" for f in _shipped_files()] + ["tooldiff/py.typed"]
    needed += [f"tooldiff/{p.relative_to(PACKAGE).as_posix()}" for p in PACKAGE.rglob("*.py")]
    assert [n for n in needed if n not in names] == []
    # The templates, the config schema, the report schema and the target tables, by name.
    for must in ("render/templates/comment.md.j2", "data/config.schema.json", "data/report.schema.json",
                 "data/targets/anthropic.json", "data/default-config.yml", "data/workflow.yml"):
        assert f"tooldiff/{must}" in names
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "tooldiff = tooldiff.cli:main" in zipfile.ZipFile(dist["wheel"]).read(entry).decode()


def test_sdist_carries_the_sources(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"pyproject.toml", "README.md"} <= names
    assert [f for f in _shipped_files() if f"src/tooldiff/{f}" not in names] == []


def test_installed_wheel_runs(venv: Path, tmp_path: Path) -> None:
    tool = str(venv / "bin" / "tooldiff")
    out = _run([tool, "--version"], tmp_path)
    assert out.returncode == 0 and out.stdout.strip() == f"tooldiff {tooldiff.__version__}"
    out = _run([tool, "check", str(EXAMPLE)], tmp_path)
    assert out.returncode == 0, out.stderr
    assert "intent-overlap" in out.stdout and "Checked 6 tools in 1 toolset: 14 new findings" in out.stdout
    # Markdown goes through the shipped templates; JSON through the shipped report schema's shape.
    out = _run([tool, "check", "--format", "markdown", str(EXAMPLE)], tmp_path)
    assert out.returncode == 0 and "|" in out.stdout, out.stderr
    out = _run([str(venv / "bin" / "python"), "-m", "tooldiff", "rules"], tmp_path)
    assert out.returncode == 0 and "intent-overlap" in out.stdout, out.stderr


def test_installed_wheel_init_writes_the_shipped_workflow(venv: Path, tmp_path: Path) -> None:
    out = _run([str(venv / "bin" / "tooldiff"), "init"], tmp_path)
    assert out.returncode == 0, out.stderr
    written = (tmp_path / ".github" / "workflows" / "tooldiff.yml").read_text(encoding="utf-8")
    assert written == (PACKAGE / "data" / "workflow.yml").read_text(encoding="utf-8")
    assert (tmp_path / ".tooldiff.yml").exists()


def test_uvx_from_the_checkout(tmp_path: Path) -> None:
    uvx = shutil.which("uvx") or (str(BIN / "uvx") if (BIN / "uvx").exists() else None)
    if uvx is None:
        pytest.skip("uv is not installed (pip install uv); `uvx --from . tooldiff` is untested")
    out = _run([uvx, "--from", str(REPO), "tooldiff", "--version"], tmp_path,
               UV_CACHE_DIR=str(tmp_path / "uv-cache"), UV_NO_CONFIG="1")
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == f"tooldiff {tooldiff.__version__}"
