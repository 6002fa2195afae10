"""`ludex serve` and `ludex render`: the table's commands."""

from __future__ import annotations

from pathlib import Path

import click


@click.command(name="serve")
@click.argument("game_ref", metavar="GAME")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can reach the default; give "
                   "another address only on a network you trust.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port, printed at start).")
@click.option("--seats", default="human", show_default=True,
              help="Comma-separated seat kinds (human, random, first, greedy, mcts[:N]); one "
                   "kind serves every seat. The page can change them.")
@click.option("--players", type=int, help="Player count (default: the game's).")
@click.option("--seed", default=0, show_default=True, help="Seed of the game's generator.")
@click.option("--saves", "saves_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("ludex-saves"), show_default=True,
              help="Folder the table keeps its saves in (created if needed); the page names "
                   "saves, never paths.")
def serve_command(game_ref, host, port, seats, players, seed, saves_dir) -> None:
    """Play GAME at a table in the browser: the board, every seat's counters and cards (hidden
    ones hidden from the other seats), the question with its legal options, the log, the
    scores; hot-seat or against agents, undo, save and load, a replay viewer, any of the
    game's languages.

    \b
    Examples:
      ludex serve GAME                           then open http://127.0.0.1:8000/
      ludex serve GAME --seats human,random --players 2
      ludex serve my_game/ --port 0 --saves /tmp/table-saves
    """
    import socket

    import uvicorn

    from ..cli.common import check_output_folder, check_players, game_folder, writing
    from ..engine import load_definition
    from .server import create_app
    from .session import Table, TableError

    if not host.strip():  # the system reads an empty address as every interface, and the
        # table's host check stands down for it: a `--host "$HOST"` left unset served anyone
        raise click.BadParameter("an address to listen on (127.0.0.1, ::1; 0.0.0.0 for "
                                 "every interface), not an empty text", param_hint="--host")
    # a folder of saves to read only may be read-only (the page says so when asked to save)
    check_output_folder(saves_dir, "--saves", written=False)
    with writing("--saves"):  # made now: a folder the system will not make is the option's
        saves_dir.mkdir(parents=True, exist_ok=True)
    folder = game_folder(game_ref)
    definition, start = load_definition(folder)
    check_players(definition, players)
    try:
        table = Table(folder, definition, start, saves_dir, players=players, seed=seed,
                      seats=[s.strip() for s in seats.split(",")])
        if "human" in table.kinds:
            table.run_agents()
    except TableError as exc:
        raise click.BadParameter(str(exc), param_hint="--seats") from None
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        raise click.BadParameter(f"cannot listen on {host}:{port}: {exc.strerror}",
                                 param_hint="--port") from None
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"ludex table for {definition.game_id}: http://{shown}:{listener.getsockname()[1]}/"
               f" (saves in {saves_dir}; Ctrl-C stops)", err=True)
    # Ctrl-C stops promptly: agents answer no more, and a request still running after a few
    # seconds (a search under way) is not waited for
    config = uvicorn.Config(create_app(table, host), log_level="warning",
                            timeout_graceful_shutdown=3)

    class StoppingServer(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            table.stopping = True  # the table hears it at once, not when requests are done
            super().handle_exit(sig, frame)

    StoppingServer(config).run(sockets=[listener])


@click.command(name="render")
@click.argument("game_ref", metavar="GAME")
@click.option("--state", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A saved game or a scenario: draw the board as it stands there (default: "
                   "the game's set-up).")
@click.option("--step", type=click.IntRange(min=0),
              help="After this many of the saved game's or the scenario's decisions.")
@click.option("--lang", metavar="LANG", help="Language of the names (default: the game's "
              "primary language).")
@click.option("--players", type=int, help="Player count of the set-up (default: the game's).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The SVG file to write.")
@click.option("--force", is_flag=True,
              help="Draw a saved game even though the game's content changed since.")
def render_command(game_ref, source, step, lang, players, out, force) -> None:
    """Draw GAME's board as SVG, the same drawing as the table's, without a server: the map
    (when the game has one) and each power's counters and public cards.

    \b
    Examples:
      ludex render GAME --out board.svg
      ludex render GAME --state GAME/scenarios/x.yaml --out x.svg
      ludex render GAME --state game.json --lang fr --out game.svg
    """
    from ..cli.common import check_language, check_output, check_players, game_folder
    from ..engine import Game, load_definition
    from ..saves import SaveError, check_content, looks_like_save, read_save, replay_save
    from .board import Board

    check_output(out, reads=(source,))
    if step is not None and source is None:
        raise click.UsageError("--step counts the decisions of a --state: the set-up has none")
    if players is not None and source is not None:
        raise click.UsageError("--players sets up a new game: a --state has its own players")
    folder = game_folder(game_ref)
    definition, start = load_definition(folder)
    check_players(definition, players)
    text = definition.localizer(check_language(definition, lang))
    if source is None:
        game = Game(definition, start, players=players)
    elif looks_like_save(source):
        try:
            saved = read_save(source)
            if saved["game"] != definition.game_id:
                raise SaveError(f"{source} is a saved `{saved['game']}` game")
            check_content(saved, folder, source, force)
            if step is not None:  # the game as it stood after its first `step` decisions
                if step > len(saved["decisions"]):
                    raise SaveError(f"{source} has {len(saved['decisions'])} decisions, not "
                                    f"{step}")
                saved = {**saved, "decisions": saved["decisions"][:step]}
            game = replay_save(definition, start, saved, source)
        except SaveError as exc:
            raise click.BadParameter(str(exc), param_hint="--state") from None
    else:
        from ..scenario import StepBeyondDecisions, game_at_step

        try:
            game = game_at_step(source, step)
        except StepBeyondDecisions as exc:
            raise click.BadParameter(str(exc), param_hint="--step") from None
        if game.definition.game_id != definition.game_id:
            raise click.BadParameter(f"{source} is a scenario of "
                                     f"`{game.definition.game_id}`", param_hint="--state")
    from ..cli.common import writing
    from ..saves import write_atomically

    drawing = Board(definition).svg(game.view, text)
    with writing("--out", out):
        write_atomically(out, drawing)
    click.echo(f"wrote {out}", err=True)
