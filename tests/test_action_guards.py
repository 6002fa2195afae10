"""Action guards (action_guards.py): an action whose opening `let`s and `require`s decide its
legality is listed by them, without a run. Each case below is a position where a wrong reading
of when a guard decides — a `pay` vouched for by a test of another amount, two pays drawing on
the same counters, a trigger that changes a counter or a marker between two pays — would list
as legal an option that running it refuses."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from ludex.action_guards import guard
from ludex.agents import RandomAgent, step
from ludex.engine import Game, load_definition
from ludex.errors import LudexError
from ludex.runtime import Illegal

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "games" / "tiny"


def tiny_with(tmp_path: Path, actions: dict[str, str], triggers: str = "") -> Path:
    """The tiny game with more actions in its `main` window (id -> effect) and triggers."""
    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    procedures = folder / "procedures.yaml"
    text = procedures.read_text()
    added = "".join(f"  - id: {name}\n    window: main\n    free: true\n    effect: |\n"
                    + "".join(f"      {line}\n" for line in _lines(effect))
                    for name, effect in actions.items())
    text = text.replace("actions:\n", "actions:\n" + added, 1)
    procedures.write_text(text.replace("triggers:\n", "triggers:\n" + triggers, 1))
    locale = folder / "locale" / "en.yaml"
    names = "".join(f"{name}: {name}, " for name in actions)
    locale.write_text(locale.read_text().replace("actions: {", "actions: {" + names, 1))
    return folder


def _lines(effect: str) -> list[str]:
    """An effect's lines, the indentation they share taken off (a text that starts on the
    line after its quotes, or flush left with its blocks indented)."""
    return textwrap.dedent(effect.strip("\n")).rstrip().splitlines()


def at_window(folder: Path, **counters: int) -> tuple[Game, Game]:
    """The first `main` window of a tiny game, every power's counters set as given: with
    guards, and with every option run."""
    definition, start = load_definition(folder)
    game, agent = Game(definition, start, players=2, seed=1), RandomAgent(1)
    while game.pending.prompt != "main":
        step(game, agent)

    def edit(state):
        for counter, value in counters.items():
            state["counters"][counter] = dict.fromkeys(state["counters"][counter], value)
    guarded = game.fork(edit)
    plain = game.fork(edit)
    plain.quiet_windows = False
    return guarded, plain


def test_a_cost_the_guard_tested_is_decided_by_the_guard_both_ways(tmp_path):
    folder = tiny_with(tmp_path, {"buy_score": """
        require can_pay(gold, me, 3) else "not_enough_gold"
        pay(gold, me, 3)
        gain(score, me, 1)"""})
    definition, _ = load_definition(folder)
    assert guard(definition, "buy_score", None) is not None
    for gold, legal in ((3, True), (2, False)):
        guarded, plain = at_window(folder, gold=gold, gems=0)
        assert ("buy_score" in plain.legal_actions()) is legal
        assert guarded.legal_actions() == plain.legal_actions()


def test_a_guard_decides_without_running_the_action(tmp_path, monkeypatch):
    folder = tiny_with(tmp_path, {"buy_score": """
        require can_pay(gold, me, 3) else "not_enough_gold"
        pay(gold, me, 3)"""})
    ran = []
    leads_on = Game._leads_on
    monkeypatch.setattr(Game, "_leads_on", lambda self, answers: ran.append(answers[-1])
                        or leads_on(self, answers))
    for gold in (3, 2):
        guarded, _ = at_window(folder, gold=gold, gems=0)
        ran.clear()
        guarded.legal_actions()
        assert "buy_score" not in ran and "buy_gem" in ran  # buy_gem: an untested pay


@pytest.mark.parametrize(("effect", "counters"), [
    # the test is of another amount than the pay
    ("""
        require can_pay(gold, me, 3) else "not_enough_gold"
        pay(gold, me, 4)""", {"gold": 3, "gems": 0}),
    # both tests hold before either pay; the second pay finds the gold spent
    ("""
        require can_pay(gold, me, 2) and can_pay(gold, me, 2) else "not_enough_gold"
        pay(gold, me, 2)
        pay(gold, me, 2)""", {"gold": 3, "gems": 0}),
    # gold may be paid with gems: the gem the first pay spends was the second's
    ("""
        require can_pay(gems, me, 1) and can_pay(gold, me, 2) else "not_enough_gold"
        pay(gems, me, 1)
        pay(gold, me, 2)""", {"gold": 0, "gems": 1}),
    # a question after the tests: the guard does not decide
    ("""
        require can_pay(gold, me, 1) else "not_enough_gold"
        choose s from [x for x in spaces() where x.walled and not x.walled] prompt "pick_space"
        pay(gold, me, 1)""", {"gold": 3, "gems": 0}),
])
def test_a_pay_the_guard_does_not_vouch_for_leaves_the_action_to_a_run(tmp_path, effect,
                                                                      counters):
    folder = tiny_with(tmp_path, {"buy_score": effect})
    definition, _ = load_definition(folder)
    assert guard(definition, "buy_score", None) is None
    guarded, plain = at_window(folder, **counters)
    assert "buy_score" not in plain.legal_actions()
    assert guarded.legal_actions() == plain.legal_actions()


# the triggers below fire when one of the two powers, each with a gem and a point, spends its gem
GEMS_GONE = """  - id: gems_gone
    when: "counter(gems, red) + counter(gems, blue) == 1 and
           counter(score, red) + counter(score, blue) == 2"
