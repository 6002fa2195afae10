"""The balance report opened in a real browser (the system's headless Chromium, driven by
Playwright): it loads without errors, has its plots, and every number it shows is the one
`--json` prints for the same run. LUDEX_REPORT_GAMES sets the games per game (`make reports`
runs 1,000 each); the suite keeps it small."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GAMES = {"imperium": 60, "sword_of_rome": 8}
SECTIONS = ["powers", "seats", "length", "endings", "scores", "errors", "warnings"]

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no Chromium")


def _value(summary: dict, key: str):
    value = summary
    for part in key.split("."):
        if part == "length":
            return len(value)
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


# how each language writes a rate, an interval, a signed number and a mean
WRITTEN = {
    "en": {"rate": "{:.1f}%", "interval": "{:.1f}% – {:.1f}%", "signed": "{:+.1f}",
           "point": "."},
    "fr": {"rate": "{:.1f}%", "interval": "{:.1f}% – {:.1f}%", "signed": "{:+.1f}",
           "point": ","},
}
# the report's first heading and its section headings, in each language
HEADINGS = {
    "en": ("Balance report: Imperium", "Win rate per power", "How games ended"),
    "fr": ("Rapport d'équilibre : Imperium", "Taux de victoire par puissance", "Fins de partie"),
}


def _hundredths(value: float, digits: int = 1) -> Decimal:
    """100 x `value` as its decimal digits say, halves rounded up (as people round)."""
    return (Decimal(repr(value)) * 100).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)


def _shown(value, key: str, lang: str) -> str:
    """How the report writes a summary value in `lang` (written out here, not with the
    report's own helpers)."""
    how, last = WRITTEN[lang], key.rsplit(".", 1)[-1]
    if last == "interval":
        text = how["interval"].format(_hundredths(value[0]), _hundredths(value[1]))
    elif last in ("rate", "fair_share"):
        text = how["rate"].format(_hundredths(value))
    elif last == "advantage":
        text = how["signed"].format(_hundredths(value)).replace("-", "−")
    elif isinstance(value, float):
        text = str(Decimal(repr(value)).quantize(Decimal("0.01"), ROUND_HALF_UP))
        text = text.rstrip("0").rstrip(".")
    else:
        return str(value)
    return text.replace(".", how["point"])


@pytest.mark.parametrize("game,lang", [("imperium", "en"), ("sword_of_rome", "en"),
                                       ("imperium", "fr")])
def test_the_report_opens_in_a_browser_with_its_plots_and_the_json_numbers(game, lang,
                                                                           tmp_path):
    games = int(os.environ.get("LUDEX_REPORT_GAMES", GAMES[game]))
    report = tmp_path / f"{game}.html"
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", game, "--games",
                          str(games), "--workers", "2", "--json", "--report", str(report),
                          "--lang", lang], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["finished"] == games
    html = report.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing to fetch
    problems: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: problems.append(r.url)
                    if not r.url.startswith(("file:", "data:")) else None)
            page.goto(report.as_uri())
            page.screenshot(path=str(tmp_path / f"{game}.png"), full_page=True)
            plots = page.locator("figure.plot svg")
            boxes = [plots.nth(i).bounding_box() for i in range(plots.count())]
            cells = page.eval_on_selector_all(
                "[data-key]", "els => els.map(e => [e.dataset.key, e.textContent])")
            embedded = json.loads(page.locator("#summary").text_content())
            sections = page.eval_on_selector_all("section", "els => els.map(e => e.id)")
            headings = page.eval_on_selector_all("h1, h2", "els => els.map(e => e.textContent)")
            language = page.locator("html").get_attribute("lang")
        finally:
            browser.close()
    assert problems == []
    assert (tmp_path / f"{game}.png").stat().st_size > 10_000
    assert len(boxes) >= 6 and all(b and b["width"] > 200 and b["height"] > 80 for b in boxes)
    assert set(SECTIONS) <= set(sections)
    assert embedded == summary
    assert len(cells) > 20
    for key, text in cells:
        assert text == _shown(_value(summary, key), key, lang), key
    assert language == lang
    if game == "imperium":
        title, powers, endings = HEADINGS[lang]
        assert headings[0] == title and powers in headings and endings in headings


def test_a_length_plot_of_games_that_all_last_as_long_has_whole_number_ticks():
    """Every Sword of Rome game lasts 9 turns: the histogram's axis read 8.6, 8.8, 9.0… (a
    designer's trial). Turns, decisions and games are counted in whole numbers."""
    from ludex.locale import Localizer
    from ludex.playtest.report import _histogram_plot, _Words

    svg = _histogram_plot(_Words(Localizer({}, "en")), {"9": 8}, "turns", "Game length")
    ticks = re.findall(r">([−\d.,]+)</text>", svg)
    assert ticks and all(re.fullmatch(r"\d+", t) for t in ticks), ticks


@pytest.mark.parametrize("fixture, names", [
    ("japanese_tiny", ["赤の商人", "青の商人", "赤の三", "青の二"]),
    ("arabic_tiny", ["الأحمر", "الأزرق", "ثلاثة أحمر", "اثنان أزرق"]),
])
def test_a_report_draws_japanese_and_arabic_names_in_its_plots_as_text(fixture, names, request,
                                                                       tmp_path):
    """A Japanese game's report printed a dozen "Glyph … missing from font(s) DejaVu Sans"
    warnings: matplotlib's font only measures the plots' text, which the SVG keeps as
    <text> for the browser's fonts (and their fallbacks) to draw. In the browser each name
    is text, drawn inside its plot; a right-to-left name ends at its tick, as a Latin one."""
    game = request.getfixturevalue(fixture)
    report = tmp_path / "report.html"
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", str(game), "--games",
                          "10", "--report", str(report)], capture_output=True, text=True,
                         encoding="utf-8")
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == f"wrote {report}"  # no warning of matplotlib's
    assert "DejaVuSans-" not in report.read_text(encoding="utf-8")  # no glyph as a path
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(report.as_uri())
            texts = page.evaluate("""() => [...document.querySelectorAll('figure.plot svg')]
              .flatMap(svg => { const plot = svg.getBoundingClientRect();
                return [...svg.querySelectorAll('text')].map(t => {
                  const box = t.getBoundingClientRect(), own = t.getBBox();
                  return {text: t.textContent, anchor: t.style.textAnchor,
                          x: +t.getAttribute('x'), end: own.x + own.width, width: box.width,
                          inside: box.left >= plot.left - 1 && box.right <= plot.right + 1};
                }); })""")
        finally:
            browser.close()
    for name in names:
        drawn = [t for t in texts if t["text"] == name]
        assert drawn, (name, sorted({t["text"] for t in texts}))
        for text in drawn:
            assert text["width"] > 10 and text["inside"], text
            if text["anchor"] == "end":  # a tick label: it ends at its tick
                assert abs(text["end"] - text["x"]) < 1, text
