"""The engine does not redo work (issue #14): a decision inside an action window replays only
its own action; the run `legal_actions()` made of an option is the one `apply()` keeps; a card
filter's card-free parts run once per (action, power), lazily. Each can be switched off, and
tests/test_fast_paths.py plays the same games either way."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition
from ludex.runtime import Context


@pytest.fixture(scope="module")
def imperium():
    return load_definition("imperium")


@pytest.fixture(scope="module")
def sword_of_rome():
    return load_definition("sword_of_rome")


def longest_replay(definition, start, seed: int) -> int:
    """The most earlier answers a decision of a whole game had to replay."""
    game, agent, longest = Game(definition, start, seed=seed), RandomAgent(seed), 0
    while not game.is_terminal() and game.pending is not None:
        longest = max(longest, len(game.unit.answers))
        step(game, agent)
    return longest


def test_each_decision_of_an_action_window_replays_only_its_own_action(imperium, monkeypatch):
    monkeypatch.setattr(Game, "search_dead_ends", False)  # runs ahead: not what is counted
    # a window step: the choice of action and the action's own questions, nothing before
    assert max(longest_replay(*imperium, seed) for seed in range(3)) <= 2
    monkeypatch.setattr(Game, "step_windows", False)  # the whole window as one unit
    assert max(longest_replay(*imperium, seed) for seed in range(3)) > 2


class CountingGame(Game):
    """A game that notes the answers of every run of a unit."""

    def _try(self, answers, *args, **kwargs):
        self.runs.append(list(answers))
        return super()._try(answers, *args, **kwargs)


def test_the_option_legal_actions_tried_is_not_run_again_when_applied(imperium):
    game = CountingGame.__new__(CountingGame)
    game.runs = []
    game.__init__(*imperium, seed=3)
    game.quiet_windows = False  # every option tried by a run (test_quiet_actions.py: the rest)
    legal = game.legal_actions()
    tried = len(game.runs)
    assert tried >= len(legal) > 1
    game.apply(legal[0])
    assert [legal[0]] not in game.runs[tried:]  # kept from the trial, not run again
    assert game.legal_actions() == game.legal_actions()


def test_an_answer_refused_is_refused_again_from_what_was_kept(imperium):
    game = Game(*imperium, seed=1)
    refused = [o for o in game.pending.options if o not in game.legal_actions()]
    before = json.dumps(game.view, sort_keys=True)
    for option in refused:
        with pytest.raises(Exception) as caught:
            game.apply(option)
        assert caught.value.code.startswith("rules/")
    assert json.dumps(game.view, sort_keys=True) == before


def hand(game: Game, power: str) -> list[str]:
    return list(game.state["zones"]["hand"][power])


def test_a_card_free_filter_part_is_worked_out_once_for_every_card(sword_of_rome):
    game = Game(*sword_of_rome, players=5, seed=0)
    political = sword_of_rome[0].actions["political"]["filter"]
    power = game.state["seats"][0][0]
    cards = hand(game, power)
    probe = Context(sword_of_rome[0], game.state, me=power)
    probe.memo = {}
    kept = [bool(political(probe, [card])) for card in cards]
    assert len(probe.memo) == 1  # `count(support_options(me)) > 0`, once
    plain = Context(sword_of_rome[0], game.state, me=power)
    assert kept == [bool(political(plain, [card])) for card in cards]
    # the kept value is used as it is: a later card does not work the part out again
    (key,) = probe.memo
    probe.memo[key] = not probe.memo[key]
    assert bool(political(probe, [cards[0]])) != kept[0]


def test_a_function_of_the_card_is_worked_out_once_per_argument_list_in_a_listing(
        sword_of_rome):
    """`count(activatable(me, card.value)) > 0`: cards of the same value share one run of
    `activatable` while one listing lasts; the listing is the one a plain run gives."""
    game = Game(*sword_of_rome, players=5, seed=0)
    activate = sword_of_rome[0].actions["activate"]["filter"]
    power = game.state["seats"][0][0]
    cards = hand(game, power)
    values = {game.definition.cards[game.state["cards"][c]["card"]]["value"] for c in cards}
    assert len(values) < len(cards)  # some cards share a value: the memo is put to work
    probe = Context(sword_of_rome[0], game.state, me=power)
    probe.memo = {}
    kept = [bool(activate(probe, [card])) for card in cards]
    assert sorted(key[1:] for key in probe.memo) == sorted((power, v) for v in values)
    plain = Context(sword_of_rome[0], game.state, me=power)
    assert kept == [bool(activate(plain, [card])) for card in cards]


def test_a_card_free_filter_part_is_not_worked_out_for_a_card_that_fails_before_it(
        sword_of_rome):
    game = Game(*sword_of_rome, players=5, seed=0)
    political = sword_of_rome[0].actions["political"]["filter"]
    power = game.state["seats"][0][0]
    elsewhere = next(c for c, spec in game.state["cards"].items() if spec["zone"][0] != "hand")
    probe = Context(sword_of_rome[0], game.state, me=power)
    probe.memo = {}
    assert not political(probe, [elsewhere])  # `card.zone == hand` fails first
    assert probe.memo == {}


@pytest.mark.parametrize(("test", "reads"), [
    ("count(cards(unrest_pile)) == 0", {("zones", "unrest_pile")}),
    ("counter(coins, celts) > 3 and flag(final_round)", {("counters", "coins"), "flags"}),
    ("count([c for c in cards(hand, celts) where c.unrest]) > 0",
     {("zones", "hand"), "spaces", "cards"}),
    ("final_score(celts) > 10",  # through content functions
     {("zones", z) for z in ("hand", "play_area", "deck", "discard", "history", "nation_deck")}
     | {"spaces", "cards"}),
    ("state_of(celts) == none", {("zones", "state_card")}),
    # static functions read the game's data, no section of the state
    ('count(enum_values("colour")) > 2 and flag(final_round)', {"flags"}),
    ("row_for(market, 3) != none and count(flatten([[1], [2]])) == 2", set()),
    ("count([z for z in [hand, deck] where count(cards(z, celts)) > 0]) > 0", {"zones"}),
    ("turn > 3", None),  # a context name: checked after every verb
    ("count(player_powers()) > 2", None),  # a query not known to read only sections
])
def test_a_trigger_test_reads_the_sections_and_entries_it_names(imperium, test, reads):
    from ludex.parser import parse
    from ludex.trigger_inputs import sections_read

    found = sections_read(parse(test, expression=True), imperium[0])
    assert (None if found is None else set(found)) == reads


def test_a_trigger_is_checked_only_after_a_verb_wrote_what_it_reads(imperium, monkeypatch):
    definition, start = imperium
    (collapse,) = definition.triggers
    checks = []

    def counted(ctx, args=()):
        checks.append(ctx.state["turn"])
        return test(ctx, args)
    test = collapse["test"]
    monkeypatch.setitem(collapse, "test", counted)

    def checked(seed: int) -> tuple[int, str]:
        checks.clear()
        game, agent = Game(definition, start, seed=seed), RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            step(game, agent)
        return len(checks), json.dumps(game.state, sort_keys=True)
    watched = [checked(seed) for seed in range(3)]
    monkeypatch.setattr(Game, "watch_inputs", False)
    every = [checked(seed) for seed in range(3)]
    assert [w[1] for w in watched] == [e[1] for e in every]
    assert sum(w[0] for w in watched) * 3 < sum(e[0] for e in every)


def test_a_trigger_made_true_by_hand_fires_at_the_next_verb_whatever_it_writes(imperium):
    """A unit starting from a state whose trigger values are known skips their first check;
    a state changed by hand (then `restart_unit`) is not known, so the next verb checks them
    even when it writes nothing they read."""
    definition, start = imperium
    game, agent = Game(definition, start, players=3, seed=4), RandomAgent(4)
    while not (game.unit.settled and any(o.startswith("play_card")
                                         for o in game.pending.options)):
        step(game, agent)  # the usual case, soon: the first check is skipped
    pile = game.state["zones"]["unrest_pile"][""]
    for card in list(pile):  # the pile emptied by hand: `collapse` is true now
        pile.remove(card)
        game.state["cards"][card]["zone"] = ["discard", game.pending.who]
        game.state["zones"]["discard"][game.pending.who].append(card)
    game.restart_unit()
    game.apply(next(o for o in game.legal_actions() if o.startswith("play_card")))
    assert game.state["ended"] == "collapse"


@pytest.mark.parametrize(("text", "kept"), [
    ("count(cards(hand, celts))", True),
    ("[c for c in cards(hand, celts) where c.unrest]", True),
    ("final_score(celts) + 1", True),  # a content function that only looks
    ("roll(2) + 1", False),  # draws on the generator: must run in every replay
    ("[random_pick(cards(hand, celts), 1)]", False),
    ("3", False),  # cheaper to work out than to look up
])
def test_only_values_that_call_something_and_only_look_are_kept_for_replays(
        imperium, text, kept):
    from ludex.parser import parse
    from ludex.replays import worth_keeping

    assert worth_keeping(parse(text, expression=True), imperium[0]) is kept


class HitCountingDict(dict):
    """A dictionary that counts the lookups that found something."""

    hits = 0

    def get(self, key, default=None):
        if key in self:
            HitCountingDict.hits += 1
        return super().get(key, default)


def test_a_replay_reuses_the_values_worked_out_before_its_question(sword_of_rome,
                                                                   monkeypatch):
    def reinforcement_replays(seed: int) -> tuple[int, int, str]:
        """(kept values found, decisions, final state) in a game's reinforcement units."""
        game, agent = Game(*sword_of_rome, players=5, seed=seed), RandomAgent(seed)
        HitCountingDict.hits = decisions = 0
        while not game.is_terminal() and game.pending is not None:
            if game.unit.label.startswith("reinforcement:"):
                if not isinstance(game.unit.values, HitCountingDict):
                    game.unit.values = HitCountingDict(game.unit.values)
                decisions += 1
            step(game, agent)
        return HitCountingDict.hits, decisions, json.dumps(game.state, sort_keys=True)
    kept = reinforcement_replays(0)
    assert kept[1] > 0 and kept[0] >= kept[1]  # a replay finds earlier values kept
    monkeypatch.setattr(Game, "replay_values", False)
    plain = reinforcement_replays(0)
    assert plain[0] == 0 and plain[2] == kept[2]


