"""The example game's scenarios pin its rules down: change an operator, a bound, a table cell or
the order of two steps in its YAML and some scenario fails. (A scenario set that passes whatever
the rules say is a test that cannot fail.) `ludex mutate` generates such changes from the effect
code and tables; the list below adds some it does not make (a number hard-wired for one player
count, a turn order's direction, a manifest's tie-break, a card's event)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ludex.mutation import mutate
from ludex.scenario import run_scenario

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "fair_weather"

# (file, text, replacement, what the mutation breaks)
MUTATIONS = [
    ("procedures.yaml", "count(suit_in_hand(p, led_suit())) == 0",
     "count(suit_in_hand(p, led_suit())) > 0", "follow suit inverted"),
    ("procedures.yaml", "20 + c.rank if c.suit == today().trump",
     "c.rank if c.suit == today().trump", "trumps no stronger than the suit led"),
    ("procedures.yaml", "(c.rank if c.suit == led_suit() else 0)", "c.rank",
     "a card of another suit may win"),
    ("procedures.yaml", "numbers(0, size)", "numbers(0, size - 1)", "forecasts stop one short"),
    ("procedures.yaml", "where not (last and others + n == size)",
     "where not (others + n == size)", "hook rule for every player"),
    ("procedures.yaml", "let last = counter(place, p) == players - 1",
     "let last = counter(place, p) == 3", "last forecaster hard-wired to four players"),
    ("procedures.yaml", "g <= today().cards]", "g <= today().cards + 1]",
     "omen raises past the day's cards"),
    ("procedures.yaml", "where g >= 0 and", "where g >= -1 and", "omen lowers below zero"),
    ("procedures.yaml", "          if counter(tricks, p) == counter(forecast, p):",
     "          if counter(tricks, p) >= counter(forecast, p):", "bonus for beating a forecast"),
    ("procedures.yaml", "if counter(day) == count(rows(days)):",
     "if counter(day) == count(rows(days)) - 1:", "the game ends a day early"),
    ("procedures.yaml", "lead_from(player_powers()[(counter(day) - 1) % players])",
     "lead_from(player_powers()[(counter(day) - 1) % 4])", "lead rotation for four players only"),
    ("procedures.yaml", "      lead_from(w)\n", "", "the winner does not lead next"),
    ("procedures.yaml",
     "      gain(tricks, w, 1)\n      log(\"trick_taken\", w)\n      lead_from(w)\n"
     "      if count(cards(hand, w)) == 0:\n          end_of_day()\n",
     "      if count(cards(hand, w)) == 0:\n          end_of_day()\n"
     "      gain(tricks, w, 1)\n      log(\"trick_taken\", w)\n      lead_from(w)\n",
     "the day is scored before its last trick counts"),
    ("procedures.yaml", "      shuffle(deck)\n", "", "no shuffle before the deal"),
    ("procedures.yaml", "    order: {by: place, descending: false}\n    effect: |\n      choose",
     "    order: {by: place, descending: true}\n    effect: |\n      choose",
     "tricks played anticlockwise"),
    ("procedures.yaml", "    end: forecasts_done\n", "", "forecasting never closes"),
    ("tables.yaml", "{day: 2, cards: 4, trump: rain}", "{day: 2, cards: 4, trump: sun}",
     "the second day's trumps"),
    ("game.yaml", "  - {id: north, tie_break: 1}\n  - {id: east, tie_break: 2}",
     "  - {id: north, tie_break: 2}\n  - {id: east, tie_break: 1}", "tie-break swapped"),
    ("cards/weather.yaml", "  - id: wind_1\n    suit: wind\n    rank: 1\n    event: |\n"
     "      revise_forecast(me)\n", "  - {id: wind_1, suit: wind, rank: 1}\n",
     "an omen without its event"),
]


def failing_scenarios(folder: Path) -> list[str]:
    return [path.stem for path in sorted((folder / "scenarios").glob("*.yaml"))
            if not run_scenario(path).passed]


def test_the_example_passes_all_its_scenarios_unchanged():
    assert failing_scenarios(EXAMPLE) == []


@pytest.mark.parametrize("file, text, replacement, label", MUTATIONS,
                         ids=[m[3] for m in MUTATIONS])
def test_a_mutated_rule_fails_some_scenario(tmp_path, file, text, replacement, label):
    copy = tmp_path / "fair_weather"
    shutil.copytree(EXAMPLE, copy)
    source = (copy / file).read_text(encoding="utf-8")
    assert source.count(text) == 1, f"the mutation of {label} no longer applies"
    (copy / file).write_text(source.replace(text, replacement), encoding="utf-8")
    assert failing_scenarios(copy), f"no scenario notices: {label}"


def test_every_mutant_ludex_mutate_makes_of_the_example_is_killed_or_marked_equivalent():
    report = mutate(EXAMPLE, workers=2)
    assert report.count("killed") > 100
    assert [f"{o.mutant.place}: {o.mutant.description}" for o in report.survivors] == []
