"""Ludex as a packager and a user get it. The sdist is complete: it holds every file the
repository tracks (but the CI entry), and its own tests pass. The wheel built from it carries
the bundled games and schemas: installed in a fresh virtual environment, it works from a folder
that is not the checkout — on the bundled games and on a new game made by `ludex init`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the sdist's own tests that read its files (docs, scripts, language cases) through the
# installed package; test_language_docs needs scripts/update_docs.py, once missing from it
SDIST_TESTS = ["tests/test_language_docs.py", "tests/test_docs.py", "tests/test_api_docs.py"]
NOT_SHIPPED = (".ci/",)  # how this repository's CI starts: nothing a user of the sdist runs


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    """The sdist built from this checkout, unpacked."""
    work = tmp_path_factory.mktemp("sdist")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(work / "dist"),
                    str(ROOT)], check=True, capture_output=True)
    archive = next((work / "dist").glob("ludex-*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(work / "unpacked", filter="data")
    return next((work / "unpacked").iterdir())


@pytest.fixture(scope="module")
def installed(sdist, tmp_path_factory) -> Path:
    """A fresh environment with the wheel built from the sdist (as a packager builds it), with
    its `pytest` extra (as the README says to install it for plain `pytest`), and what the
    sdist's tests need; its bin/ folder."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(work / "dist"), str(sdist)], check=True)
    wheel = next((work / "dist").glob("ludex-*.whl"))
    venv.create(work / "env", with_pip=True)
    python = work / "env" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", f"{wheel}[pytest]", "interegular"],
                   check=True)
    return work / "env" / "bin"


def section(page: Path, heading: str) -> str:
    """The text of a page's section, from its heading to the next of the same level."""
    text = page.read_text(encoding="utf-8")
    level = heading.split(" ")[0]
    start = text.index(heading + "\n")
    end = text.find("\n" + level + " ", start + len(heading))
    return text[start:end if end >= 0 else None]


def test_the_pytest_steps_of_the_docs_say_how_to_get_pytest_beside_ludex():
    """Plain `pytest` after `pip install ludex-….whl` ran nothing: pytest is no dependency.
    The README's and the scenario guide's pytest steps name the extra that installs it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(re.match(r"pytest\b", r) for r in project["optional-dependencies"]["pytest"])
    command = f"pip install 'ludex-{project['version']}-py3-none-any.whl[pytest]'"
    for page, heading in ((ROOT / "README.md", "## Your own game"),
                          (ROOT / "docs" / "scenarios.md", "## Running them with pytest")):
        text = section(page, heading)
        assert "pytest" in text and command in " ".join(text.split()), page.name


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                    reason="run from a git checkout (the sdist is built from one)")
def test_the_sdist_holds_every_tracked_file_but_the_ci_entry(sdist):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.splitlines()
    missing = [f for f in tracked if not f.startswith(NOT_SHIPPED) and not (sdist / f).exists()
               and (ROOT / f).exists()]
    assert missing == []


def test_the_unpacked_sdists_own_tests_pass_against_the_installed_package(sdist, installed):
    result = subprocess.run([str(installed / "python"), "-m", "pytest", "-p",
                             "no:cacheprovider", *SDIST_TESTS], cwd=sdist, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert re.search(r"\b\d+ passed", result.stdout) and "failed" not in result.stdout


def test_installed_wheel_finds_its_bundled_content_outside_the_checkout(installed, tmp_path):
    where = subprocess.run(
        [str(installed / "python"), "-c",
         "from ludex.resources import data_root; print(data_root())"],
        capture_output=True, text=True, cwd=tmp_path, check=True).stdout.strip()
    assert "site-packages" in where and str(ROOT) not in where


def test_installed_wheel_validates_the_bundled_games(installed, tmp_path):
    result = subprocess.run([str(installed / "ludex"), "validate"], capture_output=True,
                            text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no errors" in result.stderr


def test_installed_wheel_runs_the_main_job_with_its_bundled_scenarios(installed, tmp_path):
    result = subprocess.run([str(installed / "ludex"), "check"], capture_output=True,
                            text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "sword_of_rome" in result.stdout and "0 failed" in result.stdout


def test_installed_wheel_writes_nothing_into_its_own_bundled_games(installed, tmp_path):
    game = next(installed.parent.glob("lib/python*/site-packages/ludex/_bundled/games/imperium"))
    before = {p: p.stat().st_mtime_ns for p in game.rglob("*")}
    for command in (["schema", "imperium", "--export"], ["locale", "stamp", "imperium", "de"]):
        result = subprocess.run([str(installed / "ludex"), *command], capture_output=True,
                                text=True, cwd=tmp_path)
        assert result.returncode == 2, result.stdout + result.stderr
        assert "imperium is a game installed with Ludex" in result.stderr
    assert {p: p.stat().st_mtime_ns for p in game.rglob("*")} == before


def test_installed_wheel_copies_the_tutorials_example_for_its_commands(installed, tmp_path):
    """The tutorial's one command for a reader without a checkout: the example game ships in
    the wheel, and its copy is the folder every later command names."""
    ludex = str(installed / "ludex")
    created = subprocess.run([ludex, "init", "examples/fair_weather", "--example",
                              "fair_weather"], capture_output=True, text=True, cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    checked = subprocess.run([ludex, "check", "examples/fair_weather"], capture_output=True,
                             text=True, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "41 passed, 0 failed" in checked.stdout


def test_a_new_game_from_init_checks_plays_simulates_and_passes_pytest(installed, tmp_path):
    """The designer's first five minutes, exactly: `ludex init mygame && cd mygame && ludex
    check . && ludex play . --agents random --seed 1 && ludex simulate . --games 50 && pytest`."""
    ludex = str(installed / "ludex")
    steps = [([ludex, "init", "mygame"], tmp_path),
             ([ludex, "check", "."], tmp_path / "mygame"),
             ([ludex, "play", ".", "--agents", "random", "--seed", "1"], tmp_path / "mygame"),
             ([ludex, "simulate", ".", "--games", "50"], tmp_path / "mygame"),
             ([str(installed / "pytest"), "-q"], tmp_path / "mygame")]
    for command, cwd in steps:
        result = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    starter = Path(__file__).resolve().parents[1] / "interpreter" / "ludex" / "templates"
    scenarios = len(list((starter / "starter" / "scenarios").glob("*.yaml")))
    assert f"{scenarios} passed" in result.stdout
