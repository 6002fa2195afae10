"""Mutation testing of content (`ludex mutate`) on the tiny test game: the operators make the
wrong readings a careless reader would, a mutant some scenario notices is killed, one no
scenario notices survives, and a mutant marked equivalent is reported as such."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ludex import ast
from ludex.mutation import MutationRun, mutate
from ludex.mutation.operators import mutations, neighbours
from ludex.parser import Origin, parse

TINY = Path(__file__).parent / "games" / "tiny"


def descriptions(text: str, expression: bool = False) -> list[str]:
    tree = parse(text, Origin(), expression=expression)
    return [m.description for m in mutations(tree)]


def test_operators_change_comparisons_logic_constants_and_rounding():
    found = descriptions("ceil(x / 2) >= 3 and y == 1", expression=True)
    for wanted in ("`>=` → `>`", "`and` → `or`", "`==` → `!=`", "3 → 4", "3 → 2",
                   "`ceil` → `floor`", "`/` → `*`"):
        assert wanted in found


def test_the_first_item_of_a_list_is_read_as_the_second_not_the_last():
    """`items[0]` → `items[-1]` reads the same item of a list of one, the usual list a
    designer reads `[0]` of: no scenario can kill it (12 of one designer's 21 marks)."""
    found = descriptions("x[0] + y[1] + 0", expression=True)
    assert found.count("0 → 1") == 2 and found.count("0 → -1") == 1  # the last `0` only
    assert "1 → 0" in found and "1 → 2" in found


def test_operators_negate_conditions_and_drop_filters():
    found = descriptions("for s in spaces() where s.walled:\n    if x:\n        pass\n")
    assert "`where` filter dropped" in found
    assert "`where` filter negated" in found
    assert "`if` condition negated" in found


def test_operators_delete_and_swap_statements():
    tree = parse("require x\ngain(vp, me, 1)\n", Origin())
    by_description = {m.description: m.tree for m in mutations(tree)}
    assert "`require` deleted" in by_description
    swapped = by_description["`require` and the `gain(…)` after it swapped"]
    assert isinstance(swapped.body[0], ast.CallStmt) and isinstance(swapped.body[1],
                                                                    ast.Require)


def test_an_id_is_misread_as_the_next_of_its_kind_the_last_as_the_first():
    misread = neighbours({"zone": ["deck", "hand", "discard"], "counter": ["gold", "score"]})
    tree = parse("move_card(c, discard, me)\ngain(score, me, 1)\n", Origin())
    found = {m.description: m.tree for m in mutations(tree, misread)}
    assert "`discard` → `deck` (the next zone)" in found
    assert "`score` → `gold` (the next counter)" in found
    moved = found["`discard` → `deck` (the next zone)"]
    assert moved.body[0].call.args[1].name == "deck"
    assert moved.body[1].call.args[0].name == "score"  # the other id stays as it was


def test_no_id_is_misread_without_the_games_ids_or_with_none_of_its_kind_to_take():
    tree = parse("gain(score, me, 1)", Origin())
    assert not [d for d in (m.description for m in mutations(tree)) if "(the next" in d]
    # a kind with one id has nothing to misread it as; a name two kinds share is not guessed
    misread = neighbours({"counter": ["score"], "zone": ["hand", "score_pile"],
                          "flag": ["hand", "open"]})
    assert set(misread) == {"score_pile", "open"}


def test_a_local_that_shares_an_ids_name_is_not_misread():
    misread = neighbours({"zone": ["deck", "hand"]})
    tree = parse("let hand = 2\ngain(score, me, hand)\nmove_card(c, deck, me)\n", Origin())
    found = [m.description for m in mutations(tree, misread)]
    assert "`deck` → `hand` (the next zone)" in found
    assert "`hand` → `deck` (the next zone)" not in found


def test_a_games_misread_zone_survives_until_a_scenario_holds_cards_apart(tiny_report):
    """tiny's `refill_deck` moves the discard pile back into the deck: no scenario refills it,
    so reading `discard` as the next zone goes unnoticed."""
    outcome = tiny_report[("procedures.yaml:69:16", "`discard` → `market` (the next zone)")]
    assert outcome.status == "survived" and outcome.mutant.rule == "refill_deck"
    killed = [o for (_, d), o in tiny_report.items() if "(the next" in d and o.status == "killed"]
    assert killed  # and some misread id is noticed


def test_a_mutant_changes_only_its_own_node():
    tree = parse("a < 1 and b < 2", Origin(), expression=True)
    first = next(m for m in mutations(tree) if m.description == "`<` → `<=`")
    assert first.tree.left.op == "<=" and first.tree.right.op == "<"
    assert tree.left.op == "<"  # the original tree is untouched


@pytest.mark.parametrize("fast", [True, False], ids=["hand-written parser", "lark"])
def test_a_mutant_of_a_binary_operator_is_placed_at_the_operator(fast):
    """`a and b and c` gave two `and → or` mutants at the start of `a`: two identical survivor
    lines, and one equivalent mark covered both."""
    tree = parse("a and b and c or d < 1 + 2 * x", Origin("f", 10, 5), expression=True,
                 fast=fast)
    places = {(m.line, m.col): m.description for m in mutations(tree)
              if m.description.startswith("`")}
    assert places == {(10, 7): "`and` → `or`", (10, 13): "`and` → `or`",
                      (10, 19): "`or` → `and`", (10, 24): "`<` → `<=`",
                      (10, 28): "`+` → `-`", (10, 32): "`*` → `/`"}


def test_a_games_operator_mutant_names_the_operators_place_in_the_file():
    # tests/games/tiny/procedures.yaml:38: `when: "counter(score, red) >= 5 and …"`
    places = {m.place for m, _ in MutationRun(TINY).mutants()
              if m.rule == "rich" and m.description == "`>=` → `>`"}
    assert places == {"procedures.yaml:38:32", "procedures.yaml:38:62"}


@pytest.fixture(scope="module")
def tiny_report():
    return {(o.mutant.place, o.mutant.description): o for o in mutate(TINY).outcomes}


def test_a_mutant_that_a_scenario_notices_is_killed(tiny_report):
    # income.yaml expects red's 2 gold from the income table's first row
    outcome = tiny_report[("tables.yaml:6:38", "table `income` row 1 `gold`: 2 → 3")]
    # the scenario, and what failed in it: a designer weighs how the wrong reading showed
    assert outcome.status == "killed" and outcome.detail.startswith("income.yaml: ")
    assert "expected" in outcome.detail or "false" in outcome.detail


def test_a_mutant_no_scenario_notices_survives(tiny_report):
    # no tiny scenario reaches exactly 5 points: `>= 5` and `> 5` are not told apart
    outcome = tiny_report[("procedures.yaml:38:32", "`>=` → `>`")]
    assert outcome.status == "survived"
    assert outcome.mutant.rule == "rich"


@pytest.mark.parametrize("warned", [False, True], ids=["clean-game", "game-with-warnings"])
def test_a_mutant_that_cannot_compile_is_invalid_not_a_survivor(tmp_path: Path, warned):
    """…and says why by its error, not by a warning the game had all along (a partial
    translation's, sorted first: found by a designer's trial)."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    if warned:  # a second language with only its header: a warning per missing text
        (game / "cards" / "locale" / "de.yaml").write_text("lang: de\n")
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text() + (
        "  - id: bonus\n    params: [p]\n    effect: |\n"
        "      let amount = 2\n      gain(score, p, amount)\n"))
    run = MutationRun(game)
    deleted = next(m for m, _ in run.mutants()
                   if m.rule == "bonus" and m.description == "`let` deleted")
    outcome = run.evaluate(deleted.index)
    assert outcome.status == "invalid" and "effect/unknown-name" in outcome.detail


def test_the_heuristic_is_not_mutated_since_no_scenario_can_see_it(tmp_path: Path):
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text()
                        + 'heuristic: "counter(score, p) + 2 * counter(gems, p)"\n')
    run = MutationRun(game)
    assert run.mutants()
    assert not [m for m, _ in run.mutants() if m.rule == "heuristic"]
    # the manifest's mutants are its parameters (turns, where counters start), none of the
    # heuristic's text
    assert not [m for m, _ in run.mutants() if m.file == str(manifest)
                and m.line == len(manifest.read_text().splitlines())]


def test_functions_only_the_heuristic_calls_are_not_mutated_but_shared_ones_are(tmp_path):
    """A designer's `heuristic: "estimate(p)"` gave 36 survivors in `estimate`, which no
    scenario could kill; a function the rules call as well stays mutated."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + 'heuristic: "estimate(p)"\n')
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("functions:\n", (
        "functions:\n"
        "  - {id: estimate, params: [p], expression: 'worth(p) + 2 * counter(gems, p)'}\n"
        "  - {id: worth, params: [p], expression: 'counter(score, p) * 3'}\n"), 1))
    rules = {m.rule for m, _ in MutationRun(game).mutants()}
    assert "estimate" not in rules and "worth" not in rules
    assert "open_wall" in rules  # called by the rules

    manifest.write_text(manifest.read_text().replace('scores: "counter(score, p)"',
                                                     'scores: "worth(p)"'))
    rules = {m.rule for m, _ in MutationRun(game).mutants()}
    assert "estimate" not in rules and "worth" in rules  # the scores see `worth`


