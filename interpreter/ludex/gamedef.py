"""A game's static definition for the engine: every id with its kind, attributes, tables, and
every effect compiled to closures. Built from a checked `LoadedGame`; compile errors become
diagnostics at the effect's place in its YAML file."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ast, memory_types
from .attribute_names import check_attribute_names, check_memory_names
from .compiler import CompileError, Compiler, Run
from .connections import index_connections
from .content import LoadedGame
from .counter_comparisons import check_counter_comparisons
from .errors import Collector, did_you_mean
from .game_ends import check_game_ends, check_shared_wins
from .inlining import inline_plan
from .local_names import check_local_names
from .locale_checks import check_completeness, check_message_arguments
from .locale_files import (
    ENGINE_SOURCE,
    RECORD_SECTIONS,
    engine_messages,
    languages,
    primary_language,
)
from .me_checks import check_me_is_none
from .parser import Origin, origin_of, parse_once
from .payment import substitutes_by_counter
from .power_arguments import check_power_arguments
from .pysource import only_looks
from .ranges import RangeIndex, range_column
from .resumable import plan_program
from .runtime import Context, RuleError, Where
from .static_checks import (
    MessageUse,
    Source,
    add_use,
    changing_calls,
    check_card_passing,
    check_recalled_keys,
    check_require_reasons,
    filled_arguments,
    message_keys,
    message_uses,
    nodes,
)
from .trigger_inputs import sections_read
from .typecheck import check_types
from .unreachable import check_unreachable
from .window_checks import check_end_window_outside_actions
from .yamlio import Document

# Namespaces that effects may name directly.
NAMED_KINDS = ("power", "space", "zone", "counter", "flag", "setting", "piece", "marker",
               "table", "card")
_MASK64 = (1 << 64) - 1
# the generator's step: each value it gives adds it to `state["rng"]` (splitmix64's Weyl
# sequence); odd, so it has an inverse modulo 2**64 and the steps between two states can be
# counted (GameDef.draws_between)
_STEP = 0x9E3779B97F4A7C15
_STEP_INVERSE = pow(_STEP, -1, 1 << 64)
_CARD = {"card": "card"}  # the `card` parameter of card effects and card actions


@dataclass
class Compiled:
    """One compiled effect or expression and the frame size it needs."""

    run: Run
    size: int
    where: Where
    # an expression calling nothing that writes, the generator included (pysource.only_looks):
    # it may run on the state itself, no copy (runtime.looking)
    only_reads: bool = False
    # the expression `true` itself (a card filter that lets every card through)
    always: bool = False
    tree: Any = field(default=None, repr=False, compare=False)  # its syntax tree, as compiled

    def __post_init__(self) -> None:
        self.blank = (None,) * self.size  # the frame's slots past the arguments

    def __call__(self, ctx: Context, args: list | tuple = ()) -> Any:
        return self.run(ctx, [*args, *self.blank[len(args):]])


# A rewrite sees every effect's syntax tree as parsed — (file, path of the text in its YAML
# document, tree) — and returns the tree to compile: mutation testing's way in.
Rewrite = Callable[[str, tuple, ast.Node], ast.Node]


@dataclass
class GameDef:
    game_id: str
    manifest: dict
    kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    space_ids: list[str] = field(default_factory=list)
    power_ids: list[str] = field(default_factory=list)
    spaces: dict[str, dict] = field(default_factory=dict)  # static attributes
    powers: dict[str, dict] = field(default_factory=dict)
    pieces: dict[str, dict] = field(default_factory=dict)
    zones: dict[str, dict] = field(default_factory=dict)
    counters: dict[str, dict] = field(default_factory=dict)
    markers: dict[str, dict] = field(default_factory=dict)
    # declared memory (memory_types.py): key -> its type as typecheck.py names it, None when
    # the game declares none; and the value each key starts with
    memory_types: dict[str, str] | None = None
    memory_initial: dict[str, Any] = field(default_factory=dict)
    # the declared keys players see (`visibility: public`), in the manifest's order
    public_memory: list[str] = field(default_factory=list)
    tables: dict[str, list[dict]] = field(default_factory=dict)
    table_columns: dict[str, dict[str, str]] = field(default_factory=dict)  # id -> column kinds
    # id -> its rows by the ranges of its `range` column, for `row_for` (ranges.py)
    table_ranges: dict[str, RangeIndex] = field(default_factory=dict)
    cards: dict[str, dict] = field(default_factory=dict)  # card id -> definition (+ owner/zone)
    neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the map's connections by kind, for `connection_kind` and `neighbours(s, kind)`
    # (connections.py): space -> space -> kind, and (space, kind) -> spaces
    crossings: dict[str, dict[str, str | None]] = field(default_factory=dict)
    neighbours_by_kind: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    connection_kinds: tuple[str, ...] = ()  # the manifest's `connection_kinds`
    procedure_params: dict[str, tuple[str, ...]] = field(default_factory=dict)
    function_params: dict[str, tuple[str, ...]] = field(default_factory=dict)
    functions: dict[str, Compiled] = field(default_factory=dict)
    procedures: dict[str, Compiled] = field(default_factory=dict)
    phases: dict[str, Compiled | None] = field(default_factory=dict)
    card_events: dict[str, Compiled] = field(default_factory=dict)
    card_conditions: dict[str, Compiled] = field(default_factory=dict)
    card_abilities: dict[str, dict[str, dict]] = field(default_factory=dict)
    ability_kinds: dict[str, frozenset[str]] = field(default_factory=dict)  # card -> its kinds
    static: dict[str, dict] = field(default_factory=dict)  # id -> attributes of spaces etc.
    # the map as drawn (ludex/table): where spaces sit, when the map says, and every
    # connection with its kind (the rules read kinds through `crossings` above)
    space_positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    connections: list[dict] = field(default_factory=list)
    per_power_zones: set[str] = field(default_factory=set)  # looked up on every card move
    private_zones: set[str] = field(default_factory=set)
    conversions: list[dict] = field(default_factory=list)
    substitutes: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # by counter
    folder: Path | None = None  # the game folder it was loaded from
    rewrite: Rewrite | None = None  # applied to each tree before it is compiled
    counter_bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
    # per-power counters only their power sees (`visibility: owner`: a sealed bid)
    secret_counters: set[str] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)  # attributes of spaces, powers, pieces
    card_names: set[str] = field(default_factory=set)  # attributes of cards
    # what a card may be asked for without an error (`none` where it has none): its
    # attributes, the fields any card may have, and its state (`owner`, `card`, `zone`)
    card_fields: set[str] = field(default_factory=set)
    # every other attribute name: of spaces (markers included), powers, pieces, table columns
    attribute_names: set[str] = field(default_factory=set)
    # content functions: id -> (expression tree, file, params); those safe to inline
    function_trees: dict[str, tuple[Any, str, tuple[str, ...]]] = field(default_factory=dict)
    procedure_trees: dict[str, tuple[Any, str, tuple[str, ...]]] = field(default_factory=dict)
    inlinable: set[str] = field(default_factory=set)
    function_order: list[str] = field(default_factory=list)  # those with trees, callees first
    phase_specs: dict[str, dict] = field(default_factory=dict)
    phase_until: dict[str, Compiled] = field(default_factory=dict)  # phase id -> `until`
    phase_pass: dict[str, bool | Compiled] = field(default_factory=dict)  # phase id -> `pass`
    phase_skip: dict[str, Compiled] = field(default_factory=dict)  # phase id -> `skip`
    # phase id -> its effect cut into resumable steps (resumable.py), when it may ask inside
    # a loop; None: the effect runs as one unit
    phase_plans: dict[str, Any] = field(default_factory=dict)
    actions: dict[str, dict] = field(default_factory=dict)  # id -> spec + compiled parts
    triggers: list[dict] = field(default_factory=list)  # spec + compiled parts
    score: Compiled | None = None
    tie_break: Compiled | None = None  # ranks powers tied for the best score; None: a draw
    heuristic: Compiled | None = None  # how well a power stands mid-game (look-ahead agents)
    until: Compiled | None = None  # the manifest's `until`: the game ends after such a turn
    locales: dict[str, dict[str, dict]] = field(default_factory=dict)  # lang -> section -> …
    language: str = "en"  # the primary language: what other languages fall back to
    languages: list[str] = field(default_factory=list)  # those with a locale, primary first
    sources: list[Source] = field(default_factory=list)  # every parsed effect, for checks
    window_sources: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    # where the manifest says its `sequence`: where a game that never ends is pointed at
    sequence_source: tuple[str, int, int] | None = None
    fast_paths: bool = True  # compile with the fused shapes of fastpaths.py
    # compiled to be played; False: only to be checked (`ludex validate`; engine.Game
    # refuses it), so without the work that only play needs and that changes no diagnostic:
    # no expression written out as Python source (pysource.py), no content function
    # inlined, no loop's static tests worked out in advance nor static calls folded
    # (fastpaths.py), no card filter's parts hoisted (hoisting.py), no values kept for
    # replays (replays.py), no look at which expressions only read, no phase cut into
    # steps (resumable.py)
    play: bool = True
    type_kinds: Any = None  # typecheck.py's view of its ids and functions, worked out once

    def localizer(self, lang: str | None = None) -> Any:
        """Display text of this game in `lang` (default: its primary language), copies of a
        card told apart."""
        from .locale import Localizer

        return Localizer(self.locales, lang, self.language,
                         copies={c: spec.get("copies", 1) for c, spec in self.cards.items()})

    # -- used by the compiler --------------------------------------------------------------
    @property
    def manifest_flags(self) -> list[str]:
        return [f["id"] for f in self.manifest.get("flags") or []]

    def ids(self, kind: str) -> list[str]:
        return [name for name, kinds in self.kinds.items() if kind in kinds]

    def id_set(self, kind: str) -> frozenset[str]:
        """`ids(kind)` as a set, worked out once: every id is known before anything
        compiles, and the compiler asks for them at every argument it checks."""
        found = self.id_sets.get(kind)
        if found is None:
            if not self.id_sets:  # every kind's in one pass over the ids, not one per kind
                by_kind: dict[str, list[str]] = {}
                for name, kinds in self.kinds.items():
                    for each in kinds:
                        by_kind.setdefault(each, []).append(name)
                self.id_sets.update((each, frozenset(names)) for each, names in by_kind.items())
            found = self.id_sets.setdefault(kind, frozenset())
        return found

    def call(self, ctx: Context, name: str, args: list, where: Where) -> Any:
        """Run a procedure by name (for verbs that run one, like a deck's `empty`)."""
        ctx.steps += 1  # calls count against the step budget: recursion always ends
        if ctx.steps > ctx.budget:
            ctx.step(where)
        compiled = self.procedures.get(name)
        if compiled is None:
            raise RuleError("effect/unknown-function", f"procedure `{name}` did not compile",
                            where)
        # Compiled.__call__ written in line: a deck's `empty` runs on every reshuffling draw
        return compiled.run(ctx, [*args, *compiled.blank[len(args):]])

    def attribute_reader(self, ctx: Context, value: Any, name: str, where: Where) -> Any:
        """`value.name`: a table row's cell, a space's marker or attribute, a card's or a
        power's or a piece's attribute. Only data declared in content is reachable."""
        cls = value.__class__
        if cls is dict:
            if name in value:
                return value[name]
        elif cls is str:
            space = ctx.state["spaces"].get(value)
            if space is not None and name in space["markers"]:
                return space["markers"][name]
            static = self.static.get(value)
            if static is not None and name in static:
                return static[name]
            instance = ctx.state["cards"].get(value)
            if instance is not None:
                if name == "owner":  # nobody's is "" in the state, none in the language
                    return instance["owner"] or None
                if name == "card":
                    return instance["card"]
                if name == "zone":
                    return instance["zone"][0]
                definition = self.cards[instance["card"]]
                if name in definition:
                    return definition[name]
                if name in self.card_fields or name in self.attribute_names:
                    # another card's, one this card leaves out, or another kind's (a list of
                    # cards and spaces filtered on `x.kind`): none, as ever
                    return self.card_defaults.get(name)
                raise RuleError("effect/unknown-attribute", f"nothing in the game has an "
                                f"attribute `{name}`" + did_you_mean(name, self.card_fields),
                                where)
        raise RuleError("effect/unknown-attribute", f"`{value}` has no attribute `{name}`",
                        where)

    # -- seeded randomness: splitmix64, the same on every Python and platform ---------------
    @staticmethod
    def rng_next(state: dict) -> int:
        state["rng"] = (state["rng"] + 0x9E3779B97F4A7C15) & _MASK64
        z = state["rng"]
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    @staticmethod
    def draws_between(before: int, after: int) -> int:
        """How many values the generator gave between two of its states (`state["rng"]` then
        and later): each one — a die, a swap of a shuffle, a random pick's — adds the same
        odd step to it, so the count is exact (up to 2**64 values), whatever verb, procedure or
        trigger drew them; 0: the game did not draw on chance at all in between."""
        return ((after - before) * _STEP_INVERSE) & _MASK64

    def rng_int(self, state: dict, low: int, high: int) -> int:
        """Uniform in [low, high], by rejection so no value is favoured."""
        span = high - low + 1
        limit = (1 << 64) - (1 << 64) % span
        while True:
            value = self.rng_next(state)
            if value < limit:
                return low + value % span

    def rng_shuffle(self, state: dict, items: list) -> None:
        """Fisher-Yates, each swap's index drawn as `rng_int(state, 0, i)` draws it; the
        generator's steps are written out here, its state kept in a local until the end (a
        shuffle is most of the work of a reshuffling draw)."""
        rng = state["rng"]
        for i in range(len(items) - 1, 0, -1):
            span = i + 1
            limit = (1 << 64) - (1 << 64) % span
            while True:  # rejection: a value past the last whole multiple of span is redrawn
                rng = (rng + 0x9E3779B97F4A7C15) & _MASK64
                value = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
                value ^= value >> 31
                if value < limit:
                    break
            j = value % span
            items[i], items[j] = items[j], items[i]
        state["rng"] = rng

    card_defaults: dict[str, Any] = field(default_factory=dict)
    # worked out once while compiling: id sets by kind (id_set), and which calls only look,
    # by name (hoisting.pure_call)
    id_sets: dict[str, frozenset] = field(default_factory=dict, repr=False, compare=False)
    pure_calls: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)
    # worked out when first listed: (action, card) -> whether it cannot refuse
    # (quiet_actions.py); (action, card) -> the guard that decides it, or None, and action ->
    # its compiled guard (action_guards.py); what the analyses learn of the content on the way
    quiet_actions: dict = field(default_factory=dict, repr=False, compare=False)
    action_guards: dict = field(default_factory=dict, repr=False, compare=False)
    # (action, card) -> True when it is quiet, else its deciding guard or None: the two above
    # in one look-up, for `action_guards.verdict` (asked for every window option tried)
    option_deciders: dict = field(default_factory=dict, repr=False, compare=False)
    analysis_memo: dict = field(default_factory=dict, repr=False, compare=False)
    space_defaults: dict[str, Any] = field(default_factory=dict)
    # the fingerprint of the files compiled (saves.fingerprint), taken as they loaded: a save
    # records the content played, not what the files say when it is written
    content: str | None = field(default=None, compare=False)


