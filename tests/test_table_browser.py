"""The table in a real browser: Debian's Chromium, headless, driven by Playwright. A whole
Imperium game is played by clicking (hot-seat, three people), with an "up to N" question
answered with none and with two cards, an undo, a save loaded back and a page reload; the
Sword of Rome board is drawn with every space and its control. Screenshots go to
$LUDEX_SCREENSHOTS when set (`make screenshots` writes the docs' pictures), else to a
temporary folder."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from ludex.engine import load_definition
from ludex.folders import find_game

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed (make test installs it)",
                allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api")


class Served:
    """A table served by uvicorn on a free local port, in a thread of this process."""

    def __init__(self, game: str, saves: Path, **options):
        import uvicorn

        from ludex.table.server import create_app
        from ludex.table.session import Table

        folder = find_game(game)
        definition, start = load_definition(folder)
        self.table = Table(folder, definition, start, saves, **options)
        config = uvicorn.Config(create_app(self.table), host="127.0.0.1", port=0,
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the table did not start"
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")
    with playwright.sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1400, "height": 1000})
        yield context
        context.close()


@pytest.fixture()
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("LUDEX_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def moment(page) -> int:
    return int(page.get_attribute("body", "data-moment"))


def wait_for_moment(page, expected: int) -> None:
    page.wait_for_function(f"document.body.dataset.moment === '{expected}'", timeout=20_000)


def reveal(page) -> None:
    """Hot-seat: the next person uncovers their cards."""
    if page.is_visible("#curtain"):
        page.click("#curtain-show")


def answer(page, plan: dict, shot: Path | None = None) -> str:
    """Answer the question on the page as a person would; returns what kind it was. `shot`:
    where to take a picture of a multiple choice with two options checked."""
    reveal(page)
    before = moment(page)
    if page.locator("#question .option").count():
        page.locator("#question .option").first.click()
        kind = "one"
    else:
        boxes = page.locator("#question input.pick")
        wanted = plan["up_to"].pop(0) if plan["up_to"] else 0
        for i in range(wanted):
            boxes.nth(i).check()
        assert page.inner_text("#answer") == f"Answer ({wanted} chosen)"
        if shot and wanted == 2:
            page.screenshot(path=str(shot))
        page.click("#answer")
        kind = f"up_to:{wanted}"
    wait_for_moment(page, before + 1)
    return kind


def asked_page(browser, served):
    """A new page on the served table, once it shows a question, the cards revealed."""
    page = browser.new_page()
    page.goto(served.url)
    page.wait_for_selector("#question .option")
    reveal(page)
    return page


def test_a_whole_imperium_game_is_played_by_clicking(browser, tmp_path, shots):
    served = Served("imperium", tmp_path / "saves", seed=1)
    try:
        page = asked_page(browser, served)
        # the Celts see their hand, and of the other nations' hands only how many cards
        state, text = served.table.game.view, served.table.definition.localizer()
        shown = page.inner_text("body")
        assert all(str(text.name(card)) in shown for card in state["zones"]["hand"]["celts"])
        assert not any(str(text.name(card)) in shown
                       for power in ("persians", "macedonians")
                       for card in state["zones"]["hand"][power])
        # the first "up to" question is answered with none, the second with two cards
        plan = {"up_to": [0, 2]}
        kinds = [answer(page, plan, shots / "table-imperium.png") for _ in range(5)]

        # undo takes back the last answer; the same answer again gives the same game
        log_before = page.inner_text("#log")
        page.click("#undo")
        wait_for_moment(page, 4)
        kinds.append(answer(page, plan))
        assert page.inner_text("#log") == log_before

        # save here, play on, then load the save back: the game is where it was saved
        page.fill("#save-name", "halfway")
        page.click("#save")
        page.wait_for_function("[...document.querySelectorAll('#load-name option')]"
                               ".some(o => o.value === 'halfway')")
        saved_log = page.inner_text("#log")
        for _ in range(3):
            kinds.append(answer(page, plan, shots / "table-imperium.png"))
        page.select_option("#load-name", "halfway")
        page.click("#load")
        wait_for_moment(page, 5)
        assert page.inner_text("#log") == saved_log
        # a reload of the page shows the same game
        page.reload()
        page.wait_for_selector("#question")
        wait_for_moment(page, 5)

        while page.get_attribute("body", "data-ended") != "yes":
            kinds.append(answer(page, plan, shots / "table-imperium.png"))
        assert "up_to:0" in kinds and "up_to:2" in kinds
        assert served.table.game.is_terminal()
        assert page.inner_text("#game-over").startswith("Game over")

        # the language switch: the end line and the log in French
        page.select_option("#lang", "fr")
        page.wait_for_function("document.documentElement.lang === 'fr'")
        assert page.inner_text("#game-over").startswith("Fin de la partie")
        assert page.inner_text("#undo") == "Annuler"  # the page's own words too
        assert page.title() == "Imperium — Table Ludex"  # and its title (was English)
        sources = page.eval_on_selector_all("#replay-source option",
                                            "os => os.map(o => o.textContent)")
        assert any(s.startswith("scénario: ") for s in sources), sources

        # the replay viewer steps through the game just played
        page.select_option("#replay-source", "current")
        page.click("#replay-open")
        page.wait_for_function("document.getElementById('replay-where').textContent"
                               ".startsWith('0 /')")
        total = len(served.table.game.history)
        page.click("#replay-next")
        page.wait_for_function("document.getElementById('replay-where').textContent === "
                               f"'1 / {total}'")
        page.click("#replay-last")
        page.wait_for_function("document.getElementById('replay-where').textContent === "
                               f"'{total} / {total}'")
        page.close()
    finally:
        served.stop()


def test_the_sword_of_rome_board_shows_every_space_and_its_control(browser, tmp_path, shots):
    served = Served("sword_of_rome", tmp_path / "saves", seats=["human", "random", "random",
                                                               "random", "random"])
    try:
        served.table.run_agents(seconds=None)
        page = browser.new_page()
        page.goto(served.url)
        page.wait_for_selector("#board svg g.space")
        definition = served.table.definition
        drawn = page.eval_on_selector_all("#board svg g.space", "gs => gs.map(g => "
                                          "[g.dataset.space, g.dataset.control || null])")
        assert [space for space, _ in drawn] == definition.space_ids
        control = {space: held for space, held in drawn}
        state = served.table.game.view
        assert control == {s: state["spaces"][s]["markers"].get("control")
                           for s in definition.space_ids}
        assert control["roma"] == "romans"
        fill = page.get_attribute("#space-roma circle", "fill")
        assert fill == "red"  # the Romans' colour from the manifest
        assert page.locator("#board svg g.pieces[data-power='romans']").count() >= 1
        page.screenshot(path=str(shots / "table-sword-of-rome.png"))
        page.locator("#board svg").screenshot(path=str(shots / "board-sword-of-rome.png"))
        page.close()
    finally:
        served.stop()


def test_agents_play_on_a_slice_at_a_time_and_a_click_between_is_served(
        browser, tmp_path, monkeypatch):
    """*Agents: play on* once held the table for the whole game (the page showed nothing
    until its end); now the page asks for a slice after another, showing each, so a person's
    Undo between two is served, and stops the agents."""
    from ludex.table import server

    monkeypatch.setattr(server, "RUN_SLICE_SECONDS", 0.02)
    # searching agents: a whole game takes minutes, answers come a few a second
    served = Served("imperium", tmp_path / "saves", seats=["mcts:30"], seed=2)
    try:
        page = browser.new_page()
        page.goto(served.url)
        page.click("#play-on")
        page.wait_for_function("Number(document.body.dataset.moment) > 3", timeout=20_000)
        page.click("#undo")
        # the agents stopped: the moment stays put (a slice already asked for before the
        # click may still land on a loaded machine: wait until two looks agree)
        stopped = moment(page)
        for _ in range(10):
            page.wait_for_timeout(300)
            if moment(page) == stopped:
                break
            stopped = moment(page)
        page.wait_for_timeout(300)
        assert moment(page) == stopped and page.get_attribute("body", "data-ended") == "no"
        page.click("#play-on")
        page.wait_for_function(f"Number(document.body.dataset.moment) > {stopped + 2}",
                               timeout=20_000)
        page.close()
    finally:
        served.stop()


def test_a_person_playing_with_search_agents_gets_their_question_back_after_the_agents_slices(
        browser, tmp_path, monkeypatch):
    """The agents after a person's answer play a slice per request: the page asks on by
    itself until the person is asked again, with no button to press."""
    from ludex.table import session

    monkeypatch.setattr(session, "RUN_SLICE_SECONDS", 0.0)  # one agent answer per request
    served = Served("imperium", tmp_path / "saves", seats=["human", "mcts:10", "mcts:10"],
                    seed=3)
    try:
        page = browser.new_page()
        page.goto(served.url)
        for _ in range(80):  # the person's answers; the agents' come between by themselves
            page.wait_for_selector("#question .option, #question #answer", timeout=30_000)
            if served.table.by_people.count(False) >= 3:  # and the person is asked again
                break
            before = moment(page)
            if page.locator("#question .option").count():
                page.locator("#question .option").first.click()
            else:
                page.click("#answer")  # an "up to" question: none
            page.wait_for_function(f"Number(document.body.dataset.moment) > {before}",
                                   timeout=20_000)
        assert served.table.by_people.count(False) >= 3  # the agents answered in between
        assert served.table.asked_seat() == 0
        page.close()
    finally:
        served.stop()


def click_option(page, label: str) -> None:
    """The person asked (uncovering their cards first) clicks the option named `label`."""
    reveal(page)
    before = moment(page)
    page.locator("#question .option", has_text=label).click()
    wait_for_moment(page, before + 1)


def test_undo_is_off_with_its_reason_beside_it_once_a_die_was_rolled(browser, tmp_path):
    """Playtesters attacked, saw the die, undid and chose again knowing the next roll: after
    an answer that drew on chance the button is off, and the page says why."""
    served = Served(str(Path(__file__).parent / "games" / "skirmish"), tmp_path / "saves")
    try:
        page = asked_page(browser, served)
        assert page.is_disabled("#undo") and page.is_hidden("#undo-refused")  # nothing yet
        click_option(page, "Dig in")  # no chance in it: undo is there
        assert page.is_enabled("#undo") and page.is_hidden("#undo-refused")
        click_option(page, "Attack")  # a die
        reason = served.table.definition.localizer().message("table_refused_undo_chance")
        page.wait_for_selector("#undo-refused", state="visible")
        assert page.is_disabled("#undo")
        assert page.inner_text("#undo-refused") == reason
        assert page.get_attribute("#undo", "title") == reason
        assert page.get_attribute("#undo", "aria-describedby") == "undo-refused"
        page.close()
    finally:
        served.stop()


def test_chromium_is_the_one_the_test_set_up_installs():
    assert shutil.which("chromium") == CHROMIUM


def test_a_save_named_with_accented_letters_is_saved_and_an_upload_keeps_them(
        browser, tmp_path):
    """A Brazilian designer's `partida_ção` was refused, and an uploaded `Ação rápida.json`
    became `A__o_r_pida`."""
    served = Served("imperium", tmp_path / "saves", seed=1)
    try:
        page = asked_page(browser, served)
        page.fill("#save-name", "partida_ção")
        page.click("#save")
        page.wait_for_function("[...document.querySelectorAll('#load-name option')]"
                               ".some(o => o.value === 'partida_ção')")
        assert page.is_hidden("#error")
        text = (tmp_path / "saves" / "partida_ção.json").read_text()
        page.set_input_files("#upload", files=[{"name": "Ação rápida.json",
                                                "mimeType": "application/json",
                                                "buffer": text.encode()}])
        page.wait_for_function("[...document.querySelectorAll('#load-name option')]"
                               ".some(o => o.value === 'Ação_rápida')")
        assert (tmp_path / "saves" / "Ação_rápida.json").is_file()
        page.close()
    finally:
        served.stop()


def test_the_hot_seat_cover_and_buttons_speak_the_games_language(browser, brazilian_tiny):
    """A Brazilian designer's players read "Pass to seat 1: Verde" and "Show my cards", and
    the language menu said `pt-BR` and `es`."""
    served = Served(str(brazilian_tiny), brazilian_tiny.parent / "saves")
    try:
        page = browser.new_page()
        page.goto(served.url)
        page.wait_for_selector("#curtain:not([hidden])")
        assert page.inner_text("#curtain-text") == "Passe a tela ao lugar 1: Vermelho"
        assert page.inner_text("#curtain-show") == "Mostrar minhas cartas"
        menu = page.eval_on_selector_all("#lang option", "os => os.map(o => o.textContent)")
        assert menu == ["português (Brasil)", "galego"]
        # the words the game does not give fall back to English
        assert page.inner_text("#undo") == "Undo"
        page.select_option("#lang", label="galego")
        page.wait_for_function("document.documentElement.lang === 'gl'")
        assert page.inner_text("#curtain-text") == "Passe a tela ao lugar 1: Vermello"
        page.click("#curtain-show")
        assert page.is_hidden("#curtain")
        page.close()
    finally:
        served.stop()


# -- right-to-left languages ------------------------------------------------------------------
# Where the page puts words and controls, read from the layout (the boxes of the elements and
# of a run of words within a text), not from a picture's pixels.
TEXT_BOX = """([root, words]) => {
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(words);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + words.length);
    const box = range.getBoundingClientRect();
    return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
  }
  return null;
}"""
# the control read next after `words` (the first to its left in a right-to-left line, to its
# right in a left-to-right one), on the same line: its id, or a seat's `data-seat`
NEXT_CONTROL = """([root, words, rtl]) => {
  const box = (TEXT_BOX)([root, words]);
  const middle = (box.top + box.bottom) / 2;
  const after = [...document.querySelector(root).querySelectorAll("select, input, button")]
    .map((control) => [control, control.getBoundingClientRect()])
    .filter(([, r]) => r.top <= middle && middle <= r.bottom)
    .filter(([, r]) => rtl ? r.right <= box.left + 1 : r.left >= box.right - 1)
    .sort(([, a], [, b]) => rtl ? b.right - a.right : a.left - b.left);
  if (!after.length) return null;
  const control = after[0][0];
  return control.dataset.seat !== undefined ? "seat " + control.dataset.seat : control.id;
}""".replace("TEXT_BOX", TEXT_BOX)


def next_control(page, root: str, words: str, rtl: bool) -> str | None:
    return page.evaluate(NEXT_CONTROL, [root, words, rtl])


def text_box(page, root: str, words: str) -> dict:
    box = page.evaluate(TEXT_BOX, [root, words])
    assert box, f"{words!r} is not in {root}"
    return box


def direction(page, selector: str = "html") -> str:
    return page.eval_on_selector(selector, "node => getComputedStyle(node).direction")


def arabic_page(browser, served):
    page = browser.new_page()
    page.goto(served.url)
    page.wait_for_function("document.documentElement.lang === 'ar'")
    page.wait_for_selector("#seat-kinds select")
    return page


def test_an_arabic_game_runs_right_to_left_and_turns_when_the_language_does(
        browser, arabic_tiny):
    """A designer's Arabic game showed left to right: the page said `lang="ar"`, never
    `dir`."""
    served = Served(str(arabic_tiny), arabic_tiny.parent / "saves")
    try:
        page = arabic_page(browser, served)
        assert direction(page) == "rtl"
        assert page.get_attribute("html", "dir") == "rtl"
        # the Question and Cards panels stand left of the board, which reads first, on the right
        assert page.locator("aside").bounding_box()["x"] < \
            page.locator("#board-panel").bounding_box()["x"]
        # the language menu writes each language's name its own way
        assert page.eval_on_selector_all("#lang option", "os => os.map(o => [o.value, o.dir])") \
            == [["ar", "rtl"], ["en", "ltr"]]
        # the board's words run right to left, and stay in the places drawn for them
        assert page.get_attribute("#board svg", "direction") == "rtl"
        outside = page.evaluate("""() => {
          const board = document.querySelector('#board svg').getBoundingClientRect();
          return [...document.querySelectorAll('#board svg text')]
            .map((t) => [t.textContent, t.getBoundingClientRect()])
            .filter(([, r]) => r.left < board.left - 1 || r.right > board.right + 1)
            .map(([words]) => words);
        }""")
        assert outside == []
        # switched to English, the page turns left to right, each label before its control
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert direction(page) == "ltr"
        assert next_control(page, "#seat-kinds", "Red", rtl=False) == "seat 0"
        assert next_control(page, "footer", "Players", rtl=False) == "players"
        assert direction(page, "#log li bdi") == "ltr"
        page.close()
    finally:
        served.stop()


def test_in_an_arabic_game_each_label_is_read_beside_its_own_control(browser, arabic_tiny):
    """The label of seat 1 sat beside seat 2's drop-down, and in *New game* "Seed" beside the
    players' count and "Players" beside the seed (the bidi algorithm reordered the labels'
    words and the controls between them as one right-to-left run)."""
    served = Served(str(arabic_tiny), arabic_tiny.parent / "saves")
    try:
        page = arabic_page(browser, served)
        # each label is read just before its own control: on its right
        expected = {"الأحمر": "seat 0", "الأزرق": "seat 1", "اللاعبون": "players",
                    "البذرة": "seed"}
        assert {words: next_control(page, "footer", words, rtl=True)
                for words in expected} == expected
        # and is its control's label (its accessible name: the seat's words alone)
        for seat, name in enumerate(["الأحمر", "الأزرق"]):
            label = f"{seat + 1}: {name}"
            assert page.eval_on_selector(f"#seat-kinds select[data-seat='{seat}']",
                                         "s => [...s.labels].map(l => l.textContent)") == [label]
            assert page.get_by_label(label, exact=True).get_attribute("data-seat") == str(seat)
        for words, control in (("اللاعبون", "players"), ("البذرة", "seed")):
            assert page.get_by_label(words, exact=True).get_attribute("id") == control
        page.close()
    finally:
        served.stop()


def test_an_arabic_log_line_ends_with_its_full_stop_and_a_zone_heading_with_its_colon(
        browser, arabic_tiny):
    """Log lines showed their full stop at the start of the Arabic sentence (on its right),
    and zone headings their colon on the wrong side."""
    served = Served(str(arabic_tiny), arabic_tiny.parent / "saves")
    try:
        page = arabic_page(browser, served)
        # a log line ends with its full stop, on the left: isolated, in its language's direction
        assert page.inner_text("#log li") == "تبدأ مرحلة الدخل."
        stop, start = text_box(page, "#log li", "."), text_box(page, "#log li", "تبدأ")
        assert stop["right"] <= start["left"]
        assert page.eval_on_selector("#log li", "li => li.firstElementChild?.localName") == "bdi"
        assert direction(page, "#log li bdi") == "rtl"
        # a zone's heading: the holder and the zone isolated, the colon after it (on its left)
        zone = "#zones .zone[data-zone='hand'][data-holder='red']"
        assert page.eval_on_selector_all(f"{zone} .zone-title bdi",
                                         "bs => bs.map(b => b.textContent)") == ["الأحمر", "اليد"]
        colon = page.evaluate("""(zone) => {
          const node = [...document.querySelector(zone).childNodes]
            .find((n) => n.nodeType === Node.TEXT_NODE && n.data.includes(':'));
          const range = document.createRange();
          range.selectNodeContents(node);
          return range.getBoundingClientRect().right;
        }""", zone)
        assert colon <= page.locator(f"{zone} b").bounding_box()["x"] + 1
        page.close()
    finally:
        served.stop()


def test_a_left_to_right_page_keeps_an_arabic_players_name_beside_its_own_seat(browser, tiny):
    """An English (or French) game with a player named in Arabic: the seat's number after the
    name was taken into the name's right-to-left run, and the drop-down between with it."""
    rules = tiny / "locale" / "en.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "powers: {red: Red, blue: Blue}", "powers: {red: الصقر, blue: Blue}"), encoding="utf-8")
    served = Served(str(tiny), tiny.parent / "saves")
    try:
        page = browser.new_page()
        page.goto(served.url)
        page.wait_for_selector("#seat-kinds select")
        assert direction(page) == "ltr"
        assert next_control(page, "#seat-kinds", "الصقر", rtl=False) == "seat 0"
        assert next_control(page, "#seat-kinds", "Blue", rtl=False) == "seat 1"
        assert page.get_by_label("1: الصقر", exact=True).get_attribute("data-seat") == "0"
        # the name isolated from the counters after it
        assert page.inner_text("#counters .power[data-power='red'] b bdi") == "الصقر"
        page.close()
    finally:
        served.stop()


def test_the_state_panel_shows_the_memory_a_game_declares_public(browser, tmp_path):
    """The trump suit decides every trick and the table never showed it: the memory a game
    declares `visibility: public` is in the state panel, each key by the locale's name
    (`Trump: coins · Suit led: cups`); keys kept for the rules alone are not."""
    trumps = Path(__file__).parent / "games" / "trumps"
    served = Served(str(trumps), tmp_path / "saves", seats=["first", "human"], seed=2)
    try:
        served.table.run_agents(seconds=None)  # east leads: west is asked, a suit is led
        memory = served.table.game.view["memory"]
        assert memory["led"] is not None and memory["winning"] is not None
        page = asked_page(browser, served)
        page.wait_for_selector("#memory")
        assert page.inner_text("#memory") == f"Trump: coins · Suit led: {memory['led']}"
        keys = page.eval_on_selector_all("#memory [data-memory]",
                                         "spans => spans.map(s => s.dataset.memory)")
        assert keys == ["trump", "led"]
        page.close()
    finally:
        served.stop()
