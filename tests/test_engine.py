"""The engine on the tiny YAML-only game: flow from data, the decision protocol, atomic
actions, triggers, payments with conversions, save and resume, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ludex.agents import FirstLegal, Human, RandomAgent, Scripted, play
from ludex.engine import Game, load_definition, replay
from ludex.errors import LudexError
from ludex.runtime import Context, RuleError

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def tiny():
    return load_definition(GAMES / "tiny")


def new(tiny, seed=3) -> Game:
    definition, start = tiny
    return Game(definition, start, seed=seed)


def test_first_decision_is_the_leading_players_action_window(tiny):
    game = new(tiny)
    assert game.pending.who == "red" and game.pending.prompt == "main"
    assert "pass" in game.legal_actions()


def test_actions_that_would_break_a_rule_are_not_legal(tiny):
    game = new(tiny)
    game.state["counters"]["gold"]["red"] = 1  # too poor for buy_gem (costs 2 gold)
    game.restart_unit()
    assert "buy_gem" not in game.legal_actions()


@pytest.mark.parametrize("seed", range(20))
def test_random_agents_play_the_tiny_game_to_its_end(tiny, seed):
    game = play(new(tiny, seed), {None: RandomAgent(seed)})
    assert game.is_terminal()
    assert set(game.scores()) == {"red", "blue"}


def test_the_last_turns_action_windows_are_played_before_the_game_ends(tiny):
    game = new(tiny)
    windows = 0
    while not game.is_terminal():
        assert game.pending.prompt == "main"
        windows += 1
        game.apply("pass")
    # turns: 3, each with a play phase of 2 rounds for 2 seats; the last turn included
    assert windows == 3 * 2 * 2
    assert game.state["turn"] == 3


def test_first_legal_agent_plays_to_the_end(tiny):
    assert play(new(tiny), {None: FirstLegal()}).is_terminal()


def test_illegal_answer_is_refused_and_changes_nothing(tiny):
    game = new(tiny)
    before = json.dumps(game.state, sort_keys=True)
    with pytest.raises(LudexError) as raised:
        game.apply("play_card:blue_one")
    assert raised.value.code == "rules/illegal-action"
    assert json.dumps(game.state, sort_keys=True) == before
    assert game.history == []


def test_a_free_action_keeps_the_window_open(tiny):
    game = new(tiny)
    game.apply("buy_gem")
    assert game.pending.who == "red" and game.pending.prompt == "main"
    assert game.view["counters"]["gems"]["red"] == 1


def test_paying_uses_conversions_and_asks_when_there_is_a_choice(tiny):
    game = new(tiny)
    state = game.state
    state["counters"]["gold"]["red"] = 2
    state["counters"]["gems"]["red"] = 1
    game.restart_unit()
    game.apply("buy_gem")  # costs 2 gold: 2 gold, or 1 gem worth 2
    assert game.pending.prompt == "pay"
    assert game.pending.options == [{"gold": 2}, {"gems": 1}]
    game.apply({"gems": 1})
    assert game.view["counters"]["gems"]["red"] == 1  # paid one, bought one
    assert game.view["counters"]["gold"]["red"] == 2


def test_a_cost_that_even_conversions_cannot_cover_is_illegal(tiny):
    game = new(tiny)
    game.state["counters"]["gold"]["red"] = 1
    game.state["counters"]["gems"]["red"] = 0
    game.restart_unit()
    with pytest.raises(LudexError) as raised:
        game.apply("buy_gem")
    assert raised.value.code == "rules/cannot-pay"


def test_state_trigger_ends_the_game_in_the_middle_of_an_effect(tiny):
    game = new(tiny)
    state = game.state
    state["counters"]["score"].update(red=4, blue=5)
    game.restart_unit()
    game.apply("play_card:red_three")  # score 7: the trigger fires inside the action
    assert game.is_terminal() and game.state["ended"] == "both_rich"
    assert "red_three" in game.state["zones"]["hand"]["red"]  # the discard step never ran


def test_turn_order_follows_the_counter_with_tie_break(tiny):
    game = new(tiny)
    state = game.state
    state["counters"]["score"].update(red=0, blue=3)
    assert game.flow.order({"order": {"by": "score"}}, "seat") == ["blue", "red"]
    state["counters"]["score"].update(red=3, blue=3)
    assert game.flow.order({"order": {"by": "score"}}, "seat") == ["red", "blue"]


def test_save_and_resume_reproduce_the_game_exactly(tiny):
    definition, start = tiny
    game = new(tiny, seed=11)
    agent = RandomAgent(11)
    given = 0
    while given < 6:
        answer = agent(game)
        try:
            game.apply(answer)
            given += 1
        except LudexError:
            agent.refuse(game, answer)
    saved = json.loads(json.dumps(game.save()))
    resumed = replay(definition, start, saved)
    assert resumed.state == game.state
    assert resumed.pending == game.pending


def test_same_seed_and_decisions_give_identical_games_whatever_the_hash_seed(tiny):
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from ludex.engine import Game, load_definition\n"
        "from ludex.agents import RandomAgent, play\n"
        f"d, s = load_definition(Path({str(GAMES / 'tiny')!r}))\n"
        "g = play(Game(d, s, seed=5), {None: RandomAgent(9)})\n"
        "d2, s2 = load_definition('sword_of_rome')\n"
        "h = Game(d2, s2, seed=5)\n"
        "agent = RandomAgent(9)\n"
        "from ludex.agents import step\n"
        "while h.state['turn'] < 2:\n"
        "    step(h, agent)\n"
        "print(json.dumps([g.history, g.state, h.history, h.state], sort_keys=True, "
        "default=str))\n"
    )
    outputs = set()
    for hash_seed in ("0", "1", "12345", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                env=env, check=True)
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_scripted_agent_runs_out_loudly(tiny):
    with pytest.raises(LookupError):
        play(new(tiny), {None: Scripted(["pass"])})


def test_human_agent_reads_a_number_or_an_option(tiny):
    replies = iter(["9", "buy_gem"])
    shown: list[str] = []
    agent = Human(ask=lambda prompt: next(replies), show=shown.append)
    assert agent(new(tiny)) == "buy_gem"
    assert any("choose 1–" in line for line in shown)


def test_an_unwritten_phase_is_logged_not_silent(tmp_path):
    from ludex.engine import Game as EngineGame

    definition, start = load_definition("sword_of_rome")
    game = EngineGame(definition, start, seed=1)
    keys = [entry["args"].get("phase") for entry in game.state["log"]
            if entry["key"] == "phase_not_written"]
    assert "mine_depletion" in keys


def test_human_agent_shows_localised_prompts_and_options():
    from ludex.locale import Localizer

    definition, start = load_definition("sword_of_rome")
    game = Game(definition, start, seed=1)
    while game.pending.prompt != "action":
        game.apply(game.legal_actions()[0])
    shown: list[str] = []
    agent = Human(ask=lambda prompt: "1", show=shown.append,
                  localizer=Localizer(definition.locales, "ru"))
    agent(game)
    assert any(line.startswith("Римляне — Ваше действие") for line in shown)
    assert any("Разыграть событие:" in line for line in shown)


def test_an_atomic_run_copies_only_the_entries_it_writes(tiny):
    start = new(tiny).state
    before = json.dumps(start, sort_keys=True)
    ctx = Context(tiny[0], start)
    trial = ctx.isolate()
    ctx.touch("spaces", "a")
    trial["spaces"]["a"]["markers"]["level"] = 3
    ctx.touch("log")
    trial["log"].append({"key": "x", "args": {}})
    assert trial["spaces"] is not start["spaces"]
    assert trial["spaces"]["a"] is not start["spaces"]["a"]
    assert trial["spaces"]["b"] is start["spaces"]["b"]  # untouched entries stay shared
    assert trial["zones"] is start["zones"] and trial["log"] is not start["log"]
    ctx.touch("zones")  # no entries named: the whole section is copied
    assert all(trial["zones"][z] is not start["zones"][z] for z in start["zones"])
    assert json.dumps(start, sort_keys=True) == before


def test_shuffle_swaps_as_drawing_each_index_with_rng_int_would(tiny):
    """The shuffle writes the generator's steps out (gamedef.rng_shuffle); it must give the
    order and the generator state that drawing each swap's index with `rng_int` gives, or
    every seeded game would change."""
    definition, _ = tiny
    for seed in range(200):
        for size in (0, 1, 2, 7, 40):
            by_rng_int, shuffled = list(range(size)), list(range(size))
            start = seed * 0x9E3779B97F4A7C15 % 2**64
            drawn, state = {"rng": start}, {"rng": start}
            for i in range(size - 1, 0, -1):
                j = definition.rng_int(drawn, 0, i)
                by_rng_int[i], by_rng_int[j] = by_rng_int[j], by_rng_int[i]
            definition.rng_shuffle(state, shuffled)
            assert (shuffled, state) == (by_rng_int, drawn)
    pinned = {"rng": 1}  # the order every earlier Ludex gave this seed
    definition.rng_shuffle(pinned, cards := list(range(8)))
    assert cards == [4, 3, 2, 7, 5, 6, 0, 1]


def test_the_generator_counts_every_value_it_gave_between_two_of_its_states(tiny):
    """What the table's undo relies on (GameDef.draws_between): each value the generator gives
    steps its state by the same odd amount, so the values given between two states are known
    exactly — 0 when nothing was drawn — from the states alone."""
    definition, _ = tiny
    for start in (0, 1, 2**64 - 1, 0xDEADBEEF):
        state = {"rng": start}
        assert definition.draws_between(start, state["rng"]) == 0
        for n in range(1, 30):
            definition.rng_next(state)
            assert definition.draws_between(start, state["rng"]) == n
    state = {"rng": 5}
    definition.rng_shuffle(state, list(range(10)))  # nine swaps (with a seed that redraws none)
    assert definition.draws_between(5, state["rng"]) == 9


def test_a_die_rolled_in_a_procedure_an_action_calls_is_one_draw_and_digging_in_none():
    definition, start = load_definition(GAMES / "skirmish")
    game = Game(definition, start)
    before = game.view["rng"]
    game.apply("dig_in")
    assert definition.draws_between(before, game.view["rng"]) == 0
    game.apply("attack")  # blue: `fight(…)`, a procedure, rolls the die
    assert definition.draws_between(before, game.view["rng"]) == 1


def test_a_trigger_that_becomes_true_during_setup_fires_there(tmp_path):
    """Setup runs in place (no lazy copy, so no verb says what it wrote): every verb must be
    followed by a check of every trigger, not only the first. Here only the second
    `set_counter` makes `rich` true."""
    import shutil

    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "setup: opening\n")
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("procedures:\n", """procedures:
  - id: opening
    effect: |
      set_counter(score, red, 5)
      set_counter(score, blue, 5)