def test_a_mutant_marked_equivalent_is_reported_with_its_reason(tiny_report):
    # tests/games/tiny/clauses.yaml marks it: income's two loops touch unrelated things
    outcome = tiny_report[("procedures.yaml:5:7", "`for` and the `for` after it swapped")]
    assert outcome.status == "equivalent"
    assert outcome.detail.startswith("income's gold and the draw")


def test_an_equivalent_mark_that_no_longer_matches_leaves_the_mutant_judged(tmp_path: Path):
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("phases:\n", "phases:\n\n", 1))
    run = MutationRun(game)
    moved = [run.evaluate(m.index) for m, _ in run.mutants()
             if m.description == "`for` and the `for` after it swapped" and m.rule == "income"]
    assert [o.status for o in moved] == ["survived"]


def test_a_mark_that_no_longer_matches_is_a_warning_naming_where_its_mutant_is_now(tmp_path):
    """Reported by a new-user trial: a line added above a marked mutant silently voided the
    mark; the mark is named, with the place its mutation moved to."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    assert MutationRun(game).stale_marks() == []
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("phases:\n", "phases:\n\n", 1))
    stale = MutationRun(game).stale_marks()
    assert [(d.code, d.severity, Path(d.file).name) for d in stale] == [
        ("mutate/stale-mark", "warning", "clauses.yaml")]
    mark = next(m for m in yaml.safe_load((game / "clauses.yaml").read_text())[
        "equivalent_mutants"])
    line, col = (int(n) for n in mark["at"].split(":")[1:])
    assert f"now at procedures.yaml:{line + 1}:{col}: move the mark there" in stale[0].message


def test_a_stale_mark_names_the_nearest_place_of_its_mutation_first(tmp_path):
    """`1 → 2` is made in eight places of the tiny game: a mark of the one at
    procedures.yaml:53:35, moved a line down, was told to go to three places far from it
    (found by a designer's trial). The nearest comes first now."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    clauses = game / "clauses.yaml"
    clauses.write_text(clauses.read_text().replace("equivalent_mutants:\n", (
        "equivalent_mutants:\n  - at: \"procedures.yaml:53:35\"\n    mutation: \"1 → 2\"\n"
        "    reason: \"a test's mark\"\n"), 1))
    assert MutationRun(game).stale_marks() == []
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("phases:\n", "phases:\n\n", 1))
    [stale] = [d for d in MutationRun(game).stale_marks() if "1 → 2" in d.message]
    assert "that mutation is now at procedures.yaml:54:35: move the mark there" in stale.message


