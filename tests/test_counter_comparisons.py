"""A counter compared with a number its bounds never let it reach (counter_comparisons.py): the
warning says which way the comparison is settled, in the counter's terms, whichever side the
number is written on (positions: tests/invalid/effect_counter_compared_beyond_its_bounds.yaml)."""

from __future__ import annotations

from pathlib import Path

from ludex.validate import validate_paths

CASE = Path(__file__).parent / "invalid" / "effect_counter_compared_beyond_its_bounds.yaml"


def test_a_comparison_settled_by_a_counters_bounds_says_which_bound_and_which_way():
    found = validate_paths([CASE], kind="procedures", game="imperium").diagnostics
    said = {(d.line, d.col): d.message for d in found}
    assert said[(5, 29)] == ("this comparison never holds: counter `empire` is at most 1 (its "
                             "`max`) and every change is kept within its bounds, so it is "
                             "never more than 1")
    assert said[(7, 33)].endswith("at least 0 (its `min`) and every change is kept within its "
                                  "bounds, so it is always at least 0")
    # `0 > counter(coins, p)`, read from the counter's side
    assert said[(8, 17)].startswith("this comparison never holds: counter `coins` is at least 0")
    assert said[(8, 17)].endswith("so it is never less than 0")
    assert said[(9, 34)].endswith("at most 1 (its `max`) and every change is kept within its "
                                  "bounds, so it is never equal to 2")
    assert said[(9, 61)].endswith("so it is always other than -1")
    assert all(d.severity == "warning" for d in found)
