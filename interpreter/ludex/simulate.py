"""Many games with any agents (`ludex simulate`): one game per seed, played in this process,
in worker processes, or on a Ray cluster (playtest/cluster.py), tallied into one summary
(playtest/stats.py).

The game is loaded once, in the parent (workers are forked from it on Linux). Work goes out in
small chunks — a few games per worker in flight, more sent as results come back — so memory
does not grow with the number of games, and Ctrl-C stops everything at once: the workers are
stopped, not waited for, and the games finished so far are summarised, marked `interrupted`.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .agents import agents_by_power, seat_agents, seat_names, step
from .engine import Game
from .errors import LudexError, distinct
from .gamedef import GameDef
from .loading import shared_definition
from .playtest.stats import Tally
from .runtime import window_option

IN_FLIGHT = 4  # games per worker sent ahead: enough to keep it busy, few enough to stop fast
# A game that has not ended after this many decisions is reported with its seed, as an error:
# rules that leave no way to end (every player may only take coins, forever) would otherwise
# hold a whole simulation up. The longest bundled game takes some 700.
MAX_DECISIONS = 10_000
Progress = Callable[[int], None]  # called with 1 after each game


@dataclass(frozen=True)
class Plan:
    """What to simulate; plain data, sent to every worker."""

    folder: str
    games: int
    seed: int = 0
    players: int | None = None
    agents: tuple[str, ...] = ("random",)
    rotate: bool = False  # game i seats the agents shifted by i (each agent tries every seat)
    max_decisions: int = MAX_DECISIONS  # a game not over by then is an error (`no end`)

    def seeds(self) -> range:
        return range(self.seed, self.seed + self.games)

    def seating(self, seed: int, seats: int) -> list[str]:
        names = seat_names(list(self.agents), seats)
        shift = (seed - self.seed) % seats if self.rotate else 0
        return names[-shift:] + names[:-shift] if shift else names


class Interrupted(Exception):
    """Ctrl-C during a simulation; `tally` holds the games finished before it, `playing` the
    seeds of those under way (a game that never ends is among them)."""

    def __init__(self, tally: Tally, playing: list[int] | None = None):
        super().__init__("interrupted")
        self.tally, self.playing = tally, sorted(playing or [])


def _definition(folder: str) -> tuple[GameDef, dict]:
    """The game, loaded once per process (games only read it): a forked worker inherits the
    parent's; a spawned one loads it once, through the content cache."""
    return shared_definition(Path(folder))


def play_one(plan: Plan, seed: int) -> dict:
    """One whole game as a record (stats.Tally.add); an error is reported, never raised."""
    seats, game = None, None
    try:
        definition, start = _definition(plan.folder)
        game = Game(definition, start, players=plan.players, seed=seed)
        seats = game.state["seats"]
        names = plan.seating(seed, len(seats))
        agents = agents_by_power(game, seat_agents(names, len(seats), seed))
        plays: dict[str, Counter] = {}
        # every action a window offers, 0 until taken: an action never taken is named
        taken = dict.fromkeys(window_actions(definition), 0)
        for _ in range(plan.max_decisions):
            if game.is_terminal() or game.pending is None:
                break
            asked = game.pending
            who = asked.who
            answer = step(game, agents.get(who) or agents[None])
            card = _card_played(game, answer)
            if card is not None:
                plays.setdefault(card[0] or who or "", Counter())[card[1]] += 1
            action = _action_taken(definition, asked, answer)
            if action in taken:
                taken[action] += 1
        else:
            if not game.is_terminal() and game.pending is not None:
                raise NoEnd(plan.max_decisions)
        winners = game.winners() if game.is_terminal() else []
        return {"seed": seed, "seats": seats, "agents": names,
                "winner": winners[0] if len(winners) == 1 else None, "winners": winners,
                "winner_seats": [i for i, s in enumerate(seats) if set(winners) & set(s)],
                "ended": game.state["ended"], "turns": game.state["turn"],
                "decisions": len(game.history), "scores": game.scores(),
                "plays": {p: dict(c) for p, c in plays.items()}, "actions": taken,
                "dead_ends": dead_ends(game),
                "error": None,
                "warnings": _warnings(game)}
    except Exception as exc:
        message = getattr(exc, "diagnostics", None)
        text = message[0].headline() if message else f"{type(exc).__name__}: {exc}"
        # where and what: one rule breaking in many games is one error, whatever the answers
        # that led there (a dead end's message names the last one)
        at = (f"{message[0].file}:{message[0].line}:{message[0].col} {message[0].code}"
              if message else text)
        return {"seed": seed, "seats": seats, "error": text, "error_at": at,
                "warnings": _warnings(game) if game is not None else []}


class NoEnd(Exception):
    """A game still going after the plan's most decisions: no way to end, or a long one."""

    def __init__(self, decisions: int):
        super().__init__(f"no end after {decisions:,} decision{'' if decisions == 1 else 's'}: "
                         "the rules may leave no way "
                         "to end from where it stands (replay it to see), or the game is longer "
                         "(raise --max-decisions)")


def _warnings(game: Game) -> list[dict]:
    """The game's warnings, each once, as plain data (code, compiler-style text)."""
    return [{"code": w.code, "text": w.headline()} for w in distinct(game.warnings)]


