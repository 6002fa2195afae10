"""Semantic checks that span files: references resolve, file names match ids, seats cover every
player count, tables hold values of their declared types (and ranges that key rows:
ranges.py), locale files are well formed (locale_checks.py).

Each check reads a `LoadedGame` and reports to a `Collector`; none raises.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection

from . import memory_types, schemas
from .content import LoadedGame
from .errors import Collector, did_you_mean
from .locale_checks import check_locale_files
from .locale_engine_lines import check_engine_lines
from .locale_names import check_name_keys
from .ranges import check_ranges
from .yamlio import Document


def run_all(game: LoadedGame, errors: Collector) -> None:
    """Every semantic check, on the documents that passed their schemas. A manifest that
    failed its schema is the root cause of whatever else would be found: nothing more is
    checked until it is fixed."""
    manifest = game.docs.get("game")
    if manifest is None or str(manifest.path) not in game.schema_clean:
        return
    clean = game.schema_clean_view()
    for check in CHECKS:
        check(clean, errors)


def check_file_names(game: LoadedGame, errors: Collector) -> None:
    """File stems equal the ids inside them: card set, locale language, and a game kept in a
    `games/` collection (where `games/<id>/` is how an id finds it; elsewhere a game folder may
    have any name)."""
    manifest = game.docs.get("game")
    folder = game.files.manifest.parent
    if manifest is not None and manifest.path.name == "game.yaml" \
            and folder.resolve().parent.name == "games":
        _expect_equal(manifest, ("id",), folder.name, "game folder", errors)
    for doc in game.cards:
        _expect_equal(doc, ("id",), doc.path.stem, "file name", errors)
    for docs in game.locales.values():
        for doc in docs:
            _expect_equal(doc, ("lang",), doc.path.stem, "file name", errors)


def _expect_equal(doc: Document, path: tuple, expected: str, what: str, errors: Collector
                  ) -> None:
    actual = doc.data.get(path[0]) if isinstance(doc.data, dict) else None
    if isinstance(actual, str) and actual != expected:
        line, col = doc.pos(path)
        errors.error(str(doc.path), line, col, "content/file-name",
                     f"`{actual}` must equal its {what} `{expected}`")


def check_references(game: LoadedGame, errors: Collector) -> None:
    """Every string (or key) the schemas mark as an id (`$ref: #/$defs/<namespace>_id`) names
    an existing entity."""
    attributes = game.attributes()
    roles = [(role, doc) for role, doc in game.docs.items()]
    roles += [("cards", doc) for doc in game.cards]
    by_role: dict[str, tuple[dict, dict]] = {}  # one schema (and its plan) for every cards file
    for role, doc in roles:
        if role not in by_role:
            by_role[role] = (schemas.game_schema(role, game.game_id, attributes[role])
                             if role in schemas.EXTENSIBLE and attributes.get(role)
                             else schemas.base_schema(role)), {}
        schema, memo = by_role[role]
        for namespace, name, path, is_key in schemas.iter_refs(schema, doc.data, memo=memo):
            known = game.names.get(namespace, {})
            if name in known or namespace in ("clause", "memory_type"):
                # clauses: check_clause_references (any id without clauses.yaml); a memory's
                # type: check_memory (a type is no id the game defines)
                continue
            line, col = doc.key_pos(path) if is_key else doc.pos(path)
            errors.error(str(doc.path), line, col, "content/unknown-name",
                         f"unknown {namespace.replace('_', ' ')} `{name}`"
                         + did_you_mean(name, known))


def check_seats(game: LoadedGame, errors: Collector) -> None:
    """Every supported player count has seats, with the right number of them, no other count
    has any, and each power sits in at most one seat."""
    doc = game.docs.get("game")
    manifest = game.manifest
    players, seats = manifest.get("players"), manifest.get("seats")
    if doc is None or not isinstance(players, dict) or not isinstance(seats, dict):
        return
    low, high = players.get("min", 1), players.get("max", 1)
    for count in range(low, high + 1):
        if str(count) not in seats:
            line, col = doc.key_pos(("seats",))
            errors.error(str(doc.path), line, col, "content/missing-seats",
                         f"no seats for {count} players (players: {low}–{high})")
    for key, seating in seats.items():
        if not key.isdigit():
            continue
        if not low <= int(key) <= high:
            # the engine offers every count `seats` has (state.py), so `--players 2` would
            # start a game its rules were never written for (its tables have no row for 2)
            line, col = doc.key_pos(("seats", key))
            played_by = f"{low}" if low == high else f"{low}–{high}"
            errors.error(str(doc.path), line, col, "content/seats-outside-players",
                         f"seats for {key} players, but the game is played by {played_by} "
                         f"players (`players: {{min: {low}, max: {high}}}`): remove them, or "
                         f"widen `players`")
        if len(seating) != int(key):
            line, col = doc.pos(("seats", key))
            errors.error(str(doc.path), line, col, "content/seat-count",
                         f"{key} players need {key} seats, found {len(seating)}")
        seen: set[str] = set()
        for i, seat in enumerate(seating):
            for j, power in enumerate(seat):
                if power in seen:
                    line, col = doc.pos(("seats", key, i, j))
                    errors.error(str(doc.path), line, col, "content/duplicate-seat",
                                 f"power `{power}` is seated twice for {key} players")
                seen.add(power)


# A phase field that only means something beside another: (field, needs one of, why).
_PHASE_NEEDS = (
    ("order", ("each", "window"), "`order` orders the powers of `each` or the seats of "
     "`window`"),
    ("after_window", ("window",), "`after_window` runs after each seat's action window"),
    ("pass", ("window",), "`pass` says who may pass at the phase's action window"),
    ("skip", ("each", "window"), "`skip` leaves out powers' parts of `each` and seats' action "
     "windows"),
    ("rounds", ("effect", "window"), "`rounds` repeats the phase's effect and action window"),
    ("until", ("effect", "window"), "`until` repeats the phase's effect and action window"),
)

# What a phase does; a phase marked `written: false` does none of it.
_PHASE_WORK = ("effect", "each", "order", "rounds", "until", "window", "pass", "skip",
               "after_window",
               "after_round", "start", "end")


def check_phase_fields(game: LoadedGame, errors: Collector) -> None:
    """No phase field is silently ignored: each one that works only beside another (`order`
    with `each` or `window`…) has it."""
    doc = game.docs.get("procedures")
    if doc is None or not isinstance(doc.data, dict):
        return
    for i, phase in enumerate(doc.data.get("phases") or []):
        if not isinstance(phase, dict):
            continue
        if phase.get("written") is False:
            for name in _PHASE_WORK:
                if name in phase:
                    line, col = doc.key_pos(("phases", i, name))
                    errors.error(str(doc.path), line, col, "content/ignored-field",
                                 f"phase `{phase.get('id')}` is marked `written: false`: "
                                 f"reaching it does nothing, so its `{name}` would be ignored")
        _check_phase_procedures(doc, i, phase, errors)
        for name, needs, why in _PHASE_NEEDS:
            if name in phase and not any(n in phase for n in needs):
                line, col = doc.key_pos(("phases", i, name))
                wanted = " or ".join(f"`{n}`" for n in needs)
                errors.error(str(doc.path), line, col, "content/ignored-field",
                             f"{why}; phase `{phase.get('id')}` has no {wanted}, so it "
                             "would do nothing")


# The arguments the engine passes the procedure a phase field names: none, or the seat's power.
_PHASE_PROCEDURE_ARGUMENTS = {"start": 0, "end": 0, "after_round": 0, "after_window": 1}


def _check_phase_procedures(doc, i: int, phase: dict, errors: Collector) -> None:
    """A procedure a phase runs takes what the engine passes it: `start`, `end` and
    `after_round` nothing, `after_window` the seat's power. One with other parameters ran
    with them unset, and validated clean."""
    procedures = doc.data.get("procedures")
    params = {p.get("id"): p.get("params") or [] for p in procedures
              if isinstance(p, dict)} if isinstance(procedures, list) else {}
    for field, wanted in _PHASE_PROCEDURE_ARGUMENTS.items():
        named = phase.get(field)
        given = params.get(named) if isinstance(named, str) else None
        if isinstance(given, list) and len(given) != wanted:
            line, col = doc.pos(("phases", i, field))
            takes = "the power of the seat whose window closed" if wanted else "no arguments"
            errors.error(str(doc.path), line, col, "content/procedure-arguments",
                         f"`{field}` runs `{named}` with {takes}, but it has "
                         f"{len(given)} parameter{'s' if len(given) != 1 else ''} "
                         f"({', '.join(map(str, given)) or 'none'})")


def check_empty_procedures(game: LoadedGame, errors: Collector) -> None:
    """The procedure a zone's `empty:` names takes one parameter, the power the draw was for
    (`none` for a shared zone): one with more ran with them unset, and validated clean."""
    manifest, procedures = game.docs.get("game"), game.docs.get("procedures")
    if manifest is None or procedures is None or not isinstance(procedures.data, dict) \
            or not isinstance(manifest.data, dict):
        return
    listed = procedures.data.get("procedures")
    params = {p.get("id"): p.get("params") or [] for p in listed
              if isinstance(p, dict)} if isinstance(listed, list) else {}
    zones = manifest.data.get("zones")
    for i, zone in enumerate(zones if isinstance(zones, list) else []):
        named = zone.get("empty") if isinstance(zone, dict) else None
        given = params.get(named) if isinstance(named, str) else None
        if isinstance(given, list) and len(given) != 1:
            line, col = manifest.pos(("zones", i, "empty"))
            errors.error(str(manifest.path), line, col, "content/procedure-arguments",
                         f"a draw from `{zone.get('id')}` with none left runs `{named}` with "
                         "the power it draws for (`none` for a shared zone), but it has "
                         f"{len(given)} parameter{'s' if len(given) != 1 else ''} "
                         f"({', '.join(map(str, given)) or 'none'}): give it one")


def check_manifest_fields(game: LoadedGame, errors: Collector) -> None:
    """No manifest field is silently ignored: `until_reason` says why `until` ended a game."""
    doc = game.docs.get("game")
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    for i, counter in enumerate(data.get("counters") or []):
        if isinstance(counter, dict) and counter.get("visibility") == "owner" \
                and counter.get("per", "power") == "game":
            line, col = doc.key_pos(("counters", i, "visibility"))
            errors.error(str(doc.path), line, col, "content/ignored-field",
                         f"counter `{counter.get('id')}` is kept for the whole game: no power "
                         "owns it, so `visibility: owner` would hide it from nobody")
        _check_initial_in_range(doc, i, counter, errors)
    if "until_reason" in data and "until" not in data:
        line, col = doc.key_pos(("until_reason",))
        errors.error(str(doc.path), line, col, "content/ignored-field",
                     "`until_reason` says why the game ended when its `until` held; the "
                     "manifest has no `until`, so it would be ignored")


def _check_initial_in_range(doc, i: int, counter: object, errors: Collector) -> None:
    """A counter's `initial` lies within its `min` and `max`: every verb keeps a counter
    there (a gain past `max` is refused), so a start outside is a state no rule could reach,
    and its first change would be refused or clamped."""
    if not isinstance(counter, dict):
        return
    initial, low, high = counter.get("initial", 0), counter.get("min"), counter.get("max")
    if type(low) is int and type(high) is int and low > high:
        line, col = doc.pos(("counters", i, "min"))
        errors.error(str(doc.path), line, col, "content/out-of-range",
                     f"counter `{counter.get('id')}` has a `min` ({low}) above its `max` "
                     f"({high}): no value lies within them")
        return
    if type(initial) is not int:
        return
    outside = (type(low) is int and initial < low) or (type(high) is int and initial > high)
    if outside:
        bounds = " and ".join(f"{word} {value}" for word, value in (("min", low), ("max", high))
                              if type(value) is int)
        given = "initial" in counter
        below = type(low) is int and initial < low
        # an `initial` left out is 0: the bound it falls outside is the place to look
        line, col = doc.pos(("counters", i, "initial" if given else "min" if below else "max"))
        errors.error(str(doc.path), line, col, "content/out-of-range",
                     f"counter `{counter.get('id')}` starts at {initial}"
                     + ("" if given else " (it gives no `initial`)")
                     + f", outside its {bounds}"
                     + ("" if given else f": give it `initial: {low if below else high}` or "
                        "the value it starts at"))


def check_action_windows(game: LoadedGame, errors: Collector) -> None:
    """An action's `window` is one that some phase opens: a misspelled window would leave the
    action never offered, without a word."""
    doc = game.docs.get("procedures")
    if doc is None or not isinstance(doc.data, dict):
        return
    phases, actions = doc.data.get("phases"), doc.data.get("actions")
    opened = {phase["window"] for phase in phases if isinstance(phase, dict)
              and isinstance(phase.get("window"), str)} if isinstance(phases, list) else set()
    for i, action in enumerate(actions if isinstance(actions, list) else []):
        if isinstance(action, dict) and "from" in action and "card" not in action:
            line, col = doc.key_pos(("actions", i, "from"))
            errors.error(str(doc.path), line, col, "content/ignored-field",
                         f"action `{action.get('id')}` takes no card (it has no `card:`), so "
                         "its `from` would be ignored: give it `card: \"true\"` to take any "
                         "card there, or a condition on `card`")
        window = action.get("window") if isinstance(action, dict) else None
        if isinstance(window, str) and window not in opened:
            line, col = doc.pos(("actions", i, "window"))
            errors.error(str(doc.path), line, col, "content/unknown-window",
                         f"no phase opens the window `{window}` of action `{action.get('id')}`, "
                         "so it would never be offered" + did_you_mean(window, sorted(opened)))


# where rules name the clauses they encode: (role, lists of entries with `clause:`)
_CLAUSE_FIELDS = (("procedures", ("phases", "procedures", "functions", "actions", "triggers")),
                  ("tables", ("tables",)), ("cards", ("cards",)))


def check_clause_references(game: LoadedGame, errors: Collector) -> None:
    """Every clause a rule names (`clause:`) is one of the game's `clauses.yaml` (a game that
    declares none may name any, as its scenarios may): a misspelled id would count for
    nothing in `coverage` and `mutate --clause`, without a word."""
    known = game.names.get("clause") or {}
    if not known:
        return
    for role, sections in _CLAUSE_FIELDS:
        docs = game.cards if role == "cards" else [game.docs.get(role)]
        for doc in docs:
            _check_clauses_named(game, doc, sections, known, errors)


def _check_clauses_named(game: LoadedGame, doc: Document | None, sections: tuple[str, ...],
                         known: dict, errors: Collector) -> None:
    if doc is None or not isinstance(doc.data, dict):
        return
    for section in sections:
        entries = doc.data.get(section)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            clause = entry.get("clause") if isinstance(entry, dict) else None
            named = [((section, i, "clause"), clause)] if isinstance(clause, str) else [
                ((section, i, "clause", j), c) for j, c in enumerate(clause)
                if isinstance(c, str)] if isinstance(clause, list) else []
            for path, ident in named:
                if ident not in known:
                    line, col = doc.pos(path)
                    errors.error(str(doc.path), line, col, "content/unknown-clause",
                                 f"`{ident}` is not a clause of {game.game_id} (its "
                                 "clauses.yaml)" + did_you_mean(ident, sorted(known)))


_COLUMN_TYPES: dict[str, Callable[[object], bool]] = {
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
}


_COLUMN_WORDS = {"integer": "whole numbers", "string": "texts", "boolean": "true or false"}


def _cell(value: object) -> str:
    """A cell's value as written, a text shown as one: `meta: "20"` in an integer column read
    as if the number 20 were refused when shown bare."""
    if isinstance(value, str):
        return "the text " + json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_tables(game: LoadedGame, errors: Collector) -> None:
    """Rows use only declared columns, with values of the declared type or entity kind."""
    doc = game.docs.get("tables")
    if doc is None:
        return
    for t, table in enumerate(game.data("tables").get("tables") or []):
        columns = table.get("columns") or {}
        for r, row in enumerate(table.get("rows") or []):
            for column, value in row.items():
                path = ("tables", t, "rows", r, column)
                kind = columns.get(column)
                if kind is None:
                    line, col = doc.key_pos(path)
                    errors.error(str(doc.path), line, col, "content/unknown-column",
                                 f"table `{table.get('id')}` has no column `{column}`"
                                 + did_you_mean(column, columns))
                    continue
                if value is None or kind == "range":  # a range: ranges.check_ranges
                    continue
                if kind in _COLUMN_TYPES:
                    if not _COLUMN_TYPES[kind](value):
                        line, col = doc.pos(path)
                        errors.error(str(doc.path), line, col, "content/wrong-type",
                                     f"column `{column}` holds {_COLUMN_WORDS[kind]}, not "
                                     f"{_cell(value)}")
                elif value not in game.names.get(kind, {}):
                    line, col = doc.pos(path)
                    errors.error(str(doc.path), line, col, "content/unknown-name",
                                 f"unknown {kind} `{value}`"
                                 + did_you_mean(str(value), game.names.get(kind, {})))


def check_space_markers(game: LoadedGame, errors: Collector) -> None:
    """Starting markers on the map hold values their declared type allows."""
    doc = game.docs.get("map")
    if doc is None:
        return
    kinds = {m["id"]: m for m in game.manifest.get("space_state") or [] if "id" in m}
    for s, space in enumerate(game.data("map").get("spaces") or []):
        markers = (space.get("start") or {}).get("markers") or {}
        for marker, value in markers.items():
            spec = kinds.get(marker)
            if spec is None or value is None:
                continue  # unknown markers are reported by check_references
            path = ("spaces", s, "start", "markers", marker)
            line, col = doc.pos(path)
            problem = marker_problem(spec, value, game.names["power"])
            if problem:
                errors.error(str(doc.path), line, col, "content/bad-marker",
                             f"marker `{marker}`: {problem}")


def check_connections(game: LoadedGame, errors: Collector) -> None:
    """No two connections lead from one space to the same other: `neighbours(a)` would list
    `b` twice, and a question offering the neighbours would offer it twice. Reported at the
    later one, naming the line of the first."""
    doc = game.docs.get("map")
    if doc is None or not isinstance(doc.data, dict):
        return
    seen: dict[tuple, int] = {}  # (from, to) -> the index of the first connection leading so
    connections = doc.data.get("connections")
    declared = game.manifest.get("connection_kinds") if isinstance(game.manifest, dict) else None
    kinds = [k for k in declared if isinstance(k, str)] if isinstance(declared, list) else []
    for i, connection in enumerate(connections if isinstance(connections, list) else []):
        between = connection.get("between") if isinstance(connection, dict) else None
        if not isinstance(between, list) or len(between) != 2 \
                or not all(isinstance(s, str) for s in between):
            continue
        a, b = between
        if kinds and connection.get("kind") is None:
            _without_kind(doc, i, a, b, kinds, errors)
        leads = [(a, b)] if connection.get("one_way") is True else [(a, b), (b, a)]
        again = [edge for edge in leads if edge in seen]
        if again:
            line, col = doc.pos(("connections", i, "between"))
            first_line = doc.pos(("connections", seen[again[0]]))[0]
            (x, y), said = again[0], (f"`{a}` and `{b}` are connected already (line "
                                      f"{first_line}): each would be listed twice among "
                                      "the other's `neighbours`")
            if len(again) == 1:
                said = (f"`{x}` leads to `{y}` already (line {first_line}): `neighbours({x})` "
                        f"would list `{y}` twice")
            errors.error(str(doc.path), line, col, "content/duplicate-connection",
                         said + "; keep one connection")
        for edge in leads:
            seen.setdefault(edge, i)


def _without_kind(doc, i: int, a: str, b: str, kinds: list[str], errors: Collector) -> None:
    """A connection left without a `kind` in a game that declares its kinds: the rules read
    none for it (`connection_kind(a, b) == "road"` is false, `neighbours(s, "road")` leaves
    it out), which a designer who forgot it never meant. A warning, not an error: a kindless
    connection is a thing the rules may read (`connection_kind` gives none)."""
    line, col = doc.pos(("connections", i))
    errors.warning(str(doc.path), line, col, "content/connection-without-kind",
                   f"the connection between `{a}` and `{b}` has no `kind`, though the game "
                   f"declares `connection_kinds` ({', '.join(kinds)}): `connection_kind({a}, "
                   f"{b})` is none and `neighbours({a}, …)` of any kind leaves it out; give it "
                   f"one (`kind: {kinds[0]}`)")


def check_memory(game: LoadedGame, errors: Collector) -> None:
    """The declared memory's types exist and its initial values fit them (memory_types.py)."""
    doc = game.docs.get("game")
    if doc is None or not isinstance(game.manifest.get("memory"), list):
        return
    ids: dict[str, Collection[str]] = {kind: game.names.get(kind, {})
                                       for kind in ("power", "space", "zone", "piece")}
    ids["card"] = set(game.card_instances())
    memory_types.check_declarations(doc, ids, errors)


