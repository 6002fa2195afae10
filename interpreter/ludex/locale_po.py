"""Gettext PO files for translators' tools (Poedit, Weblate): `ludex locale export` writes one
language of a game as a PO catalog, `ludex locale import` writes it back as the game's locale
files. The round trip loses nothing: every translation, every grammatical form and every
stamp comes back as it was.

Each entry's context (`msgctxt`) is the translation key (`cards.roman_levy.text`); a name's
form is `key:form` (`pieces.camillus:acc`). `msgid` is the primary language's text, `msgstr`
the translation; a stale translation is marked `fuzzy`, and importing stamps every entry that
is not fuzzy with the hash of the `msgid` the translator saw.
"""

from __future__ import annotations

import copy
import io
import re
import warnings
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, read_po, write_po

from .content import LoadedGame
from .editor_schemas import exported_modeline
from .locale_checks import DESIGNER_TOOL_MESSAGES
from .locale_engine_lines import is_copy
from .locale_files import (
    ENGINE_SOURCE,
    RECORD_SECTIONS,
    STAMP_SECTION,
    engine_filled,
    engine_messages,
    entries,
    file_for,
    primary_language,
    side,
    source_hash,
    stamps,
)
from .locale_rewrite import dump, rewrite
from .templates import CATEGORIES, TemplateError, parse, slots
from .yamlio import Document


def _catalog(lang: str, game_id: str) -> Catalog:
    try:
        Locale.parse(lang, sep="-")
        return Catalog(locale=lang.replace("-", "_"), project=game_id)
    except (UnknownLocaleError, ValueError):
        return Catalog(project=game_id)


def _forms(docs: list[Document]) -> dict[str, dict[str, str]]:
    """Key -> {form: text} for names written with forms."""
    found: dict[str, dict[str, str]] = {}
    for doc in docs:
        for section, items in (doc.data or {}).items():
            if not isinstance(items, dict) or section in ("lang", *RECORD_SECTIONS):
                continue
            for ident, value in items.items():
                if not isinstance(value, dict):
                    continue
                key = f"{section}.{ident}" + (".name" if section == "cards" else "")
                extra = {f: t for f, t in value.items()
                         if f not in ("name", "text") and isinstance(t, str)}
                if extra:
                    found[key] = extra
    return found


def export_po(game: LoadedGame, lang: str) -> bytes:
    """`lang` of `game` as a PO catalog: every key the primary language has (but the engine's
    messages the game had to give in its primary language, which the engine has in `lang`),
    and the engine's messages that the engine lacks in `lang`."""
    primary = primary_language(game)
    source = entries(game.locales.get(primary, []))
    docs = game.locales.get(lang, [])
    found, recorded, forms = entries(docs), stamps(docs), _forms(docs)
    source_forms = _forms(game.locales.get(primary, []))
    engine = engine_messages(ENGINE_SOURCE)
    catalog = _catalog(lang, game.game_id)
    own = engine_messages(lang)
    # an engine message the game had to give in its primary language needs no `lang` text
    # when the engine has one (validate and `locale status` agree: engine_filled)
    filled = engine_filled(primary, lang)
    # nor one the primary language copies from the engine word for word (it is the engine's)
    keys = list(dict.fromkeys([*(k for k in source if k in found or (
                                   k not in filled and not is_copy(primary, k, source[k].text))),
                               *(k for k in found if k not in source),
                               *(f"messages.{k}" for k in engine if k not in own)]))
    asking = _asking_for_forms([docs, game.locales.get(primary, [])], own)
    for key in keys:
        original = source[key].text if key in source else engine.get(key.split(".", 1)[1], "")
        entry = found.get(key)
        stale = (key in recorded and key in source
                 and recorded[key][1] != source_hash(original))
        where = source[key].doc.path if key in source else file_for(game, lang, "rules")
        notes = [str(where)]
        if key.removeprefix("messages.").startswith(DESIGNER_TOOL_MESSAGES):
            notes.append(_DESIGNER_TOOL_NOTE)
        _plain(catalog.add(original, entry.text if entry else "", context=key,
                           auto_comments=notes, flags=("fuzzy",) if stale else ()))
        for form, text in forms.get(key, {}).items():
            _plain(catalog.add(source_forms.get(key, {}).get(form, original), text,
                               context=f"{key}:{form}",
                               auto_comments=[_form_note(key, form, asking)]))
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False)
    return out.getvalue()


