"""Which rule clauses of a game are covered by passing scenarios (`ludex coverage`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import Collector
from .folders import discover, manifest_id
from .scenario import Result, discover_scenarios, run_scenario
from .yamlio import load_file


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


def clauses_of(folder: Path) -> list[Clause]:
    """The clauses a game folder declares in `clauses.yaml` (none when it has no such file;
    a broken file is `ludex validate`'s to report)."""
    path = discover(folder).rules.get("clauses")
    if path is None:
        return []
    doc = load_file(path, Collector())
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    game_id = manifest_id(folder) or Path(folder).name
    return [Clause(c["id"], game_id, str(c.get("summary", "")))
            for c in data.get("clauses") or [] if isinstance(c, dict) and "id" in c]


def coverage(folders: list[Path], scenario_paths: list[Path] | None = None
             ) -> tuple[list[Clause], list[Result]]:
    """The clauses of the games in `folders`, each with the scenarios that name it; the
    scenarios are `scenario_paths`, or else every game's own `scenarios/` folder."""
    clauses = [c for folder in folders for c in clauses_of(folder)]
    by_id = {c.id: c for c in clauses}
    if scenario_paths is None:
        scenario_paths = [Path(f) / "scenarios" for f in folders
                          if (Path(f) / "scenarios").is_dir()]
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
