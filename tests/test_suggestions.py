"""A misspelt or guessed name is answered with the name that was meant: unknown verbs by the
words of their name, unknown message keys from the keys the locales have."""

from __future__ import annotations

from pathlib import Path

from ludex.registry import suggest_builtin
from ludex.validate import validate_paths

CORPUS = Path(__file__).parent / "invalid"


def _messages(name: str) -> dict[tuple[int, int], str]:
    report = validate_paths([CORPUS / name], kind="procedures", game="sword_of_rome")
    return {(d.line, d.col): d.message for d in report.diagnostics}


def test_an_unknown_verb_named_after_a_counter_suggests_the_verb_with_that_counter():
    messages = _messages("effect_unknown_verb_by_its_words.yaml")
    assert "`gain(vp, …)`" in messages[(4, 7)]
    assert "`remove(cu, …)`" in messages[(5, 7)]


def test_a_message_key_no_locale_has_suggests_the_closest_key():
    assert "`event_played`" in _messages("effect_misspelt_message_key.yaml")[(4, 11)]


def test_synonyms_find_a_builtin_without_any_named_argument():
    assert suggest_builtin("print", lambda word: ()) == ["log"]


def test_a_named_argument_is_placed_at_the_parameter_of_its_kind():
    kinds = {"roma": ("space",)}
    assert suggest_builtin("put_roma", lambda word: kinds.get(word, ())) == ["place(…, roma, …)"]


def test_a_name_differing_only_in_letter_case_is_suggested_first():
    # difflib scores `BAZA-3-c` and `BAZA-3-a` as close as `BAZA-3-b`, and listed it first
    from ludex.errors import did_you_mean

    assert did_you_mean("BAZA-3-B", ["BAZA-3-a", "BAZA-3-b", "BAZA-3-c"]) == \
        " (did you mean `BAZA-3-b`, `BAZA-3-c`, `BAZA-3-a`?)"
    assert did_you_mean("HQ", ["hq", "hr"]).startswith(" (did you mean `hq`")


def test_a_connection_kind_written_as_a_bare_name_is_told_to_be_written_as_a_text():
    message = _messages("effect_connection_kind_written_as_a_name.yaml")[(4, 48)]
    assert 'write "strait"' in message


def test_a_connection_kind_compared_with_a_misspelt_kind_lists_the_kinds_and_suggests_one():
    message = _messages("effect_connection_kind_compared_with_an_undeclared_kind.yaml")[(4, 48)]
    assert "clear, rough, strait" in message and "`strait`" in message


def test_an_unknown_call_named_after_a_crossing_suggests_connection_kind():
    assert suggest_builtin("river_crossing", lambda word: ()) == ["connection_kind"]
