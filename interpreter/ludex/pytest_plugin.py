"""pytest plugin (entry point `pytest11`): Ludex scenario files are test items, run by the same
code as `ludex test`, failing with the same readable report.

Only Ludex scenarios are collected, never another project's YAML: a file is one when it lies in
the `scenarios/` folder of a game folder (a folder holding `game.yaml`), when its first line
points at a scenario schema (`# yaml-language-server: $schema=…/scenario.schema.json`), or when
it lies under a path the project names in the `ludex_scenarios` ini option.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .folders import declares_scenario, game_folder_of
from .scenario import Result, run_scenario


def pytest_addoption(parser):
    parser.addini("ludex_scenarios", type="paths", default=[],
                  help="Folders (or files) whose YAML files are all Ludex scenarios.")


def pytest_configure(config):
    """A path `ludex_scenarios` names that is not there (a typo, a folder moved) would run
    none of its scenarios and pass: it is a usage error."""
    for named in config.getini("ludex_scenarios"):
        if not os.path.lexists(named):
            raise pytest.UsageError(f"the `ludex_scenarios` option names {named}, which does "
                                    "not exist: no scenario there can run")


def pytest_collect_directory(path: Path, parent):
    """A game's `scenarios/` folder, or one inside it: collected as pytest collects any
    folder, and its broken links too, which pytest passes over (neither a file nor a
    folder) — each is a failing test that says so, not a scenario silently left out."""
    folder = game_folder_of(path)
    if folder is not None and path.resolve().relative_to(folder).parts[:1] == ("scenarios",):
        return ScenarioFolder.from_parent(parent, path=path)
    return None


class ScenarioFolder(pytest.Dir):
    def collect(self):
        yield from super().collect()
        with os.scandir(self.path) as entries:
            broken = sorted(Path(e.path) for e in entries
                            if e.name.endswith((".yaml", ".yml")) and e.is_symlink()
                            and not os.path.exists(e.path))
        for link in broken:
            yield ScenarioFile.from_parent(self, path=link)


class ScenarioFailed(Exception):
    def __init__(self, result: Result):
        super().__init__(result.message)
        self.result = result


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix in (".yaml", ".yml") and is_scenario(file_path, parent.config):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def is_scenario(path: Path, config) -> bool:
    """Whether `path` is a Ludex scenario (see the module docstring)."""
    resolved = path.resolve()
    for named in config.getini("ludex_scenarios"):
        named = Path(named).resolve()
        if resolved == named or named in resolved.parents:
            return True
    return declares_scenario(path)


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        result = run_scenario(self.path)
        if not result.passed:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return excinfo.value.result.report()
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.path.name}"
