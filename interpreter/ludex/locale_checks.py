"""Checks of a game's translations: each file well-formed (keys name things, messages parse),
the primary language complete (errors), the other languages complete and current (warnings that
name the file to add a key to, since play falls back to the primary language).

One diagnostic per root cause: a key the primary language lacks is reported once, where it is
used or defined, and not again for each other language; a missing file is one diagnostic, not
one per key it would hold.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import plurals
from .content import LoadedGame
from .errors import Collector, did_you_mean
from .locale import same_script
from .locale_engine_lines import is_copy
from .locale_files import (
    ENGINE_SOURCE,
    RECORD_SECTIONS,
    Entry,
    engine_filled,
    engine_keys,
    engine_messages,
    file_for,
    game_argument,
    language_entries,
    languages,
    missing_sides,
    place_in_text,
    primary_language,
    side,
    source_hash,
    stamps,
)
from .locale_scripts import check_scripts
from .rootcause import broken_languages
from .templates import (
    CATEGORIES,
    TemplateError,
    argument_places,
    arguments,
    capital_form,
    parse,
    slots,
)

# Locale sections and the namespace whose ids each must name.
LOCALE_SECTIONS = {
    "powers": "power",
    "spaces": "space",
    "zones": "zone",
    "counters": "counter",
    "flags": "flag",
    "pieces": "piece",
    "settings": "setting",
    "phases": "phase",
    "actions": "action",
    "cards": "card",
    "clauses": "clause",
}
# Sections a game may give or leave out (the board shows a marker without a name by its id):
# their keys must name entities, but the primary language need not name every one.
OPTIONAL_SECTIONS = {"markers": "marker"}
NAME_SECTIONS = {**LOCALE_SECTIONS, **OPTIONAL_SECTIONS}  # where names (and their forms) are


def check_locale_files(game: LoadedGame, errors: Collector) -> None:
    """Each language's files: no key twice, entity keys name entities, messages parse and ask
    only for forms some name has, names' plural forms fit the language, the language is one
    CLDR knows (or plurals can only say `other`)."""
    for lang, docs in sorted(game.locales.items()):
        seen: dict[tuple[str, str], str] = {}
        forms = game.per_files("forms", docs, defined_forms)
        for doc in docs:
            data = doc.data if isinstance(doc.data, dict) else {}
            for section, items in data.items():
                if not isinstance(items, dict) or section in RECORD_SECTIONS:
                    continue
                for key in items:
                    if (section, key) in seen:
                        line, col = doc.key_pos((section, key))
                        errors.error(str(doc.path), line, col, "locale/duplicate-key",
                                     f"`{section}.{key}` is also defined in "
                                     f"{seen[section, key]}")
                    seen[section, key] = str(doc.path)
                _check_section(game, doc, section, items, lang, forms, errors)
        check_scripts(lang, docs, errors)
        # (no docs: every file of the language failed its schema, which said why)
        if docs and not plurals.known(lang):
            doc = docs[0]
            line, col = doc.pos(("lang",))
            errors.warning(str(doc.path), line, col, "locale/unknown-language",
                           f"CLDR (Babel) has no plural rules for `{lang}`; every count will "
                           "use the `other` case")


def defined_forms(docs) -> set[str]:
    """Every grammatical form some name of one language's files gives (`acc`, `loc`, `few`…;
    not `name`, the plain name)."""
    keys: set = set()
    for doc in docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        for section, items in data.items():
            if section in NAME_SECTIONS and isinstance(items, dict):
                for entry in items.values():
                    if isinstance(entry, dict):
                        keys.update(entry)  # every name's keys, then each distinct one once
    return {str(form) for form in keys if form != "name"}


def _check_section(game: LoadedGame, doc, section: str, items: dict, lang: str,
                   forms: set[str], errors: Collector) -> None:
    namespace = NAME_SECTIONS.get(section)
    if namespace is not None:
        defined = game.names.get(namespace, {})
        for key in items:
            if key not in defined:
                line, col = doc.key_pos((section, key))
                errors.error(str(doc.path), line, col, "locale/unknown-key",
                             f"`{section}.{key}` names no {namespace}"
                             + did_you_mean(key, defined))
            elif isinstance(items[key], dict):
                _check_plural_forms(doc, (section, key), items[key], lang, errors)
    if section == "messages":
        for key, text in items.items():
            if not isinstance(text, str):
                continue
            line, col = doc.pos((section, key))
            try:
                nodes = parse(text)
            except TemplateError as exc:
                line, col = place_in_text(doc, (section, key), text, exc.at, (line, col))
                errors.error(str(doc.path), line, col, "locale/bad-message",
                             f"message `{key}`: {exc}")
                continue
            for slot in slots(nodes):
                asked = capital_form(slot.form)[0] if slot.form not in forms else slot.form
                if slot.form is not None and asked is not None and asked not in forms:
                    at = place_in_text(doc, (section, key), text, slot.at, (line, col))
                    errors.warning(str(doc.path), *at, "locale/unknown-form",
                                   f"message `{key}`: no name in `{lang}` has a "
                                   f"`{slot.form}` form, so `{{{slot.arg}:{slot.form}}}` shows "
                                   "the plain name" + did_you_mean(slot.form, forms))
                if slot.kind in ("plural", "selectordinal") and plurals.known(lang):
                    unused = [c for c in slot.cases if not c.startswith("=") and c != "other"
                              and c not in plurals.categories(lang, slot.kind)]
                    if unused:  # at the first case never used (a misspelt `outro`)
                        case = re.compile(rf"(?<![\w=]){re.escape(unused[0])}\s*{{")
                        found = case.search(text, slot.at)
                        at = place_in_text(doc, (section, key), text,
                                           found.start() if found else None, (line, col))
                        errors.warning(str(doc.path), *at, "locale/plural-categories",
                                       f"message `{key}`: `{lang}` has no "
                                       f"{', '.join(f'`{c}`' for c in unused)} numbers: that "
                                       "case is never used")
                if slot.kind in ("plural", "selectordinal"):
                    lacking = {c for c in plurals.categories(lang, slot.kind) - set(slot.cases)
                               if _counted_in_games(lang, slot.kind, c)}
                    if lacking and plurals.known(lang):
                        errors.warning(str(doc.path), line, col, "locale/plural-categories",
                                       f"message `{key}`: `{lang}` also distinguishes "
                                       f"{_with_examples(lang, slot.kind, lacking)} for "
                                       f"`{slot.arg}`; those numbers get the `other` text")


_CATEGORY_SET = frozenset(CATEGORIES)


def _check_plural_forms(doc, path: tuple, entry: dict, lang: str, errors: Collector) -> None:
    """A name that gives plural forms (`{name: armia, few: armie, many: armii}`: the board's
    "3 armie") gives one for each category its language counts, the plain name standing for
    the category of 1 (`{name: Soldier, other: Soldiers}`): a count in a category it lacks
    shows its `other` form, as a plural message's does, or with none the plain name ("5
    armia"). A form for a category the language never uses is named too, as a message's
    plural case is (check_locale_files)."""
    given = _CATEGORY_SET.intersection(entry)  # in C: asked of every name of every card
    if not given or not plurals.known(lang):
        return
    name = entry.get("name")
    unused = sorted(given - plurals.categories(lang), key=CATEGORIES.index)
    if unused:
        line, col = doc.key_pos((*path, unused[0]))
        errors.warning(str(doc.path), line, col, "locale/plural-categories",
                       f"`{'.'.join(map(str, path))}`: `{lang}` has no "
                       f"{', '.join(f'`{c}`' for c in unused)} numbers: that form is never "
                       "used")
    lacking = {c for c in plurals.categories(lang) - given - {plurals.category(lang, 1)}
               if _counted_in_games(lang, "plural", c)}
    if lacking:
        line, col = doc.key_pos(path)
        shown = f"the `other` form `{entry['other']}`" if "other" in given else \
            f"the plain name `{name}`"
        errors.warning(str(doc.path), line, col, "locale/plural-categories",
                       f"`{'.'.join(map(str, path))}` gives plural forms, but `{lang}` also "
                       f"distinguishes {_with_examples(lang, 'plural', lacking)}: those counts "
                       f"show {shown}")


# A category a language reaches only from this whole number on is one no game counts to:
# Spanish, Portuguese, French and Italian `many` (1000000, 2000000…) asked every designer
# for a case in every plural (two designers' trials); those numbers get the `other` text.
UNCOUNTED_FROM = 1_000_000


def _counted_in_games(lang: str, kind: str, name: str) -> bool:
    """Whether whole numbers below UNCOUNTED_FROM fall in the category (not only fractions,
    not only millions)."""
    first = plurals.first_number(lang, kind, name)
    return first is not None and first < UNCOUNTED_FROM


def _with_examples(lang: str, kind: str, names: set[str]) -> str:
    """Categories with the first whole number of each (`many (1000000)`): Spanish `many` is
    about millions, which a designer may decide a game never counts."""
    shown = []
    for name in sorted(names):
        first = plurals.first_number(lang, kind, name)
        shown.append(name if first is None else f"{name} (e.g. {first})")
    return ", ".join(shown)


def check_completeness(game: LoadedGame, used: dict[str, tuple[str, int, int]],
                       errors: Collector, filled: dict | None = None) -> None:
    """The primary language has every key (errors); the others have every key the primary has
    and are not stale (warnings). `used` maps each message key the effects use to its first use;
    `filled`, what the engine fills each with (check_message_arguments checks their arguments
    against those uses, not against the primary language's text)."""
    primary = primary_language(game)
    if primary not in game.locales:
        doc = game.docs.get("game")
        line, col = doc.pos(("language",)) if doc else (1, 1)
        others = sorted(game.locales)
        errors.error(str(game.files.manifest), line, col, "locale/missing-primary",
                     f"the primary language `{primary}` has no locale: add "
                     f"{file_for(game, primary, 'rules')}" + (
                         f", or name the game's own language in game.yaml (`language: "
                         f"{others[0]}`; its locales: {', '.join(others)})" if others else ""))
        return
    # A language with a file that did not load or failed its schema would seem to miss every
    # key that file holds: its own error is the one to fix first (root cause first).
    broken = broken_languages(game)
    if primary in broken:  # translations are measured against it: nothing to say yet
        return
    if _primary_file_missing(game, primary, errors):
        return
    source = language_entries(game, primary)
    _check_primary(game, primary, source, used, errors)
    _check_extra_arguments(primary, source, {}, errors, filled or {})  # engine lines
    for lang in languages(game)[1:]:
        if lang not in broken:
            _check_translation(game, lang, primary, source, errors, filled or {}, used)


def _primary_file_missing(game: LoadedGame, primary: str, errors: Collector) -> bool:
    """The primary language has a card locale but not the game's own, or the other way round
    (a file deleted or misnamed): one error naming the file to add, rather than one missing
    key for every name and message that file holds (a designer's trial met 71)."""
    missing = missing_sides(game, primary)
    if not missing:
        return False
    doc = game.docs.get("game")
    line, col = doc.pos(("language",)) if doc else (1, 1)
    what = {"rules": "the game's own names and messages", "cards": "the cards' names and texts"}
    for where in missing:
        others = sorted(lang for lang, docs in game.locales.items()
                        if lang != primary and any(side(d) == where for d in docs))
        errors.error(str(game.files.manifest), line, col, "locale/missing-primary",
                     f"the primary language `{primary}` has no file for {what[where]}: add "
                     f"{file_for(game, primary, where)}" + (
                         f" (as {', '.join(others)} {'has' if len(others) == 1 else 'have'} "
                         "one)" if others else ""))
    return True


def _check_primary(game: LoadedGame, primary: str, source: dict[str, Entry],
                   used: dict[str, tuple[str, int, int]], errors: Collector) -> None:
    for section, namespace in LOCALE_SECTIONS.items():
        suffix = ".name" if section == "cards" else ""
        # the file to add it to, as a missing message names it
        target = file_for(game, primary, "cards" if section == "cards" else "rules")
        what = "text" if section == "clauses" else "name"
        for ident, definition in game.names.get(namespace, {}).items():
            if f"{section}.{ident}{suffix}" not in source:
                path, line, col = definition.where()
                errors.error(path, line, col, "locale/missing-key",
                             f"{namespace} `{ident}` has no {what} in locale `{primary}` "
                             f"({section}.{ident}{suffix} in {target})")
    rules_file = file_for(game, primary, "rules")
    if "game.name" not in source:
        errors.error(str(rules_file), 1, 1, "locale/missing-key",
                     f"locale `{primary}` has no `game.name`")
    engine = engine_messages(primary)
    # what a key the rules use may have meant: the game's own messages, never the engine's
    # (the window `turn` was offered `last_turn`, a line of another kind altogether)
    own = set(engine_keys())
    known = {k.split(".", 1)[1] for k in source if k.startswith("messages.")} - own
    for key, (file, line, col) in sorted(used.items()):
        if f"messages.{key}" not in source and key not in engine:
            errors.error(file, line, col, "locale/missing-key",
                         f"message `{key}` has no text in locale `{primary}` "
                         f"(messages.{key} in {rules_file})" + did_you_mean(key, known))
    # a warning even here: until they are given, play shows the engine's English, and a
    # designer starting a game in their language can play it at once
    _engine_gaps(game, primary, source, errors.warning)


SHOWN_GAPS = 6  # engine messages named in the diagnostic; the PO export lists every one


# engine messages only the designer's tools show (simulate, the balance report, dump)
DESIGNER_TOOL_MESSAGES = ("simulated", "report_", "dumped_")
# engine messages CLDR answers for a language that lacks them (templates.list_separator):
# a game may give them, and is not asked to
CLDR_MESSAGES = ("list_separator",)


def asked_of_translations(key: str) -> bool:
    """Whether an engine message is one a language is asked for (validate, `locale status`)."""
    return not key.startswith(DESIGNER_TOOL_MESSAGES) and key not in CLDR_MESSAGES


def _engine_gaps(game: LoadedGame, lang: str, found: dict[str, Entry], report) -> None:
    """The engine's own messages that players meet and neither the engine nor the game has
    in `lang`: one diagnostic, naming the first and how to get the whole list with their
    English texts. The designer's tools' own texts (the `simulate` summary, the balance
    report, `dump`) are left out: like the command line's, they may stay English, and a
    warning that `--strict` makes an error would ask a game to translate 68 of them."""
    engine = engine_messages(lang)
    gaps = [k for k in engine_keys() if k not in engine and f"messages.{k}" not in found
            and asked_of_translations(k)]
    if gaps:
        target = file_for(game, lang, "rules")
        named = ", ".join(gaps[:SHOWN_GAPS]) + (f" and {len(gaps) - SHOWN_GAPS} more"
                                                if len(gaps) > SHOWN_GAPS else "")
        report(str(target), 1, 1, "locale/missing-engine-messages",
               f"the engine has no `{lang}` messages for {named}; players read them in "
               f"{_fallen_back_to(game, lang, gaps)} until they are given under `messages:` "
               f"in {target} (`ludex locale "
               f"export {game_argument(game)} {lang} --out {lang}.po` lists each with its English "
               "text)")


def _fallen_back_to(game: LoadedGame, lang: str, gaps: list[str]) -> str:
    """In which language players of `lang` read the engine messages it lacks (as
    locale.engine_chain says): the primary language's, where the game or the engine has them
    in it and it is written in the same script (a Spanish game that gave them shows Spanish to
    its Galician players), else the engine's English (never a Japanese frame around Turkish
    names)."""
    primary = primary_language(game)
    if primary == lang or not same_script(lang, primary):
        return "English"
    given = set(engine_messages(primary)) | {
        k.removeprefix("messages.") for k in language_entries(game, primary)}
    primary_has = sum(1 for k in gaps if k in given)
    if primary_has == len(gaps):
        return f"`{primary}`"
    return f"`{primary}` or English" if primary_has else "English"


def check_message_arguments(game: LoadedGame, filled: dict, errors: Collector) -> None:
    """Every language's text of a message the effects use shows only arguments every use of
    it fills (an error at the placeholder: that use would show it raw, `{a0}`; a prompt, a
    `require` reason or an `end_game` reason fills what it is given, `("key", a)`, a key alone
    none), and the primary language's shows each argument some use passes (a warning: what
    the rules tell players would go unsaid). `filled`: static_checks.filled_arguments."""
    primary, broken = primary_language(game), broken_languages(game)
    for lang in sorted(game.locales):
        if lang in broken:  # its own error first: its texts are not all read
            continue
        for key, entry in language_entries(game, lang).items():
            name = key.removeprefix("messages.")
            if name == key or name not in filled:
                continue
            uses = filled[name]
            try:
                used = arguments(entry.text)
            except TemplateError:
                continue  # reported by check_locale_files
            every = {f"a{i}" for i in range(uses.fewest.passed)}
            some = {f"a{i}" for i in range(uses.most.passed)}
            if used - every:
                file, line, col = uses.fewest.use_at
                shown = ", ".join(f"`{a}`" for a in sorted(every)) or "no argument"
                errors.error(*_argument_place(entry, used - every), "locale/unknown-argument",
                             f"message `{name}` uses {', '.join(sorted(used - every))}, but "
                             f"{uses.fewest.how} at {file}:{line}:{col} passes {shown}")
            elif lang == primary and some - used:
                file, line, col = uses.most.use_at
                errors.warning(*entry.where(key_position=False), "locale/unshown-argument",
                               f"message `{name}` does not show "
                               f"{', '.join(sorted(some - used))}, which {uses.most.how} "
                               f"at {file}:{line}:{col} passes")


def _argument_place(entry: Entry, unknown: set[str]) -> tuple[str, int, int]:
    """Where the first placeholder of an unknown argument is written (`{a3}` inside the
    text), so that the caret points at it rather than at the start of a long message."""
    places = argument_places(entry.text)
    at = min(places[arg] for arg in unknown)
    line, col = place_in_text(entry.doc, entry.path, entry.text, at, entry.doc.pos(entry.path))
    return str(entry.doc.path), line, col


def _check_translation(game: LoadedGame, lang: str, primary: str, source: dict[str, Entry],
                       errors: Collector, filled: dict, used: dict) -> None:
    docs = game.locales.get(lang, [])
    found = language_entries(game, lang)
    by_side: dict[str, list[str]] = {}
    given_by_engine = engine_filled(primary, lang)
    lacked_by_engine = {f"messages.{k}" for k in engine_keys()} - {
        f"messages.{k}" for k in engine_messages(lang)}
    for key, entry in source.items():
        if key in given_by_engine:
            continue  # the engine's own message, which the game had to give in its language
        if key in lacked_by_engine:
            continue  # one the engine lacks in `lang` too: locale/missing-engine-messages
        if key.removeprefix("messages.") in CLDR_MESSAGES:
            continue  # CLDR's for `lang` until it is given, never the primary language's
        if is_copy(primary, key, entry.text):
            continue  # the engine's own line word for word (locale/engine-line-copy): `lang`
            # reads the engine's own text of it as the primary language does
        if key not in found and not _written(docs, key):
            by_side.setdefault(side(entry.doc), []).append(key)
    present_sides = {side(doc): doc for doc in docs}
    for where, missing in sorted(by_side.items()):
        doc = present_sides.get(where)
        if doc is None:
            target = file_for(game, lang, where)
            errors.warning(str(target), 1, 1, "locale/missing-file",
                           f"no `{lang}` {'card' if where == 'cards' else 'game'} texts: add "
                           f"{target} ({len(missing)} keys fall back to `{primary}`)")
            continue
        for key in missing:
            line, col = _nearest(doc, key)
            errors.warning(str(doc.path), line, col, "locale/missing-translation",
                           _missing_translation(key, lang, primary, doc.path))
    _engine_gaps(game, lang, found, errors.warning)
    _check_unknown_messages(primary, source, found, errors, used)
    _check_extra_arguments(primary, found, source, errors, filled)
    for key, (_doc, digest) in stamps(docs).items():
        if key in source and key in found and digest != source_hash(source[key].text):
            file, line, col = found[key].where()
            errors.warning(file, line, col, "locale/stale-translation",
                           f"`{key}` was translated from an older `{primary}` text; check it "
                           f"against {source[key].doc.path}, then run `ludex locale stamp`")


def _missing_translation(key: str, lang: str, primary: str, path: Path) -> str:
    """What a translation lacks, and what players of it read meanwhile: an engine message
    the engine has in `lang` falls back to the engine's own text there, not to the primary
    language's (the game rewords it in `primary`: a turn called a round)."""
    name = key.removeprefix("messages.")
    if name != key and name in engine_messages(lang):
        return (f"`{key}` is worded the game's own way in `{primary}` but not in `{lang}`: "
                f"`{lang}` shows the engine's own text; add the game's wording to {path}")
    return f"`{key}` has no `{lang}` text; add it to {path} (until then `{primary}` is shown)"


def _written(docs, key: str) -> bool:
    """Whether some file writes `key`, even in a shape its schema refuses (that error is the
    one diagnostic for it)."""
    parts = tuple(key.split(".", 2) if key.startswith("cards.") else key.split(".", 1))
    return any(parts in doc.positions for doc in docs)


def _nearest(doc, key: str) -> tuple[int, int]:
    """Where a missing key would go: its card's entry, else its section, else the top."""
    parts = key.split(".")
    for n in range(len(parts) - 1, 0, -1):
        if tuple(parts[:n]) in doc.key_positions:
            return doc.key_pos(tuple(parts[:n]))
    return 1, 1


def _check_unknown_messages(primary: str, source: dict[str, Entry], found: dict[str, Entry],
                            errors: Collector, used: dict) -> None:
    """A translation's message that neither the primary language nor the engine has:
    unknown (a misspelt key) unless the rules use it, where the primary language's
    missing-key is the one error to fix (a "did you mean" here would suggest renaming the
    translation's right key)."""
    engine_source = engine_messages(ENGINE_SOURCE)
    for key, entry in found.items():
        name = key.removeprefix("messages.")
        if name in used:
            continue  # reported where the rules use it: locale/missing-key in the primary
        if name != key and key not in source and name not in engine_source:
            errors.error(*entry.where(), "locale/unknown-key",
                         f"message `{name}` is not in the primary language `{primary}` "
                         "nor among the engine's messages"
                         + did_you_mean(name, [k.split(".", 1)[1] for k in source
                                               if k.startswith("messages.")]))


def _check_extra_arguments(primary: str, texts: dict[str, Entry], translated: dict[str, Entry],
                           errors: Collector, filled: dict) -> None:
    """A message no effect uses (an engine line, a window's own words) may use only the
    arguments of the text it translates: the primary language's (`translated`), else the
    engine's English, whose arguments are the ones the engine passes (for the primary
    language's own texts `translated` is empty: an engine line it rewords)."""
    engine_source = engine_messages(ENGINE_SOURCE)
    for key, entry in texts.items():
        name = key.removeprefix("messages.")
        if name == key or name in filled:
            continue  # not a message, or measured against its uses (check_message_arguments)
        original = translated[key].text if key in translated else engine_source.get(name)
        if original is None:
            continue  # the game's own message, in its own language: nothing to measure by
        try:
            extra = arguments(entry.text) - arguments(original)
        except TemplateError:
            continue  # reported by check_locale_files
        if extra:
            errors.error(*_argument_place(entry, extra), "locale/unknown-argument",
                         f"message `{name}` uses {', '.join(sorted(extra))}, which the "
                         + (f"`{primary}` text does not have" if key in translated
                            else "engine does not pass (its English text: "
                            f"\"{original}\")"))
