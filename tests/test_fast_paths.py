"""The fused shapes of fastpaths.py and inlined content functions are only a faster way to the
same result: whole games played with and without them, same seeds and agents, end in identical
states and logs (tests/test_language.py runs every language case both ways too); errors keep
their place; steps are counted the same. So are the engine's ways of not redoing work (one unit
per action in a window, trial outcomes kept, card-free filter parts kept, options remembered,
the search for a way on): each switched off alone, the games are the same."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from ludex.agents import RandomAgent, step
from ludex.compiler import Compiler, Scope
from ludex.content import load_game
from ludex.engine import Game, load_definition
from ludex.errors import Collector, LudexError
from ludex.folders import discover
from ludex.gamedef import build_definition
from ludex.parser import parse
from ludex.runtime import Context
from ludex.schemas import Validators
from ludex.state import new_state, place_start


def play(definition, start, seed: int, players: int, last_turn: int = 3,
         ask_legal: bool = False) -> tuple[list, str]:
    game = Game(definition, start, players=players, seed=seed)
    agent, answers = RandomAgent(seed), []
    while not game.is_terminal() and game.pending is not None \
            and game.state["turn"] <= last_turn:
        if ask_legal and len(answers) % 3 == 0:  # listing the options may change nothing
            answers.append(game.legal_actions())
        answers.append(step(game, agent))
    return answers, json.dumps(game.state, sort_keys=True)


SHORTCUTS = ("memo_options", "step_windows", "open_windows", "reuse_trials", "hoist_filters",
             "search_dead_ends", "watch_inputs", "replay_values")


GAMES = {"sword_of_rome": (5, 3, 2), "imperium": (3, 4, 40)}  # players, seeds, last turn


@functools.cache
def games_with_every_shortcut(game_id: str) -> tuple[list, ...]:
    definition, start = load_definition(game_id)
    players, seeds, last_turn = GAMES[game_id]
    return tuple(play(definition, start, seed, players, last_turn, ask_legal=True)
                 for seed in range(seeds))


@pytest.mark.parametrize("shortcut", SHORTCUTS)
@pytest.mark.parametrize("game_id", GAMES)
def test_games_play_the_same_with_each_engine_shortcut_switched_off(game_id, shortcut,
                                                                    monkeypatch):
    expected = games_with_every_shortcut(game_id)
    definition, start = load_definition(game_id)
    players, seeds, last_turn = GAMES[game_id]
    monkeypatch.setattr(Game, shortcut, False)
    if shortcut == "step_windows":  # a whole window as one unit: slow to search, fewer games
        seeds = 2
    for seed in range(seeds):
        assert play(definition, start, seed, players, last_turn, ask_legal=True) \
            == expected[seed], seed


# -- inlined content functions (inlining.py, Compiler.inline_call) ----------------------------

def tiny_definition(fast_paths: bool):
    here = Path(__file__).parent / "games"
    errors = Collector()
    game = load_game(discover(here / "tiny"), errors, Validators())
    definition = build_definition(game, errors, fast_paths=fast_paths)
    assert not errors, errors.sorted()
    return definition, {s["id"]: s.get("start") or {} for s in game.data("map")["spaces"]}


def evaluate(definition, start, text: str):
    state = new_state(definition, seed=1)
    place_start(definition, state, start)
    run, size = Compiler(definition, "<test>", "test").expression(parse(text, expression=True))
    ctx = Context(definition, state)
    return run(ctx, [None] * size), ctx


def test_functions_that_reach_themselves_are_not_inlined_and_callees_compile_first():
    definition, _ = tiny_definition(fast_paths=True)
    assert {"open_wall", "open_wall_or_home", "level_of"} <= definition.inlinable
    assert not {"countdown", "ping", "pong"} & definition.inlinable
    order = list(definition.functions)
    assert order.index("open_wall") < order.index("open_wall_or_home")


@pytest.mark.parametrize("fast_paths", [True, False], ids=["inlined", "called"])
def test_an_error_inside_a_function_points_at_the_function_itself(fast_paths):
    definition, start = tiny_definition(fast_paths)
    with pytest.raises(LudexError) as caught:
        evaluate(definition, start, "level_of(a)")
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "effect/unknown-attribute"
    assert diagnostic.file.endswith("procedures.yaml") and "level_of" in diagnostic.message
    source = Path(diagnostic.file).read_text(encoding="utf-8").splitlines()
    assert "s.value" in source[diagnostic.line - 1]


def test_inlined_calls_count_the_same_steps_as_calls():
    text = "[open_wall_or_home(s, a) for s in spaces()] + [countdown(3)]"
    results = [evaluate(*tiny_definition(fast), text) for fast in (True, False)]
    (fast_value, fast_ctx), (general_value, general_ctx) = results
    assert fast_value == general_value == [True, False, False, True, 3]
    assert fast_ctx.steps == general_ctx.steps > 0


# -- static tests of a loop over spaces, powers… (FastPaths.static_tests) ---------------------

@pytest.mark.parametrize("text", [
    "[s for s in spaces() where s.walled]",
    "[s for s in spaces() where s.walled and s.control == red]",
    "[s for s in spaces() where not s.walled and s != b]",
    "[s for s in spaces() where s.walled or s == c]",
    "count([s for s in spaces() where s.walled and s.level > 0])",  # d has no level: an error
    "[s for s in spaces() where s.walled < 2]",  # a type error, at its place, at run time
])
def test_static_tests_of_a_loop_give_what_the_general_compilation_gives(text):
    outcomes = []
    for fast in (True, False):
        try:
            value, ctx = evaluate(*tiny_definition(fast), text)
            outcomes.append(("value", value, ctx.steps))
        except LudexError as exc:
            d = exc.diagnostics[0]
            outcomes.append(("error", d.code, d.line, d.col, d.message))
    assert outcomes[0] == outcomes[1]


def test_a_loops_leading_static_tests_are_worked_out_once_at_load():
    definition, _ = tiny_definition(fast_paths=True)
    compiler = Compiler(definition, "<test>", "test")
    loop = parse("[s for s in spaces() where s.walled and s.control == red]", expression=True)
    keep, rest = compiler.static_tests(loop.name, loop.iterable, loop.where, Scope(("s",)))
    assert keep(definition.space_ids, []) == ["a", "d"] and len(rest) == 1
    # a test on what changes in play (a marker) is not static
    marker_first = parse("[s for s in spaces() where s.control == red and s.walled]",
                         expression=True)
    assert compiler.static_tests(marker_first.name, marker_first.iterable, marker_first.where,
                                 Scope(("s",))) is None


# -- a card's zone, owner and card read from a local (FastPaths.local_attribute) ---------------

def test_a_cards_zone_owner_and_card_read_from_a_local_are_what_the_game_reader_gives():
    """Cards in hands, decks and the market (nobody's), a space, a power, table rows with and
    without the cell, a number: each read the same, value or error, with and without the
    fast paths (as closures: the source written for loops reads them its own way)."""
    outcomes = {}
    for fast in (True, False):
        definition, start = tiny_definition(fast)
        state = Game(definition, start, players=2, seed=1).state
        compiler = Compiler(definition, "<test>", "test")
        values = [*state["cards"], "a", "red", {"zone": "z", "owner": "o", "card": "k"}, {}, 5]
        for name in ("zone", "owner", "card"):
            read = compiler.expr(parse(f"c.{name}", expression=True), Scope(("c",)))
            for value in values:
                try:
                    outcome = ("value", read(Context(definition, state), [value]))
                except LudexError as exc:
                    d = exc.diagnostics[0]
                    outcome = ("error", d.code, d.message)
                outcomes.setdefault((name, str(value)), []).append(outcome)
    assert len(outcomes) > 20
    for key, (fast, general) in outcomes.items():
        assert fast == general, key


def test_a_cards_zone_read_from_a_local_goes_straight_to_the_card(monkeypatch):
    """`c.zone` of a local holding a card (`let slot = c.zone` opening a procedure) reads the
    card's state in one closure: the game's general reader is not asked. (`owner` is a
    piece's attribute too in this game: the reader decides it.)"""
    definition, start = tiny_definition(True)
    state = Game(definition, start, players=2, seed=1).state
    card = state["zones"]["hand"]["red"][0]
    asked = []
    reader = definition.attribute_reader
    monkeypatch.setattr(definition, "attribute_reader",
                        lambda *a: asked.append(a[2]) or reader(*a))
    compiler = Compiler(definition, "<test>", "test")
    values = [compiler.expr(parse(f"c.{name}", expression=True), Scope(("c",)))(
        Context(definition, state), [card]) for name in ("zone", "card")]
    assert values == ["hand", state["cards"][card]["card"]] and asked == []
