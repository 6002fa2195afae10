"""The console examples in docs/ and the README are real: each page's `$ ludex …` lines run in
order in one scratch folder (holding copies of tests/games/ and examples/), and print exactly
what the page shows (a line `…` stands for lines left out). Each example starts in that
folder; a `cd` holds until the example ends. docs/tutorial.md is checked by test_tutorial.py,
on its example game. A page prepares what an example needs with a comment the reader does not
see, `<!-- console: in FILE replace "OLD" with "NEW" -->` (a typo the example reports); the
file is restored after that example."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ELIDED = "…"
CONSOLE_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
STEP = re.compile(r"<!-- console: in (\S+) replace \"(.*?)\" with \"(.*?)\" -->"
                  r"|```console\n(.*?)```", re.DOTALL)
# pages whose examples run here (the tutorial's run on its own example game)
PAGES = sorted(p for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
               if p.name != "tutorial.md" and CONSOLE_BLOCK.search(p.read_text("utf-8")))
# what changes from run to run: a duration in seconds
VARYING = [(re.compile(r"\(\d+ s\)"), "(N s)")]


def normalise(line: str) -> str:
    for pattern, stands_for in VARYING:
        line = pattern.sub(stands_for, line)
    return line.rstrip()


def examples(page: Path) -> list[tuple[list[tuple[str, str, str]], list[tuple[str, list[str]]]]]:
    """The page's console examples in order: the edits made before each (file, old, new) and
    its commands, each with the lines shown after it."""
    found, edits = [], []
    for match in STEP.finditer(page.read_text(encoding="utf-8")):
        if match.group(4) is None:
            edits.append(match.groups()[:3])
            continue
        commands: list[tuple[str, list[str]]] = []
        for line in match.group(4).splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(normalise(line))
        found.append((edits, commands))
        edits = []
    return found


def matches(shown: list[str], printed: list[str]) -> bool:
    """`printed` is `shown` with any lines where `shown` has `…`: every other line in order,
    the first and last lines pinned unless `…` stands before or after them."""
    pattern = "".join(".*?\n" if line == ELIDED else re.escape(line + "\n") for line in shown)
    return re.fullmatch(pattern.replace(".*?\n", "(?:.*\n)*?"), "".join(
        line + "\n" for line in printed)) is not None


def run(command: str, cwd: Path) -> tuple[Path, list[str]]:
    """Run one `$` line (`cd DIR && ludex …` allowed); the folder it leaves, what it printed
    (stdout and stderr as a terminal interleaves them)."""
    printed: list[str] = []
    for part in command.split("&&"):
        argv = shlex.split(part)
        if argv[0] == "cd":
            cwd = cwd / argv[1]
            continue
        assert argv[0] == "ludex", f"only ludex commands run in the docs: {command}"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "COLUMNS": "100"}
        result = subprocess.run([sys.executable, "-m", "ludex.cli", *argv[1:]], cwd=cwd,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=env, timeout=300)
        assert "Traceback" not in result.stdout and "internal error" not in result.stdout
        printed += [normalise(line) for line in result.stdout.splitlines()]
    return cwd, printed


def test_the_pages_with_console_examples_are_found():
    assert {"cli.md", "README.md"} <= {p.name for p in PAGES}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_console_example_prints_what_the_page_shows(page, tmp_path):
    for top in ("tests/games", "examples"):  # what the examples name by path
        shutil.copytree(ROOT / top, tmp_path / top)
    wrong = []
    for edits, commands in examples(page):
        originals = {}
        for file, old, new in edits:
            target = tmp_path / file
            text = originals.setdefault(target, target.read_text(encoding="utf-8"))
            assert old in text, f"{page.name}: {file} has no `{old}` to replace"
            target.write_text(text.replace(old, new, 1), encoding="utf-8")
        cwd = tmp_path
        for command, shown in commands:
            cwd, printed = run(command, cwd)
            if not matches(shown, printed):
                wrong.append(f"$ {command}\n" + "\n".join(printed))
        for target, text in originals.items():
            target.write_text(text, encoding="utf-8")
    assert wrong == [], "\n\n".join(["what the commands print now:", *wrong])


def test_an_elided_example_matches_only_in_order():
    assert matches(["a", ELIDED, "c"], ["a", "b", "b", "c"])
    assert not matches(["a", ELIDED, "c"], ["a", "c", "d"])
    assert matches([ELIDED, "c", ELIDED], ["a", "c", "d"])
    assert not matches(["a", "c"], ["a", "b", "c"])


def cli_sections() -> dict[str, str]:
    """docs/cli.md's sections by command name: the heading line, then the text."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(
        r"^## `ludex (\w+)[^\n]*\n(?:(?!^## ).*\n?)*", text, re.MULTILINE)}


def test_every_command_has_a_section_whose_heading_names_its_arguments_and_options():
    from ludex.cli import cli

    sections, missing = cli_sections(), []
    for name, command in cli.commands.items():
        if name not in sections:
            missing.append(f"no section for `ludex {name}`")
            continue
        heading = sections[name].splitlines()[0]
        subcommands = getattr(command, "commands", {})
        missing += [f"`ludex {name}` heading lacks {sub}" for sub in subcommands
                    if sub not in heading]
        for param in ([] if subcommands else command.params):
            if param.param_type_name == "option":
                words = [o for o in param.opts if o.startswith("--")]
            else:
                words = re.findall(r"[A-Z][A-Z_]+", param.metavar or param.name.upper())
            missing += [f"`ludex {name}` heading lacks {w}" for w in words if w not in heading]
    assert missing == []


def test_the_schema_section_lists_every_kind_of_schema():
    from ludex.schemas import KINDS

    listed = re.search(r"prints a base schema \(([^)]*)\)", cli_sections()["schema"]).group(1)
    assert re.findall(r"`(\w+)`", listed) == list(KINDS)


def test_the_play_section_names_every_field_of_play_json(tmp_path):
    """It said `play --json` "prints the log as events": it prints one object when the game
    stops, whose fields (and each log line's) the section names."""
    import json
    import subprocess
    import sys

    printed = subprocess.run(
        [sys.executable, "-m", "ludex", "play", str(ROOT / "tests" / "games" / "wagers"),
         "--agents", "random", "--seed", "1", "--max-decisions", "3", "--json"],
        capture_output=True, text=True, check=True).stdout
    payload = json.loads(printed)  # one object, nothing else on stdout
    section = cli_sections()["play"]
    named = set(re.findall(r'"(\w+)"', section))
    assert set(payload) - named == set()
    assert set(payload["log"][0]) - named == set()