def test_a_stale_mark_prefers_a_place_down_its_own_column_to_a_nearer_one_elsewhere():
    """Five lines deleted above a mark at 53:18 moved its mutant to 48:18; the hint named
    56:31, three lines away but in another procedure (a designer's re-trial). Lines added or
    removed above keep a mark's column, an edit of its line keeps its line."""
    from ludex.mutation.runner import _distance

    at = "procedures.yaml:53:18"
    places = ["procedures.yaml:56:31", "cards/x.yaml:53:18", "procedures.yaml:48:18",
              "procedures.yaml:53:24"]
    assert sorted(places, key=lambda place: _distance(at, place)) == [
        "procedures.yaml:53:24", "procedures.yaml:48:18", "procedures.yaml:56:31",
        "cards/x.yaml:53:18"]


AUCTION = Path(__file__).parent / "games" / "auction"
SWAP = "`draw(…)` and the `set_counter(…)` after it swapped"  # at procedures.yaml:6:7


def reword_mark(tmp_path: Path, new: str) -> Path:
    game = shutil.copytree(AUCTION, tmp_path / "auction")
    clauses = game / "clauses.yaml"
    text = clauses.read_text(encoding="utf-8")
    assert f'mutation: "{SWAP}"' in text
    clauses.write_text(text.replace(f'mutation: "{SWAP}"', f"mutation: {json.dumps(new)}"),
                       encoding="utf-8")
    return game


