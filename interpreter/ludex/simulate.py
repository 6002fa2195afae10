"""Many games with random agents, in parallel processes (`ludex simulate`)."""

from __future__ import annotations

import multiprocessing
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .agents import agents_by_power, play, seat_agents
from .engine import Game
from .errors import LudexError
from .gamedef import GameDef
from .loading import shared_definition


@dataclass
class Outcome:
    seed: int
    winner: str | None  # None: a draw (or an error)
    turns: int
    decisions: int
    error: str | None = None


def _definition(folder: str) -> tuple[GameDef, dict]:
    """The game, loaded once per process (games only read it): a forked worker inherits the
    parent's; a spawned one loads it once, through the content cache."""
    return shared_definition(Path(folder))


def _pool(workers: int) -> ProcessPoolExecutor:
    """Workers forked on Linux, so that they start with the game the parent loaded; elsewhere
    (where forking a process that has loaded system libraries is not safe) each loads it
    once."""
    forks = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork") if forks else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_ignore_interrupts)


def play_one(folder: str, seed: int, players: int | None = None) -> Outcome:
    """One whole game of the game in `folder` with seeded random agents; an error is
    reported, never raised."""
    try:
        definition, start = _definition(folder)
        game = Game(definition, start, players=players, seed=seed)
        agents = seat_agents(["random"], len(game.state["seats"]), seed)
        play(game, agents_by_power(game, agents))
        return Outcome(seed, game.winner(), game.state["turn"], len(game.history))
    except Exception as exc:
        message = getattr(exc, "diagnostics", None)
        text = message[0].headline() if message else f"{type(exc).__name__}: {exc}"
        return Outcome(seed, None, 0, 0, text)


def _game_id(folder: Path) -> str:
    try:
        return _definition(str(folder))[0].game_id
    except LudexError:  # each game reports the content errors
        return Path(folder).name


def simulate(folder: Path, games: int, seed: int = 0, workers: int = 1,
             players: int | None = None,
             progress: Callable[[Outcome], None] | None = None) -> dict:
    """Play `games` games (seeds `seed`, `seed` + 1, …) and summarise them. Stopped by Ctrl-C,
    it summarises the games finished so far, marked `interrupted` (the games not played are
    cancelled, not waited for)."""
    seeds = [seed + i for i in range(games)]
    outcomes: list[Outcome] = []
    game_id = _game_id(folder)  # loads the game here, before any worker starts
    interrupted = False
    try:
        if workers <= 1:
            for s in seeds:
                outcomes.append(play_one(str(folder), s, players))
                if progress:
                    progress(outcomes[-1])
        else:
            pool = _pool(workers)
            try:
                futures = [pool.submit(play_one, str(folder), s, players) for s in seeds]
                for future in futures:
                    outcomes.append(future.result())
                    if progress:
                        progress(outcomes[-1])
            finally:  # on Ctrl-C: drop the games not started, let the running ones end
                pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        interrupted = True
    finished = [o for o in outcomes if o.error is None]
    turns = [o.turns for o in finished]
    return {
        "game": game_id,
        "games": games,
        "seed": seed,
        "winners": dict(Counter(o.winner for o in finished if o.winner)),
        "draws": sum(1 for o in finished if o.winner is None),
        "turns": {"min": min(turns, default=0), "max": max(turns, default=0),
                  "mean": round(statistics.mean(turns), 2) if turns else 0},
        "decisions": {"mean": round(statistics.mean([o.decisions for o in finished]), 1)
                      if finished else 0},
        "errors": [{"seed": o.seed, "message": o.error} for o in outcomes if o.error],
        **({"interrupted": True, "requested": games, "games": len(outcomes)}
           if interrupted else {}),
    }


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops handing out games)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
