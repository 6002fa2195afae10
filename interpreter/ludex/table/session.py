"""A game at the table: its seats (people or agents), the answers given and by whom, undo by
replay (never past a draw on the game's generator: it would show what chance holds next),
saves kept in a folder the table owns, and a replay viewer.

Everything goes through the engine's public protocol (`Game`, `pending`, `legal_actions`,
`apply`, `is_terminal`, `scores`, `save`), the definition's `draws_between` and the saves
module; the page only ever names an option by its index among the legal options, and every
answer is checked here before the engine sees it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any

from ..agents import agent_states, restore_states, seat_agents, seat_names, step
from ..engine import Game
from ..errors import LudexError
from ..playtest.mcts import SearchStopped
from ..playtest.registry import check_name
from ..runtime import Illegal
from ..saves import (
    SaveError,
    WriteError,
    check_content,
    make_save,
    read_save,
    write_atomically,
    write_errors,
    write_save,
)
from .board import Board
from .view import seat_of, table_view

HUMAN = "human"
SAVE_NAME_CHARACTERS = 64
# a file name is at most 255 bytes, and a save's is written through `.upload-NAME.json` and a
# temporary file beside it (27 bytes more): 64 characters of a script written with 4 bytes
# each would not fit
SAVE_NAME_BYTES = 180
MAX_UPLOAD = 4_000_000  # characters of an uploaded save
AGENT_RUN_LIMIT = 20_000  # decisions agents may take in a row before the table stops them
# how long one request lets agents play on before it starts no new decision: the table's lock
# is held meanwhile, so every other page (an undo, a look at the state) waits about this long,
# and at most a search's own limit (MAX_TABLE_SECONDS) more; the page then asks again
RUN_SLICE_SECONDS = 2.0
_A_SLICE = object()  # run_agents' default: RUN_SLICE_SECONDS as it stands when called
# a search a person waits for, holding the table: at most this much a decision
MAX_TABLE_ITERATIONS, MAX_TABLE_SECONDS = 5_000, 10.0


class TableError(Exception):
    """A request the table refuses (the message says why, for the page); `status` is the
    HTTP status it is answered with: 400, the request's fault, unless said otherwise.
    `key` and `args`: an engine message (`table_refused_*`) that says it in the page's
    language (a player meets it in play); the message itself is its English."""

    def __init__(self, message: str, status: int = 400, key: str | None = None,
                 args: dict | None = None):
        super().__init__(message)
        self.status, self.key, self.values = status, key, args or {}

    @classmethod
    def said(cls, key: str, **args: Any) -> TableError:
        """A refusal a player meets, by its engine message (its English the message)."""
        return cls(_english().message(key, args), key=key, args=args)


@functools.cache
def _english():
    from ..locale import Localizer
    from ..locale_files import ENGINE_SOURCE, engine_messages

    return Localizer({ENGINE_SOURCE: {"messages": engine_messages(ENGINE_SOURCE)}},
                     ENGINE_SOURCE, ENGINE_SOURCE)


def is_save_name(name: str) -> bool:
    """Letters and digits of any language (`partida_ção`), `-` and `_`, starting with a letter
    or a digit: never a path (no separator, no dot: neither `..` nor a hidden file), never a
    control character, never an option to a command (`-x`). A letter's marks count with it
    (Hindi's vowel signs are marks, not letters: `हिन्दी`)."""
    return (0 < len(name) <= SAVE_NAME_CHARACTERS and name[0].isalnum()
            and all(c.isalnum() or c in "-_" or unicodedata.category(c).startswith("M")
                    for c in name))


def _known_kind(kind: str) -> bool:
    """Whether `kind` names a seat kind the table takes: an agent it knows, with a budget
    that agent takes and a person can wait for (a save of `play` may ask for more)."""
    try:
        check_name(kind)
        _check_table_budget(kind)
    except (ValueError, TableError):
        return False
    return True


def agent_kinds() -> list[str]:
    """The kinds a seat may be given: a person, or any agent `ludex play` knows by name
    (random, first, greedy, mcts; a seat may also be `mcts:200` with its budget)."""
    from ..playtest.registry import AGENTS

    return [HUMAN, *(k for k in AGENTS if k != HUMAN)]


def _check_table_budget(kind: str) -> None:
    """A look-ahead budget a person can wait for: `mcts:999999999` held the table's lock (every
    other request waited) and grew to gigabytes."""
    name, _, budget = kind.partition(":")
    if not budget:
        return
    if budget.endswith("s"):
        too_much = float(budget[:-1]) > MAX_TABLE_SECONDS
    else:
        too_much = int(budget) > MAX_TABLE_ITERATIONS
    if too_much:
        raise TableError(f"seat kind `{kind}`: at the table a search takes at most "
                         f"{MAX_TABLE_ITERATIONS} iterations or {MAX_TABLE_SECONDS:g}s a "
                         f"decision (`{name}:{MAX_TABLE_ITERATIONS}`); `ludex simulate` takes "
                         "more")


class Table:
    """One game at a time, shared by every browser tab of the table (hot-seat)."""

    def __init__(self, folder: Path, definition, start: dict, saves: Path, *,
                 players: int | None = None, seed: int = 0, seats: list[str] | None = None):
        self.folder, self.definition, self.start = Path(folder), definition, start
        self.saves = Path(saves)
        self.saves.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        self.stopping = False  # the server is shutting down: agents answer no more
        self.board = Board(definition)
        self._replay: tuple[str, int, Game] | None = None
        # how many times the game in play was replaced or went back (a new game, a load, an
        # undo): with the number of answers, it names the question a page shows
        self.era = 0
        self.new_game(players, seed, seats)

    # -- set-up ----------------------------------------------------------------------------
    def new_game(self, players: int | None, seed: int, seats: list[str] | None) -> None:
        try:
            game = Game(self.definition, self.start, players=players, seed=seed)
        except LudexError as exc:
            raise TableError(exc.diagnostics[0].message) from None
        self._install(game, seats, [], generators={0: game.view["rng"]})

    def _install(self, game: Game, seats: list[str] | None, by_people: list[bool],
                 saved_agents: list[dict] | None = None, *, generators: dict[int, int]
                 ) -> None:
        # everything that can be refused is worked out before the table changes: a refusal
        # leaves the game in play as it was
        kinds = self._check_kinds(seats, len(game.state["seats"]))
        agents = self._agents(kinds, game.state["seed"])
        if saved_agents:
            restore_states(agents, saved_agents)
        self.game, self.kinds, self.by_people, self.agents = game, kinds, by_people, agents
        self.era += 1
        # the agents' state (as a save keeps it) after each number of answers: undo restores it
        self.snapshots = {len(game.history): self._agent_states()}
        # the game's generator (`state["rng"]`) at each question, by how many answers came
        # before it: what undo compares to tell whether chance was drawn on since (`undo`)
        self.generators = generators
        self._legal: tuple[int, list] | None = None

    @staticmethod
    def _check_kinds(seats: list[str] | None, count: int) -> list[str]:
        try:  # seated as `ludex play --agents` seats them: the last kind fills the seats left
            kinds = seat_names(list(seats or [HUMAN]), count, "seat kinds")
        except ValueError as exc:
            raise TableError(str(exc)) from None
        for kind in kinds:
            try:
                check_name(kind)  # an agent it knows, with a budget that agent takes
            except ValueError as exc:
                raise TableError(f"seat kind `{kind}`: {exc}") from None
            _check_table_budget(kind)
        return kinds

    def _agents(self, kinds: list[str], seed: int) -> list[Any]:
        """Agents seated as `ludex play --agents … --seed S` seats them (None for a person),
        so a game played here goes on as it would at the terminal; a search gives up when the
        table stops."""
        agents = seat_agents(kinds, len(kinds), seed, human=lambda: None)
        for agent in agents:
            if hasattr(agent, "interrupted"):
                agent.interrupted = lambda: self.stopping
        return agents

    def set_seats(self, seats: list[str]) -> None:
        kinds = self._check_kinds(seats, len(self.game.state["seats"]))
        self.kinds, self.agents = kinds, self._agents(kinds, self.game.state["seed"])
        self.snapshots[len(self.game.history)] = self._agent_states()

    def _agent_states(self) -> list[dict]:
        """What a save keeps of each seat's agent (a random agent's generator)."""
        return [{"kind": HUMAN} if agent is None else agent_states([agent])[0]
                for agent in self.agents]

    # -- answering -------------------------------------------------------------------------
    def legal(self) -> list[Any]:
        """The pending question's legal options, worked out once per question."""
        moment = len(self.game.history)
        if self._legal is None or self._legal[0] != moment:
            self._legal = (moment, self.game.legal_actions() if self.game.pending else [])
        return self._legal[1]

    def asked_seat(self) -> int | None:
        if self.game.is_terminal() or self.game.pending is None:
            return None
        return seat_of(self.game.view, self.game.pending.who)

    def auto_viewer(self) -> int | None:
        """Whose view to show when the page follows play: the person asked, else the only
        person at the table, else everything."""
        asked = self.asked_seat()
        if asked is not None and self.agents[asked] is None:
            return asked
        people = [i for i, kind in enumerate(self.kinds) if kind == HUMAN]
        return people[0] if len(people) == 1 else None

    def answer(self, seat: int, picks: list[int], moment: int, era: int | None = None
               ) -> None:
        """A person's answer: `picks` are indices among the legal options; `moment` is how
        many answers the game had when the page showed the question and `era` which game it
        was (`Table.era`): a second click on an answered question is refused, not applied to
        the next one, and so is a click on a question an undo, a load or a new game took away
        while another tab still showed it."""
        seats = len(self.game.state["seats"])
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            # said as sent, as every seat number here is: the API's, from 0
            raise TableError(f"no seat `{seat}` (the seats are 0 to {seats - 1})")
        asked = self.asked_seat()
        if asked is None:
            raise TableError.said("table_refused_no_question")
        if era is not None and era != self.era:
            raise TableError.said("table_refused_game_changed")
        if moment != len(self.game.history):
            raise TableError.said("table_refused_answered")
        if seat != asked:  # said to a player, whose page numbers seats from 1 (an API
            # client sending a seat the game lacks was told apart above, as sent)
            raise TableError.said("table_refused_not_your_seat", asked=asked + 1, seat=seat + 1)
        if self.agents[asked] is not None:
            raise TableError.said("table_refused_agent_seat", seat=asked + 1)
        answer = self._chosen(picks)
        self._apply(answer, by_person=True)
        self.run_agents()

    def _chosen(self, picks: list[int]) -> Any:
        legal, decision = self.legal(), self.game.pending
        if not isinstance(picks, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in picks):
            raise TableError("an answer is a list of option numbers")
        if any(i < 0 or i >= len(legal) for i in picks):
            raise TableError.said("table_refused_not_offered")
        if len(set(picks)) != len(picks):
            raise TableError.said("table_refused_picked_twice")
        if decision.mode == "one":
            if len(picks) != 1:
                raise TableError.said("table_refused_choose_one")
            return legal[picks[0]]
        if decision.mode == "exactly" and len(picks) != decision.count:
            raise TableError.said("table_refused_choose_exactly", count=decision.count)
        if len(picks) > decision.count:
            raise TableError.said("table_refused_choose_at_most", count=decision.count)
        return [legal[i] for i in picks]

    def _apply(self, answer: Any, by_person: bool) -> None:
        try:
            self.game.apply(answer)
        except Illegal as exc:
            if exc.wording is not None:  # an engine refusal with a message for players
                key, args = exc.wording
                said = self.game.definition.localizer().filled(key, args)
                raise TableError(said, key=key, args=args) from None
            if exc.code != "rules/illegal-action":
                raise TableError(exc.diagnostics[0].message) from None
            # a broken `require`: its reason is a message of the game, said in the page's
            # language with its arguments (the primary language's text, without a page)
            said = self.game.definition.localizer().filled(exc.text, exc.reason_args)
            raise TableError(said, key=exc.text, args=exc.reason_args) from None
        except LudexError as exc:
            raise TableError(exc.diagnostics[0].message) from None
        self.by_people.append(by_person)
        self._answered()

    def run_agents(self, limit: int = AGENT_RUN_LIMIT, seconds: Any = _A_SLICE) -> int:
        """Let agents answer while the question is an agent's, at most `limit` answers and,
        past `seconds` (a slice by default; None: no limit), no new one; returns how many
        answered. The page asks again while an agent is asked and a person waits."""
        if seconds is _A_SLICE:
            seconds = RUN_SLICE_SECONDS
        done = 0
        until = None if seconds is None else time.monotonic() + seconds
        # one answer at least, whatever the slice: each request moves the game on
        while done < limit and not self.stopping and (
                done == 0 or until is None or time.monotonic() < until):
            asked = self.asked_seat()
            if asked is None or self.agents[asked] is None:
                break
            try:
                step(self.game, self.agents[asked])
            except SearchStopped:  # the server is stopping: no answer, nothing changed
                break
            except (LudexError, LookupError) as exc:
                message = exc.diagnostics[0].message if isinstance(exc, LudexError) else exc
                raise TableError(f"the agent of seat {asked + 1} failed: {message}") from None
            self.by_people.append(False)
            self._answered()
            done += 1
        return done

    def _answered(self) -> None:
        """Note what undo needs of the question the game stands at after an answer."""
        moment = len(self.game.history)
        self.snapshots[moment] = self._agent_states()
        self.generators[moment] = self.game.view["rng"]

    # -- undo ------------------------------------------------------------------------------
    def _undo_point(self) -> int:
        """How many answers an undo keeps: those before the last person's answer (before the
        last answer at all when only agents play)."""
        people = [i for i, person in enumerate(self.by_people) if person]
        return people[-1] if people else len(self.game.history) - 1

    def undo_refusal(self) -> TableError | None:
        """Why undo is refused now, or None. Never past a draw on the game's generator (a die,
        a shuffle, a random pick) since the question it goes back to: the game is replayed
        with the same seed, so the same draw would come again, and a player who saw it could
        choose knowing what chance holds. Told exactly, by the generator's state at that
        question and now (GameDef.draws_between), however deep in the rules it was drawn."""
        if not self.game.history:
            return TableError("nothing to undo")
        before = self.generators.get(self._undo_point())
        if before is None or self.definition.draws_between(before, self.game.view["rng"]):
            return TableError.said("table_refused_undo_chance")
        return None

    def undo(self) -> None:
        """Take back the last answer a person gave, and every agent's answer after it (the
        last answer at all when only agents play), by replaying the rest from the start;
        refused when the game drew on chance since (`undo_refusal`)."""
        refusal = self.undo_refusal()
        if refusal is not None:
            raise refusal
        history = self.game.history
        keep = self._undo_point()
        game = self._replayed(history[:keep])
        by_people = self.by_people[:keep]
        known = [n for n in self.snapshots if n <= keep]
        agents = self._agents(self.kinds, game.state["seed"])
        if known:
            restore_states(agents, self.snapshots[max(known)])
        self.game, self.by_people, self.agents = game, by_people, agents
        self.era += 1
        self.snapshots = {n: a for n, a in self.snapshots.items() if n <= keep}
        self.snapshots[keep] = self._agent_states()
        self.generators = {n: g for n, g in self.generators.items() if n <= keep}
        self._legal = None

    def _replayed(self, decisions: list[Any]) -> Game:
        saved = {**self.game.save(), "decisions": list(decisions)}
        game = Game(self.definition, self.start, players=saved["players"],
                    settings=saved["settings"], seed=saved["seed"])
        for answer in decisions:
            game.apply(answer)
        return game

    # -- saves -----------------------------------------------------------------------------
    def _save_path(self, name: str) -> Path:
        """The file of save `name`: always a plain name inside the table's folder."""
        if not isinstance(name, str):
            raise TableError("a save's name is letters, digits, - and _ (at most 64)")
        name = unicodedata.normalize("NFC", name)  # `ç` typed as `c` and a combining cedilla
        if not is_save_name(name):
            raise TableError("a save's name is letters, digits, - and _ (at most 64), "
                             "starting with a letter or a digit")
        if len(name.encode()) > SAVE_NAME_BYTES:
            raise TableError("a save's name is too long for a file name")
        return self.saves / f"{name}.json"

    def save_names(self) -> list[str]:
        return sorted(p.stem for p in self.saves.glob("*.json") if is_save_name(p.stem))

    def save(self, name: str) -> None:
        path = self._save_path(name)
        if path.is_symlink():  # a table's saves stay in its folder: a link would lead out
            raise TableError(f"`{name}` is a link in the saves folder; the table writes only "
                             "its own files there")
        saved = make_save(self.game, self.folder, path, self._agent_states())
        with self._writing(name):
            write_save(path, saved)

    @contextlib.contextmanager
    def _writing(self, name: str):
        """A save the saves folder refuses (read-only, a full disk) is told to the page, which
        names saves, never paths: the server's folder is at fault, not the request (500)."""
        try:
            with write_errors():
                yield
        except WriteError as exc:
            raise TableError(f"`{name}` cannot be saved: the table's saves folder cannot be "
                             f"written ({exc.reason})", status=500) from None

    def load(self, name: str) -> None:
        path = self._save_path(name)
        if not path.is_file():
            raise TableError(f"no save named `{name}`")
        saved = self._read(path)
        game, by_people, generators = self._replay_save(saved, path)
        kinds = [a.get("kind") for a in saved.get("agents") or []]
        if len(kinds) != len(game.state["seats"]) or not all(
                isinstance(k, str) and _known_kind(k) for k in kinds):
            kinds = self.kinds if len(self.kinds) == len(game.state["seats"]) else None
        self._install(game, kinds, [], saved.get("agents"), generators=generators)
        self.by_people = [self.kinds[seat] == HUMAN for seat in by_people]

    def upload(self, name: str, text: str) -> None:
        """Keep an uploaded save under `name` (after checking it), then load it."""
        path = self._save_path(name)
        if not isinstance(text, str) or len(text) > MAX_UPLOAD:
            raise TableError(f"an uploaded save is text of at most {MAX_UPLOAD:,} characters")
        try:
            json.loads(text)
        except (ValueError, RecursionError):
            raise TableError("an uploaded save is a JSON file written by a save") from None
        staged = self.saves / f".upload-{name}.json"
        with self._writing(name):
            write_atomically(staged, text)
        try:
            try:  # all `load` checks, on the staged file: a refused upload replaces nothing
                self._replay_save(self._read(staged), staged)
            except TableError as exc:  # named as the person named it
                raise TableError(str(exc).replace(staged.name, path.name)) from None
            staged.replace(path)
        finally:
            staged.unlink(missing_ok=True)
        self.load(name)

    def _read(self, path: Path) -> dict:
        try:
            saved = read_save(path)
            if saved["game"] != self.definition.game_id:
                raise SaveError(f"{path.name} is a saved `{saved['game']}` game, not "
                                f"`{self.definition.game_id}`")
            check_content(saved, self.folder, Path(path.name), content=self.definition.content)
        except SaveError as exc:
            raise TableError(str(exc).replace(str(self.saves) + "/", "")) from None
        return saved

    def _replay_save(self, saved: dict, path: Path) -> tuple[Game, list[int], dict[int, int]]:
        """The saved game, replayed; the seat that gave each answer, and the generator's
        state at each question (undo's `generators`)."""
        try:
            game = Game(self.definition, self.start, players=saved["players"],
                        settings=saved.get("settings"), seed=saved["seed"])
            seats, generators = [], {0: game.view["rng"]}
            for answer in saved["decisions"]:
                if game.pending is None:
                    raise TableError(f"{path.name}: more decisions than the game asks for")
                seats.append(seat_of(game.view, game.pending.who))
                game.apply(answer)
                generators[len(game.history)] = game.view["rng"]
        except (LudexError, TypeError, ValueError, KeyError) as exc:
            reason = exc.diagnostics[0].message if isinstance(exc, LudexError) else \
                type(exc).__name__
            if len(reason) > 300:  # an answer as big as the upload: not echoed back whole
                reason = reason[:300] + "…"
            raise TableError(f"{path.name}: cannot be replayed: {reason}") from None
        return game, seats, generators

    # -- the replay viewer -------------------------------------------------------------------
    def scenario_names(self) -> list[str]:
        folder = self.definition.folder / "scenarios" if self.definition.folder else None
        if folder is None or not folder.is_dir():
            return []
        return sorted(p.relative_to(folder).with_suffix("").as_posix()
                      for p in folder.rglob("*.yaml"))

    def replay_at(self, source: str, moment: int) -> tuple[Game, int]:
        """The game of `source` after its first `moment` answers, and how many it has.
        Sources: `current` (this game so far), `save:NAME`, `scenario:NAME`."""
        kind, _, name = source.partition(":")
        if kind == "scenario":
            return self._scenario_at(name, moment)
        if kind == "save":
            saved = self._read(self._save_path(name))
            decisions = saved["decisions"]
            base = {k: saved.get(k) for k in ("players", "settings", "seed")}
        elif source == "current":
            decisions = list(self.game.history)
            base = self.game.save()
        else:
            raise TableError("a replay's source is `current`, `save:NAME` or `scenario:NAME`")
        moment = max(0, min(moment, len(decisions)))
        key = json.dumps([source, base, decisions[:moment]], sort_keys=True, default=str)
        cached = self._replay
        if cached and cached[0] == key:
            return cached[2], len(decisions)
        try:
            game = Game(self.definition, self.start, players=base["players"],
                        settings=base.get("settings"), seed=base["seed"])
            for answer in decisions[:moment]:
                game.apply(answer)
        except (LudexError, TypeError, ValueError, KeyError) as exc:
            raise TableError(f"{source} cannot be replayed: {exc}") from None
        self._replay = (key, moment, game)
        return game, len(decisions)

    def _scenario_at(self, name: str, moment: int) -> tuple[Game, int]:
        from ..scenario import game_at_step
        from ..yamlio import load_file

        if name not in self.scenario_names():
            raise TableError(f"no scenario named `{name}`")
        path = self.definition.folder / "scenarios" / f"{name}.yaml"
        from ..errors import Collector

        doc = load_file(path, Collector())
        decisions = doc.data.get("decisions") if doc and isinstance(doc.data, dict) else None
        # not a list (`decisions: 5`): no steps to show; game_at_step says what is wrong
        total = len(decisions) if isinstance(decisions, list) else 0
        if not self._of_this_game(doc):  # drawn on this game's board, it would be nonsense
            raise TableError(f"scenario `{name}` is not of this game")
        try:
            return game_at_step(path, max(0, min(moment, total))), total
        except (LudexError, KeyError, TypeError, ValueError) as exc:
            raise TableError(f"scenario `{name}` cannot be shown: {exc}") from None

    def _of_this_game(self, doc) -> bool:
        """Whether a scenario's `game:` names the table's game (a game folder may hold a
        scenario of another game)."""
        from ..folders import UnknownGame
        from ..scenario import scenario_game

        if doc is None or not isinstance(doc.data, dict) or "game" not in doc.data:
            return True  # its own errors say what is wrong (game_at_step)
        try:
            return scenario_game(doc).resolve() == Path(self.definition.folder).resolve()
        except (UnknownGame, OSError, TypeError, ValueError):
            return False

    # -- what the page shows -----------------------------------------------------------------
    def view(self, viewer: int | None, text) -> dict:
        game = self.game
        asked = self.asked_seat()
        legal = self.legal() if asked is not None else []
        shown = table_view(game, text, viewer, legal)
        refusal = self.undo_refusal()
        return {**shown, "board": self.board.svg(game.view, text),
                "moment": len(game.history), "era": self.era, "seed": game.state["seed"],
                "players": game.state["settings"]["players"], "kinds": self.kinds,
                "asked_is_agent": asked is not None and self.agents[asked] is not None,
                "can_undo": refusal is None,
                # why the page's Undo is off, in its language (none: there is nothing to undo)
                "undo_refused": text.message(refusal.key, refusal.values)
                if refusal is not None and refusal.key else None}

    def replay_view(self, source: str, moment: int, text) -> dict:
        game, total = self.replay_at(source, moment)
        shown = table_view(game, text, None, [])
        shown.pop("question")
        return {**shown, "board": self.board.svg(game.view, text), "source": source,
                "moment": min(max(0, moment), total), "total": total}