def test_the_suites_start_state_check_catches_a_write_past_touch():
    """The suite runs every unit with engine.CHECK_SHARED: a verb that changed the state a run
    started from without `touch` (so a refused answer would leave its change behind) fails
    the run. The check's fingerprint must see such a write."""
    from ludex import engine

    assert engine.CHECK_SHARED  # tests/conftest.py sets it for the whole suite
    definition, start = load_definition(Path(__file__).parent / "games" / "tiny")
    game = engine.Game(definition, start, seed=0, autostart=False)

    def careless(ctx):
        ctx.state["counters"]["score"]["red"] = 99  # in place, no touch: the start's own dict

    with pytest.raises(AssertionError, match="changed its start state"):
        game.run("careless", careless)


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_a_finished_game_and_its_refused_answers_are_freed_without_the_garbage_collector(
        imperium, agent):
    """Reference cycles made on every decision (a kept refusal's traceback holding the frames
    that hold it; the game and its flow) left each game to the cyclic collector, whose passes
    took a quarter of a whole game's time: a game's objects are freed as soon as it is let go."""
    from ludex.agents import agents_by_power, play, seat_agents

    def whole_games():
        for seed in range(4):  # random agents: some answers refused (unaffordable cards)
            game = Game(*imperium, seed=seed)
            play(game, agents_by_power(game, seat_agents([agent], len(game.state["seats"]),
                                                         seed)))
            assert game.is_terminal()

    gc.collect()
    gc.disable()
    try:
        whole_games()
        assert gc.collect() == 0  # nothing the games left needed the collector to be freed
    finally:
        gc.enable()


