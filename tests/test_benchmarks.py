"""The benchmarks run and print the shape DESIGN.md fixes (no timing is asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(("script", "args"), [
    ("validate.py", ["--sizes", "10"]),
    ("engine.py", ["--repeat", "1"]),
    ("game.py", ["--games", "1", "--rounds", "1"]),
])
def test_benchmark_prints_cases_with_ratios_as_json(script, args):
    result = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, "--json"],
                            capture_output=True, text=True, check=True)
    cases = json.loads(result.stdout)["cases"]
    assert cases
    for case in cases:
        assert {"name", "ludex_s", "baseline_s", "ratio"} <= set(case)
        assert case["ratio"] > 0