def marker_problem(spec: dict, value, powers) -> str | None:
    """What is wrong with `value` for a marker declared by `spec` (its `space_state` entry),
    if anything: on the map's start and in a scenario's state alike."""
    kind = spec.get("type")
    shown = value if isinstance(value, str) else json.dumps(value)  # `true`, not `True`
    if kind == "power":
        if not isinstance(value, str) or value not in powers:
            return f"unknown power `{shown}`" + did_you_mean(str(shown), list(powers))
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"`{shown}` is not true or false"
    elif kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"`{shown}` is not a whole number"
        if ("min" in spec and value < spec["min"]) or ("max" in spec and value > spec["max"]):
            return f"{value} is outside {spec.get('min', '…')}–{spec.get('max', '…')}"
    return None


def check_card_owners(game: LoadedGame, errors: Collector) -> None:
    """A card that starts in a per-power zone (a deck, a hand) names the power it belongs to:
    on the card or on its set."""
    per_power = {z.get("id") for z in game.manifest.get("zones") or []
                 if isinstance(z, dict) and z.get("per") == "power"}
    for doc in game.cards:
        for i, card in enumerate(doc.data.get("cards") or []):
            zone = card.get("zone", doc.data.get("zone"))
            if zone in per_power and not card.get("owner", doc.data.get("owner")):
                line, col = doc.pos(("cards", i, "id"))
                errors.error(str(doc.path), line, col, "content/no-owner",
                             f"card `{card.get('id')}` starts in `{zone}`, which every power "
                             "has its own of: give the card (or its set) an `owner`")


CHECKS = [
    check_file_names,
    check_card_owners,
    check_phase_fields,
    check_empty_procedures,
    check_manifest_fields,
    check_action_windows,
    check_clause_references,
    check_references,
    check_seats,
    check_tables,
    check_ranges,
    check_space_markers,
    check_memory,
    check_connections,
    check_locale_files,
    check_engine_lines,
    check_name_keys,
]
