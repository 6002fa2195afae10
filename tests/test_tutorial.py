"""docs/tutorial.md is true: its YAML blocks are excerpts of the example game's files, and its
`$ ludex …` commands run with exit status 0 and print the lines the tutorial shows — on the
copy of the example its `ludex init … --example` command makes, as a reader with a wheel and no
checkout makes it."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
EXAMPLE = ROOT / "examples" / "fair_weather"
YAML_BLOCK = re.compile(r"```yaml\n(.*?)```", re.DOTALL)
CONSOLE_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
ELIDED = "…"


def normalise(text: str) -> str:
    """Without blank lines, comment lines, trailing comments and trailing spaces."""
    lines = (re.sub(r"\s+#\s.*$", "", line).rstrip() for line in text.splitlines())
    return "\n".join(line for line in lines if line.strip() and not line.lstrip().startswith("#"))


def commands() -> list[tuple[str, list[str]]]:
    """(command line, output lines shown after it) for every `$ ludex` line, in order."""
    found = []
    for block in CONSOLE_BLOCK.findall(TUTORIAL.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found and line.strip() and line.strip() != ELIDED:
                found[-1][1].append(line.rstrip())
    return found


def test_every_yaml_block_is_an_excerpt_of_one_file_of_the_example():
    files = [normalise(p.read_text(encoding="utf-8")) for p in EXAMPLE.rglob("*.yaml")]
    blocks = YAML_BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))
    assert blocks
    strays = [block.splitlines()[0] for block in blocks
              if not any(normalise(block) in text for text in files)]
    assert strays == []


def test_the_tutorial_runs_every_command_it_shows():
    assert [line.split()[:2] for line, _ in commands()] == [
        ["ludex", "schema"], ["ludex", "validate"], ["ludex", "test"], ["ludex", "mutate"],
        ["ludex", "check"], ["ludex", "coverage"], ["ludex", "play"], ["ludex", "simulate"]]


def init_command() -> list[str]:
    """The command the tutorial gives a reader without a checkout to get the example."""
    found = re.findall(r"^ludex init .*--example.*$", TUTORIAL.read_text(encoding="utf-8"),
                       re.MULTILINE)
    assert len(found) == 1, found
    return shlex.split(found[0])


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """An empty folder in which the tutorial's `ludex init … --example` command was run."""
    root = tmp_path_factory.mktemp("tutorial")
    subprocess.run([sys.executable, "-m", "ludex.cli", *init_command()[1:]], cwd=root,
                   check=True, capture_output=True)
    return root


def test_the_tutorials_init_command_makes_the_example_folder_its_commands_name(workspace):
    assert files_of(workspace / "examples" / "fair_weather") == files_of(EXAMPLE)


@pytest.mark.parametrize("line, shown", commands(), ids=[c[0] for c in commands()])
def test_a_tutorial_command_succeeds_and_prints_what_the_tutorial_shows(workspace, line, shown):
    argv = shlex.split(line)
    assert argv[0] == "ludex"
    result = subprocess.run([sys.executable, "-m", "ludex.cli", *argv[1:]], cwd=workspace,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    printed = [out.rstrip() for out in (result.stdout + result.stderr).splitlines()]
    assert [line for line in shown if line not in printed] == []


def test_the_committed_editor_schemas_are_what_export_writes(workspace):
    subprocess.run([sys.executable, "-m", "ludex.cli", "schema", "examples/fair_weather",
                    "--export"], cwd=workspace, check=True, capture_output=True)
    written = workspace / "examples" / "fair_weather" / "schemas"
    stale = [p.name for p in sorted((EXAMPLE / "schemas").glob("*.json"))
             if p.read_text(encoding="utf-8") != (written / p.name).read_text(encoding="utf-8")]
    assert stale == []
    assert sorted(p.name for p in written.glob("*.json")) == sorted(
        p.name for p in (EXAMPLE / "schemas").glob("*.json"))


def test_the_scenarios_the_tutorial_says_fail_under_its_wrong_rule_are_those_that_fail(
        tmp_path):
    """It said two failed; five do."""
    text = " ".join(TUTORIAL.read_text(encoding="utf-8").split())
    found = re.search(r"change `([^`]+)` to `([^`]+)` in the forecast procedure and run the "
                      r"tests(.*?)`ludex mutate`", text)
    assert found, "the tutorial's wrong rule is not where it was"
    right, wrong, told = found.groups()
    copy = tmp_path / "fair_weather"
    shutil.copytree(EXAMPLE, copy)
    rules = copy / "procedures.yaml"
    assert rules.read_text(encoding="utf-8").count(right) == 1
    rules.write_text(rules.read_text(encoding="utf-8").replace(right, wrong), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "test", str(copy), "--json"],
                            capture_output=True, text=True, timeout=300)
    report = json.loads(result.stdout)
    failed = sorted(Path(r["file"]).name for r in report["results"] if r["status"] != "passed")
    assert sorted(re.findall(r"`(FW-[\w-]+\.yaml)`", told)) == failed
    assert f"`{report['passed']} passed, {report['failed']} failed`" in told


def test_the_readme_links_the_tutorial():
    assert "(docs/tutorial.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