"""


@pytest.mark.parametrize(("trigger", "amount"), [
    # it costs every point: the score the guard tested is gone
    (GEMS_GONE + """    effect: |
      set_counter(score, red, 0)
      set_counter(score, blue, 0)
""", "1"),
    # it raises the level the second pay's amount reads (no trigger changes a counter)
    (GEMS_GONE + """    effect: |
      set_marker(a, level, 3)
""", "a.level")])
def test_a_trigger_between_two_pays_leaves_the_action_to_a_run(tmp_path, trigger, amount):
    folder = tiny_with(tmp_path, {"buy_score": f"""
        require can_pay(gems, me, 1) and can_pay(score, me, {amount}) else "not_enough_gold"
        pay(gems, me, 1)
        pay(score, me, {amount})"""}, trigger)
    definition, _ = load_definition(folder)
    assert guard(definition, "buy_score", None) is None
    guarded, plain = at_window(folder, gems=1, score=1)
    assert "buy_score" not in plain.legal_actions()
    assert guarded.legal_actions() == plain.legal_actions()


def test_a_guard_goes_on_into_the_procedure_the_action_calls(tmp_path):
    folder = tiny_with(tmp_path, {"buy_score": """
        let price = 1 + 2
        spend_for_score(me, price)"""})
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("procedures:\n", """procedures:
  - id: spend_for_score
    params: [p, n]
    effect: |
      require can_pay(gold, p, n) else "not_enough_gold"
      pay(gold, p, n)
      gain(score, p, 1)