# said on the entries of the designer's tools' own texts, which players never read
_DESIGNER_TOOL_NOTE = ("optional: a text of the designer's tools (simulate, the balance "
                       "report, dump), not read by players; validate --strict does not ask "
                       "for it")


def _plain(message) -> None:
    """Our templates are ICU MessageFormat (`{n, plural, one {…} other {…}}`), not Python's
    `str.format`: Babel marks any text with braces `python-brace-format`, which tells a PO
    editor or `msgfmt --check` to check them by Python's rules (a designer's trial)."""
    message.flags.discard("python-brace-format")


def _asking_for_forms(docs_of_languages: list[list[Document]], engine: dict[str, str]
                      ) -> dict[str, list[str]]:
    """Form -> the keys of the messages that ask a name for it (`{a0:def}`, a `select` on a
    form): the translation's own, the primary language's, the engine's in the translation's
    language."""
    texts: dict[str, str] = {}
    for docs in docs_of_languages:
        for key, entry in entries(docs).items():
            if key.startswith("messages."):
                texts.setdefault(key.removeprefix("messages."), entry.text)
    for key, text in engine.items():
        texts.setdefault(key, text)
    asking: dict[str, set[str]] = {}
    for key, text in texts.items():
        try:
            for slot in slots(parse(text)):
                if slot.form:
                    asking.setdefault(slot.form, set()).add(key)
        except TemplateError:
            continue  # validate reports it
    return {form: sorted(keys) for form, keys in asking.items()}


def _form_note(key: str, form: str, asking: dict[str, list[str]]) -> str:
    """The translator's note on a name's form: which form of which name, and what it is for
    (the messages that ask for it, or the counts a plural form is shown with), so that they
    can tell the grammar it needs (an article, a case) from the plain name its msgid shows."""
    if form in CATEGORIES:
        return (f"the `{form}` plural form of the name {key}: shown beside a count in the "
                f"`{form}` category (`3 …`)")
    asked = asking.get(form)
    return f"the `{form}` form of the name {key}, " + (
        f"for the messages that ask for it ({{…:{form}}}): {', '.join(asked)}" if asked
        else f"which no message asks for yet ({{…:{form}}})")


class PoError(ValueError):
    """A PO file that cannot be imported: unreadable, or with entries Ludex never writes."""


class PoMessageErrors(PoError):
    """Translated messages that do not parse (`{a0` left open): nothing is imported, and each
    is said at its line of the catalog, as `validate` would say it in the locale file."""

    def __init__(self, problems: list[tuple[int, int, str, str]]):
        super().__init__(f"{len(problems)} translated message(s) do not parse")
        self.problems = problems  # (line and column in the catalog, key, what is wrong)