@pytest.mark.parametrize("copied", [f"{SWAP} in `reveal`", f"{SWAP} in `reveal` [AUC-REVEAL]"])
def test_a_mark_copied_with_the_survivor_lines_rule_and_clauses_still_marks_its_mutant(
        tmp_path, copied):
    """A designer pasted the survivor line's text up to ` in `rule`` (and its clauses): the
    mark was a stale-mark warning, "moved or changed", though nothing had moved."""
    run = MutationRun(reword_mark(tmp_path, copied))
    assert run.stale_marks() == []
    [mutant] = [m for m, _ in run.mutants()
                if m.place == "procedures.yaml:6:7" and m.description == SWAP]
    assert run.evaluate(mutant.index).status == "equivalent"


def test_a_mark_whose_text_is_none_of_the_mutations_at_its_place_lists_them(tmp_path):
    run = MutationRun(reword_mark(tmp_path, "`draw(…)` swapped"))
    [stale] = run.stale_marks()
    assert (stale.code, stale.line) == ("mutate/stale-mark", 18)
    assert "matches none of the mutations made there" in stale.message
    assert f'"{SWAP}"' in stale.message and "`draw(…)` deleted" in stale.message
    assert "moved or changed" not in stale.message


def test_mutate_command_reports_survivors_and_fails(tmp_path: Path):
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(TINY), "--json",
                             "--workers", "2"], capture_output=True, text=True)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["generated"] == len(report["mutants"]) > 50
    assert report["killed"] + report["survived"] + report["invalid"] + report["equivalent"] \
        == report["generated"]
    assert report["equivalent"] == 1
    assert report["survived"] > 0


def test_mutate_with_no_time_left_runs_nothing_and_says_so():
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(TINY),
                             "--budget", "0"], capture_output=True, text=True)
    assert result.returncode == 1
    assert "not run" in result.stdout.splitlines()[-1]


def test_mutate_refuses_content_with_errors_instead_of_counting_every_mutant_killed(
        tmp_path: Path):
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("turns: 3", "turns: three"))
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(game)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "schema/wrong-type" in result.stderr and "mutants of" not in result.stdout


def test_a_clause_the_game_lacks_is_a_usage_error_not_an_empty_pass():
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(TINY), "--clause",
                             "TINY-PYA"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "`TINY-PYA` is not a clause of the game (did you mean `TINY-PAY`" in result.stderr


def test_a_scenario_failing_before_any_mutation_is_an_error_not_a_clean_pass(tmp_path: Path):
    """A failing scenario "killed" every mutant: 0 survived, exit 0 (found by a reliability
    audit). It is now an error at its place, and nothing is mutated."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    (game / "scenarios" / "always_fails.yaml").write_text(
        "game: ..\nname: fails as it stands\nrules: [TINY-PAY]\nrun: {effect: \"pass\"}\n"
        "expect:\n  - \"counter(score, red) == 99\"\n")
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(game)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert "always_fails.yaml:6:1: error[mutate/failing-scenario]" in result.stderr
    assert "mutants of" not in result.stdout


def test_more_workers_than_four_a_core_is_a_usage_error_not_a_fork_bomb():
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(TINY),
                             "--workers", "100000"], capture_output=True, text=True)
    assert result.returncode == 2 and "give at most" in result.stderr


def test_a_clause_no_rule_names_mutates_nothing_and_says_so():
    """tiny's TINY-INCOME is a clause its scenarios cover, but no rule carries `clause:` for
    it: `--clause TINY-INCOME` selected no mutant and passed."""
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "mutate", str(TINY), "--clause",
                             "TINY-INCOME"], capture_output=True, text=True)
    assert result.returncode == 1 and "no rule names TINY-INCOME" in result.stderr


def test_a_cards_clause_selects_its_event_and_ability_mutants_and_names_them(tmp_path: Path):
    """`clause:` on a card: `--clause` keeps the mutants of its event and abilities, and each
    names the clause on its line."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    cards = game / "cards" / "tiny_cards.yaml"
    cards.write_text(cards.read_text().replace(
        "    value: 3\n", "    value: 3\n    clause: TINY-END\n").replace(
        "    value: 2\n    abilities:", "    value: 2\n    clause: [TINY-END]\n    abilities:"))
    of_cards = [m for m, _ in MutationRun(game).mutants() if m.file.endswith("tiny_cards.yaml")]
    assert {m.rule for m in of_cards} == {"red_three", "blue_two.polish"}
    assert {m.clauses for m in of_cards} == {("TINY-END",)}


