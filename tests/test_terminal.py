"""The terminal agent (`ludex play --agents human`): it shows the player's counters, the cards
they may see and the rule that asks; a question for several choices takes several numbers, or
none for "up to"; prompts go to stderr."""

from __future__ import annotations

import subprocess
import sys

from ludex.engine import Game, load_definition
from ludex.terminal import Human


def imperium_at(mode: str, seed: int = 1) -> Game:
    definition, start = load_definition("imperium")
    game = Game(definition, start, seed=seed)
    while game.pending.mode != mode or len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    return game


def ask(game: Game, replies: list[str]) -> tuple[object, list[str]]:
    answers, shown = iter(replies), []
    agent = Human(ask=lambda prompt: next(answers), show=shown.append,
                  localizer=game.definition.localizer())
    return agent(game), shown


def test_the_terminal_shows_the_players_hand_counters_and_the_asking_rule():
    definition, start = load_definition("sword_of_rome")
    game = Game(definition, start, seed=1)
    while game.pending.prompt != "action":
        game.apply(game.legal_actions()[0])
    _, shown = ask(game, ["1"])
    text = definition.localizer()
    hand = game.view["zones"]["hand"]["romans"]
    assert any(line.strip().startswith("Hand: ") and str(text.name(hand[0])) in line
               for line in shown)
    assert any(line.startswith("Romans: Victory points") for line in shown)
    assert "Asked by: Action phase" in shown
    others = game.view["zones"]["hand"]["gauls"]
    assert not any(str(text.name(card)) in "\n".join(shown) for card in others
                   if card not in hand)


def test_an_up_to_question_takes_several_numbers_or_none():
    game = imperium_at("up_to")
    options = game.legal_actions()
    assert ask(game, ["1 2"])[0] == options[:2]
    assert ask(game, [""])[0] == []
    answer, shown = ask(game, ["1 1", "99", "2,1"])
    assert answer == [options[1], options[0]]
    assert sum("Choose up to" in line for line in shown) == 3  # the hint, then twice again


EXACTLY_TWO = """\
game: imperium
name: two cards from the hand, exactly
rules: [IMP-EXHAUST-b]  # any of the game's clause ids: the file is not a test of it
settings: {players: 2}
run:
  power: celts
  effect: |
    choose two from cards(hand, celts) exactly 2 by celts prompt "discard_from_hand"
"""


def test_an_exactly_question_wants_that_many(tmp_path):
    from ludex.scenario import game_at_step

    path = tmp_path / "exactly.yaml"
    path.write_text(EXACTLY_TWO)
    game = game_at_step(path, 0)
    assert game.pending.mode == "exactly"
    answer, shown = ask(game, ["", "1", "1 2"])
    assert answer == game.legal_actions()[:2]
    assert sum("Choose exactly 2" in line for line in shown) == 3