def import_po(game: LoadedGame, lang: str, po: bytes) -> tuple[list[Path], list[str]]:
    """Write `lang`'s locale files of `game` from a PO catalog, over what they hold: an entry
    the catalog lacks (a partial catalog) keeps its translation and stamp. Returns the files
    written and the catalog's keys the game has no text for (skipped)."""
    primary = primary_language(game)
    source = entries(game.locales.get(primary, []))
    # what an export writes: the game's texts, the engine's messages, the language's own keys
    known = {*source, *(f"messages.{k}" for k in engine_messages(ENGINE_SOURCE)),
             *entries(game.locales.get(lang, []))}
    said, po = _header_language(po)
    if said is not None and said.replace("_", "-").lower() != lang.lower():
        raise PoError(f"the catalog's header says `Language: {said}`, not `{lang}`: import it "
                      f"as `{said.replace('_', '-')}`, or correct its header if it is `{lang}`")
    files, hashes = _current(game, lang)
    skipped: list[str] = []
    _check_messages(po)
    for message in _messages(po):
        if not message.context or not message.string:
            continue
        if not isinstance(message.string, str):
            raise PoError(f"`{message.context}` has plural forms (msgid_plural): Ludex writes "
                          "plurals inside one message ({n, plural, …}), not as gettext plurals")
        key, _, form = message.context.partition(":")
        if key not in known or (form and not _names_something(key, form)):
            # not a text of the game (a key dropped since the export?), or a form of a text
            # that takes none: `cards.x.text:acc` became a form of the card's name, and
            # `messages.m:acc` a mapping where the message's text belongs
            skipped.append(message.context)
            continue
        where = side(source[key].doc) if key in source else "rules"
        data = files.setdefault(where, {"lang": lang})
        _put(data, key, form or None, message.string)
        if not form and not message.fuzzy:
            hashes.setdefault(where, {})[key] = source_hash(message.id)
        elif not form and message.fuzzy:
            old = stamps(game.locales.get(lang, [])).get(key)
            if old is not None:
                hashes.setdefault(where, {})[key] = old[1]
    written = []
    for where, data in files.items():
        # the primary language is what translations are stamped against: it has no stamps
        # of its own (`locale stamp` refuses it), so importing into it writes none
        if hashes.get(where) and lang != primary:
            data[STAMP_SECTION] = dict(sorted(hashes[where].items()))
        path = file_for(game, lang, where)
        path.parent.mkdir(parents=True, exist_ok=True)
        # the file as written, changed only where the catalog changed it (locale_rewrite)
        doc = next((d for d in game.locales.get(lang, []) if side(d) == where), None)
        text = rewrite(doc.path.read_text(encoding="utf-8"), doc.data, data) \
            if doc is not None and doc.path.is_file() else None
        if text is None:  # a new file, or one that cannot be patched: pointing at the game's
            # editor schema where it has one (no dangling link)
            text = exported_modeline(path, "locale", game.files.folder) + dump(data)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written, skipped


def _names_something(key: str, form: str) -> bool:
    """Whether `key` is a name, which may have grammatical forms (`pieces.camillus`,
    `cards.roman_levy.name`), as an export writes forms (_forms), and `form` one of them
    (not `text`, a card's text, or `name`, the name itself)."""
    from .locale_checks import NAME_SECTIONS

    if form in ("name", "text"):
        return False
    section, _, rest = key.partition(".")
    if section == "cards":
        return rest.endswith(".name")
    return section in NAME_SECTIONS and section != "clauses" and "." not in rest


def _check_messages(po: bytes) -> None:
    """Every translated message parses, before anything is written: a broken one imported
    would stop the game's validation, and with it every scenario's check."""
    lines = po.decode("utf-8", "replace").splitlines()
    problems = []
    for message in _messages(po):
        key = (message.context or "").partition(":")[0]
        if not key.startswith("messages.") or not isinstance(message.string, str) \
                or not message.string:
            continue
        try:
            parse(message.string)
        except TemplateError as exc:
            at = next((n for n in range(max(message.lineno - 1, 0), len(lines))
                       if lines[n].startswith("msgstr")), message.lineno - 1)
            # at the fault itself when the text stands on the msgstr line as written
            written = lines[at][len('msgstr "'):] if at < len(lines) else ""
            col = len('msgstr "') + exc.at + 1 \
                if exc.at is not None and written.startswith(message.string[:exc.at]) else 1
            problems.append((at + 1, col, key.removeprefix("messages."), str(exc)))
    if problems:
        raise PoMessageErrors(problems)


# The header's `"Language: pt_BR\n"` line (the header is the catalog's first entry)
_LANGUAGE = re.compile(rb'^"Language:[ \t]*([^"\\]*?)[ \t]*\\n"', re.MULTILINE)


