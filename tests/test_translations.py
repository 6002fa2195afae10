"""The bundled games' translations read correctly (Russian agreement and cases, French rounds
and titles, English plural powers, the end-of-game line), are complete in every language, and a
new language (Polish) is added to a copy of a bundled game by writing YAML files only."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ludex.cli import cli
from ludex.engine import load_definition
from ludex.locale import Localizer
from ludex.resources import games_dir
from ludex.validate import validate_paths


@pytest.fixture(scope="module")
def rome():
    return load_definition("sword_of_rome")[0]


@pytest.fixture(scope="module")
def imperium():
    return load_definition("imperium")[0]


def text(definition, lang: str) -> Localizer:
    return Localizer(definition.locales, lang, definition.language)


@pytest.mark.parametrize("n, line", [
    (1, "Галлы: набрана 1 карточка."),
    (2, "Галлы: набраны 2 карточки."),
    (5, "Галлы: набрано 5 карточек."),
    (21, "Галлы: набрана 21 карточка."),
])
def test_russian_participle_and_noun_agree_with_the_number_of_cards(rome, n, line):
    assert text(rome, "ru").message("cards_drawn", {"a0": "gauls", "a1": n}) == line


def test_russian_puts_the_activated_leader_in_the_accusative(rome):
    line = text(rome, "ru").message("leader_activated", {"a0": "gauls", "a1": "brennus"})
    assert line.startswith("Галлы активируют Бренна ")
    assert text(rome, "ru").name("brennus") == "Бренн"


def test_hiring_mercenaries_is_limited_per_round_in_every_language(rome):
    assert "раз за раунд" in text(rome, "ru").message("one_hire_per_round")
    assert "once a round" in text(rome, "en").message("one_hire_per_round")


def test_a_card_copy_keeps_its_number_in_a_grammatical_form():
    polish = {"pl": {
        "cards": {"waz": {"name": "Wąż", "acc": "Węża"}, "puchar": {"name": "Puchar"}},
        "messages": {"card_copy": "{card} ({copy} z {copies})", "draws": "{a0:acc}"}}}
    text = Localizer(polish, "pl", "pl", copies={"waz": 3, "puchar": 3})
    assert text.message("draws", {"a0": "waz#3"}) == "Węża (3 z 3)"
    assert text.message("draws", {"a0": "puchar#3"}) == "Puchar (3 z 3)"  # no form: the name
    assert text.name("waz#3") == "Wąż (3 z 3)"


def test_an_action_taken_with_a_card_is_labelled_by_a_message_a_game_may_reword():
    """"Podaj linę: Lina (1 z 2)" was composed in code; it is the engine message
    `action_with_card` (English unchanged), whose card a translation may put in a form."""
    from ludex.locale_files import engine_messages

    polish = {"en": {"messages": engine_messages("en")},  # as a game's definition merges them
              "pl": {"actions": {"daj": "Podaj linę"},
                     "cards": {"lina": {"name": "Lina", "acc": "Linę"}},
                     "messages": {"card_copy": "{card} ({copy} z {copies})"}}}
    text = Localizer(polish, "pl", "pl", copies={"lina": 2})
    assert text.option("daj:lina#1") == "Podaj linę: Lina (1 z 2)"  # the engine's English
    polish["pl"]["messages"]["action_with_card"] = "{action} — {card:acc}"
    assert Localizer(polish, "pl", "pl", copies={"lina": 2}).option("daj:lina#1") \
        == "Podaj linę — Linę (1 z 2)"


def test_english_plural_powers_take_plural_verbs(rome):
    assert text(rome, "en").message("cards_drawn", {"a0": "romans", "a1": 1}) \
        == "Romans draw 1 card."


def test_french_calls_a_round_a_manche_and_a_nations_turn_a_tour(imperium):
    fr = text(imperium, "fr")
    assert fr.message("turn_start", {"turn": 2}) == "La manche 2 commence."
    assert fr.name("final_round") == "Dernière manche"
    assert fr.name("round_end") == "Fin de la manche"
    assert fr.message("activate").startswith("Votre tour")


def test_french_quotes_card_titles(imperium):
    line = text(imperium, "fr").message("card_acquired", {"a0": "persians", "a1": "mountain_pass"})
    assert line == "Les Perses acquièrent « Col de montagne »."


def test_the_end_of_game_line_is_localised_with_its_reason(rome, imperium):
    scores = {"romans": 3, "greeks": 5}
    assert text(rome, "ru").end_line("last_turn", "greeks", scores) == \
        "Конец игры (сыгран последний ход); победитель: Греки; очки: Римляне — 3, Греки — 5"
    assert text(imperium, "fr").end_line("collapse", "persians", {"persians": 4}).startswith(
        "Fin de la partie (La pile d'agitation est vide")
    assert "vainqueur : les Perses ; scores : Perses 4" in \
        text(imperium, "fr").end_line("collapse", "persians", {"persians": 4})


def test_the_bundled_games_validate_strictly_clean():
    assert [d.headline() for d in validate_paths([]).diagnostics] == []


def test_locale_status_reports_every_bundled_language_complete_cards_included():
    result = CliRunner().invoke(cli, ["locale", "status", "--json"])
    games = {g["game"]: g for g in json.loads(result.output)["games"]}
    langs = {g: [s["lang"] for s in games[g]["languages"]] for g in games}
    assert langs["sword_of_rome"] == ["en", "ru"] and {"en", "fr"} <= set(langs["imperium"])
    for game in games.values():
        for status in game["languages"]:
            assert status["complete"], (game["game"], status["lang"], status["missing_keys"])
            assert "cards.roman_levy.text" not in status["missing_keys"]


POLISH = """\
lang: pl
game: {name: Miecz Rzymu}
powers:
  romans: Rzymianie
  gauls: Galowie
  etruscans: Etruskowie
  samnites: Samnici
  greeks: Grecy
  carthaginians: Kartagińczycy
