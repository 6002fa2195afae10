"""`ludex play`: one game with any mix of agents."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from pathlib import Path

import click

from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    check_language,
    check_players,
    emit_json,
    game_folder,
    refuse_game_file,
    saved_game_folder,
)


@click.command(name="play")
@click.argument("game_ref", metavar="[GAME]", required=False)
@click.option("--seed", default=0, show_default=True, help="Seed of the game's generator.")
@click.option("--agents",
              help="Comma-separated agents per seat (human, random, first, greedy, mcts; "
                   "mcts:500 searches 500 iterations a decision, mcts:2s two seconds); one "
                   "name serves every seat.  [default: human; with --resume, the saved "
                   "game's agents]")
@click.option("--players", type=int, help="Player count (default: the game's).")
@click.option("--lang", metavar="LANG",
              help="Language of the log: any the game has a locale for (default: its primary "
                   "language).")
@click.option("--save", "save_path", type=click.Path(path_type=Path),
              help="Write the game (settings, seed, decisions, agents) here when it stops, "
                   "and after every decision while a human plays.")
@click.option("--resume", "resume_path", type=click.Path(exists=True, path_type=Path),
              help="Continue a game saved with --save.")
@click.option("--force", is_flag=True,
              help="Resume even though the game's content changed since it was saved.")
@click.option("--max-decisions", type=click.IntRange(min=0), default=100_000, show_default=True,
              help="Stop (and save) after this many decisions.")
@click.option("--json", "as_json", is_flag=True,
              help="When the game stops, print one JSON object: the log (key, args, text), "
                   "scores, ending, winner, winners, end line, warnings.")
def play_command(game_ref, seed, agents, players, lang, save_path, resume_path, force,
                 max_decisions, as_json) -> None:
    """Play a game (a bundled game's id or a game folder) with any mix of agents; the log is
    printed in the chosen language. With --resume, GAME may be left out: the save names it.

    \b
    Examples:
      ludex play GAME --agents random --seed 7
      ludex play GAME --agents human,random,random --players 3 --lang ru
      ludex play GAME --agents random --max-decisions 20 --save game.json
      ludex play GAME --resume game.json --agents first
      ludex play --resume game.json
    At a human player's prompt, `? N` shows option N's card (attributes, text), `??` every
    card in view, `?` these commands; none of them is an answer.
    Exit status: 0 the game ended (or stopped at --max-decisions), 1 a human player's input
    ended before the game did (saved with --save), 2 a usage error, 130 Ctrl-C (143 SIGTERM,
    129 SIGHUP: saved as by Ctrl-C).
    """
    from ..agents import (
        Human,
        agent_states,
        agents_by_power,
        restore_states,
        saved_names,
        seat_agents,
        step,
    )
    from ..engine import Game, load_definition
    from ..errors import distinct
    from ..saves import SaveError, check_content, check_writable, read_save, replay_save

    if game_ref is not None:
        folder = game_folder(game_ref)
    elif resume_path is not None:  # the save names its game (and folder), as for `dump`
        try:
            folder = saved_game_folder(read_save(resume_path), resume_path, "--resume")
        except SaveError as exc:
            raise click.BadParameter(str(exc), param_hint="--resume") from None
    else:
        raise click.UsageError("Missing argument 'GAME' (a bundled game's id or a game "
                               "folder; with --resume, the save names it)")
    definition, start = load_definition(folder)
    check_players(definition, players)
    given = click.get_current_context().get_parameter_source
    if resume_path and (players is not None or given("seed").name != "DEFAULT"):
        raise click.UsageError("a resumed game keeps the players and seed it was saved with: "
                               "drop --players and --seed (or start a new game)")
    if save_path:
        _check_save_target(save_path, resume_path, definition.game_id)
    try:
        if save_path:
            check_writable(save_path)
        if resume_path:
            saved = read_save(resume_path)
            if saved["game"] != definition.game_id:
                raise SaveError(f"{resume_path} is a saved `{saved['game']}` game")
            check_content(saved, folder, resume_path, force, definition.content)
            game = replay_save(definition, start, saved, resume_path)
        else:
            game = Game(definition, start, players=players, seed=seed)
    except SaveError as exc:
        raise click.BadParameter(str(exc), param_hint="--resume" if resume_path and not (
            save_path and "cannot be written" in str(exc)) else "--save") from None
    localizer = definition.localizer(check_language(definition, lang))
    if agents is None:  # a resumed game goes on with the agents it was saved with
        names = (saved_names(saved.get("agents") or []) if resume_path else None) or ["human"]
    else:
        names = [n.strip() for n in agents.split(",")]
    try:
        seated = seat_agents(names, len(game.state["seats"]),
                             saved["seed"] if resume_path else seed,
                             human=lambda: Human(localizer=localizer))
    except ValueError as exc:
        if agents is None and resume_path:  # the save's agents, not any the person gave
            raise click.BadParameter(f"{resume_path}: its agents: {exc} (give --agents to "
                                     "seat others)", param_hint="--resume") from None
        raise click.BadParameter(str(exc), param_hint="--agents") from None
    if resume_path:
        restore_states(seated, saved.get("agents") or [])
    by_power = agents_by_power(game, seated)
    humans = any(isinstance(a, Human) for a in seated)

    noted_change, unsaved = False, None
    # The agents' states as they stood when the game had this many decisions: a stop (Ctrl-C,
    # a kill) can land after an agent drew from its generator for an answer not yet kept, and
    # a save of its state then would draw differently on resume than the game did.
    settled_states = (len(game.history), agent_states(seated))

    def states_to_save() -> list[dict]:
        kept, states = settled_states
        # an answer kept since (stopped before the loop noted it): nothing drew after it
        return states if kept == len(game.history) else agent_states(seated)

    def save() -> None:
        from ..saves import SaveError, changed_on_disk, make_save, write_errors, write_save

        nonlocal noted_change, unsaved
        record = make_save(game, folder, save_path, states_to_save())
        try:
            with write_errors(save_path):  # checked before play, but a disk can fill up
                write_save(save_path, record)
        except SaveError as exc:
            # not a usage error: the arguments were right, and the game has been played. Said
            # once (a person's every answer is saved), the game goes on; exit 1 at the end
            if unsaved is None:
                click.echo(f"Error: --save {exc}; the game is not saved", err=True)
            unsaved = str(exc)
            return
        if unsaved is not None:  # room was made: the error said above no longer holds
            click.echo(f"wrote {save_path}", err=True)
        unsaved = None
        if not noted_change and changed_on_disk(definition, folder):
            noted_change = True
            click.echo(f"note: the game's files changed after it began; {save_path} holds the "
                       "game as it was played, with the content it began with: resuming it "
                       "needs that content (or --force)", err=True)

    shown, warned = 0, set()

    def show_new_lines() -> None:
        nonlocal shown
        lines = game.view["log"][shown:]
        shown += len(lines)
        if not as_json:
            for entry in lines:
                click.echo(localizer.log_line(entry))
        # what the rules could not settle (engine warnings): on stderr, each once, so stdout
        # keeps only the log (or the JSON)
        for warning in distinct(game.warnings):
            if warning not in warned:
                warned.add(warning)
                click.echo(warning.headline(), err=True)

    decisions, interrupted, left = 0, None, False
    stopping = _StopSignals()
    try:
        try:
            try:
                show_new_lines()
                while not game.is_terminal() and game.pending is not None \
                        and decisions < max_decisions:
                    # Non-player powers' decisions go to the first seat's agent (16.1 is not
                    # written).
                    step(game, by_power.get(game.pending.who) or by_power[None])
                    settled_states = (len(game.history), agent_states(seated))
                    decisions += 1
                    show_new_lines()
                    if save_path and humans:  # a person's answers are never lost: save each
                        save()
            except EOFError:  # the human left: stop here (and save, if asked), exit 1 below
                left = True
            except KeyboardInterrupt:  # stopped by Ctrl-C: save, show where it stood, 130
                interrupted = EXIT_INTERRUPTED
            except Stopped as stop:  # `kill`, a closed terminal, a CI job cancelled: as Ctrl-C
                interrupted = 128 + stop.signal
            except BaseException:
                # the rules broke, or the output was closed (`| head`): what was played is
                # kept all the same (the save replays to the very error), then the error is
                # reported
                while not stopping.held:  # as below
                    try:
                        stopping.hold()
                    except (Stopped, KeyboardInterrupt) as stop:
                        interrupted = interrupted or _exit_status(stop)
                if save_path:
                    save()
                raise  # the error is what is reported (and decides the exit status), not
                # a stop that landed meanwhile: the game is saved either way
        except (Stopped, KeyboardInterrupt) as stop:
            # a stop that landed while the one above was being handled: a closed terminal
            # ends the player's input and sends SIGHUP at once (the save was lost)
            interrupted = interrupted or _exit_status(stop)
        # From here a signal waits for the save. One landing before the signals are held (at
        # the very call) is caught in this frame, and they are held again.
        while not stopping.held:
            try:
                stopping.hold()
            except (Stopped, KeyboardInterrupt) as stop:
                interrupted = interrupted or _exit_status(stop)
        if save_path:
            save()
        if stopping.received and not interrupted:
            interrupted = 128 + stopping.received
    finally:
        stopping.restore()
    if left or interrupted:  # end the line the prompt or the log was on (a closed one: no)
        with contextlib.suppress(OSError):
            click.echo("", err=True)
    show_new_lines()  # and the warnings of an answer cut short
    scores = game.scores()
    ended = game.state["ended"] if game.is_terminal() else None
    ended_args = (game.state.get("ended_args") or {}) if ended else {}
    end_line = localizer.end_line(ended, game.winners() if ended else None, scores,
                                  game.leaders() if ended else None, game.lost_together(),
                                  ended_args)
    if as_json:
        events = [{**e, "text": localizer.log_line(e)} for e in game.view["log"]]
        emit_json({"log": events, "scores": scores, "ended": game.state["ended"],
                   "ended_args": ended_args,
                    "winner": game.winner() if game.is_terminal() else None,
                    "winners": game.winners() if game.is_terminal() else [],
                    "draw": game.is_draw(), "lost_together": game.lost_together(),
                    "end_line": end_line,
                    "warnings": [w.as_dict() for w in distinct(game.warnings)]})
    else:
        click.echo(end_line)
    if interrupted:
        sys.exit(interrupted)
    if unsaved is not None:  # said when it happened; a script must not take it for saved
        sys.exit(EXIT_FAILED)
    if left and not game.is_terminal():  # a script reading the status knows it is unfinished
        sys.exit(EXIT_FAILED)


class Stopped(BaseException):
    """The process was told to stop (SIGTERM, SIGHUP): the game is saved and the command
    exits 128 + the signal's number, as shells report it."""

    def __init__(self, number: int):
        super().__init__(number)
        self.signal = number


class _StopSignals:
    """SIGTERM and SIGHUP raise Stopped while a game is played (a `kill`, a closed terminal,
    a cancelled CI job lost the whole game: only Ctrl-C saved it). Once the game is being
    saved (`hold`), a signal is only noted (`received`): it must not cut the save short.
    A signal the process was started to ignore (`nohup`) stays ignored; `restore` puts back
    what was there."""

    def __init__(self) -> None:
        self.before: dict[int, object] = {}
        self.held, self.received = False, 0
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread may set handlers (a test calling the command)
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
                self.before[number] = signal.signal(number, self._stop)

    def _stop(self, number, frame) -> None:
        if self.held:
            self.received = self.received or number
            return
        raise Stopped(number)

    def hold(self) -> None:
        """From now on a stop (SIGTERM, SIGHUP, and Ctrl-C too) is only noted: the game is
        being saved. A stop may still land at the call itself: callers hold again until
        `held` (a closed terminal lost the save that way, under load)."""
        if threading.current_thread() is threading.main_thread() \
                and signal.SIGINT not in self.before \
                and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # a script's own
            self.before[signal.SIGINT] = signal.signal(signal.SIGINT, self._stop)
        self.held = True

    def restore(self) -> None:
        for number, handler in self.before.items():
            signal.signal(number, handler)
        self.before = {}


def _exit_status(stop: BaseException) -> int:
    """128 + the signal's number, as shells report it (Ctrl-C: 130)."""
    return 128 + stop.signal if isinstance(stop, Stopped) else EXIT_INTERRUPTED


def _check_save_target(path: Path, resume_path: Path | None, game_id: str) -> None:
    """`--save` may not write over a game's own file, nor over a save of another game (one
    of the same game is the one resumed, or replaced as asked)."""
    from ..saves import SaveError, looks_like_save, read_save

    refuse_game_file(path, "--save")
    if not path.is_file() or not looks_like_save(path):
        return
    try:
        other = read_save(path)["game"]
    except SaveError:
        return
    if other != game_id:
        raise click.BadParameter(f"{path} holds a saved `{other}` game: writing there would "
                                 "lose it; choose another file", param_hint="--save")

