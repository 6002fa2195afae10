"""The bundled games and schemas travel inside the wheel: build it, install it in a fresh
virtual environment, and validate from a folder that is not the checkout."""

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
                    "--disable-pip-version-check", str(wheel)], check=True)
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
