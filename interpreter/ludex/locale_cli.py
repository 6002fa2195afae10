"""`ludex locale …`: translations of a game — how complete each language is (status), marking
checked translations (stamp) and rewordings of the engine's lines (accept-engine), and gettext
PO catalogs for translators' tools (export, import).
A thin layer over locale_status.py, locale_engine_lines.py and locale_po.py, registered on the
main `ludex` group."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


def _emit_json(payload: dict) -> None:
    click.echo(json.dumps(payload, ensure_ascii=False, indent=2))


def _language(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """LANG names the locale files a command reads or writes (`locale/<LANG>.yaml`): it must
    be a tag the locale schema takes, or `../x`, `a/b` and `` would name files elsewhere or
    hidden ones, and `EN` a file whose `lang:` validation refuses."""
    from .schemas import is_language_tag, language_tag_problem

    if not is_language_tag(value):
        raise click.BadParameter(language_tag_problem(value), ctx=ctx, param=param)
    return value


@click.group(name="locale")
def locale_group() -> None:
    """Translations: how complete each language is, stamping checked ones and rewordings of
    the engine's lines, PO catalogs."""


def _loaded_games(refs: tuple[str, ...]):
    from . import schemas
    from .cli.common import game_folders
    from .content import load_game
    from .errors import Collector, LudexError, unread
    from .folders import discover

    for folder in game_folders(refs):
        errors = Collector()
        game = load_game(discover(folder), errors, schemas.Validators())
        # a locale file that does not read would count as absent: every key "missing", a stamp
        # or an export without it, and not a word said (its errors come first)
        broken = [d for d in unread(errors.sorted()) if Path(d.file).parent.name == "locale"]
        if broken:
            raise LudexError(broken)
        yield game


def _check_locale_files(game, lang: str, command: str) -> None:
    """Before a command writes LANG's locale files: the game must be the person's own (not
    one installed with Ludex), and each of those files writable, so that none is written when
    one of them cannot be."""
    from .cli.common import check_own_game, writing
    from .saves import check_writable

    check_own_game(game.files.folder, "copy it into a folder of your own (`ludex init DIR "
                   f"--example {game.game_id}`) and {command} the copy")
    with writing():
        for doc in game.locales.get(lang, []):
            check_writable(Path(doc.path))


@locale_group.command(name="status")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"games": [{"game", "primary", "languages": [...]}]} as JSON.')
def locale_status_command(games: tuple[str, ...], as_json: bool) -> None:
    """Per language: keys translated, missing (the primary language is shown instead) and
    stale (the primary text changed since the translation was stamped).

    \b
    Examples:
      ludex locale status
      ludex locale status GAME --json
    Exit status: 0 whatever the counts (use `ludex validate --strict` to fail on gaps).
    """
    from .cli.common import ljust
    from .locale_files import game_argument, primary_language
    from .locale_status import status

    report = []
    for game in _loaded_games(games):
        report.append({"game": game.game_id, "argument": game_argument(game),
                       "primary": primary_language(game),
                       "languages": [s.as_dict() for s in status(game)]})
    if as_json:
        _emit_json({"games": report})
        return
    for game in report:
        click.echo(game["game"])
        for s in game["languages"]:
            role = "primary" if s["primary"] else ""
            click.echo(f"  {ljust(s['lang'], 8)} {ljust(role, 8)} {s['keys']} keys: "
                       f"{s['translated']} translated, {s['missing']} missing, {s['stale']} stale")
            for key in s["missing_keys"][:10]:
                click.echo(f"      missing  {key}")
            for key in s["stale_keys"][:10]:
                click.echo(f"      stale    {key}")
            for key in s["engine_copies"][:10]:
                click.echo(f"      copy     {key} (the engine's own line, word for word)")
            for key in s["engine_changed"][:10]:
                click.echo(f"      changed  {key} (the engine's line changed since this "
                           "rewording was made)")
            hidden = sum(max(len(s[k]) - 10, 0) for k in (
                "missing_keys", "stale_keys", "engine_copies", "engine_changed"))
            if hidden:
                click.echo(f"      … and {hidden} more (--json lists them all)")
            if s["unrecorded"]:  # a note, not a fault: no record was asked for before
                click.echo(f"      note     {_unrecorded(s['unrecorded'])} (`ludex locale "
                           f"accept-engine {game['argument']} {s['lang']}` records "
                           f"{'it' if len(s['unrecorded']) == 1 else 'them'}, and validate "
                           "then says when the engine's line changes)")


def _unrecorded(keys: list[str], shown: int = 6) -> str:
    """The rewordings of the engine's lines that record no engine text they were made from."""
    if len(keys) == 1:
        return f"the rewording of `{keys[0]}` has no record of the engine's text it was made from"
    named = ", ".join(f"`{k}`" for k in keys[:shown]) + (
        f" and {len(keys) - shown} more" if len(keys) > shown else "")
    return (f"{len(keys)} rewordings of the engine's lines have no record of the engine's text "
            f"they were made from: {named}")