def test_a_stale_mark_names_each_place_of_its_mutation_once(tmp_path):
    """The stale-mark warning said "now at procedures.yaml:67:12 … (it is also at
    procedures.yaml:67:12 …)" for a chain of `and`s."""
    game = tmp_path / "tiny"
    shutil.copytree(TINY, game)
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        'when: "counter(score, red) >= 5 and counter(score, blue) >= 5"',
        'when: "counter(score, red) >= 5 and counter(score, blue) >= 5 and not flag(storm)"'))
    clauses = game / "clauses.yaml"
    clauses.write_text(clauses.read_text().replace("equivalent_mutants:\n", (
        "equivalent_mutants:\n  - at: \"procedures.yaml:1:1\"\n    mutation: \"`and` → `or`\"\n"
        "    reason: \"a test's mark\"\n"), 1))
    [stale] = [d for d in MutationRun(game).stale_marks() if "`and` → `or`" in d.message]
    named = re.findall(r"procedures\.yaml:\d+:\d+", stale.message.split(" matches ")[1])
    assert len(named) >= 2 and len(named) == len(set(named)), stale.message


def test_the_rules_numbers_and_switches_are_mutated_as_well_as_their_code(tmp_path: Path):
    """A wrong number of turns or rounds, a window that may be passed or not, an action free
    or not, a counter's start: readings of the rules as much as a wrong operator, which no
    effect's mutant made (found by a designer's trial); a counter's start is not moved
    outside its `min`/`max`, which validate refuses."""
    outcomes = {(o.mutant.rule, o.mutant.description): o.status
                for o in mutate(Path(__file__).parent / "games" / "press_on").outcomes}
    assert outcomes[("game", "`turns`: 1 → 2")] == "killed"
    assert ("game", "`turns`: 1 → 0") not in outcomes  # no reading: an error
    assert outcomes[("journey", "phase `journey` `pass`: false → true")] == "killed"
    assert outcomes[("press_on", "action `press_on` `free`: true → false")] == "killed"
    assert outcomes[("camp", "action `camp` `free`: false → true")] == "killed"
    run = MutationRun(Path(__file__).parent / "games" / "auction")
    starts = [m.description for m, _ in run.mutants() if m.rule == "high_bid"]
    assert starts == ["counter `high_bid` `initial`: 0 → 1"]  # not → -1: below its min 0


def test_every_misreading_of_a_river_crossings_cost_is_killed_by_the_crossings_scenarios():
    # `2 if connection_kind(a, b) == "river" else 1`: `!=` for `==`, the condition negated, and
    # either cost off by one each make some march cost what the map does not say
    crossings = Path(__file__).parent / "games" / "crossings"
    outcomes = [o for o in mutate(crossings, clauses=["CRS-RIVER"]).outcomes
                if o.mutant.rule == "cost"]
    assert {o.mutant.description for o in outcomes} >= {
        "`==` → `!=`", "`if … else` condition negated", "2 → 3", "2 → 1", "1 → 2", "1 → 0"}
    assert [o.mutant.description for o in outcomes if o.status != "killed"] == []


def test_a_connection_kind_written_as_a_text_is_misread_as_the_next_kind_where_it_stands_as_one():
    """`connection_kind(a, b) == "river"` read with `"road"`: a designer's misspelt kind is
    caught at validation, but a rule that names the wrong declared kind was never tried.
    Texts compared, listed after `in` and given to `neighbours` are misread; a message key
    that spells a kind is not."""
    kinds = neighbours({"connection kind": ["road", "river", "ford"]})
    tree = parse('if connection_kind(a, b) == "river" or connection_kind(b, a) in ["ford"]:\n'
                 '    log("road")\nfor t in neighbours(a, "road"):\n    pass\n', Origin())
    found = {m.description: m.tree for m in mutations(tree, None, kinds)}
    assert set(d for d in found if "connection kind" in d) == {
        '`"river"` → `"ford"` (the next connection kind)',
        '`"ford"` → `"road"` (the next connection kind)',
        '`"road"` → `"river"` (the next connection kind)'}
    river = found['`"river"` → `"ford"` (the next connection kind)']
    assert river.body[0].branches[0][0].left.right.value == "ford"
    assert river.body[1].iterable.args[1].value == "road"  # the other texts stay
    assert tree.body[0].branches[0][0].left.right.value == "river"  # the original untouched


def test_a_misread_connection_kind_in_the_crossings_rules_is_killed_by_its_scenarios():
    crossings = Path(__file__).parent / "games" / "crossings"
    outcomes = sorted((o.mutant.rule, o.mutant.description, o.status)
                      for o in mutate(crossings).outcomes
                      if "connection kind" in o.mutant.description)
    misread = '`"river"` → `"road"` (the next connection kind)'
    assert outcomes == [("cost", misread, "killed"), ("raid", misread, "killed")], outcomes