def test_prompts_go_to_stderr_so_json_output_stays_clean():
    result = subprocess.run([sys.executable, "-m", "ludex", "play", "imperium", "--json",
                             "--agents", "human", "--max-decisions", "1"],
                            input="1\n", capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.lstrip().startswith("{")
    assert "—" in result.stderr and "1." in result.stderr


def test_a_reply_that_is_no_option_number_is_asked_again_never_a_crash():
    game = imperium_at("one")
    options = game.legal_actions()
    answer, shown = ask(game, ["²", "9" * 5000, "0", "2"])
    assert answer == options[1]
    assert sum(line.startswith("Choose 1–") for line in shown) == 3
    game = imperium_at("up_to")
    answer, _ = ask(game, ["1 ²", "9" * 5000, "1"])
    assert answer == game.legal_actions()[:1]


def test_the_terminal_shows_what_lies_on_the_table_for_everyone():
    """A trick-taking player must see the cards the others have played (public zones of other
    powers), not only their own hand (found by a designer's trial)."""
    from pathlib import Path

    definition, start = load_definition(Path(__file__).parents[1] / "examples" / "fair_weather")
    game = Game(definition, start, seed=2)
    while not any(game.view["zones"]["played"].values()) or game.pending.who == "north":
        game.apply(game.legal_actions()[0])
    _, shown = ask(game, ["1"])
    text = definition.localizer()
    for power, cards in game.view["zones"]["played"].items():
        if cards and power != game.pending.who:
            line = f"  {text.name('played')} ({text.name(power)}): {text.name(cards[0])}"
            assert line in shown, shown


def test_the_terminal_shows_the_games_own_counters():
    """A cooperative game keeps its treasure and torches in counters of the whole game
    (`per: game`): the player saw only their own powers' counters (found by a designer's
    trial). They read as the table shows them, on one line."""
    from pathlib import Path

    definition, start = load_definition(Path(__file__).parents[1] / "examples" / "fair_weather")
    game = Game(definition, start, seed=1)
    day = game.view["counters"]["day"]
    _, shown = ask(game, ["0"])
    assert f"{definition.localizer().name('day')} {day}" in shown


def test_a_games_locale_rewords_the_label_of_another_powers_pile(tmp_path):
    """"Played (East)" was composed in code: a translator could not write Polish "Plecak
    Południa". It is the engine message `zone_of_power`, which a game's locale may reword."""
    import shutil
    from pathlib import Path

    folder = shutil.copytree(Path(__file__).parents[1] / "examples" / "fair_weather",
                             tmp_path / "fair_weather")
    locale = folder / "locale" / "en.yaml"
    text = locale.read_text(encoding="utf-8")
    locale.write_text(text.replace("\nmessages:\n", "\nmessages:\n  zone_of_power: "
                                   "\"{power}'s {zone}\"\n", 1), encoding="utf-8")
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=2)
    while not any(game.view["zones"]["played"].values()) or game.pending.who == "north":
        game.apply(game.legal_actions()[0])
    _, shown = ask(game, ["1"])
    names = definition.localizer()
    holder, cards = next((p, c) for p, c in game.view["zones"]["played"].items()
                         if c and p != game.pending.who)
    assert f"  {names.name(holder)}'s {names.name('played')}: {names.name(cards[0])}" in shown


def test_a_question_of_numbers_takes_the_number_typed_not_its_place_in_the_list():
    """A bid among 0…14 was listed `1. 0`, `2. 1`…: typing 5 bid 4, typing 0 bid 0 (found by a
    designer's trial). Numbers are listed as they are, and the value typed is the answer."""
    from pathlib import Path

    definition, start = load_definition(Path(__file__).parents[1] / "examples" / "fair_weather")
    game = Game(definition, start, seed=1)  # north forecasts 0 to 5 tricks
    assert game.legal_actions() == [0, 1, 2, 3, 4, 5]
    answer, shown = ask(game, ["5"])
    assert answer == 5 and "  0  1  2  3  4  5" in shown
    answer, shown = ask(game, ["9", "-1", "x", "0"])
    assert answer == 0
    assert sum(line == "Type one of 0, 1, 2, 3, 4, 5" for line in shown) == 3


def test_a_wargame_shows_its_map_who_holds_each_space_and_whose_pieces_stand_there():
    """A game with a map showed counters and cards at the terminal but never where the pieces
    stood nor who held what: a wargame could not be played there (found by a designer's
    trial). The map is shown as the table's board labels it, again only once it changed."""
    definition, start = load_definition("sword_of_rome")
    game = Game(definition, start, seed=1)
    while game.pending.prompt != "action":
        game.apply(game.legal_actions()[0])
    answers, shown = iter(["1"] * 3), []
    agent = Human(ask=lambda prompt: next(answers), show=shown.append,
                  localizer=definition.localizer())
    agent(game)
    roma = next(line for line in shown if line.strip().startswith("Roma:"))
    assert "control Romans" in roma and "loyalty 3" in roma and "Romans 4 CU, Camillus" in roma
    # under a heading of its own, not indented under the last power's counters, where a
    # designer read the map as that power's
    first_space = next(i for i, line in enumerate(shown) if line.startswith("  ")
                       and ": control " in line)
    assert shown[first_space - 1] == "On the map:"
    shown.clear()
    agent(game)  # the same question, the same map: not shown again
    assert not any(line.strip().startswith("Roma:") for line in shown)
    game.view["spaces"]["roma"]["pieces"]["romans"]["cu"] = 3
    shown.clear()
    agent(game)
    assert any(line.strip().startswith("Roma:") and "Romans 3 CU" in line for line in shown)