def _cardless(diagnostics: list) -> list:
    """An action's errors, `card` unknown in one that takes no card told why (a designer
    wrote `from:` and read seven bare "unknown name `card`")."""
    from dataclasses import replace

    return [replace(d, message=d.message + ": this action takes no card — give it `card: "
                    "\"true\"` (any card) or a condition on `card`, and it is offered once per "
                    "card") if d.code == "effect/unknown-name"
            and d.message.startswith(("unknown name `card`", "unknown card `card`")) else d
            for d in diagnostics]


def _card_schema_fields() -> tuple[str, ...]:
    """The fields the base card schema allows on any card (`event`, `condition`…)."""
    from .schemas import base_schema

    card = base_schema("cards").get("$defs", {}).get("card", {})
    return tuple(card.get("properties", {}))


def build_definition(game: LoadedGame, errors: Collector, fast_paths: bool = True,
                     rewrite: Rewrite | None = None, play: bool = True) -> GameDef:
    """Index a loaded game and compile all of its effects; problems go to `errors`.
    `fast_paths=False` compiles without fused shapes (to check that they agree);
    `play=False`: a definition only checked, never played, compiled without what only
    speeds play (GameDef.play); its diagnostics are the same."""
    manifest = game.manifest
    definition = GameDef(game.game_id, manifest, fast_paths=fast_paths, play=play)
    definition.rewrite = rewrite
    definition.folder = game.files.folder
    for namespace in NAMED_KINDS:
        for ident in game.names.get(namespace, {}):
            definition.kinds[ident] = (*definition.kinds.get(ident, ()), namespace)
    for setting in ("players",):
        definition.kinds.setdefault(setting, ("setting",))
    _index_static(definition, game)
    _compile_all(definition, game, errors)
    definition.language = primary_language(game)
    definition.languages = languages(game)
    definition.locales = _merge_locales(game)
    uses = list(message_uses(definition.sources, definition.analysis_memo))
    used = message_keys(uses, definition.window_sources)
    filled = filled_arguments(uses, definition.window_sources)
    reason = game.manifest.get("until_reason")
    if isinstance(reason, str) and "until" in game.manifest:  # the reason a game ends with
        where = (str(game.files.manifest), *game.docs["game"].pos(("until_reason",)))
        used.setdefault(reason, where)
        add_use(filled, MessageUse(reason, where, where, "`until_reason`", 0))
    check_completeness(game, used, errors, filled)
    check_attribute_names(game, definition.cards, errors)
    check_memory_names(game, errors)
    check_message_arguments(game, filled, errors)
    check_card_passing(definition, definition.sources, errors)
    check_require_reasons(definition.sources, errors)
    check_local_names(definition.sources, errors, definition.analysis_memo)
    check_unreachable(definition.sources, errors,
                      {name: tree for name, (tree, *_) in definition.procedure_trees.items()})
    check_power_arguments(definition, definition.sources, errors)
    check_counter_comparisons(definition, definition.sources, errors)
    check_shared_wins(definition, definition.sources, errors)
    check_me_is_none(definition, errors)
    check_end_window_outside_actions(definition, errors)
    if game.docs.get("game") is not None:
        check_game_ends(game.docs["game"], definition.sources, errors)
    _check_conditions_tested(definition, game, errors)
    if _all_clean(game):  # else kinds and attributes are partly unknown: the pass would guess
        check_types(definition, definition.sources, errors)
        # a `remember` may be in what failed
        check_recalled_keys(definition.sources, errors, definition.memory_types)
    return definition


