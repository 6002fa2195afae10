"""Writing new content over a locale file (locale_rewrite.py): what is unchanged keeps its
text, a change or an addition touches only its own lines, and what cannot be patched so is
left to be written whole."""

from __future__ import annotations

import yaml

from ludex.locale_rewrite import rewrite

TEXT = """\
lang: el  # the language
powers:
  alba: {name: Αυγή, def: η Αυγή}
  brisa: Αύρα
messages:
  # a comment of the designer's
  long: Ένα μήνυμα που ο σχεδιαστής έσπασε
    σε δύο γραμμές
  last: Τέλος
"""


def patched(new: dict) -> str | None:
    return rewrite(TEXT, yaml.safe_load(TEXT), new)


def test_the_same_content_gives_the_same_text():
    assert patched(yaml.safe_load(TEXT)) == TEXT


def test_a_new_form_goes_into_its_flow_mapping_and_a_new_key_after_the_key_before_it():
    new = yaml.safe_load(TEXT)
    new["powers"]["alba"]["acc"] = "την Αυγή"
    new["powers"]["brisa"] = {"name": "Αύρα", "def": "η Αύρα"}
    new["messages"]["added"] = "Νέο"
    new["translated_from"] = {"messages.last": "0123abcd"}
    assert patched(new) == TEXT.replace(
        "def: η Αυγή}", "def: η Αυγή, acc: την Αυγή}").replace(
        "brisa: Αύρα", "brisa: {name: Αύρα, def: η Αύρα}").replace(
        "  last: Τέλος\n", "  last: Τέλος\n  added: Νέο\ntranslated_from:\n"
        "  messages.last: 0123abcd\n")


def test_a_text_without_a_last_line_break_gets_one_before_what_is_added():
    text = "lang: el\nmessages:\n  last: Τέλος"
    new = {"lang": "el", "messages": {"last": "Τέλος", "added": "Νέο"}}
    assert rewrite(text, yaml.safe_load(text), new) == text + "\n  added: Νέο\n"


def test_a_removed_key_is_left_to_a_whole_dump():
    new = yaml.safe_load(TEXT)
    del new["messages"]["last"]
    assert patched(new) is None