def test_the_terminal_joins_a_list_of_cards_as_the_players_language_does(tmp_path):
    """Cards in a hand were joined with an English comma whatever the language: a game's
    `list_separator` (Arabic's `، `) is the terminal's too."""
    import shutil
    from pathlib import Path

    game = tmp_path / "press_on"
    shutil.copytree(Path(__file__).parent / "games" / "press_on", game)
    locale = game / "locale" / "en.yaml"
    locale.write_text(locale.read_text(encoding="utf-8").replace(
        "messages:\n", "messages:\n  list_separator: \" ; \"\n"), encoding="utf-8")
    definition, start = load_definition(game)
    played = Game(definition, start, seed=1)
    played.state["zones"]["cart"]["north"] = ["salt#1", "salt#2"]
    played.restart_unit()
    _, shown = ask(played, ["1"])
    assert "  Cart: Salt (1 of 4) ; Salt (2 of 4)" in shown


def test_the_terminal_joins_labels_and_ends_prompts_as_the_players_language_does(
        japanese_wagers):
    """The terminal wrote an ASCII colon after a prompt (`占い師：どちらにしますか？:`) and
    after a label (`赤の商人: 銭 3`), which no locale could change (a designer's trial): they
    are engine messages, `prompt_end` and `label_separator`, and a prompt ending in its own
    punctuation, full-width included, takes none."""
    definition, start = load_definition(japanese_wagers)
    game = Game(definition, start, seed=1)
    who = str(definition.localizer("ja").name(game.pending.who))
    answers, shown = iter(["1", "1"]), []
    agent = Human(ask=lambda prompt: next(answers), show=shown.append,
                  localizer=definition.localizer("ja"))
    agent(game)
    assert f"{who} — あなたの番です：" in shown
    assert f"{who}：点 0 · 勝ったラウンド 0" in shown
    assert any(line.startswith("  手札：") for line in shown)
    definition.locales["ja"]["messages"]["turn"] = "どれを出しますか？"
    shown.clear()
    agent(game)
    assert f"{who} — どれを出しますか？" in shown
    # Turkish gives none: the engine's English (not the Japanese, of another script)
    turkish = Human(ask=lambda prompt: "1", show=shown.append,
                    localizer=definition.localizer("tr"))
    shown.clear()
    turkish(game)
    assert any(line.startswith(("Kuzey: ", "Güney: ")) for line in shown)


def tiny_game(folder) -> Game:
    """The tiny game at red's first question: play red_one from the hand, buy a gem, pass;
    blue holds blue_two in a hand only blue sees, the market shows stray."""
    definition, start = load_definition(folder)
    game = Game(definition, start, seed=1)
    assert game.legal_actions() == ["play_card:red_one", "buy_gem", "pass"]
    return game


def test_a_player_looks_at_an_options_card_its_attributes_and_text_before_answering(
        japanese_tiny):
    """At the terminal a player could not see a card's cost or text, only its name (a
    designer's trial): `? N` shows option N's card with the attributes the manifest declares
    and its text, in the player's language. The options keep their numbers."""
    game = tiny_game(japanese_tiny)
    plain, before = ask(game, ["1"])
    answer, shown = ask(game, ["? 1", "1"])
    assert answer == plain == "play_card:red_one"
    options = [line for line in before if line.startswith("  ") and line[2:3].isdigit()]
    assert options and all(line in shown for line in options)
    assert "  赤の一 — Value 1" in shown and "    ただの札。" in shown


def test_what_is_typed_to_look_at_cards_is_never_taken_for_an_answer(japanese_tiny):
    game = tiny_game(japanese_tiny)
    options = game.legal_actions()
    answer, shown = ask(game, ["?", "? 2", "? 9", "？１", "?1", "??", "? x", "3"])
    assert answer == options[2]  # `pass`, the one answer given
    text = game.definition.localizer()
    help_line = text.message("look_help")
    assert shown.count(help_line) == 3  # before the first answer, for `?` and for `? x`
    assert text.message("look_no_card", {"number": 2}) in shown  # buying a gem: no card
    assert "Choose 1–3" in shown  # `? 9`: no such option
    assert shown.count("  赤の一 — Value 1") == 3  # `？１`, `?1` and `??`
    # several numbers at once: a look between them takes none of them
    game = imperium_at("up_to")
    answer, shown = ask(game, ["? 1", "2 1"])
    assert answer == [game.legal_actions()[1], game.legal_actions()[0]]
    assert sum("Choose up to" in line for line in shown) == 1  # `? 1` was no wrong answer