def _check_conditions_tested(definition: GameDef, game: LoadedGame, errors: Collector) -> None:
    """A card's `condition` is what `event_allowed(card)` tests; `play_event` does not, so a
    game whose rules play events but never call `event_allowed` would play every event whatever
    its card's condition says: a warning at the first card with one."""
    if not definition.card_conditions:
        return
    memo = definition.analysis_memo
    called = {node.name for source in definition.sources for node in nodes(source.tree, memo)
              if isinstance(node, ast.Call)}
    if "play_event" not in called or "event_allowed" in called:
        return
    doc, i = next((doc, i) for doc, i, card in _clean_cards(game)
                  if card.get("id") in definition.card_conditions)
    card = doc.data["cards"][i]["id"]
    line, col = doc.key_pos(("cards", i, "condition"))
    count = len(definition.card_conditions)
    errors.warning(str(doc.path), line, col, "content/untested-condition",
                   f"card `{card}` has a `condition`"
                   + (f" (as {count - 1} more {'card has' if count == 2 else 'cards have'})"
                      if count > 1 else "")
                   + ", but no rule tests one: `play_event` plays an event whatever its "
                   "condition says. Test it where the card is offered or played, with "
                   "`event_allowed(card)` in the action's card filter or a `require`")


def _all_clean(game: LoadedGame) -> bool:
    """Every rules and cards file loaded and passed its schema (locales do not matter here)."""
    docs = [*game.docs.values(), *game.cards]
    return len(docs) == len(game.files.all_paths()) - len(game.files.locales) and all(
        str(doc.path) in game.schema_clean for doc in docs)


