"""Errors are reported where their cause is, naming the file: an error inside a card's event at
the card's own text (not at the `play_event` that played it), an unreadable cards or locale
folder as itself (not as the missing keys that follow), a decision of a save that cannot be
replayed by the save's file, the decision's number and the rule's place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ludex.engine import Game, load_definition
from ludex.errors import Diagnostic, LudexError
from ludex.folders import discover
from ludex.saves import SaveError, replay_save
from ludex.validate import check_game

TINY = Path(__file__).parent / "games" / "tiny"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def remembered_by_a_rule(tiny: Path, key: str) -> None:
    """A procedure nothing runs that remembers `key`: `recalled(key)` is then a value of no
    known kind, none in play (a key that no rule remembers is refused at load)."""
    edit(tiny / "procedures.yaml", "procedures:\n",
         f'procedures:\n  - id: keep_{key}\n    effect: |\n      remember("{key}", none)\n')


def event_line(cards: Path, card: str) -> int:
    """The line where a card's `event: |` text starts (the line after the indicator)."""
    lines = cards.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {card}")
    return next(i for i in range(at, len(lines)) if lines[i].strip() == "event: |") + 2


def test_a_value_a_card_event_cannot_use_is_reported_at_the_card(tiny):
    cards = tiny / "cards" / "tiny_cards.yaml"
    # `recalled` gives a value of no known kind: nothing to report before play; negating
    # none fails outside any builtin call, so nothing inside the event placed it
    edit(cards, "gain(score, me, 3)", 'let bonus = -recalled("bonus")')
    remembered_by_a_rule(tiny, "bonus")
    edit(tiny / "procedures.yaml", "      gain(score, p, counter(score, p))\n",
         "      play_event(red_three)\n")
    definition, start = load_definition(tiny)
    game = Game(definition, start, seed=7, autostart=False)
    with pytest.raises(LudexError) as raised:  # played from a procedure in procedures.yaml
        game.run("double", lambda ctx: definition.procedures["double_score"](ctx, ["red"]))
    found = raised.value.diagnostics[0]
    assert (found.file, found.code) == (str(cards), "effect/type-error")
    assert found.line == event_line(cards, "red_three")
    assert "red_three" in found.message


def test_a_rule_error_inside_a_card_event_keeps_its_own_line(tiny):
    cards = tiny / "cards" / "tiny_cards.yaml"
    edit(cards, "gain(score, me, 3)",
         'gain(score, me, 3)\n      place(soldier, 1, a, recalled("who"))')
    remembered_by_a_rule(tiny, "who")
    definition, start = load_definition(tiny)
    game = Game(definition, start, seed=7, autostart=False)
    with pytest.raises(LudexError) as raised:
        game.run("event", lambda ctx: definition.card_events["red_three"](ctx, ["red_three"]),
                 me="red")
    found = raised.value.diagnostics[0]
    assert (found.file, found.line, found.code) == (
        str(cards), event_line(cards, "red_three") + 1, "effect/type-error")


@pytest.mark.parametrize("broken", ["locale", "cards/locale", "cards"])
def test_a_folder_that_cannot_be_listed_is_an_error_naming_it(tiny, broken):
    folder = tiny / broken
    shutil.rmtree(folder)
    folder.symlink_to(folder.name)  # a link to itself: listing it fails, even for root
    _, diagnostics = check_game(discover(tiny))
    unreadable = [d for d in diagnostics if d.code == "io/unreadable"]
    assert [(d.file, d.line, d.col) for d in unreadable] == [(str(folder), 1, 1)]
    assert diagnostics[0] is unreadable[0] or diagnostics[0].file != str(folder)
    # what only follows from it (keys and names it would have defined) is folded into it
    assert not [d for d in diagnostics if d.code == "locale/missing-key"]


def test_a_file_where_the_locale_folder_belongs_is_an_error_naming_it(tiny):
    shutil.rmtree(tiny / "locale")
    (tiny / "locale").write_text("en: {}\n", encoding="utf-8")
    _, diagnostics = check_game(discover(tiny))
    assert ("io/unreadable", str(tiny / "locale")) in [(d.code, d.file) for d in diagnostics]


def test_a_decision_a_rule_refuses_on_replay_names_the_save_the_decision_and_the_rule(tiny):
    edit(tiny / "procedures.yaml", "      gain(gems, me, 1)\n",
         '      gain(gems, recalled("buyer"), 1)\n')
    remembered_by_a_rule(tiny, "buyer")
    definition, start = load_definition(tiny)
    saved = {"players": 2, "settings": {"generous": False}, "seed": 3,
             "decisions": ["pass", "play_card:blue_one", "pass", "buy_gem"]}
    with pytest.raises(SaveError) as raised:
        replay_save(definition, start, saved, Path("my_game.json"))
    message = str(raised.value)
    assert message.startswith('my_game.json: decision 4 ("buy_gem") cannot be replayed: ')
    assert f"{tiny / 'procedures.yaml'}:" in message and "<engine>" not in message


