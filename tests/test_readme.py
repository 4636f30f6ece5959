"""The README agrees with what ships: the action's inputs and outputs, the rule registry, the make targets."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from tooldiff import rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_action_input_and_output_is_named() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    for name in [*action["inputs"], *action["outputs"]]:
        assert f"`{name}`" in README, name


def test_rule_table_lists_every_registered_rule() -> None:
    table = set(re.findall(r"^\| `([a-z-]+)` \|", README, flags=re.M))
    assert table == set(rules.registry())


def test_quick_start_and_make_targets_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in re.findall(r"`make ([a-z]+)`", README):
        assert re.search(rf"^{target}:", makefile, flags=re.M), target
    assert "make demo" in README and "make test" in README
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_workflows_in_the_readme_are_valid_yaml_with_permissions() -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", README, flags=re.S)
    workflows = [yaml.safe_load(b) for b in blocks if b.lstrip().startswith(("#", "name:", "on:"))]
    full = [w for w in workflows if isinstance(w, dict) and "jobs" in w]
    assert len(full) >= 4
    assert all("permissions" in w for w in full)


def test_action_examples_give_file_inputs_inside_the_workspace() -> None:
    """A Docker action sees only the workspace: host paths (`/tmp/x`, `${{ github.workspace }}/x`) miss."""
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", README, flags=re.S)]
    steps = [s for b in blocks for s in (b.get("steps", []) if isinstance(b, dict) else b or [])
             if isinstance(s, dict)]
    steps += [s for b in blocks if isinstance(b, dict) for job in b.get("jobs", {}).values()
              for s in job.get("steps", [])]
    names = ("base-tools", "head-tools", "json-file", "sarif-file")
    files = [v for s in steps if str(s.get("uses", "")).startswith("tooldiff/tooldiff@")
             for k, v in (s.get("with") or {}).items() if k in names]
    assert files and all(not str(v).startswith(("/", "${{")) for v in files), files


def test_each_workflow_asks_for_exactly_the_write_permissions_its_steps_use() -> None:
    """"The least `permissions:` it needs": a comment or review needs `pull-requests: write`, a check run
    `checks: write`, SARIF upload `security-events: write` (and `actions: read`, which upload-sarif needs
    in a private repository); a workflow that posts nothing asks for none."""
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", README, flags=re.S)]
    workflows = [b for b in blocks if isinstance(b, dict) and "jobs" in b and "permissions" in b]
    assert len(workflows) >= 4
    for workflow in workflows:
        steps = [s for job in workflow["jobs"].values() for s in job.get("steps", [])]
        needs = {"contents"}
        for step in steps:
            uses, inputs = str(step.get("uses", "")), step.get("with") or {}
            if uses.startswith("tooldiff/tooldiff@"):
                audit = inputs.get("mode") == "audit"
                if (not audit and inputs.get("comment", "update") != "off") or inputs.get("review-comments"):
                    needs.add("pull-requests")
                if str(inputs.get("check-run", "false")) == "true":
                    needs.add("checks")
            if uses.startswith("github/codeql-action/upload-sarif@"):
                needs.update({"security-events", "actions"})
        granted = {k for k, v in workflow["permissions"].items() if v in ("read", "write")}
        assert granted == needs, (workflow.get("name"), granted, needs)