def test_looking_at_the_cards_in_view_never_shows_another_players_hand(japanese_tiny):
    """`??` lists every card the player may see — their hand, the market, the discards —
    with attributes and text; blue's hand is blue's alone."""
    game = tiny_game(japanese_tiny)
    game.view["zones"]["discard"]["blue"].append(game.view["zones"]["deck"]["blue"].pop())
    _, shown = ask(game, ["??", "1"])
    text = game.definition.localizer()
    looked = shown[shown.index(text.message("look_help")) + 1:]
    assert looked[:3] == ["Hand", "  赤の一 — Value 1", "    ただの札。"]
    assert "Market" in looked and "  迷い札 — Value 1" in looked
    assert "Discard (青の商人)" in looked and "  青の一 — Value 1" in looked
    assert not any("青の二" in line for line in shown)  # in blue's hand


def test_the_look_at_cards_speaks_the_players_language():
    game = imperium_at("one")
    options = game.legal_actions()
    number = next(i for i, o in enumerate(options, 1) if o.startswith("play_card:"))
    card = options[number - 1].partition(":")[2]
    french = game.definition.localizer("fr")
    answers, shown = iter([f"? {number}", "1"]), []
    Human(ask=lambda prompt: next(answers), show=shown.append, localizer=french)(game)
    assert shown[shown.index(french.message("look_help")) + 1].startswith(
        f"  {french.name(card)} — ")
    assert f"    {french.form(card, 'text')}" in shown
    assert french.message("look_help").startswith("Tapez ?")


def test_a_question_of_numbers_looks_at_cards_but_has_no_option_numbers():
    from pathlib import Path

    definition, start = load_definition(Path(__file__).parents[1] / "examples" / "fair_weather")
    game = Game(definition, start, seed=1)  # north forecasts 0 to 5 tricks
    answer, shown = ask(game, ["? 3", "??", "3"])
    assert answer == 3
    assert shown.count(definition.localizer().message("look_help")) == 2
    hand = game.view["zones"]["hand"]["north"]
    assert any(line.startswith(f"  {definition.localizer().name(hand[0])}") for line in shown)


def terminal_session(argv: list[str], answers: list[str], timeout: float = 120) -> tuple[
        int, list[str]]:
    """`ludex ARGV…` played at a terminal (a pseudo-terminal): each answer is typed when the
    `> ` prompt waits for it, then the input ends (Ctrl-D). What the screen shows — the log,
    the prompts and the answers echoed as typed — and the exit status."""
    import os
    import pty
    import select
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "COLUMNS": "100"}
    process = subprocess.Popen([sys.executable, "-m", "ludex.cli", *argv], stdin=slave,
                               stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    screen, answers, deadline = b"", list(answers), time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.3)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the command ended: its side of the terminal is closed
                    break
                if not chunk:
                    break
                screen += chunk
            elif process.poll() is not None:
                break
            elif screen.endswith(b"> "):  # it waits for the player
                os.write(master, f"{answers.pop(0)}\n".encode() if answers else b"\x04")
        status = process.wait(timeout=30)
    finally:
        process.kill()
        os.close(master)
    return status, screen.decode("utf-8").replace("\r\n", "\n").splitlines()


def test_the_terminal_session_in_the_docs_is_what_a_player_sees():
    """docs/cli.md shows a player looking at a card with `? 2`, then answering: played here
    at a terminal, with the answers the page shows typed in turn."""
    import re
    import shlex
    from pathlib import Path

    from test_docs_console import matches, normalise  # tests/ is on the path

    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- terminal session: [^>]*-->\n```text\n(.*?)```", page, re.S)
    command, *shown = block.group(1).splitlines()
    answers = [line[2:] for line in shown if line.startswith("> ")]
    assert command.startswith("$ ludex play ") and answers == ["? 2", "2"]
    status, screen = terminal_session(shlex.split(command[2:])[1:], answers)
    assert status == 1, screen  # the input ended before the game did
    assert matches(shown, [normalise(line) for line in screen]), "\n".join(screen)


