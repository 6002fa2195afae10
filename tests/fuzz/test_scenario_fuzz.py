"""Mutated scenarios never crash `validate` or `test` (a brief, deterministic run; `make fuzz`
runs the same at length)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.fuzz.scenario_mutations import crashes

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("folder", ["tests/games/wagers", "games/imperium"])
def test_a_scenario_of_any_shape_gives_a_result_not_a_crash(folder):
    assert crashes(ROOT / folder, 200, seed=1) == {}
