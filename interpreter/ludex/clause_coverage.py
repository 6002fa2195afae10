"""Which rule clauses are covered by passing scenarios (`ludex coverage`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .resources import bundled_games, rules_dir
from .scenario import Result, discover_scenarios, run_scenario


@dataclass
class Clause:
    id: str
    game: str
    summary: str
    scenarios: list[str] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)

    @property
    def passing(self) -> bool:
        return bool(self.scenarios) and not self.failing

    def as_dict(self) -> dict:
        return {"id": self.id, "game": self.game, "scenarios": self.scenarios,
                "passing": self.passing, "failing": self.failing}


def clauses_of(game_id: str) -> list[Clause]:
    path = rules_dir() / game_id / "clauses.yaml"
    if not path.is_file():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [Clause(c["id"], game_id, c["summary"]) for c in data.get("clauses") or []]


def coverage(scenario_paths: list[Path]) -> tuple[list[Clause], list[Result]]:
    clauses = [c for game in bundled_games() for c in clauses_of(game)]
    by_id = {c.id: c for c in clauses}
    results = [run_scenario(p) for p in discover_scenarios(scenario_paths)]
    for result in results:
        for clause_id in result.rules:
            clause = by_id.get(clause_id)
            if clause is None:
                continue
            clause.scenarios.append(result.file)
            if not result.passed:
                clause.failing.append(result.file)
    return clauses, results