def test_undo_at_the_terminal_is_no_answer_and_no_page_promises_it():
    """docs/effect-language.md sent players to "`ludex play`'s `undo`", which the terminal
    never had (a designer typed it and was told to choose 1–4): the table's undo is the one."""
    from pathlib import Path

    game = imperium_at("one")
    answer, shown = ask(game, ["undo", "1"])
    assert answer == game.legal_actions()[0] and any("Choose 1–" in line for line in shown)
    docs = Path(__file__).parents[1] / "docs"
    for page in docs.glob("*.md"):
        assert "`ludex play`'s `undo`" not in page.read_text(encoding="utf-8"), page.name


def test_a_player_asks_what_the_rules_refuse_and_reads_each_reason_in_their_language():
    """A question lists only what the rules allow: a player who expected another option never
    read the reason written for it (a designer's trial: "you must follow suit"). `?!` lists
    each option the rules refuse with that reason, in the player's language; nothing listed
    can be picked, and the options keep their numbers."""
    game = imperium_at("one")
    refused = [o for o in game.pending.options if o not in game.legal_actions()]
    assert refused and all(o.startswith("acquire:") for o in refused)
    french = game.definition.localizer("fr")
    answers, shown = iter(["?!", "1"]), []
    answer = Human(ask=lambda prompt: next(answers), show=shown.append, localizer=french)(game)
    assert answer == game.legal_actions()[0]
    heading = shown.index(french.message("look_refused"))
    listed = shown[heading + 1:heading + 1 + len(refused)]
    assert listed == [f"  {french.option(o)} — Vous n'avez pas de quoi payer cette carte"
                      for o in refused]
    assert not any(french.option(o) in line for o in refused for line in shown[:heading])


def test_a_player_told_the_rules_refuse_nothing_reads_so():
    game = next(g for g in (imperium_at("one", seed) for seed in range(1, 40))
                if all(o in g.legal_actions() for o in g.pending.options))
    _, shown = ask(game, ["?!", "1"])
    assert game.definition.localizer().message("look_none_refused") in shown


def test_a_player_sees_the_others_public_counters_but_never_their_sealed_bids(
        sealed_bid_wagers):
    """An auction at the terminal was bid blind: a player saw only their own coins, though
    the coins are public and the table shows them (a designer's trial). Every other power's
    counters are shown, a line each — but a counter of `visibility: owner` (a sealed bid) is
    its own power's alone, as at the table and in observations."""
    folder = sealed_bid_wagers
    played = subprocess.run([sys.executable, "-m", "ludex", "play", str(folder), "--agents",
                             "human,random", "--seed", "1"], input="1\n",
                            capture_output=True, text=True)
    shown = played.stderr.splitlines()
    assert "North: Points 0 · Rounds won 0 · Sealed bid 7" in shown, played.stderr
    assert "South: Points 0 · Rounds won 0" in shown
    assert not any(line.startswith("South") and "Sealed bid" in line for line in shown)


def test_the_others_counters_are_named_in_the_players_language_from_their_left():
    """Imperium in French: the Celts' player reads the Persians' and the Macedonians'
    counters, in seat order from their left, named as the French locale names them."""
    definition, start = load_definition("imperium")
    game = Game(definition, start, seed=1)
    text = definition.localizer("fr")
    shown = Human(ask=lambda prompt: "1", show=[].append, localizer=text).context(game)
    assert game.pending.who == "celts"
    others = [line for line in shown if line.startswith(("Perses", "Macédoniens", "Scythes"))
              and "Pièces" in line]
    coins = game.view["counters"]["coins"]
    assert others[0].startswith(f"Perses : Pièces {coins['persians']} · Militaire ")
    assert others[1].startswith(f"Macédoniens : Pièces {coins['macedonians']} · ")
    assert len(others) == 2  # three players: the Scythes sit nowhere
