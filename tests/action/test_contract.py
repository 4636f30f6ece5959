"""action.yml, the settings and the outputs agree; the image files are what the runner expects."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import yaml

from tooldiff import actionout
from tooldiff.settings import Settings, from_env

ROOT = Path(__file__).parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
ENV_ONLY = {"event_name", "event_path", "workspace", "api_url", "server_url", "repository", "output_path",
            "summary_path", "sha", "run_id"}


def test_every_input_is_a_setting_and_every_setting_an_input() -> None:
    inputs = {name.replace("-", "_") for name in ACTION["inputs"]}
    fields = {f.name for f in dataclasses.fields(Settings)} - ENV_ONLY
    assert inputs == (fields - {"token"}) | {"github_token"}
    assert all(spec.get("description") for spec in ACTION["inputs"].values())


def test_action_defaults_are_the_settings_defaults() -> None:
    env = {f"INPUT_{k.upper()}": str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    env["INPUT_GITHUB-TOKEN"] = "x"
    assert from_env(env) == from_env({"INPUT_GITHUB-TOKEN": "x"})


def test_every_output_is_written() -> None:
    from reports import diff_report

    assert set(ACTION["outputs"]) == set(actionout.outputs(diff_report()))
    assert all(spec.get("description") for spec in ACTION["outputs"].values())


def test_docker_action_files() -> None:
    assert ACTION["runs"] == {"using": "docker", "image": "Dockerfile"} and ACTION["branding"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM debian:trixie-slim" in dockerfile
    assert dockerfile.index("requirements.lock") < dockerfile.index("COPY src/tooldiff")
    entry = ROOT / "entrypoint.sh"
    assert os.access(entry, os.X_OK)
    text = entry.read_text()
    assert "safe.directory /github/workspace" in text and 'tooldiff github "$@"' in text
    # dash (Debian's sh) drops variables like INPUT_FAIL-ON from the environment of what it runs.
    assert text.startswith("#!/bin/bash\n") and "#!/bin/sh" not in dockerfile
    pins = [line for line in (ROOT / "requirements.lock").read_text().splitlines()
            if line and not line.startswith("#")]
    assert pins and all("==" in p for p in pins)
