"""The `ludex` command line. Each command is a thin layer over a library call; its module here
only parses arguments, prints, and chooses exit codes (0 ok, 1 content or test failures,
2 usage, 130 interrupted). One module per command; common.py holds what they share."""

from __future__ import annotations

import os
import sys

import click

from .. import __version__
from . import cache_flag
from .common import EXIT_FAILED, EXIT_INTERNAL, EXIT_INTERRUPTED, source_lines


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ludex")
@cache_flag.before_command
def cli() -> None:
    """Ludex runs the rules of card-driven board games from data.

    \b
    Examples:
      ludex check                       validate and test every bundled game
      ludex init my_game                create a small playable game to start from
      ludex validate my_game/           check a game kept anywhere
      ludex play my_game/ --agents random --seed 1
    """


def _register_commands() -> None:
    from ..locale_cli import locale_group
    from ..table.commands import render_command, serve_command
    from . import check, coverage, dump, init, mutate, play, schema, simulate, test, validate

    for command in (init.init_command, validate.validate_command, test.test_command,
                    check.check_command, schema.schema_command, coverage.coverage_command,
                    play.play_command, simulate.simulate_command, mutate.mutate_command,
                    dump.dump_command, serve_command, render_command, locale_group):
        cli.add_command(command)


_register_commands()


def main() -> None:
    """Console entry point: no Python traceback for anything but a bug in Ludex itself."""
    from ..errors import LudexError

    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except LudexError as exc:  # bad content met by a command other than validate
        for diag in exc.diagnostics:
            click.echo(diag.render(source_lines(diag.file)), err=True)
        sys.exit(EXIT_FAILED)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # a bug in Ludex, not in the content
        if os.environ.get("LUDEX_DEBUG"):
            raise
        click.echo(f"ludex: internal error: {type(exc).__name__}: {exc} "
                   "(set LUDEX_DEBUG=1 for details; please report it)", err=True)
        sys.exit(EXIT_INTERNAL)