def _header_language(po: bytes) -> tuple[str | None, bytes]:
    """The language the catalog's header names (None when it names none), and the catalog with
    that value emptied: Babel refuses the whole file over a tag it cannot read
    (`en-x-pirate`), and the tag is checked here instead."""
    first = po.find(b"msgctxt")
    found = _LANGUAGE.search(po, 0, first if first >= 0 else len(po))
    if found is None or not found.group(1).strip():
        return None, po
    said = found.group(1).decode("utf-8", "replace")
    return said, po[:found.start(1)] + po[found.end(1):]


# A keyword's line, and the string it holds: `msgstr[1] "…"`
_KEYWORD = re.compile(r"(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)(?:[ \t]+(.*))?")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _check_strings(po: bytes) -> None:
    """Every string of the catalog is closed, one to a line: Babel reads what stands between
    a line's first and last characters, so `msgstr "Rouge` (its closing quote lost) was
    imported as `Roug`, and `msgstr Rouge` as `oug`, without a word."""
    for number, line in enumerate(po.decode("utf-8", "replace").splitlines(), 1):
        line = line.strip()
        keyword = _KEYWORD.fullmatch(line)
        text = keyword.group(2) if keyword else line if line.startswith('"') else None
        if keyword is None and text is None:
            continue  # a comment, or a line Babel refuses itself
        if text is None or not _STRING.fullmatch(text.strip()):
            shown = line if len(line) <= 60 else line[:60] + "…"
            raise PoError(f"not a readable PO catalog (line {number}: `{shown}` does not hold "
                          'one text between double quotes, `"…"`)')


def _messages(po: bytes) -> list:
    """The catalog's messages; PoError for a file that is not a readable PO catalog."""
    _check_strings(po)
    try:
        with warnings.catch_warnings():  # Babel warns of lines it skips: we judge the whole
            warnings.simplefilter("ignore")
            messages = list(read_po(io.BytesIO(po), abort_invalid=True))
    except (UnicodeDecodeError, ValueError, LookupError, PoFileError) as exc:  # LookupError:
        # a charset Python does not know
        raise PoError(f"not a readable PO catalog ({type(exc).__name__}: {exc})"[:300]) \
            from None
    if not any(m.context for m in messages):  # an empty file, or text that is no catalog
        raise PoError("not a PO catalog of a game: no entry has a key (`msgctxt`), as "
                      "`ludex locale export` writes them")
    return messages


def _current(game: LoadedGame, lang: str) -> tuple[dict[str, dict], dict[str, dict[str, str]]]:
    """What `lang`'s locale files hold now, by side, and their stamps: the base an import
    writes over."""
    files: dict[str, dict] = {}
    hashes: dict[str, dict[str, str]] = {}
    for doc in game.locales.get(lang, []):
        if not isinstance(doc.data, dict):
            continue
        where = side(doc)
        data = files.setdefault(where, {"lang": lang})
        for section, items in doc.data.items():
            if section == STAMP_SECTION and isinstance(items, dict):
                hashes.setdefault(where, {}).update({str(k): str(v) for k, v in items.items()})
            elif section != "lang":
                data[section] = copy.deepcopy(items)
    return files, hashes


def _put(data: dict, key: str, form: str | None, text: str) -> None:
    section, _, rest = key.partition(".")
    if section == "cards":
        ident, _, part = rest.rpartition(".")
        card = data.setdefault("cards", {}).setdefault(ident, {})
        card[form or part] = text
        return
    bucket = data.setdefault(section, {})
    if form is None:
        current = bucket.get(rest)
        if isinstance(current, dict):
            current["name"] = text
        else:
            bucket[rest] = text
        return
    current = bucket.get(rest)
    if not isinstance(current, dict):
        current = {"name": current} if isinstance(current, str) else {}
        bucket[rest] = current
    current[form] = text