def _merge_locales(game: LoadedGame) -> dict[str, dict[str, dict]]:
    """Per language: the engine's messages, then the game's rules and cards locales. Entries of
    the right shape are taken even from a file with schema errors elsewhere, so that one bad
    entry does not make the rest of the file look missing."""
    merged: dict[str, dict[str, dict]] = {}
    for lang in sorted({*game.locales, primary_language(game), ENGINE_SOURCE}):
        tables: dict[str, dict] = {"messages": {}}
        for doc in game.locales.get(lang, []):
            for section, items in (doc.data or {}).items():
                if not isinstance(items, dict) or section in RECORD_SECTIONS:
                    continue
                bucket = tables.setdefault(section, {})
                for key, value in items.items():
                    if isinstance(value, str) or (isinstance(value, dict)
                                                  and isinstance(value.get("name"), str)):
                        bucket.setdefault(key, value)
        tables["messages"] = {**engine_messages(lang), **tables["messages"]}  # the game's win
        merged[lang] = tables
    return merged


def _clean(game: LoadedGame, role: str) -> dict:
    """A rules file's data, or {} when it failed its schema (its errors are already reported;
    compiling from malformed data would only add noise)."""
    doc = game.docs.get(role)
    if doc is None or str(doc.path) not in game.schema_clean:
        return {}
    return doc.data


