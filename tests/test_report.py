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


def _shown(value, key: str) -> str:
    """How the report writes a summary value."""
    last = key.rsplit(".", 1)[-1]
    if last == "interval":
        return f"{100 * value[0]:.1f}% – {100 * value[1]:.1f}%"
    if last in ("rate", "fair_share"):
        return f"{100 * value:.1f}%"
    if last == "advantage":
        return f"{100 * value:+.1f}"
    return str(value)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_report_opens_in_a_browser_with_its_plots_and_the_json_numbers(game, tmp_path):
    games = int(os.environ.get("LUDEX_REPORT_GAMES", GAMES[game]))
    report = tmp_path / f"{game}.html"
    run = subprocess.run([sys.executable, "-m", "ludex.cli", "simulate", game, "--games",
                          str(games), "--workers", "2", "--json", "--report", str(report)],
                         capture_output=True, text=True)
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
        finally:
            browser.close()
    assert problems == []
    assert (tmp_path / f"{game}.png").stat().st_size > 10_000
    assert len(boxes) >= 6 and all(b and b["width"] > 200 and b["height"] > 80 for b in boxes)
    assert set(SECTIONS) <= set(sections)
    assert embedded == summary
    assert len(cells) > 20
    for key, text in cells:
        assert text == _shown(_value(summary, key), key), key