def test_a_setup_that_asks_is_reported_at_its_question(tiny):
    edit(tiny / "game.yaml", "sequence: [income, play]\n",
         "setup: double_score\nsequence: [income, play]\n")
    edit(tiny / "procedures.yaml", "      gain(score, p, counter(score, p))\n",
         "      choose s from [a, b] by red prompt \"pick_space\"\n")
    edit(tiny / "procedures.yaml", "  - id: double_score\n    params: [p]\n",
         "  - id: double_score\n")
    definition, start = load_definition(tiny)
    with pytest.raises(LudexError) as raised:
        Game(definition, start, seed=1)
    found = raised.value.diagnostics[0]
    assert (found.file, found.code) == (str(tiny / "procedures.yaml"), "rules/setup-asks")
    line = (tiny / "procedures.yaml").read_text(encoding="utf-8").splitlines()[found.line - 1]
    assert line[found.col - 1:].startswith("choose s from [a, b]")


def error_playing_a_card(tiny: Path) -> tuple[str, Diagnostic]:
    """The first `play_card` option of a tiny game's main window, and the rule error taking
    it raises (its content edited to break)."""
    definition, start = load_definition(tiny)
    game = Game(definition, start, seed=1)
    while game.pending.prompt != "main":
        game.apply(game.pending.options[0])
    option = next(o for o in game.pending.options if o.startswith("play_card:"))
    with pytest.raises(LudexError) as raised:
        game.apply(option)
    return option, raised.value.diagnostics[0]


def test_a_content_error_in_an_action_taken_with_a_card_names_the_card(tiny):
    """Reported by a new-user trial: `… not none [in buy]` left the designer to guess which
    card of the market had no cost."""
    edit(tiny / "procedures.yaml", "      gain(score, me, card.value)\n",
         "      gain(score, me, card.value * [1][card.value])\n")
    option, found = error_playing_a_card(tiny)
    assert (Path(found.file).name, found.code) == ("procedures.yaml", "effect/bad-index")
    assert f"with card `{option.split(':')[1]}` [in play_card]" in found.message


def test_an_action_in_a_window_no_phase_opens_is_an_error_at_its_window(tiny):
    procedures = tiny / "procedures.yaml"
    edit(procedures, "  - id: buy_gem\n    window: main\n", "  - id: buy_gem\n    window: mian\n")
    _, diagnostics = check_game(discover(tiny))
    found = [d for d in diagnostics if d.code == "content/unknown-window"]
    assert len(found) == 1, diagnostics
    line = procedures.read_text(encoding="utf-8").splitlines().index("    window: mian") + 1
    assert (found[0].file, found[0].line, found[0].col) == (str(procedures), line, 13)
    assert "no phase opens the window `mian` of action `buy_gem`" in found[0].message
    assert "did you mean `main`" in found[0].message


def test_a_card_condition_no_rule_tests_is_a_warning_at_the_condition(tiny):
    cards = tiny / "cards" / "tiny_cards.yaml"
    _, diagnostics = check_game(discover(tiny))  # its rules play no event: nothing to test
    assert not [d for d in diagnostics if d.code == "content/untested-condition"]
    edit(tiny / "procedures.yaml", "      move_card(card, discard, me)\n",
         "      move_card(card, discard, me)\n      play_event(card)\n")
    _, diagnostics = check_game(discover(tiny))
    found = [d for d in diagnostics if d.code == "content/untested-condition"]
    assert len(found) == 1 and found[0].severity == "warning", diagnostics
    line = cards.read_text(encoding="utf-8").splitlines().index(
        '    condition: "counter(gold, me) >= 1"') + 1
    assert (found[0].file, found[0].line, found[0].col) == (str(cards), line, 5)
    assert "card `red_three` has a `condition`, but no rule tests one" in found[0].message
    # a rule that tests conditions (here the action's card filter) settles it
    edit(tiny / "procedures.yaml", 'card: "card.zone == hand"',
         'card: "card.zone == hand and event_allowed(card)"')
    _, diagnostics = check_game(discover(tiny))
    assert not [d for d in diagnostics if d.code == "content/untested-condition"]


def test_a_clause_a_rule_names_that_the_game_lacks_is_an_error_at_the_name(tiny):
    procedures = tiny / "procedures.yaml"
    edit(procedures, "  - id: buy_gem\n", "  - id: buy_gem\n    clause: [TINY-PAY, TINY-PYA]\n")
    _, diagnostics = check_game(discover(tiny))
    found = [d for d in diagnostics if d.code == "content/unknown-clause"]
    assert len(found) == 1, diagnostics
    line = procedures.read_text(encoding="utf-8").splitlines().index(
        "    clause: [TINY-PAY, TINY-PYA]") + 1
    assert (found[0].line, found[0].col) == (line, 24)
    assert "`TINY-PYA` is not a clause of tiny" in found[0].message
    assert "did you mean `TINY-PAY`" in found[0].message