def _clean_cards(game: LoadedGame) -> Iterator[tuple[Document, int, dict]]:
    """(file, index, card) for each card that passed its schema: every card of a clean file,
    and the clean cards of a file whose errors all lie inside other cards (a misspelt key on
    one card does not hide the next card's effect errors until it is fixed)."""
    for doc in game.cards:
        path = str(doc.path)
        broken = set() if path in game.schema_clean else game.broken_cards.get(path)
        if broken is None:
            continue
        for i, card in enumerate(doc.data.get("cards") or []):
            if i not in broken:
                yield doc, i, card


def _index_static(d: GameDef, game: LoadedGame) -> None:
    m = _clean(game, "game")
    d.power_ids = [p["id"] for p in m.get("powers") or []]
    d.powers = {p["id"]: {"tie_break": p.get("tie_break", 0), **(p.get("attributes") or {})}
                for p in m.get("powers") or []}
    d.pieces = {p["id"]: {"owner": p.get("owner"), "unique": p.get("unique", False),
                          **(p.get("attributes") or {})}
                for p in m.get("pieces") or []}
    d.zones = {z["id"]: z for z in m.get("zones") or []}
    d.per_power_zones = {z for z, spec in d.zones.items() if spec.get("per") == "power"}
    d.private_zones = {z for z, spec in d.zones.items() if spec.get("private")}
    d.counters = {c["id"]: c for c in m.get("counters") or []}
    d.conversions = list(m.get("conversions") or [])
    d.substitutes = substitutes_by_counter(d.conversions)
    d.secret_counters = {c for c, spec in d.counters.items()
                         if spec.get("visibility") == "owner"}
    d.counter_bounds = {c: (spec.get("min", -math.inf), spec.get("max", math.inf))
                        for c, spec in d.counters.items()}
    d.markers = {s["id"]: s for s in m.get("space_state") or []}
    d.memory_types = memory_types.types_by_key(m)
    d.memory_initial = {e["id"]: e.get("initial") for e in memory_types.declared(m) or []}
    d.public_memory = [e["id"] for e in memory_types.declared(m) or []
                       if e.get("visibility") == "public"]
    d.space_defaults = {k: v.get("default") for k, v in (m.get("space_attributes") or {}).items()}
    d.card_defaults = {k: v.get("default") for k, v in (m.get("card_attributes") or {}).items()}
    spaces = _clean(game, "map").get("spaces") or []
    d.space_ids = [s["id"] for s in spaces]
    d.spaces = {s["id"]: {k: v for k, v in s.items()
                          if k not in ("start", "comment", "source", "position")}
                for s in spaces}
    d.space_positions = {s["id"]: (float(s["position"][0]), float(s["position"][1]))
                         for s in spaces if s.get("position")}
    d.connections = [{"between": list(c["between"]), "kind": c.get("kind"),
                      "one_way": bool(c.get("one_way"))}
                     for c in _clean(game, "map").get("connections") or []]
    index = index_connections(d.connections)
    d.neighbours, d.crossings, d.neighbours_by_kind = index.neighbours, index.kinds, index.by_kind
    d.connection_kinds = tuple(k for k in m.get("connection_kinds") or [] if isinstance(k, str))
    d.tables = {t["id"]: t.get("rows") or [] for t in _clean(game, "tables").get("tables") or []}
    d.table_columns = {t["id"]: t.get("columns") or {}
                       for t in _clean(game, "tables").get("tables") or []}
    d.table_ranges = {table: RangeIndex.of(column, d.tables[table])
                      for table, columns in d.table_columns.items()
                      if (column := range_column(columns)) is not None}
    # Static attributes by id, defaults filled in, for `x.attr` (pieces, powers, then spaces:
    # a later kind wins when two share an id).
    d.static = {**d.pieces, **d.powers,
                **{sid: {**d.space_defaults, **attrs} for sid, attrs in d.spaces.items()}}
    for doc, _, card in _clean_cards(game):
        entry = {**d.card_defaults, **card, "owner": card.get("owner", doc.data.get("owner")),
                 "zone": card.get("zone", doc.data.get("zone"))}
        d.cards[card["id"]] = entry
    # which attribute names are read where, for the compiler's fast paths (fastpaths.py)
    d.static_names = {name for attrs in d.static.values() for name in attrs}
    d.card_names = (set().union(*d.cards.values()) | set(d.card_defaults)) \
        - {"owner", "card", "zone"}  # a card's state, not its text: read by the general reader
    d.card_fields = d.card_names | set(_card_schema_fields()) | {"owner", "card", "zone"}
    d.attribute_names = d.static_names | set(d.markers) | {
        column for columns in d.table_columns.values() for column in columns or ()} | {
        column for rows in d.tables.values() for row in rows if isinstance(row, dict)
        for column in row}
    procedures = _clean(game, "procedures")
    d.procedure_params = {p["id"]: tuple(p.get("params") or [])
                          for p in procedures.get("procedures") or []}
    d.function_params = {f["id"]: tuple(f.get("params") or [])
                         for f in procedures.get("functions") or []}