@locale_group.command(name="stamp")
@click.argument("game_ref", metavar="GAME")
@click.argument("lang", metavar="LANG", callback=_language)
def locale_stamp_command(game_ref: str, lang: str) -> None:
    """Record that LANG's translations match today's primary texts (after checking them):
    writes each file's `translated_from` hashes, so later changes show as stale.

    \b
    Example:
      ludex locale stamp GAME ru
    """
    from .cli.common import writing
    from .locale_files import languages, primary_language
    from .locale_status import stamp

    game = next(_loaded_games((game_ref,)))
    if lang not in languages(game):
        raise click.BadParameter(f"{game.game_id} has no `{lang}` locale (it has: "
                                 f"{', '.join(languages(game))})", param_hint="LANG")
    if lang == primary_language(game):  # it would write nothing, which looks like success
        raise click.BadParameter(f"`{lang}` is {game.game_id}'s primary language: the other "
                                 "languages are stamped against it, it has no stamps of its own",
                                 param_hint="LANG")
    _check_locale_files(game, lang, "stamp")
    with writing():
        written = stamp(game, lang)
    for path in written:
        click.echo(str(path))


@locale_group.command(name="accept-engine")
@click.argument("game_ref", metavar="GAME")
@click.argument("lang", metavar="LANG", callback=_language)
def locale_accept_engine_command(game_ref: str, lang: str) -> None:
    """Record the engine's lines of today as the ones LANG's rewordings of them were made from
    (after checking the rewordings against them): writes each file's `reworded_from` section,
    so that validate says when the engine changes one of those lines.

    \b
    Example:
      ludex locale accept-engine GAME es
    """
    from .cli.common import writing
    from .locale_engine_lines import accept_engine
    from .locale_files import languages

    game = next(_loaded_games((game_ref,)))
    if lang not in languages(game):
        raise click.BadParameter(f"{game.game_id} has no `{lang}` locale (it has: "
                                 f"{', '.join(languages(game))})", param_hint="LANG")
    _check_locale_files(game, lang, "accept-engine")
    with writing():
        written = accept_engine(game, lang)
    for path in written:
        click.echo(str(path))
    if not written:
        click.echo(f"nothing to record: the records of `{lang}` are up to date", err=True)


@locale_group.command(name="export")
@click.argument("game_ref", metavar="GAME")
@click.argument("lang", metavar="LANG", callback=_language)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of stdout.")
def locale_export_command(game_ref: str, lang: str, out: Path | None) -> None:
    """Write LANG of a game as a gettext PO catalog, for Poedit, Weblate and the like: the
    primary text of every key beside its translation (stale ones marked fuzzy).

    \b
    Example:
      ludex locale export GAME de --out de.po
    """
    from .cli.common import check_output, writing
    from .locale_po import export_po

    if out is not None:
        check_output(out)
    game = next(_loaded_games((game_ref,)))
    data = export_po(game, lang)
    if out:
        with writing("--out", out):
            out.write_bytes(data)
    else:
        click.echo(data.decode("utf-8"), nl=False)


@locale_group.command(name="import")
@click.argument("game_ref", metavar="GAME")
@click.argument("lang", metavar="LANG", callback=_language)
@click.argument("po_file", metavar="FILE",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
def locale_import_command(game_ref: str, lang: str, po_file: Path) -> None:
    """Write a PO catalog back as LANG's locale files of a game (every entry not marked fuzzy is
    stamped as translated from the text it shows).

    \b
    Example:
      ludex locale import GAME de de.po
    """
    from .cli.common import writing
    from .locale_po import PoError, PoMessageErrors, import_po

    game = next(_loaded_games((game_ref,)))
    _check_locale_files(game, lang, "import into")
    data = po_file.read_bytes()
    try:
        with writing():
            written, skipped = import_po(game, lang, data)
    except PoMessageErrors as exc:  # said as validate says them, at the catalog's lines
        from .cli.common import EXIT_FAILED, count, source_lines
        from .errors import Diagnostic

        for line, col, key, problem in exc.problems:
            click.echo(Diagnostic(str(po_file), line, col, "locale/bad-message",
                                  f"message `{key}`: {problem}").render(source_lines(str(po_file))))
        click.echo(f"{count(len(exc.problems), 'error')}: nothing was imported", err=True)
        sys.exit(EXIT_FAILED)
    except PoError as exc:
        raise click.BadParameter(f"{po_file}: {exc}", param_hint="FILE") from None
    for path in written:
        click.echo(str(path))
    if written and not (game.files.schemas / "locale.schema.json").is_file():
        from .editor_schemas import no_schema_note

        click.echo(no_schema_note(game.files.folder, "locale"), err=True)
    if skipped:
        entries = "1 entry" if len(skipped) == 1 else f"{len(skipped)} entries"
        click.echo(f"skipped {entries} whose keys the game has no text for: "
                   + ", ".join(skipped[:5]) + (", …" if len(skipped) > 5 else ""), err=True)