""", 1))
    definition, _ = load_definition(folder)
    assert guard(definition, "buy_score", None) is not None
    for gold in (3, 2):
        guarded, plain = at_window(folder, gold=gold, gems=0)
        assert guarded.legal_actions() == plain.legal_actions()
    assert "buy_score" in at_window(folder, gold=3, gems=0)[0].legal_actions()


def test_an_error_in_a_guard_is_met_by_the_run_as_without_guards(tmp_path, monkeypatch):
    """The guard's error is not raised from the guard: the option is run, and the run meets
    it, as without guards."""
    folder = tiny_with(tmp_path, {"buy_score": """
        require level_of(a) > 0 else "not_enough_gold"
        gain(score, me, 1)"""})
    definition, _ = load_definition(folder)
    found = guard(definition, "buy_score", None)
    assert found is not None
    guarded, plain = at_window(folder)
    assert found.judge(definition, guarded.view, guarded.pending.who, None) is None
    ran = []
    leads_on = Game._leads_on
    monkeypatch.setattr(Game, "_leads_on", lambda self, answers: ran.append(answers[-1])
                        or leads_on(self, answers))
    with pytest.raises(LudexError) as by_guard:
        guarded.legal_actions()
    assert ran[-1] == "buy_score"  # the run met the error
    with pytest.raises(LudexError) as by_run:
        plain.legal_actions()
    assert by_guard.value.diagnostics == by_run.value.diagnostics


@pytest.mark.parametrize(("action", "card", "decided"), [
    ("acquire", "library", True),  # can_pay tests, then the pays they vouch for
    ("exhaust", "celts_raiders", True),  # `active == me`, tokens; then a quiet ability
    ("play_card", "temple", False),  # no test: return_unrest(me) chooses a card
])
def test_which_imperium_actions_their_guards_decide(action, card, decided):
    definition, _ = load_definition("imperium")
    assert (guard(definition, action, card) is not None) is decided


def test_imperium_listings_with_guards_are_the_ones_running_every_option_gives():
    definition, start = load_definition("imperium")
    decided = 0
    for seed in range(4):
        game = Game(definition, start, players=2 + seed % 3, seed=seed)
        plain = Game(definition, start, players=2 + seed % 3, seed=seed)
        plain.quiet_windows = False
        agent = RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            if game.pending.prompt == "activate":
                before = json.dumps([game.state, game.view], sort_keys=True)
                assert game.legal_actions() == plain.legal_actions(), (seed, game.pending)
                assert json.dumps([game.state, game.view], sort_keys=True) == before
                decided += len(game._known_options()[1])
            plain.apply(step(game, agent))
    assert decided > 0  # guards refused options, not only quiet actions listed them



def test_an_answer_its_guard_refuses_is_refused_without_a_run_as_a_run_refuses_it(monkeypatch):
    """A player who tries options until one is taken (the random agent) meets many an option
    its guard refuses: `apply` refuses it from the guard, with the refusal a run gives (code,
    reason, its arguments, place), and runs nothing."""
    definition, start = load_definition("imperium")
    runs = []
    try_unit = Game._try
    monkeypatch.setattr(Game, "_try", lambda self, *a, **k: runs.append(1) or try_unit(
        self, *a, **k))
    refused = 0
    for seed in range(3):
        game = Game(definition, start, players=2 + seed, seed=seed)
        plain = Game(definition, start, players=2 + seed, seed=seed)
        plain.quiet_windows = False
        agent = RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            answer = agent(game)
            runs.clear()
            try:
                game.apply(answer)
            except Illegal as by_guard:
                decided = game._verdict(answer) not in (None, True)
                assert not (decided and runs), "a refusal its guard gives ran the unit"
                refused += decided
                with pytest.raises(Illegal) as by_run:
                    plain.apply(answer)
                assert (by_guard.code, by_guard.said, by_guard.where) == (
                    by_run.value.code, by_run.value.said, by_run.value.where)
                agent.refuse(game, answer, by_guard)
                continue
            plain.apply(answer)
    assert refused > 20


def test_a_guard_does_not_go_into_a_procedure_whose_arguments_act(tmp_path):
    """Found by review: a guard runs on the state itself, so it goes on into the procedure
    called next only when the call's arguments only look; `noop(draw(…))` is left to a run,
    and listing changes nothing."""
    folder = tiny_with(tmp_path, {"eat": """
        require counter(gold, me) >= 0 else "not_enough_gold"
        noop(draw(1, deck, hand, me))"""})
    procedures = folder / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace(
        "procedures:\n", "procedures:\n  - id: noop\n    params: [n]\n    effect: |\n"
        "      pass\n", 1))
    guarded, plain = at_window(folder)
    before = json.dumps([guarded.state, guarded.view], sort_keys=True)
    assert guarded.legal_actions() == plain.legal_actions()
    assert json.dumps([guarded.state, guarded.view], sort_keys=True) == before


def test_the_refusal_of_an_option_is_what_answering_it_raises_and_none_when_legal():
    """`Game.refusal` (the terminal's `?!`) tells why an option is not offered: the refusal
    `apply` raises for it, guard-decided or run, and nothing for a legal one."""
    definition, start = load_definition("imperium")
    told = 0
    for seed in range(2):
        game = Game(definition, start, players=2 + seed, seed=seed)
        agent = RandomAgent(seed)
        while not game.is_terminal() and game.pending is not None:
            if game.pending.mode == "one":
                legal = game.legal_actions()
                for option in game.pending.options:
                    why = game.refusal(option)
                    assert (why is None) == (option in legal), option
                    if why is None:
                        continue
                    told += 1
                    with pytest.raises(Illegal) as raised:
                        game.apply(option)
                    assert (why.code, why.said, why.where) == (
                        raised.value.code, raised.value.said, raised.value.where)
            step(game, agent)
    assert told > 20


def test_a_guard_refuses_with_its_requires_refusal_made_once_and_raises_nothing(monkeypatch):
    """Most options a guard judges it refuses: a broken `require` whose reason has no
    arguments gives the one refusal made when the guard was compiled, returned, not raised
    (equal in code, reason and place to what the run raises: the test above)."""
    from ludex import action_guards

    definition, start = load_definition("imperium")
    game, agent = Game(definition, start, players=2, seed=0), RandomAgent(0)
    raised = []
    init = Illegal.__init__
    monkeypatch.setattr(Illegal, "__init__", lambda self, *a: raised.append(a) or init(self, *a))
    refusals = []
    while not game.is_terminal() and game.pending is not None and len(refusals) < 5:
        if game.at_window_choice():
            for option in game.pending.options:
                found = action_guards.verdict(definition, option, game.view, game.pending.who)
                if isinstance(found, Illegal):
                    raised.clear()
                    again = action_guards.verdict(definition, option, game.view,
                                                  game.pending.who)
                    assert again is found and raised == []
                    refusals.append(found)
        step(game, agent)
    assert len(refusals) >= 5


def test_a_guards_refusal_carries_its_reasons_arguments_as_the_runs_does(tmp_path):
    """A reason with arguments (`else ("key", a)`) is worked out as the guard refuses: code,
    reason, arguments and place are the run's, each time anew."""
    folder = tiny_with(tmp_path, {"buy_score": """
        let short = 3 - counter(gold, me)
        require can_pay(gold, me, 3) else ("not_enough_gold", short)
        pay(gold, me, 3)"""})
    definition, _ = load_definition(folder)
    assert guard(definition, "buy_score", None) is not None
    for gold in (2, 1):
        guarded, plain = at_window(folder, gold=gold, gems=0)
        by_guard = guarded.refusal("buy_score")
        assert isinstance(guarded._verdict("buy_score"), Illegal)  # the guard decided
        with pytest.raises(Illegal) as by_run:
            plain.apply("buy_score")
        assert by_guard.reason_args == {"a0": 3 - gold}
        assert (by_guard.code, by_guard.said, by_guard.where, by_guard.reason_args) == (
            by_run.value.code, by_run.value.said, by_run.value.where, by_run.value.reason_args)
