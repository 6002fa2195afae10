"""pytest plugin (entry point `pytest11`): every YAML file under a `scenarios/` folder is a test
item, run by the same code as `ludex test`, failing with the same readable report."""

from __future__ import annotations

import pytest

from .scenario import Result, run_scenario


class ScenarioFailed(Exception):
    def __init__(self, result: Result):
        super().__init__(result.message)
        self.result = result


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".yaml" and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


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