def _card_played(game: Game, answer) -> tuple[str | None, str] | None:
    """(power or None, card id) when the answer was an action with a card (`action:card`,
    `power@action:card`)."""
    if not isinstance(answer, str) or ":" not in answer:
        return None
    power, _, instance = window_option(answer)
    entry = game.state["cards"].get(instance)
    return (power or None, entry["card"]) if entry else None


def window_actions(definition: GameDef) -> list[str]:
    """The actions some window of the game offers, in the order of its files: those of a
    window a phase opens, and those with no `window` (offered at every window)."""
    if not definition.window_sources:
        return []
    return [action_id for action_id, action in definition.actions.items()
            if action.get("window") in (None, *definition.window_sources)]


def dead_ends(game: Game) -> list[list]:
    """[question, later question, options refused] for the options the game refused because
    a later question would have no way on (dead_ends.py)."""
    counts = Counter((question, later) for question, _, later in game.dead_ends.records())
    return [[question, later, n] for (question, later), n in counts.items()]


def _action_taken(definition: GameDef, asked, answer) -> str | None:
    """The action an answer took when it answered a window's question (`action`,
    `action:card`, `power@action:card`); None for any other answer (a pass, a choice inside
    an action). Read from the answer the game records anyway: counting costs no run."""
    if asked.prompt not in definition.window_sources or not isinstance(answer, str):
        return None
    return window_option(answer)[1]


def play_chunk(plan: Plan, seeds: list[int]) -> Tally:
    """Several games tallied where they are played: one small result to send back."""
    tally = Tally()
    for seed in seeds:
        tally.add(play_one(plan, seed))
    return tally


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(workers: int):
    """Workers forked on Linux, so that they start with the game the parent loaded; elsewhere
    (where forking a process that has loaded system libraries is not safe) each loads it
    once. A multiprocessing pool, not an executor: it can be stopped at once (terminate)."""
    forks = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if forks else None)
    return context.Pool(workers, initializer=_ignore_interrupts)


def run(plan: Plan, workers: int = 1, progress: Progress | None = None) -> Tally:
    """Play the plan's games here; raises Interrupted (with the games finished) on Ctrl-C."""
    tally = Tally()
    if workers <= 1:
        try:
            for seed in plan.seeds():
                tally.add(play_one(plan, seed))
                if progress:
                    progress(1)
        except KeyboardInterrupt:
            raise Interrupted(tally, [plan.seed + tally.games + len(tally.errors)]) from None
        return tally
    seeds = iter(plan.seeds())
    pool = _pool(workers)
    in_flight: list = []  # (seed, its job), in the order they were sent
    try:
        while True:
            while len(in_flight) < workers * IN_FLIGHT:
                seed = next(seeds, None)
                if seed is None:
                    break
                in_flight.append((seed, pool.apply_async(play_one, (plan, seed))))
            if not in_flight:
                break
            first = in_flight[0][1]
            while not first.ready():
                first.wait(0.1)  # short waits: Ctrl-C is seen at once
            in_flight.pop(0)
            tally.add(first.get())
            if progress:
                progress(1)
        pool.close()
    except KeyboardInterrupt:
        raise Interrupted(tally, [seed for seed, job in in_flight if not job.ready()]) from None
    finally:
        pool.terminate()  # at Ctrl-C, running games are stopped, not waited for
        pool.join()
    return tally


def game_id(folder: Path) -> str:
    try:
        return _definition(str(folder))[0].game_id
    except LudexError:  # each game reports the content errors
        return Path(folder).name


def summarise(plan: Plan, tally: Tally, interrupted: bool = False,
              playing: list[int] | None = None) -> dict:
    """The summary `ludex simulate` prints and `--json` writes (documented in cli.md);
    `playing`: the seeds of games under way when it was interrupted."""
    played = tally.games + len(tally.errors)
    summary = {"game": game_id(Path(plan.folder)), "games": played if interrupted else plan.games,
               "requested": plan.games, "seed": plan.seed, "agents": list(plan.agents),
               "rotate": plan.rotate, "max_decisions": plan.max_decisions,
               "interrupted": interrupted, "playing": list(playing or []), **tally.summary()}
    summary["cooperative"] = _cooperative(plan.folder)
    if summary["cooperative"]:  # every seat shares the result: no seat's edge to measure
        summary["fair_share"] = None
        summary["first_seat"]["advantage"] = None
    return summary


def _cooperative(folder: str) -> bool:
    try:
        return bool(_definition(folder)[0].manifest.get("cooperative"))
    except LudexError:
        return False


def simulate(folder: Path, games: int, seed: int = 0, workers: int = 1,
             players: int | None = None, progress: Progress | None = None,
             agents: tuple[str, ...] = ("random",), rotate: bool = False,
             runner: Callable[[Plan, int, Progress | None], Tally] = run,
             max_decisions: int = MAX_DECISIONS) -> dict:
    """Play `games` games (seeds `seed`, `seed` + 1, …) and summarise them. Stopped by Ctrl-C,
    it summarises the games finished so far, marked `interrupted`, with the seeds of those
    under way."""
    plan = Plan(str(folder), games, seed, players, tuple(agents), rotate, max_decisions)
    game_id(Path(folder))  # loads the game here, before any worker starts
    try:
        return summarise(plan, runner(plan, workers, progress))
    except Interrupted as stop:
        return summarise(plan, stop.tally, interrupted=True, playing=stop.playing)
