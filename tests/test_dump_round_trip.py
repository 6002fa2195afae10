"""`ludex dump` writes a game's state as a scenario; run, that scenario must start from the very
state it was dumped from — counters, flags, spaces, every card's place, the tokens on it, the
cards under it and its owner, and what the rules remembered. A dump that lost the tokens on
Imperium's market cards quietly made another game."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ludex.agents import RandomAgent, step
from ludex.dump import dump_yaml, scenario_from, standing
from ludex.engine import Game, load_definition
from ludex.loading import scenario_file
from ludex.scenario import _prepare, run_scenario

PARTS = ("turn", "round", "phase", "active", "counters", "flags", "spaces", "zones", "cards",
         "rng")


def dumped_and_prepared(game: Game, folder: Path, name: str) -> dict:
    path = folder / f"{name}.yaml"
    path.write_text(dump_yaml(scenario_from(game, rules=["ANY"])), encoding="utf-8")
    return _prepare(scenario_file(path).doc).state


@pytest.mark.parametrize(("game_id", "players", "seeds"), [
    ("imperium", 3, range(4)), ("sword_of_rome", 5, range(1))])
def test_a_dumped_state_is_the_state_it_was_dumped_from(tmp_path, game_id, players, seeds):
    definition, start = load_definition(game_id)
    compared = 0
    for seed in seeds:
        game, agent = Game(definition, start, players=players, seed=seed), RandomAgent(seed)
        decisions = 0
        while not game.is_terminal() and game.pending is not None and decisions < 400:
            if decisions % 37 == 5:
                view = standing(game)  # mid-action: the state the action began from
                state = dumped_and_prepared(game, tmp_path, f"{game_id}_{seed}_{decisions}")
                for part in PARTS:
                    assert state[part] == view[part], (part, decisions)
                assert (state.get("memory") or {}) == (view.get("memory") or {}), decisions
                compared += 1
            step(game, agent)
            decisions += 1
    assert compared >= 5


def test_a_dumped_game_shuffles_as_the_game_would_have_from_where_its_generator_stood(tmp_path):
    """The generator is part of the state: a dumped scenario that shuffles (a deck run out, a
    die) gets the game's order, not the one a fresh generator from `seed` would give."""
    definition, start = load_definition("imperium")
    game, agent = Game(definition, start, players=2, seed=4), RandomAgent(4)
    for _ in range(30):
        step(game, agent)
    who, dumped = game.pending.who, standing(game)
    pile = list(dumped["zones"]["deck"][who]) + list(dumped["zones"]["discard"][who])
    game_side = dict(dumped)
    definition.rng_shuffle(game_side, pile)  # what `shuffle` does to the game's own state

    scenario = scenario_from(game, rules=["IMP-RESHUFFLE-a"])
    scenario["run"] = {"power": who, "effect": f"move_all(discard, deck, {who})\n"
                                                f"shuffle(deck, {who})"}
    scenario.pop("decisions", None)  # an action under way's: not this run's
    scenario["expect"] = [{"value": f"cards(deck, {who})", "equals": pile}]
    path = tmp_path / "shuffled.yaml"
    path.write_text(dump_yaml(scenario), encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.report()


def test_a_scenario_lays_tokens_cards_under_a_card_and_an_owner(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("""\
game: imperium
name: a market card with coins on it and an Unrest card under it
rules: [IMP-ACQUIRE-b]
settings: {players: 2}
state:
  zones:
    market_civilised: [market_town]
  cards:
    market_town: {tokens: {coins: 2}, under: [unrest#1]}
    celts_elders: {owner: persians}
run: {effect: "pass"}
expect:
  - 'tokens(market_town, "coins") == 2'
  - 'under(market_town) == ["unrest#1"]'
  - 'not ("unrest#1" in cards(unrest_pile))'
  - "owner_of(celts_elders) == persians"
""", encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.report()


def test_a_scenario_lays_down_what_was_remembered(tmp_path):
    """In a game whose rules remember a moment (Imperium keeps no memory, and a key no rule
    remembers or recalls is refused as a scenario's mistake)."""
    path = tmp_path / "case.yaml"
    path.write_text("""\
game: sword_of_rome
name: an event is being answered
rules: [SOR-7.1.1-a]
settings: {players: 5}
state:
  memory: {moment: event, moment_by: romans}
run: {effect: "pass"}
expect:
  - 'recalled("moment") == "event"'
  - 'recalled("moment_by") == romans'
""", encoding="utf-8")
    result = run_scenario(path)
    assert result.passed, result.report()


def test_a_game_dumped_at_a_seats_window_goes_on_from_that_seat_as_the_game_did(tmp_path):
    """Wagers' hand of play is a window round per turn; dumped at a seat's window, the
    scenario takes the phase up at that seat (`run: {phase, seat}`), not at the first seat
    again, and asks what the game asked, answer after answer, until the phase ends (no
    shuffle happens inside it, so the generator's position does not matter)."""
    from ludex.scenario import _start

    folder = Path(__file__).parent / "games" / "wagers"
    definition, start = load_definition(folder)
    game, agent = Game(definition, start, seed=3), RandomAgent(3)
    asked, answers = [], []
    while not game.is_terminal() and game.pending is not None:
        pending = game.pending
        asked.append((pending.who, pending.prompt, game.legal_actions(), game.view["phase"],
                      game.at_window_choice()))
        step(game, agent)
        answers.append(game.history[-1])
    taken_up = 0
    for k, (_who, _prompt, _options, phase, at_window) in enumerate(asked):
        if phase != "hand" or not at_window or k % 3:
            continue
        replay = Game(definition, start, seed=3)
        for answer in answers[:k]:
            replay.apply(answer)
        scenario = scenario_from(replay, rules=["WAG-TURN"])
        assert scenario["run"] == {"phase": "hand", "seat": replay.pending.who}
        scenario["game"] = str(folder)  # found from anywhere
        path = tmp_path / f"at_{k}.yaml"
        path.write_text(dump_yaml(scenario), encoding="utf-8")
        doc = scenario_file(path).doc
        dumped = _prepare(doc)
        _start(doc, dumped, doc.data["run"])
        i = k
        while dumped.pending is not None:
            who, prompt, options, _, _ = asked[i]
            assert (dumped.pending.who, dumped.pending.prompt, dumped.legal_actions()) == \
                (who, prompt, options), (k, i)
            dumped.apply(answers[i])
            i += 1
        assert i > k
        taken_up += 1
    assert taken_up >= 3


def test_a_game_dumped_inside_an_action_is_taken_up_before_it_and_answered_back_to_there(
        tmp_path):
    """A game saved at a question inside an action (Imperium: how to pay, which Unrest card
    to return, whether to move a token while drawing) was dumped with the action half done
    (a card already played) and a `run` that began the phase again: a state no game reaches,
    where the card played was gone from the hand. The dump writes the state before the
    action and takes the game up at its seat's window with the action's answers so far as
    its first decisions: the scenario asks what the game asked, answer after answer, to the
    end of the phase."""
    from ludex.dump import answers_given
    from ludex.scenario import _start

    definition, start = load_definition("imperium")
    taken_up = 0
    for seed in range(6):
        game, agent = Game(definition, start, players=2, seed=seed), RandomAgent(seed)
        asked, answers, inside = [], [], []
        while not game.is_terminal() and game.pending is not None:
            if answers_given(game):
                inside.append(len(answers))
            asked.append((game.pending.who, game.pending.prompt, game.legal_actions(),
                          game.view["phase"]))
            step(game, agent)
            answers.append(game.history[-1])
        for k in inside[:2]:
            replay = Game(definition, start, players=2, seed=seed)
            for answer in answers[:k]:
                replay.apply(answer)
            given, before = answers_given(replay), replay.unit.start
            scenario = scenario_from(replay, rules=["IMP-PAY-a"])
            assert scenario["run"] == {"phase": "turn", "seat": replay.unit.me}
            assert [d["choose"] for d in scenario["decisions"]] == given == \
                answers[k - len(given):k]
            path = tmp_path / f"inside_{seed}_{k}.yaml"
            path.write_text(dump_yaml(scenario), encoding="utf-8")
            doc = scenario_file(path).doc
            dumped = _prepare(doc)
            for part in PARTS:
                assert dumped.state[part] == before[part], (seed, k, part)
            _start(doc, dumped, doc.data["run"])
            for answer in given:
                dumped.apply(answer)
            i = k
            while dumped.pending is not None:
                who, prompt, options, _ = asked[i]
                assert (dumped.pending.who, dumped.pending.prompt, dumped.legal_actions()) \
                    == (who, prompt, options), (seed, k, i)
                dumped.apply(answers[i])
                i += 1
            assert i > k
            taken_up += 1
    assert taken_up >= 4


def test_a_game_dumped_inside_an_after_window_step_says_it_cannot_be_taken_up_there():
    """Imperium's clean-up asks which cards to throw away after a nation's window: no `run`
    takes the game up there, and the dump says so."""
    from ludex.dump import taken_up

    definition, start = load_definition("imperium")
    game, agent = Game(definition, start, players=2, seed=1), RandomAgent(1)
    while game.pending.prompt != "discard_from_hand":
        step(game, agent)
    run, note = taken_up(game)
    assert run == {"phase": "turn"}
    assert "turn:round1:celts:after" in note and "from its start" in note


def test_emptied_tokens_and_an_owned_card_under_another_come_back_as_they_were(tmp_path):
    """Two states a sampled game rarely meets (found by a review): a State card whose printed
    action tokens are all spent (the dump wrote nothing, and the scenario began with the
    printed 5), and a card of the Celts slipped under a market card listed later (its owner was
    reset when the market card's `under` was laid)."""
    from ludex.runtime import Context, Where
    from ludex.verbs import _slip_under

    definition, start = load_definition("imperium")
    game = Game(definition, start, players=2, seed=1)
    state = game.state
    state["cards"]["celts_state"]["tokens"] = {}
    ctx = Context(definition, state)
    _slip_under(ctx, Where("<test>", 1, 1), "celts_elders", "harbour")
    assert state["cards"]["celts_elders"]["owner"] == "celts"
    prepared = dumped_and_prepared(game, tmp_path, "edited")
    for card in ("celts_state", "celts_elders", "harbour"):
        assert prepared["cards"][card] == state["cards"][card], card


def test_a_dump_at_a_window_of_seats_ordered_by_the_state_warns_the_order_may_differ():
    """tiny orders the seats of `play` by score: taken up later, the round goes on in the
    order the dumped state gives, not necessarily the one it began with (found by a review)."""
    from ludex.dump import taken_up

    definition, start = load_definition(Path(__file__).parent / "games" / "tiny")
    game = Game(definition, start, seed=1)
    while not game.at_window_choice():
        game.apply(game.legal_actions()[0])
    run, note = taken_up(game)
    assert run == {"phase": "play", "seat": game.pending.who}
    assert note and "orders its seats by the state" in note


def test_a_dump_is_named_in_the_games_own_language(tmp_path):
    """A German game's dumped scenario was named "state dumped from partie.json" (found by
    a German designer's trial): the designer edits that file next."""
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "wagers"
    shutil.copytree(Path(__file__).parent / "games" / "wagers", folder)
    for locale in (folder / "locale" / "en.yaml", folder / "cards" / "locale" / "en.yaml"):
        locale.write_text(locale.read_text().replace("lang: en", "lang: de"))
        locale.rename(locale.with_name("de.yaml"))
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "language: de\n")

    def ludex(*args):
        return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                              text=True, cwd=tmp_path)

    saved = ludex("play", "wagers", "--agents", "random", "--max-decisions", "3", "--save",
                  "partie.json")
    assert saved.returncode == 0, saved.stderr
    dumped = ludex("dump", "partie.json")
    assert dumped.returncode == 0, dumped.stderr
    assert "name: Spielstand aus partie.json" in dumped.stdout


def test_a_long_game_path_with_spaces_is_dumped_on_one_line():
    """PyYAML folded the `game:` path of a deep folder onto the next line at 100 columns (a
    CI machine's deeper temporary folder cut "designs/My Tiny Game" after "Tiny")."""
    deep = "../" * 6 + "a-long-folder-name/" * 6 + "designs/My Tiny Game"
    text = dump_yaml({"name": "n", "game": deep, "rules": ["ANY"]})
    assert f"game: {deep}\n" in text
    assert yaml.safe_load(text)["game"] == deep


def test_a_dump_links_the_editor_schema_only_where_the_game_has_one(tmp_path):
    """`ludex dump` began the scenario with `# yaml-language-server: $schema=…` pointing into
    a `schemas/` folder the game did not have: a link to nothing, which an editor reports
    (found by a designer's trial). Without the schema it writes no link and says how to make
    one; once they are exported, the link names the game's schema."""
    import re
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent / "games" / "tiny", folder,
                    ignore=shutil.ignore_patterns("schemas"))
    out = folder / "scenarios" / "dumped.yaml"

    def command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ludex.cli", *args], capture_output=True,
                              text=True)

    dump = ("dump", str(folder / "scenarios" / "income.yaml"), "--step", "0", "--out", str(out),
            "--force")
    result = command(*dump)
    assert result.returncode == 0, result.stderr
    assert "yaml-language-server" not in out.read_text(encoding="utf-8")
    assert f"ludex schema {folder} --export" in result.stderr
    assert run_scenario(out).status != "error"
    assert command("schema", str(folder), "--export").returncode == 0
    result = command(*dump)
    linked = re.match(r"# yaml-language-server: \$schema=(\S+)\n", out.read_text(encoding="utf-8"))
    assert linked and (out.parent / linked.group(1)).resolve() == \
        (folder / "schemas" / "scenario.schema.json").resolve()
    assert "note:" not in result.stderr


@pytest.mark.parametrize("rng", ["0000000012345678", "12345678e1234567", "0000000000001e10",
                                 "0000000000000000", "000000000000001e", "9a0c3e51f2d47b86"])
def test_a_dumped_rng_is_written_in_quotes_and_read_back_where_it_stood(tmp_path, rng):
    """PyYAML wrote an rng of all digits (`0000000012345678`) or of digits around one `e`
    (`12345678e1234567`) without quotes: a number to a YAML 1.2 reader, refused by ours, so
    the dumped scenario did not load. Every form is written quoted and comes back exact."""
    from ludex.validate import validate_paths

    definition, start = load_definition("imperium")
    game = Game(definition, start, players=2, seed=1)
    game.view["rng"] = int(rng, 16)
    path = tmp_path / "rng.yaml"
    text = dump_yaml(scenario_from(game, rules=["ANY"]), schema=None)
    path.write_text(text, encoding="utf-8")
    assert f'  rng: "{rng}"\n' in text
    assert not [d for d in validate_paths([path]).diagnostics if d.code.startswith("yaml/")]
    assert _prepare(scenario_file(path).doc).state["rng"] == int(rng, 16)