class LabelledGame(Game):
    """A game that notes which unit every run was of, and its answers."""

    def _try(self, answers, *args, **kwargs):
        self.runs.append((self.unit.label, list(answers)))
        return super()._try(answers, *args, **kwargs)


def window_runs(game) -> list:
    return [(label, answers) for label, answers in game.runs if label.startswith("turn:round")
            and label.count(":") == 3]  # `turn:round1:celts:1`: a step of celts' window


def test_a_window_steps_choice_is_asked_without_a_run_and_taken_with_one(imperium, monkeypatch):
    """Asking is a window step's first act: the engine asks it on the step's start state
    (`Game._open`), and only answering runs the step."""
    game = LabelledGame.__new__(LabelledGame)
    game.runs = []
    game.__init__(*imperium, seed=3)
    assert game.at_window_choice() and window_runs(game) == []  # no run to ask it
    before = json.dumps(game.view, sort_keys=True)
    option = next(o for o in game.pending.options if o.startswith("play_card:"))
    game.apply(option)
    # the step's one run, from its start with the answer; the next step is asked without one
    assert window_runs(game) == [("turn:round1:celts:1", [option])]
    assert game.pending.prompt == "activate" and game.unit.label == "turn:round1:celts:2"
    monkeypatch.setattr(Game, "open_windows", False)
    game = LabelledGame.__new__(LabelledGame)
    game.runs = []
    game.__init__(*imperium, seed=3)
    assert window_runs(game) == [("turn:round1:celts:1", [])]
    assert json.dumps(game.view, sort_keys=True) == before  # the same question, the same state