def test_a_card_names_the_clauses_it_encodes_and_one_the_game_lacks_is_an_error_at_the_name(
        tiny):
    """`clause:` on a card was `schema/unknown-key`, though the docs offered it for cards."""
    cards = tiny / "cards" / "tiny_cards.yaml"
    edit(cards, "    value: 3\n", "    value: 3\n    clause: [TINY-PAY, TINY-PYA]\n")
    edit(cards, "    value: 2\n    abilities:",
         "    value: 2\n    clause: TINY-END\n    abilities:")
    _, diagnostics = check_game(discover(tiny))
    assert [d.code for d in diagnostics] == ["content/unknown-clause"], diagnostics
    line = cards.read_text(encoding="utf-8").splitlines().index(
        "    clause: [TINY-PAY, TINY-PYA]") + 1
    assert (diagnostics[0].line, diagnostics[0].col) == (line, 24)
    assert "did you mean `TINY-PAY`" in diagnostics[0].message


def test_an_entry_in_the_wrong_list_is_pointed_to_the_list_its_keys_belong_to(tiny):
    """Reported by a designer: a function written under `procedures:` got "`effect` is a
    required property" and "unknown key `expression`", with no word of `functions:`."""
    procedures = tiny / "procedures.yaml"
    edit(procedures, "procedures:\n", "procedures:\n  - id: twice\n    params: [n]\n"
                                       '    expression: "n * 2"\n')
    _, diagnostics = check_game(discover(tiny))
    found = {d.code: d.message for d in diagnostics if d.file == str(procedures)}
    assert found == {
        "schema/missing-key": "`effect` is a required property (this entry has `expression`, "
                              "a key of the entries under `functions:`)",
        "schema/unknown-key": "unknown key `expression` (a key of the entries under "
                              "`functions:`: move this entry there if it is one)"}


def test_an_unknown_counter_suggests_counters_before_locals():
    """`gain(skrab, none, zysk)` beside a local `skarby` said "did you mean `skarb`,
    `skarby`?": a local is suggested only when no counter is close (a designer's trial)."""
    from ludex.compiler import CompileError, Compiler
    from ludex.engine import load_definition
    from ludex.parser import parse

    definition, _ = load_definition(Path(__file__).parent / "games" / "tiny")
    with pytest.raises(CompileError) as caught:
        Compiler(definition, "t.yaml", "t").program(parse("let golds = 1\ngain(gols, red, 1)\n"))
    message = caught.value.diagnostics[0].message
    assert message.startswith("unknown counter `gols`") and "`gold`" in message
    assert "golds" not in message


def test_an_unknown_function_does_not_hide_the_mistakes_in_its_arguments(tiny):
    """`draww(1, mazo, mnao, me)` reported only `draww`; `mnao` came a run later (a
    designer's trial: errors are to come all in one run)."""
    procedures = tiny / "procedures.yaml"
    edit(procedures, "      gain(score, me, card.value)\n",
         "      draww(1, deck, hnad, me)\n")
    _, diagnostics = check_game(discover(tiny))
    found = sorted((d.code, d.col) for d in diagnostics if d.is_error)
    assert found == [("effect/unknown-function", 7), ("effect/unknown-name", 22)]


def test_a_scenario_whose_rules_fail_after_a_decision_names_the_place_in_the_rules(tmp_path):
    """A rule error after a scenario's decision was told by its code and message alone
    (`… [in unos]`): the designer had no line to look at (found by a designer's trial)."""
    from ludex.scenario import run_scenario

    game = tmp_path / "press_on"
    shutil.copytree(Path(__file__).parent / "games" / "press_on", game)
    procedures = game / "procedures.yaml"
    edit(procedures, "    pass: false\n", "    pass: false\n    after_window: broken\n")
    edit(procedures, "procedures:\n", "procedures:\n  - id: broken\n    params: [p]\n"
         "    clause: PRESS-CAMP\n    effect: |\n      move_card(cards(road)[99], discard)\n")
    result = run_scenario(game / "scenarios" / "camping_banks_the_cart.yaml")
    assert result.status == "error", result.message
    line = procedures.read_text(encoding="utf-8").splitlines().index(
        "      move_card(cards(road)[99], discard)") + 1
    # the content error itself, at its place, shown with its source line
    assert [(Path(e.file), e.line, e.col) for e in result.errors] == [(procedures, line, 17)]
    assert result.message.startswith(f"{procedures}:{line}:17: error[effect/bad-index]")