pieces:
  brennus: {name: Brennus, acc: Brennusa}
phases:
  draw_cards: Dobieranie kart
  action: Faza akcji
  reinforcement: Posiłki
messages:
  cards_drawn: '{a0}: {a1, plural, one {dobrano # kartę} few {dobrano # karty}
    many {dobrano # kart} other {dobrano # karty}}.'
  leader_activated: '{a0} aktywują {a1:acc} (ruch i bitwy nie są jeszcze opisane).'
  reinforcements_received: '{a0} otrzymują {a1} JW posiłków.'
  # The engine has no Polish: the game brings the engine's messages itself.
  phase_start: 'Faza: {phase}'
  phase_not_written: 'Faza „{phase}” nie jest jeszcze opisana w zasadach; nic się nie dzieje.'
  dice: 'Kości: {dice}'
  turn_start: Zaczyna się tura {turn}.
  pass: Pas
  stop: Zatrzymaj się
  choose_number: Wybierz od 1 do {count}
  game_ended: 'Koniec gry ({reason}); zwycięzca: {winner}; punkty: {scores}'
  game_stopped: 'Gra przerwana; punkty: {scores}'
  score_entry: '{power} {score}'
  last_turn: rozegrano ostatnią turę
  no_sequence: gra nie ma kolejności faz
"""


@pytest.fixture(scope="module")
def polish_rome(tmp_path_factory) -> Path:
    """A copy of The Sword of Rome with a Polish locale, written as YAML and nothing else."""
    folder = tmp_path_factory.mktemp("pl") / "sword_of_rome"
    shutil.copytree(games_dir() / "sword_of_rome", folder,
                    ignore=shutil.ignore_patterns("scenarios"))
    (folder / "locale" / "pl.yaml").write_text(POLISH, encoding="utf-8")
    (folder / "cards" / "locale" / "pl.yaml").write_text(
        "lang: pl\ncards:\n  roman_levy: {name: Pobór rzymski, text: Umieść 2 JW jako posiłki.}\n",
        encoding="utf-8")
    return folder


def test_a_new_language_written_as_yaml_validates_with_warnings_only(polish_rome):
    found = validate_paths([polish_rome]).diagnostics
    assert [d.headline() for d in found if d.is_error] == []
    assert {Path(d.file).name for d in found} == {"pl.yaml"}


@pytest.mark.parametrize("n, shown", [(1, "dobrano 1 kartę"), (3, "dobrano 3 karty"),
                                      (5, "dobrano 5 kart"), (22, "dobrano 22 karty"),
                                      (12, "dobrano 12 kart")])
def test_polish_plurals_come_from_cldr(polish_rome, n, shown):
    definition = load_definition(polish_rome)[0]
    assert shown in text(definition, "pl").message("cards_drawn", {"a0": "gauls", "a1": n})


def test_a_game_plays_in_the_new_language(polish_rome):
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "play", str(polish_rome),
                             "--agents", "random", "--seed", "1", "--lang", "pl"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Faza: Dobieranie kart" in lines
    assert any(line.startswith("Galowie: dobrano ") and line.endswith(" kart.") for line in lines)
    assert any(line.startswith("Galowie aktywują Brennusa") for line in lines)
    assert lines[-1].startswith("Koniec gry (rozegrano ostatnią turę); zwycięzca: ")


def test_play_names_the_languages_a_game_has_when_asked_for_another():
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "play", "sword_of_rome",
                             "--agents", "random", "--lang", "de"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "sword_of_rome has no `de` locale (it has: en, ru)" in result.stderr


def test_play_json_carries_the_localised_end_line():
    result = subprocess.run([sys.executable, "-m", "ludex.cli", "play", "imperium", "--agents",
                             "random", "--seed", "1", "--lang", "de", "--json"],
                            capture_output=True, text=True)
    payload = json.loads(result.stdout)
    assert payload["end_line"].startswith("Spielende (")
    assert payload["log"][0]["text"].startswith("Phase: ")


CARAVAN = Path(__file__).parent / "locales" / "caravan"


def caravan(lang: str, **extra: dict) -> Localizer:
    """The caravan game's Arabic (primary) and partial French, with the engine's messages
    merged in as a game's definition merges them; `extra` adds to a language's messages."""
    import yaml

    from ludex.locale_files import engine_messages

    tables = {}
    for tag in ("ar", "fr", "en"):
        path = CARAVAN / f"{tag}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
        data = {k: v for k, v in data.items() if k != "lang"}
        data["messages"] = {**engine_messages(tag), **data.get("messages", {}),
                            **extra.get(tag, {})}
        tables[tag] = data
    return Localizer(tables, lang, "ar")


def test_a_line_read_in_the_primary_language_takes_that_languages_plural_cases():
    """A French player read an Arabic line the French locale lacks with French plurals: 0 goods
    is French `one`, so "(بضاعة واحدة)", one good; Arabic says `zero`, "(لا بضائع)"."""
    for lang in ("fr", "ar"):
        assert caravan(lang).message("bust", {"a0": "camel", "a1": 0}).endswith("(لا بضائع).")
    assert caravan("fr").message("setup", {"a0": 20, "a1": 3, "a2": 12}) == \
        "تنطلق القافلة: الهدف 20 بضاعة، والماء 3 قرب، والرحلة 12 يومًا."
    # the name of the French player is French all the same; French lines stay French
    assert caravan("fr").message("bust", {"a0": "camel", "a1": 1}).startswith("Chameau ")
    assert caravan("fr").message("banked", {"a0": "camel", "a1": 0}) == \
        "Chameau campe et met à l'abri 0 marchandise."


def test_a_count_named_in_the_primary_language_takes_that_languages_plural_form():
    assert caravan("fr").counted("camel_rider", 3) == "3 هجّانة"  # Arabic `few`, not `other`
    assert caravan("fr").counted("camel_rider", 11) == "11 هجّانًا"  # `many`
    assert caravan("ar").counted("camel_rider", 3) == "3 هجّانة"


def test_numbers_in_a_message_are_written_as_the_language_of_its_text_writes_them():
    from ludex.templates import Number

    polish = {"pl": {"messages": {"mean": "średnio {m}"}},
              "en": {"messages": {"rate": "rate {r}, {n, plural, one {# game} other {# games}}"}}}
    text = Localizer(polish, "pl", "pl")
    assert text.message("mean", {"m": Number(97.9)}) == "średnio 97,9"
    # falling back to English: the English text writes 97.9 and counts 1.5 as `other`
    assert text.message("rate", {"r": Number(0.5, 1, percent=True), "n": Number(1.5, 1)}) == \
        "rate 50.0%, 1.5 games"
    assert text.text_language("rate") == "en" and text.text_language("mean") == "pl"


def test_a_plain_list_is_separated_as_the_language_of_its_text_separates_one():
    """A list argument was always joined by an English ", ". A game's locale gives its own
    `list_separator` (an engine message: ", " in en, fr, de, ru); a language neither the
    game nor the engine gives it in takes CLDR's (Arabic CLDR joins every item by "and")."""
    assert caravan("ar").message("dice", {"dice": [3, 5, 6]}) == "النرد: 3، 5، 6"
    # French lacks that line: the Arabic text, its Arabic separator; the engine's French, ", "
    assert caravan("fr").message("carried", {"a0": ["falcon", "camel"]}) == \
        "في الحمولة: Faucon، Chameau"
    assert caravan("fr").message("dice", {"dice": [3, 5]}) == "Dés : 3, 5"
    assert caravan("ar", ar={"list_separator": ""}).message("dice", {"dice": [3, 5]}) == \
        "النرد: 3 و5"  # an empty one is no separator: CLDR's
    japanese = Localizer({"ja": {"messages": {"dice": "サイコロ：{dice}"}}}, "ja", "ja")
    assert japanese.message("dice", {"dice": [1, 2]}) == "サイコロ：1、2"


def test_the_scores_of_the_end_line_are_separated_as_its_language_separates_a_list():
    line = caravan("ar").end_line("arrived", "falcon", {"falcon": 7, "gazelle": 5})
    assert line.endswith("النقاط: الصقر 7، الغزال 5")
    assert caravan("fr").end_line("arrived", "falcon", {"falcon": 7, "gazelle": 5}).endswith(
        "scores : Faucon 7, Gazelle 5")  # the engine's French line, its French ", "


def test_an_engine_line_a_translation_lacks_is_read_in_english_not_in_a_primary_of_another_script(
        japanese_wagers):
    """Turkish players of a Japanese game whose designer gave the engine's lines in Japanese
    read `ゲーム終了（…）。Kuzey、Güneyの引き分け…`: Japanese frames around Turkish names (a
    designer's trial). A line Turkish lacks is the engine's English; Japanese players still read
    their designer's Japanese."""
    definition, _ = load_definition(japanese_wagers)
    turkish, japanese = definition.localizer("tr"), definition.localizer("ja")
    scores = {"north": 1, "south": 1}
    assert turkish.end_line("last_turn", None, scores, tied=["north", "south"]) == \
        "Game over (the last turn is over); a draw between Kuzey and Güney, no winner; " \
        "scores: Kuzey 1, Güney 1"
    assert turkish.name("white_wager#2") == "Beyaz bahis (2 of 6)"
    assert turkish.message("played", {"a0": "north", "a1": "white_wager#2"}) == \
        "Kuzey, Beyaz bahis (2 of 6) oynadı."
    assert japanese.name("white_wager#2") == "白の賭け（6枚中2枚目）"
    assert japanese.end_line("last_turn", None, scores, tied=["north", "south"]).startswith(
        "ゲーム終了（最終ターンが終わった）。北、南の引き分け")
    # the game's own lines Turkish lacks are the designer's Japanese: there is no other text
    assert turkish.message("round_tied", {"a0": 2}) == "第2ラウンドは引き分け。"
    played = CliRunner().invoke(cli, ["play", str(japanese_wagers), "--agents", "random",
                                      "--seed", "1", "--lang", "tr", "--json"])
    payload = json.loads(played.stdout)
    assert payload["end_line"].startswith("Game over (the last turn is over)")
    engine_lines = [e["text"] for e in payload["log"] if e["key"] in ("turn_start", "dice")]
    assert engine_lines and all(line.isascii() for line in engine_lines)


def test_an_engine_line_a_translation_lacks_is_read_in_a_primary_of_the_same_script():
    """A Galician player of a Spanish game reads the Spanish line the designer gave, closer
    to their own than English; a Turkish player of the same game too (both Latin script)."""
    tables = {"es": {"powers": {"north": "Norte"},
                     "messages": {"game_drawn": "Fin ({reason}); empate; puntos: {scores}",
                                  "last_turn": "se jugó el último turno",
                                  "score_entry": "{power} {score}"}},
              "gl": {"powers": {"north": "Norte"}}, "tr": {"powers": {"north": "Kuzey"}},
              "en": {"messages": {"game_drawn": "Game over ({reason}); a draw; {scores}"}}}
    for lang, name in (("gl", "Norte"), ("tr", "Kuzey")):
        line = Localizer(tables, lang, "es").end_line("last_turn", None, {"north": 2})
        assert line == f"Fin (se jugó el último turno); empate; puntos: {name} 2"


FORTUNE = """\
      for p in player_powers():
          choose what from ["take_coins", "new_wares"] by p prompt "fortune_q"
          log("fortune_done", p, what)
"""
def with_fortune(game: Path) -> Path:
    """The Japanese wagers with a fortune teller at every tally: each player chooses a text
    option (`take_coins`, `new_wares`), and the log says which (a designer's trial); its
    locales (tests/locales/wagers/) word them."""
    procedures = game / "procedures.yaml"
    procedures.write_text(procedures.read_text(encoding="utf-8").replace(
        '          log("round_tied", turn)\n', '          log("round_tied", turn)\n' + FORTUNE),
        encoding="utf-8")
    return game


def test_a_logged_text_option_reads_as_the_question_showed_it_in_every_language(
        japanese_wagers):
    """`choose what from ["take_coins", "new_wares"]` showed the options translated, but
    `log("fortune_done", p, what)` showed `new_wares` (a designer's trial): at the terminal,
    in `play --json` and in the table's log."""
    from ludex.agents import RandomAgent, play
    from ludex.engine import Game
    from ludex.table.view import table_view

    game_folder = with_fortune(japanese_wagers)
    assert not [d for d in validate_paths([game_folder]).diagnostics if d.severity == "error"]
    turkish_options = ("(2 akçe al).", "(Pazarı yenile).")
    played = CliRunner().invoke(cli, ["play", str(game_folder), "--agents", "random", "--seed",
                                      "1", "--lang", "tr", "--json"])
    shown = [e["text"] for e in json.loads(played.stdout)["log"] if e["key"] == "fortune_done"]
    assert shown and all(line.endswith(turkish_options) for line in shown), shown
    at_the_terminal = CliRunner().invoke(cli, ["play", str(game_folder), "--agents", "random",
                                               "--seed", "1"]).stdout.splitlines()
    shown = [line for line in at_the_terminal if "占いに従った" in line]
    assert shown and all(line.endswith(("（2銭を得る）。", "（市場の品を入れ替える）。"))
                         for line in shown), shown
    definition, start = load_definition(game_folder)
    entry = {"key": "fortune_done", "args": {"a0": "north", "a1": "take_coins"}}
    assert definition.localizer("ja").log_line(entry) == "北は占いに従った（2銭を得る）。"  # docs
    game = play(Game(definition, start, seed=1), {None: RandomAgent(seed=1)})
    table_log = table_view(game, definition.localizer("tr"), None, [])["log"]
    shown = [line for line in table_log if "falcıyı dinledi" in line]
    assert shown and all(line.endswith(turkish_options) for line in shown), table_log


def test_a_select_on_a_logged_text_option_still_chooses_on_the_text_as_written():
    text = Localizer({"ja": {"messages": {
        "take_coins": "2銭を得る",
        "fortune_done": "{a0}（{a1, select, take_coins {2銭を得た} other {入れ替えた}}）"}}},
        "ja", "ja")
    entry = {"key": "fortune_done", "args": {"a0": "x", "a1": "take_coins"}}
    assert text.log_line(entry) == "x（2銭を得た）"


def test_a_capitalised_form_shows_that_form_with_a_capital_first_letter():
    """A Greek line starting with a name's article read "η Αυγή παίζει…" (a designer's
    trial): `{a0:Def}` is the `def` form capitalised, `{a0:Name}` the plain name, with no
    second form per name; a name lacking the form shows its plain name capitalised; a form a
    locale writes with a capital itself is taken as written."""
    greek = {"el": {
        "powers": {"avgi": {"name": "Αυγή", "def": "η Αυγή"}, "vrisi": "βρύση",
                   "lyra": {"name": "Λύρα", "def": "η Λύρα", "Def": "Η ΛΥΡΑ"}},
        "messages": {"plays": "{a0:Def} παίζει.", "named": "{a0:Name}"}}}
    text = Localizer(greek, "el", "el")
    assert text.message("plays", {"a0": "avgi"}) == "Η Αυγή παίζει."
    assert text.message("plays", {"a0": "vrisi"}) == "Βρύση παίζει."  # no `def`: the name
    assert text.message("named", {"a0": "vrisi"}) == "Βρύση"
    assert text.message("plays", {"a0": "lyra"}) == "Η ΛΥΡΑ παίζει."
    assert text.name("avgi", "def") == "η Αυγή"  # the form itself is as written


def test_a_capital_is_made_as_the_language_makes_it():
    turkish = {"tr": {"powers": {"izmir": {"name": "izmir"}}, "messages": {"m": "{a0:Name}"}}}
    assert Localizer(turkish, "tr", "tr").message("m", {"a0": "izmir"}) == "İzmir"
    japanese = {"ja": {"powers": {"kita": "北"}, "messages": {"m": "{a0:Name}"}}}
    assert Localizer(japanese, "ja", "ja").message("m", {"a0": "kita"}) == "北"


def test_a_prompt_a_refusal_and_an_ending_word_a_text_they_pass_as_a_log_line_does():
    """A suit passed to a Greek prompt or refusal read raw (`Πρέπει να ακολουθήσεις
    espadas.`) while the log line passing it read `τα σπαθιά` (a designer's re-trial): every
    message an effect fills words a text that names a message as the question showed it."""
    from ludex.runtime import Illegal
    from ludex.terminal import Human

    greek = {"el": {"messages": {"espadas": "τα σπαθιά", "follow": "Ακολούθησε {a0}.",
                                 "must_follow": "Πρέπει να ακολουθήσεις {a0}."}}}
    text = Localizer(greek, "el", "el")
    assert text.log_line({"key": "follow", "args": {"a0": "espadas"}}) == "Ακολούθησε τα σπαθιά."
    assert text.filled("follow", {"a0": "espadas"}) == "Ακολούθησε τα σπαθιά."
    refused = Illegal("rules/illegal-action", "must_follow", None, {"a0": "espadas"})
    assert text.refusal(refused) == "Πρέπει να ακολουθήσεις τα σπαθιά."
    shown = []
    Human(ask=lambda prompt: "", show=shown.append, localizer=text).refuse(None, "x", refused)
    assert any("Πρέπει να ακολουθήσεις τα σπαθιά." in line for line in shown), shown
    assert "τα σπαθιά" in text.end_line("must_follow", None, {}, reason_args={"a0": "espadas"})


def test_a_cost_no_way_to_pay_covers_is_refused_in_the_players_words_with_names():
    """`?!`, the terminal and the table showed a `pay` refusal in English with raw ids
    ("norte cannot pay 4 moedas") in a Portuguese game, and no locale could word it (a
    designer's trial): it is the engine message `cannot_pay`, its power and counter named."""
    from ludex.engine import Game, load_definition

    definition, start = load_definition(Path(__file__).parent / "games" / "tiny")
    game = Game(definition, start, seed=3)
    game.state["counters"]["gold"]["red"] = 1
    game.state["counters"]["gems"]["red"] = 0
    game.restart_unit()
    refused = game.refusal("buy_gem")
    assert refused.code == "rules/cannot-pay" and refused.text == "red cannot pay 2 gold"
    assert definition.localizer().refusal(refused) == "Red cannot pay 2 Gold"
    from ludex.locale_files import engine_messages

    french = {"fr": {"powers": {"red": "Rouge"}, "counters": {"gold": "or"},
                     "messages": engine_messages("fr")}}
    assert Localizer(french, "fr", "fr").refusal(refused) == "Rouge ne peut pas payer 2 or"
