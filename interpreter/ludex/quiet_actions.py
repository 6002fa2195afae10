"""Options of an action window whose legality is known without running them.

`Game.legal_actions()` tests an option by running its unit with that answer (trials.py): an
option is legal when the run neither breaks a rule (`require`, a `pay` that cannot be paid, a
`choose` with nothing to choose from) nor reaches a question from which no answer leads on.
An action that can do neither — nothing in it, in the procedures it calls, in the card event
or ability it plays, in the `empty` procedure of a zone it draws from, or in any trigger it
may set off can refuse or ask — is legal as soon as its window offers it: its card passed the
action's filter. Such an action is *quiet*, and the listing takes it as legal without a run.

The answer is worked out from the syntax trees, once per (action, card), conservatively:
whatever cannot be told (a card event played through a local that is not the action's card,
a procedure that reaches itself) counts as able to refuse. A run would still meet a content
error such as a bad index; a quiet option is listed, and the error shows when it is played.
tests/test_quiet_actions.py lists every decision of random games both ways and compares.
"""

from __future__ import annotations

from typing import Any

from . import ast
from .registry import REGISTRY
from .static_checks import walk

# verbs that run content chosen in play (the card's event or ability)
_CARD_VERBS = ("play_event", "use_ability")


def quiet(game: Any, action_id: str, card: str | None) -> bool:
    """Whether the action, given a card of definition `card` (None: no card), can neither
    refuse nor ask. Worked out once per (action, card) and kept on the definition."""
    key = (action_id, card)
    known = game.quiet_actions.get(key)
    if known is None:
        known = game.quiet_actions[key] = _quiet(game, action_id, card)
    return known


def _quiet(game: Any, action_id: str, card: str | None) -> bool:
    if _triggers_may_stop(game):
        return False
    compiled = game.actions[action_id].get("run")
    tree = getattr(compiled, "tree", None)
    if tree is None:
        return False
    # `card` is the option's card unless the effect binds the name to something else
    card = None if "card" in _bound_names(tree) else card
    return not _may_stop(tree, game, card, frozenset())


def _bound_names(tree: Any) -> set[str]:
    """The names an effect binds (`let`, `for`, `choose`, comprehensions): in it, they hide
    ids of the same name."""
    return {n.name for n in walk(tree)
            if isinstance(n, ast.Let | ast.For | ast.Choose | ast.Comprehension)}


def _triggers_may_stop(game: Any) -> bool:
    """Whether any trigger's effect may refuse or ask: a `when` trigger may run after any
    verb, an `on_event` one at a `signal`."""
    known = game.quiet_actions.get("triggers")
    if known is None:
        known = any(_may_stop(getattr(t.get("run"), "tree", None), game, None, frozenset())
                    for t in game.triggers if t.get("run") is not None)
        game.quiet_actions["triggers"] = known
    return known


def _may_stop(tree: Any, game: Any, card: str | None, seen: frozenset[str],
              params: tuple[str, ...] = ()) -> bool:
    """Whether running `tree` may refuse or ask; `card`: the definition of the card the name
    `card` holds in it (an action's card), or None when that is not known; `params`: the
    names its procedure takes (locals, like the names it binds, hide ids)."""
    if tree is None:
        return True
    bound = {*params, *_bound_names(tree)}
    for node in walk(tree):
        if isinstance(node, ast.Require | ast.Choose):
            return True
        if not isinstance(node, ast.Call):
            continue
        name = node.name
        if name in game.procedure_params:  # a content procedure: what it runs
            procedure = game.procedure_trees.get(name)
            if name in seen or procedure is None or \
                    _may_stop(procedure[0], game, None, seen | {name}, procedure[2]):
                return True
            continue
        builtin = REGISTRY.get(name)
        if builtin is None or not builtin.verb:
            continue  # a content function or a builtin function: they only look
        if name in _CARD_VERBS:
            if any(_may_stop(effect, game, None, seen) for effect in
                   _card_effects(game, node, card)):
                return True
        elif name == "draw":
            for procedure in _empty_procedures(game, node, bound, seen):
                body, _, names = game.procedure_trees.get(procedure, (None, None, ()))
                if _may_stop(body, game, None, seen | {procedure}, names):
                    return True
        elif builtin.asks:  # `pay`, and any verb that may ask
            return True
        # `signal(…)` runs `on_event` triggers: `_quiet` has checked every trigger already
    return False


def _card_effects(game: Any, node: ast.Call, card: str | None) -> list[Any]:
    """The trees `play_event(…)`/`use_ability(…)` may run: the action's own card's when the
    call names it, every card's otherwise (None, for a tree that cannot be told: refuses)."""
    target = node.args[0] if node.args else None
    if card is not None and isinstance(target, ast.Name) and target.name == "card":
        cards = [card]
    else:
        cards = list(game.card_events) + list(game.card_abilities)
    if node.name == "play_event":
        return [getattr(game.card_events.get(c), "tree", None)
                for c in cards if c in game.card_events]
    return [getattr(ability["run"], "tree", None)
            for c in cards for ability in game.card_abilities.get(c, {}).values()]


def _empty_procedures(game: Any, node: ast.Call, bound: set[str], seen: frozenset[str]
                      ) -> list[str]:
    """The `empty` procedures `draw(n, zone, …)` may run: its zone's, when the zone is named
    outright (by an id no local hides), every zone's otherwise."""
    source = node.args[1] if len(node.args) > 1 else None
    if isinstance(source, ast.Name) and source.name in game.zones and source.name not in bound:
        zones = [game.zones[source.name]]
    else:
        zones = list(game.zones.values())
    return [z["empty"] for z in zones if z.get("empty") and z["empty"] not in seen]