def _origin(doc: Document, path: tuple) -> tuple[str, Origin]:
    """The effect text at `path` of a document and where it starts."""
    text = doc.data
    for key in path:
        text = text[key]
    return text, origin_of(doc, path)


def _compile(d: GameDef, doc: Document, path: tuple, rule: str, errors: Collector, *,
             params: tuple[str, ...] = (), expression: bool = False,
             owner: str | None = None, tree: ast.Node | None = None,
             kinds: dict[str, str] | None = None, hoist: bool = False) -> Compiled | None:
    text, origin = _origin(doc, path)
    line, col = origin.line, origin.col
    try:
        if tree is None:
            tree = parse_once(doc.trees, text, origin, expression=expression)
            if d.rewrite is not None:
                tree = d.rewrite(str(doc.path), path, tree)
        if expression:
            changes = changing_calls(tree, d.procedure_params)
            if changes:
                for call in changes:
                    errors.error(str(doc.path), call.line, call.col, "effect/verb-in-expression",
                                 f"`{call.name}` changes the game: a condition, filter or "
                                 "formula may only look at it (call it from an effect)")
                return None
        # every parameter is a local of known kind, or `any` (typecheck.py)
        d.sources.append(Source(tree, str(doc.path), rule, owner,
                                {p: "any" for p in params} | (kinds or {})))
        compiler = Compiler(d, str(doc.path), rule)
        compiler.hoist = hoist and d.fast_paths and d.play
        run, size = (compiler.expression(tree, params) if expression
                     else compiler.program(tree, params))
    except CompileError as exc:
        errors.extend(exc.diagnostics)
        return None
    except RuleError as exc:
        errors.extend(exc.diagnostics)
        return None
    except RecursionError:
        errors.error(str(doc.path), line, col, "effect/too-deep",
                     "blocks or expressions nested too deeply to compile; split the effect "
                     "into procedures")
        return None
    except Exception as exc:
        diagnostics = getattr(exc, "diagnostics", None)
        if diagnostics is None:
            raise
        errors.extend(diagnostics)
        return None
    return Compiled(run, size, Where(str(doc.path), line, col, rule),
                    only_reads=expression and d.play and only_looks(tree, d),
                    always=expression and isinstance(tree, ast.Literal) and tree.value is True,
                    tree=tree)


