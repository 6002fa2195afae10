"""The table's own words in the page's language: the engine's `table_*` messages (a game's
locale may reword them, or give them in a language the engine lacks; what the chosen language
lacks comes from the game's primary language when it is written in the same script, else
English: locale.engine_chain), filled in here with what the
page shows, and the names of the game's languages in their own words and directions.

The page's fixed words (buttons, headings) go as they are, under their keys; a word with a
blank to fill goes filled in, beside what it says (the status line beside the turn, the
hot-seat cover beside its seat), so that plurals and names' forms are the engine's."""

from __future__ import annotations

import functools

from ..locale_files import ENGINE_SOURCE, engine_messages
from .direction import text_direction

# the page's words with a blank: filled in here, never sent as they are
FILLED = {"table_view_seat", "table_status", "table_waiting", "table_pass_to",
          "table_choose_exactly", "table_choose_up_to", "table_answer", "table_hidden"}


def page_words(text) -> dict[str, str]:
    """Every fixed word of the page, by its key, in `text`'s language."""
    return {key: text.message(key) for key in engine_messages(ENGINE_SOURCE)
            if key.startswith("table_") and not key.startswith("table_refused_")
            and key not in FILLED}


@functools.cache
def language_name(tag: str) -> str:
    """A language by its own name (`pt-BR`: "português (Brasil)"), else its tag."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(tag.replace("-", "_")).get_display_name()
    except (UnknownLocaleError, ValueError, TypeError):
        return tag
    return name or tag


def seat_label(seat: dict) -> str:
    """A seat as the page names it: its number from 1 and its powers (`1: Verde`)."""
    return f"{seat['index'] + 1}: {', '.join(seat['names'])}"


def worded(shown: dict, text) -> dict:
    """The table as `table_view` shows it, with the page's words in `text`'s language."""
    message = text.message
    shown["words"] = page_words(text)
    shown["language_names"] = {lang: language_name(lang) for lang in shown.get("languages", [])}
    # the page runs as its language is written (`rtl`: Arabic, Hebrew…), and so does each
    # language's name in the language menu
    shown["dir"] = text_direction(text.lang)
    shown["language_dirs"] = {lang: text_direction(lang) for lang in shown.get("languages", [])}
    shown["status"] = message("table_status", {"turn": shown["turn"], "round": shown["round"],
                                               "decision": shown["moment"] + 1})
    for seat in shown["seats"]:
        seat["label"] = seat_label(seat)
        seat["view"] = message("table_view_seat", {"seat": seat["label"]})
        seat["pass_to"] = message("table_pass_to", {"seat": seat["label"]})
    waiting = shown.get("waiting_for")
    if waiting:
        waiting["text"] = message("table_waiting", {"power": waiting["power"],
                                                    "seat": waiting["seat"] + 1})
    for zone in shown["zones"]:
        hidden = zone["count"] - len(zone["cards"])
        if hidden > 0:
            zone["hidden"] = message("table_hidden", {"count": hidden})
    question = shown.get("question")
    if question and question["mode"] != "one":
        key = "table_choose_exactly" if question["mode"] == "exactly" else "table_choose_up_to"
        question["hint"] = message(key, {"count": question["count"]})
        # the button says how many are checked: one text for each count the page may show
        question["answer"] = [message("table_answer", {"chosen": n})
                              for n in range(min(question["count"], len(question["options"]))
                                             + 1)]
    return shown