""", 1))
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=1)
    assert game.state["ended"] == "both_rich" and game.pending is None
    assert not [e for e in game.state["log"] if e["key"] == "phase_start"]  # before any phase


def test_a_run_copies_an_entry_of_an_unusual_shape_whole_and_leaves_its_start_alone(tiny):
    """Entries are copied by their shape (runtime.ENTRY_COPIES); one a test or a scenario made
    by hand without the usual fields is copied whole (marshal), never shared."""
    from ludex.state import run_atomic

    definition, _ = tiny
    game = new(tiny)
    start = game.state
    card = next(iter(start["cards"]))
    del start["cards"][card]["under"]  # not the engine's shape
    start["cards"][card]["tokens"] = {"gold": [1, 2]}  # a list where a number belongs
    before = json.dumps(start, sort_keys=True)

    def work(ctx):
        ctx.touch("cards", card)
        ctx.state["cards"][card]["tokens"]["gold"].append(3)
    after, _ = run_atomic(definition, start, work)
    assert after["cards"][card]["tokens"]["gold"] == [1, 2, 3]
    assert json.dumps(start, sort_keys=True) == before


def test_laying_no_tokens_changes_nothing_and_copies_nothing(tiny):
    from ludex import verbs
    from ludex.runtime import Where
    from ludex.state import run_atomic

    definition, _ = tiny
    start = new(tiny).state
    card = next(iter(start["cards"]))
    where = Where("<test>", 1, 1, "test")
    after, _ = run_atomic(definition, start, lambda ctx: verbs._put_tokens(ctx, where, card,
                                                                           "gold", 0))
    assert after["cards"] is start["cards"]  # still shared: no copy was made
    after, _ = run_atomic(definition, start, lambda ctx: verbs._put_tokens(ctx, where, card,
                                                                           "gold", 2))
    assert after["cards"][card]["tokens"] == {"gold": 2} and start["cards"][card]["tokens"] == {}


def tiny_with_triggers(tmp_path: Path, triggers: str):
    """tests/games/tiny with `when` triggers added before its own."""
    import shutil

    folder = tmp_path / "tiny"
    shutil.copytree(GAMES / "tiny", folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text().replace("triggers:\n", "triggers:\n" + triggers, 1)
    procedures.write_text(text.replace("procedures:\n", "procedures:\n  - id: drop\n"
                                       "    effect: |\n      lose(score, red, 3)\n", 1))
    return load_definition(folder)


def drop(game: Game) -> None:
    """Red's score down by 3, as a rule of the game would."""
    game.run("drop", lambda ctx: game.definition.procedures["drop"](ctx, []), "red")