def _compile_functions(d: GameDef, doc: Document, errors: Collector) -> None:
    """Compile the content functions, callees first, noting which may be inlined."""
    places: dict[str, tuple[int, dict]] = {}
    for i, function in enumerate(doc.data.get("functions") or []):
        places[function["id"]] = (i, function)
        text, origin = _origin(doc, ("functions", i, "expression"))
        try:
            tree = parse_once(doc.trees, text, origin, expression=True)
        except Exception:  # reported, with its place, when it is compiled below
            continue
        if d.rewrite is not None:
            tree = d.rewrite(str(doc.path), ("functions", i, "expression"), tree)
        d.function_trees[function["id"]] = (tree, str(doc.path),
                                            tuple(function.get("params") or []))
    order, d.inlinable = inline_plan({name: t[0] for name, t in d.function_trees.items()})
    d.function_order = list(order)
    order += [name for name in places if name not in d.function_trees]
    for name in order:
        i, function = places[name]
        tree = d.function_trees.get(name, (None,))[0]
        compiled = _compile(d, doc, ("functions", i, "expression"), name, errors,
                            params=tuple(function.get("params") or []), expression=True,
                            tree=tree)
        if compiled:
            d.functions[name] = compiled


def _compile_all(d: GameDef, game: LoadedGame, errors: Collector) -> None:
    doc = game.docs.get("procedures")
    if doc is not None and _clean(game, "procedures"):
        _compile_functions(d, doc, errors)  # first: procedures inline them
        for i, proc in enumerate(doc.data.get("procedures") or []):
            compiled = _compile(d, doc, ("procedures", i, "effect"), proc["id"], errors,
                                params=tuple(proc.get("params") or []))
            if compiled:  # its tree, for phase effects that run it a step at a time
                d.procedure_trees[proc["id"]] = (d.sources[-1].tree, str(doc.path),
                                                 tuple(proc.get("params") or []))
                d.procedures[proc["id"]] = compiled
        for i, phase in enumerate(doc.data.get("phases") or []):
            d.phases[phase["id"]] = None
            d.phase_specs[phase["id"]] = phase
            if phase.get("window"):
                d.window_sources.setdefault(phase["window"],
                                            (str(doc.path), *doc.pos(("phases", i, "window"))))
            if "effect" in phase:
                d.phases[phase["id"]] = _compile(d, doc, ("phases", i, "effect"), phase["id"],
                                                 errors)
                if d.phases[phase["id"]] is not None and d.play:  # steps are for play only
                    d.phase_plans[phase["id"]] = plan_program(
                        Compiler(d, str(doc.path), phase["id"]), d.sources[-1].tree)
            if "until" in phase:
                until = _compile(d, doc, ("phases", i, "until"), phase["id"], errors,
                                 expression=True)
                if until is not None:
                    d.phase_until[phase["id"]] = until
            if isinstance(phase.get("pass"), str):
                rule = _compile(d, doc, ("phases", i, "pass"), phase["id"], errors,
                                expression=True)
                if rule is not None:
                    d.phase_pass[phase["id"]] = rule
            elif "pass" in phase:
                d.phase_pass[phase["id"]] = phase["pass"]
            if "skip" in phase:
                skip = _compile(d, doc, ("phases", i, "skip"), phase["id"], errors,
                                expression=True)
                if skip is not None:
                    d.phase_skip[phase["id"]] = skip
        for i, action in enumerate(doc.data.get("actions") or []):
            params = ("card",) if "card" in action else ()
            found = Collector()
            entry = {**action, "run": _compile(d, doc, ("actions", i, "effect"), action["id"],
                                               found, params=params,
                                               kinds=_CARD if params else None)}
            errors.extend(found.diagnostics if params else _cardless(found.diagnostics))
            if "card" in action:
                entry["filter"] = _compile(d, doc, ("actions", i, "card"), action["id"], errors,
                                           params=("card",), kinds=_CARD, expression=True,
                                           hoist=True)
            d.actions[action["id"]] = entry
        for i, trigger in enumerate(doc.data.get("triggers") or []):
            entry = {**trigger, "run": _compile(d, doc, ("triggers", i, "effect"),
                                                trigger["id"], errors)}
            if "when" in trigger:
                entry["test"] = _compile(d, doc, ("triggers", i, "when"), trigger["id"], errors,
                                         expression=True)
                if entry["test"] is not None:  # its tree is the source just added
                    entry["reads"] = sections_read(d.sources[-1].tree, d)
            d.triggers.append(entry)
    for card_doc, i, card in _clean_cards(game):
        owner = card.get("owner", card_doc.data.get("owner"))
        if "event" in card:
            event = _compile(d, card_doc, ("cards", i, "event"), card["id"], errors,
                             params=("card",), kinds=_CARD, owner=owner)
            if event:
                d.card_events[card["id"]] = event
        if "condition" in card:
            condition = _compile(d, card_doc, ("cards", i, "condition"), card["id"],
                                 errors, params=("card",), kinds=_CARD, expression=True)
            if condition:
                d.card_conditions[card["id"]] = condition
        for j, ability in enumerate(card.get("abilities") or []):
            run = _compile(d, card_doc, ("cards", i, "abilities", j, "effect"),
                           f"{card['id']}.{ability['id']}", errors, params=("card",),
                           kinds=_CARD, owner=owner)
            if run is not None:
                d.card_abilities.setdefault(card["id"], {})[ability["id"]] = {
                    "kind": ability.get("kind", ability["id"]), "run": run}
    d.ability_kinds = {card: frozenset(a["kind"] for a in abilities.values())
                       for card, abilities in d.card_abilities.items()}
    manifest_doc = game.docs.get("game")
    manifest = _clean(game, "game")
    if manifest_doc is not None and "scores" in manifest:
        d.score = _compile(d, manifest_doc, ("scores",), "scores", errors, params=("p",),
                           kinds={"p": "power"}, expression=True)
    if manifest_doc is not None and "tie_break" in manifest:
        d.tie_break = _compile(d, manifest_doc, ("tie_break",), "tie_break", errors,
                               params=("p",), kinds={"p": "power"}, expression=True)
    if manifest_doc is not None and "heuristic" in manifest:
        d.heuristic = _compile(d, manifest_doc, ("heuristic",), "heuristic", errors,
                               params=("p",), kinds={"p": "power"}, expression=True)
    if manifest_doc is not None and "until" in manifest:
        d.until = _compile(d, manifest_doc, ("until",), "until", errors, expression=True)
    if manifest_doc is not None and "sequence" in manifest:
        d.sequence_source = (str(game.files.manifest), *manifest_doc.pos(("sequence",)))

