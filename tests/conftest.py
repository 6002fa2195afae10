"""Test-wide settings. Every engine run in the suite verifies that a unit never changes the
state it started from (engine.CHECK_SHARED): a verb that writes a state section without
touching it first fails loudly here instead of corrupting a rollback in play.

The content cache of the suite (and of the `ludex` commands it starts) lives in a folder of
its own, new for each run: no test reads what another run, or the developer's own work, left
in `~/.cache/ludex`, and the suite leaves nothing there."""

import atexit
import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

from ludex import engine, pysource

os.environ.setdefault("LUDEX_CHECK_SHARED", "1")  # for the `ludex` commands the suite starts
# and in this process, set outright: the `ludex` pytest plugin imports the engine before this
# file runs, so the variable alone came too late, and the check was on in some workers only
engine.CHECK_SHARED = bool(os.environ["LUDEX_CHECK_SHARED"])

# Written-out Python source compiled at its first call (in play, at its second: a first call
# runs the closures, which the suite compares it with): each test's single runs take the
# source's own path.
pysource.WARM_UP_CALLS = 0

if "LUDEX_TEST_CACHE" not in os.environ:  # set once: pytest-in-pytest runs share it
    os.environ["LUDEX_TEST_CACHE"] = tempfile.mkdtemp(prefix="ludex-test-cache-")
    atexit.register(shutil.rmtree, os.environ["LUDEX_TEST_CACHE"], ignore_errors=True)
os.environ["XDG_CACHE_HOME"] = os.environ["LUDEX_TEST_CACHE"]

# A suite started in the background of a shell without job control inherits Ctrl-C ignored, and
# so would every command it starts: the Ctrl-C tests would find their commands deaf to it. They
# get Python's usual handler back (a command started with Ctrl-C ignored rightly keeps it so).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A copy of the tiny test game that a test may change (a module's own `tiny` fixture,
    where it has one, stands instead)."""
    folder = tmp_path / "tiny"
    shutil.copytree(Path(__file__).parent / "games" / "tiny", folder)
    return folder



@pytest.fixture
def sealed_bid_wagers(tmp_path: Path) -> Path:
    """A copy of the wagers game with a sealed bid: a per-power counter (`bid`, 7 at the
    start, "Sealed bid" in English) that only its own power may see (`visibility: owner`)."""
    folder = tmp_path / "wagers"
    shutil.copytree(Path(__file__).parent / "games" / "wagers", folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "  - {id: rounds_won, per: power, min: 0}\n",
        "  - {id: rounds_won, per: power, min: 0}\n"
        "  - {id: bid, per: power, visibility: owner, initial: 7}\n"))
    locale = folder / "locale" / "en.yaml"
    locale.write_text(locale.read_text().replace("rounds_won: Rounds won}",
                                                 "rounds_won: Rounds won, bid: Sealed bid}"))
    return folder


@pytest.fixture
def wagers_in(tmp_path: Path):
    """`wagers_in(lang)`: a copy of the wagers game whose primary language is `lang` (its
    English files renamed, nothing translated): a designer's game in a language the engine
    may lack."""
    def make(lang: str) -> Path:
        game = tmp_path / "wagers"
        shutil.copytree(Path(__file__).parent / "games" / "wagers", game)
        for locale in (game / "locale" / "en.yaml", game / "cards" / "locale" / "en.yaml"):
            locale.write_text(locale.read_text().replace("lang: en", f"lang: {lang}"))
            locale.rename(locale.with_name(f"{lang}.yaml"))
        (game / "game.yaml").write_text((game / "game.yaml").read_text() + f"language: {lang}\n")
        return game
    return make


@pytest.fixture
def brazilian_tiny(tiny: Path) -> Path:
    """The tiny game written in Brazilian Portuguese, a language the engine lacks, which gives
    two of the table's words (the rest fall back to English), with a Galician locale that
    gives none of them (the engine lacks Galician too: they fall back to the Portuguese,
    then English)."""
    (tiny / "game.yaml").write_text((tiny / "game.yaml").read_text(encoding="utf-8").replace(
        "id: tiny\n", "id: tiny\nlanguage: pt-BR\n", 1), encoding="utf-8")
    for locale in (tiny / "locale", tiny / "cards" / "locale"):
        text = (locale / "en.yaml").read_text(encoding="utf-8").replace("lang: en", "lang: pt-BR")
        (locale / "en.yaml").unlink()
        (locale / "pt-BR.yaml").write_text(text, encoding="utf-8")
    rules = tiny / "locale" / "pt-BR.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "powers: {red: Red, blue: Blue}", "powers: {red: Vermelho, blue: Azul}").replace(
        "messages:\n", "messages:\n  table_show_cards: Mostrar minhas cartas\n"
        "  table_pass_to: 'Passe a tela ao lugar {seat}'\n", 1), encoding="utf-8")
    (tiny / "locale" / "gl.yaml").write_text("lang: gl\npowers: {red: Vermello}\n",
                                             encoding="utf-8")
    return tiny


ARABIC_RULES = """lang: ar
game: {name: صغيرة}
powers: {red: الأحمر, blue: الأزرق}
spaces: {a: ألف, b: باء, c: جيم, d: دال}
zones: {deck: الرزمة, hand: اليد, discard: المهملات, market: السوق}
counters: {score: النقاط, gold: الذهب, gems: الجواهر, pot: الوعاء}
flags: {storm: العاصفة}
pieces: {soldier: جندي, hero: بطل}
settings: {generous: كريم}
phases: {income: الدخل, play: اللعب, bonus: المكافأة}
actions: {play_card: العب بطاقة, buy_gem: اشترِ جوهرة}
messages:
  main: دورك
  both_rich: اللاعبان غنيان
  pick_space: اختر مكانًا
  not_enough_gold: الذهب لا يكفي
  decided: تقرّر
  value: القيمة
  phase_start: 'تبدأ مرحلة {phase}.'
  table_seats: المقاعد
  table_new_game: لعبة جديدة
  table_players: اللاعبون
  table_seed: البذرة
  table_log: السجل
  table_cards: البطاقات
