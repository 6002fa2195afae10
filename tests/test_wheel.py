"""The bundled games and schemas travel inside the wheel: build it, install it in a fresh
virtual environment, and work from a folder that is not the checkout — on the bundled games and
on a new game made by `ludex init`."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(work / "dist"), str(ROOT)], check=True)
    wheel = next((work / "dist").glob("ludex-*.whl"))
    venv.create(work / "env", with_pip=True)
    python = work / "env" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", str(wheel), "pytest"], check=True)
    return work / "env" / "bin"


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
    assert "5 passed" in result.stdout