# two triggers undoing each other: red's score below 2 raises it by 5, above 4 lowers it by 5
SEESAW = """  - id: poor
    when: "counter(score, red) < 2"
    effect: |
      gain(score, red, 5)
  - id: rich_red
    when: "counter(score, red) > 4"
    effect: |
      lose(score, red, 5)
"""


def test_triggers_setting_each_other_off_without_end_are_stopped_at_a_trigger(tmp_path):
    """Each trigger looks at every state a verb leaves before any trigger's effect runs: the
    first one's effect ran at once, and the second, looking only after it, missed becoming
    false and true again, so the see-saw stopped silently half-way (a designer's trial). Now
    it goes round without end, and is stopped at a trigger's `when`, naming the chain (with
    more statements it overflowed Python's stack, reported at `<engine>:1:1`)."""
    definition, start = tiny_with_triggers(tmp_path, SEESAW)
    game = Game(definition, start, seed=3, autostart=False)
    game.state["counters"]["score"]["red"] = 4
    with pytest.raises(RuleError) as raised:
        drop(game)
    assert raised.value.code == "rules/step-budget"
    assert "triggers set each other off" in raised.value.text
    assert "poor → rich_red" in raised.value.text
    where = raised.value.where  # the `when` of one of the two, not `<engine>:1:1`
    assert where.file.endswith("procedures.yaml") and where.line in (34, 38)


def test_a_trigger_that_becomes_true_once_fires_once_however_the_other_triggers_go(tmp_path):
    """The same see-saw with its second trigger's threshold out of reach: the first fires
    once (red 1 → 6) and nothing else happens."""
    definition, start = tiny_with_triggers(tmp_path, SEESAW.replace("> 4", "> 9"))
    game = Game(definition, start, seed=3, autostart=False)
    game.state["counters"]["score"]["red"] = 4
    drop(game)
    assert game.state["counters"]["score"]["red"] == 6