clauses:
  TINY-INCOME: يدفع الدخل لكل قوة ذهب صفوف الجدول التي تسيطر على مكانها، ثم يسحب كل لاعب بطاقة
  TINY-PAY: تدفع الجواهر عن الذهب، جوهرة عن كل ذهبين، وتُرفض كلفة لا يمكن دفعها
  TINY-END: تنتهي اللعبة فورًا حين تبلغ القوتان 5 نقاط أو أكثر
  TINY-ROUNDS: تعطي مرحلة المكافأة كل قوة، في كل جولة من ثلاث، نقاطًا بعدد الجولة
"""
ARABIC_CARDS = """lang: ar
cards:
  red_one: {name: واحد أحمر}
  red_two: {name: اثنان أحمر}
  red_three: {name: ثلاثة أحمر}
  blue_one: {name: واحد أزرق}
  blue_two: {name: اثنان أزرق}
  stray: {name: شاردة}
"""


@pytest.fixture
def arabic_tiny(tiny: Path) -> Path:
    """The tiny game written in Arabic (a right-to-left language the engine lacks), its
    English kept as a second language: a few of the table's words and the log's phase line
    (with its full stop) in Arabic, the rest falling back to English."""
    (tiny / "game.yaml").write_text((tiny / "game.yaml").read_text(encoding="utf-8").replace(
        "id: tiny\n", "id: tiny\nlanguage: ar\n", 1), encoding="utf-8")
    (tiny / "locale" / "ar.yaml").write_text(ARABIC_RULES, encoding="utf-8")
    (tiny / "cards" / "locale" / "ar.yaml").write_text(ARABIC_CARDS, encoding="utf-8")
    return tiny



@pytest.fixture
def japanese_wagers(wagers_in) -> Path:
    """The wagers game written in Japanese, a language the engine lacks, whose designer
    translated a few of the engine's lines into Japanese too (the end-of-game lines, a card's
    copy), with a partial Turkish translation of the game's own words (a designer's trial:
    Turkish players read `ゲーム終了（…）。Kuzey、Güneyの引き分け…`). The locale files are
    tests/locales/wagers/, which docs/translations.md quotes."""
    game = wagers_in("ja")
    source = Path(__file__).parent / "locales" / "wagers"
    for locale in source.rglob("*.yaml"):
        shutil.copy(locale, game / locale.relative_to(source))
    return game


JAPANESE_NAMES = {"powers: {red: Red, blue: Blue}": "powers: {red: 赤の商人, blue: 青の商人}",
                  "game: {name: Tiny}": "game: {name: 小さな市}",
                  "{name: Red One}": "{name: 赤の一, text: ただの札。}",
                  "{name: Red Two}": "{name: 赤の二}",
                  "{name: Red Three}": "{name: 赤の三, text: 使うと得点3を得る。}",
                  "{name: Blue One}": "{name: 青の一}",
                  "{name: Blue Two}": "{name: 青の二}",
                  "{name: Stray}": "{name: 迷い札}"}


@pytest.fixture
def japanese_tiny(tiny: Path) -> Path:
    """The tiny game written in Japanese (a language the engine lacks, of full-width
    characters): its powers and cards have Japanese names, two cards a text; the rest of its
    words are the English ones, under `lang: ja`."""
    (tiny / "game.yaml").write_text((tiny / "game.yaml").read_text(encoding="utf-8").replace(
        "id: tiny\n", "id: tiny\nlanguage: ja\n", 1), encoding="utf-8")
    for locale in (tiny / "locale", tiny / "cards" / "locale"):
        text = (locale / "en.yaml").read_text(encoding="utf-8").replace("lang: en", "lang: ja")
        for english, japanese in JAPANESE_NAMES.items():
            text = text.replace(english, japanese)
        (locale / "en.yaml").unlink()
        (locale / "ja.yaml").write_text(text, encoding="utf-8")
    return tiny
