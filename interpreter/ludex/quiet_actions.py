"""Options of an action window whose legality is known without running them.

`Game.legal_actions()` tests an option by running its unit with that answer (trials.py): an
option is legal when the run neither breaks a rule (`require`, a `pay` that cannot be paid, a
`choose` with nothing to choose from) nor reaches a question from which no answer leads on.
An action that cannot break a rule — nothing in it, in the procedures it calls, in the card
event or ability it plays, in the `empty` procedure of a zone it draws from, or in any trigger
it may set off can refuse — is legal as soon as its window offers it (its card passed the
action's filter): whatever it asks, every answer leads on. Such an action is *quiet*, and the
listing takes it as legal without a run.

A `choose` of one option refuses only when it has nothing to choose from, so it is quiet where
its options are surely there: a literal list, a list with one added (`options + ["stop"]`), or
a local a test just showed to hold something (`if count(targets) == 0: … else: choose s from
targets`, until the local is bound again). One of `up to` N never refuses; one of `exactly` N
may.

The answer is worked out from the syntax trees, once per (action, card), conservatively:
whatever cannot be told (a card event played through a local that is not the action's card)
counts as able to refuse; a procedure that reaches itself refuses nothing more by doing so. A
run would still meet a content error such as a bad index; a quiet option is listed, and the
error shows when it is played. tests/test_quiet_actions.py lists every decision of random games
both ways and compares.
"""

from __future__ import annotations

from typing import Any

from . import ast
from .pysource import only_looks
from .registry import REGISTRY
from .static_checks import shape, walk

# verbs that run content chosen in play (the card's event or ability)
_CARD_VERBS = ("play_event", "use_ability")


def quiet(game: Any, action_id: str, card: str | None) -> bool:
    """Whether the action, given a card of definition `card` (None: no card), cannot break a
    rule (it may ask: every answer leads on). Worked out once per (action, card) and kept on
    the definition."""
    key = (action_id, card)
    known = game.quiet_actions.get(key)
    if known is None:
        known = game.quiet_actions[key] = _quiet(game, action_id, card)
    return known


def _quiet(game: Any, action_id: str, card: str | None) -> bool:
    if triggers_may_refuse(game):
        return False
    compiled = game.actions[action_id].get("run")
    tree = getattr(compiled, "tree", None)
    if tree is None:
        return False
    # `card` is the option's card unless the effect binds the name to something else
    card = None if "card" in bound_names(tree, game) else card
    # the card passed the action's filter on the state the action starts from: what the
    # filter shows is not empty (`count(activatable(me, card.value)) > 0`) is not, at first
    test = getattr(game.actions[action_id].get("filter"), "tree", None)
    shown = _nonempty_if(test, True, game) if test is not None else frozenset()
    return not may_refuse(tree, game, card, frozenset(), shown=shown)


def bound_names(tree: Any, game: Any = None) -> frozenset[str]:
    """The names an effect binds (`let`, `for`, `choose`, comprehensions): in it, they hide
    ids of the same name. With `game`, kept on it for the node (the scan asks again for the
    same statements: once per card whose effects it reads)."""
    known = game.analysis_memo.get(("bound", id(tree))) if game is not None else None
    if known is not None and known[0] is tree:  # the node itself, not one reusing its id
        return known[1]
    names = frozenset(n.name for n in walk(tree)
                      if isinstance(n, ast.Let | ast.For | ast.Choose | ast.Comprehension))
    if game is not None:
        game.analysis_memo[("bound", id(tree))] = (tree, names)
    return names


def triggers_may_refuse(game: Any) -> bool:
    """Whether any trigger's effect may refuse: a `when` trigger may run after any verb, an
    `on_event` one at a `signal`."""
    known = game.analysis_memo.get("triggers may refuse")
    if known is None:
        known = any(may_refuse(getattr(t.get("run"), "tree", None), game, None, frozenset())
                    for t in game.triggers if t.get("run") is not None)
        game.analysis_memo["triggers may refuse"] = known
    return known


def may_refuse(tree: Any, game: Any, card: str | None, seen: frozenset,
                params: tuple[str, ...] = (), shown: frozenset = frozenset()) -> bool:
    """Whether running `tree` may break a rule; `card`: the definition of the card the name
    `card` holds in it (an action's card), or None when that is not known; `params`: the
    names its procedure takes (locals, like the names it binds, hide ids); `shown`: what is
    known not to be empty as it starts (`_nonempty_if`)."""
    if tree is None:
        return True
    bound = bound_names(tree, game)
    if "card" in bound:  # the name is bound to something else somewhere in it
        card = None
    scan = _Scan(game, card, seen, frozenset({*params, *bound}))
    return scan.block(tree.body if isinstance(tree, ast.Program) else (tree,), shown)


class _Scan:
    """Statement by statement, what may refuse: `require`; a `choose` of one from options
    that may be empty, or of exactly some number; a `pay`; and what the procedures, card
    events and `empty` procedures called run — as statements, or inside the expressions a
    statement evaluates (`let x = pay(…)`). `nonempty`: what is known to be a non-empty list
    where a statement runs — locals (`if count(targets) == 0: … else: choose s from
    targets`), until bound again, and expressions that only look (`if count(cards(hand, me))
    > 0: choose c from cards(hand, me)`), until anything is bound or done."""

    def __init__(self, game: Any, card: str | None, seen: frozenset,
                 bound: frozenset[str]):
        self.game, self.card, self.seen, self.bound = game, card, seen, bound

    def block(self, body: Any, nonempty: frozenset) -> bool:
        for node in body:
            if isinstance(node, ast.Require):
                return True
            if isinstance(node, ast.Choose):
                acted = self.acts(node.options, node.count, node.chooser, node.prompt)
                if acted or (node.mode != "up_to" and not (
                        node.mode == "one" and _surely_nonempty(node.options, nonempty))):
                    return True
                nonempty = _names_only(nonempty) - {node.name}
            elif isinstance(node, ast.Let):
                if self.acts(node.value):
                    return True
                nonempty = _names_only(nonempty) - {node.name}
            elif isinstance(node, ast.CallStmt):
                if self.acts(*node.call.args) or self.call(node.call):
                    return True
                nonempty = _names_only(nonempty)
            elif isinstance(node, ast.If):
                known_false: frozenset = frozenset()  # from the branches before
                for condition, branch in node.branches:
                    acted = self.acts(condition)
                    if acted:
                        return True
                    if acted is None:  # it only looks: what it shows holds in the branch
                        shown = _nonempty_if(condition, True, self.game)
                    else:  # it did something: nothing it tested, nor before, holds
                        nonempty, known_false = _names_only(nonempty), _names_only(known_false)
                        shown = frozenset()
                    if self.block(branch, nonempty | known_false | shown):
                        return True
                    if acted is None:
                        known_false |= _nonempty_if(condition, False, self.game)
                if self.block(node.orelse, nonempty | known_false):
                    return True
                nonempty = _names_only(nonempty) - bound_names(node, self.game)
            elif isinstance(node, ast.For | ast.Repeat):
                heads = (node.iterable, node.where) if isinstance(node, ast.For) else \
                    (node.count,)
                if self.acts(*heads):
                    return True
                # what the loop binds or does may have changed at the next turn
                nonempty = _names_only(nonempty) - bound_names(node, self.game)
                if self.block(node.body, nonempty):
                    return True
            elif not isinstance(node, ast.Pass):
                return True  # a statement this scan does not know
        return False

    def acts(self, *expressions: Any) -> bool | None:
        """What the expressions a statement evaluates do: None when they only look; True
        when a verb or procedure they call may refuse; False when they call only ones that
        cannot (they act, though: what was known not to be empty may be now)."""
        found = None
        for expression in expressions:
            if expression is None or only_looks(expression, self.game):
                continue
            for node in walk(expression):
                if isinstance(node, ast.Call) and self.call(node):
                    return True
            found = False
        return found

    def passed_card(self, node: ast.Call, params: tuple[str, ...]) -> str | None:
        """The card a procedure's parameter `card` holds, when the call passes it this
        effect's own (`play_card_event(me, card)`)."""
        if self.card is None or "card" not in params or len(node.args) != len(params):
            return None
        passed = node.args[params.index("card")]
        return self.card if isinstance(passed, ast.Name) and passed.name == "card" else None

    def call(self, node: ast.Call) -> bool:
        game, seen, name = self.game, self.seen, node.name
        if name in game.procedure_params:  # a content procedure: what it runs
            procedure = game.procedure_trees.get(name)
            if procedure is None:
                return True
            body, _, params = procedure
            passed = self.passed_card(node, params)
            # being scanned already, for this card or for any: running it again refuses
            # nothing new (with another card, it is scanned again, for any)
            if (name, passed) in seen or (name, None) in seen:
                return False
            return may_refuse(body, game, passed, seen | {(name, passed)}, params)
        builtin = REGISTRY.get(name)
        if builtin is None or not builtin.verb:
            return False  # a content function or a builtin function: they only look
        if name in _CARD_VERBS:  # a card's effect may play another's, or itself
            return _PLAYED in seen or any(
                may_refuse(effect, game, None, seen | {_PLAYED})
                for effect in _card_effects(game, node, self.card))
        if name == "draw":
            for procedure in _empty_procedures(game, node, self.bound, seen):
                body, _, names = game.procedure_trees.get(procedure, (None, None, ()))
                if may_refuse(body, game, None, seen | {(procedure, None)}, names):
                    return True
            return False
        # `pay`, and any verb that may ask; `signal(…)` runs `on_event` triggers: `_quiet`
        # has checked every trigger already
        return builtin.asks


_PLAYED = "\x00card effects"  # in `seen`: inside a card's event or ability


def _surely_nonempty(node: ast.Node, nonempty: frozenset) -> bool:
    """Whether the options of a `choose` are surely a list with something in it: a literal
    one, a list with such a list added (`options + ["stop"]`), or one known to be."""
    if isinstance(node, ast.ListExpr):
        return bool(node.items)
    if isinstance(node, ast.Binary) and node.op == "+":
        return _surely_nonempty(node.left, nonempty) or _surely_nonempty(node.right, nonempty)
    return _fact(node) in nonempty


def _fact(node: ast.Node) -> str | tuple:
    """What `nonempty` holds for an expression: a local by its name, anything else by its
    shape."""
    return node.name if isinstance(node, ast.Name) else shape(node)


def _names_only(nonempty: frozenset) -> frozenset:
    return frozenset(fact for fact in nonempty if fact.__class__ is str)


def _nonempty_if(condition: ast.Node, holds: bool, game: Any) -> frozenset:
    """What `condition` being `holds` shows is a non-empty list: `count(x) == 0` false,
    `count(x) > 0` true, and the like, through `not`, `and` and `or` — of a local, or of an
    expression that only looks."""
    if isinstance(condition, ast.Not):
        return _nonempty_if(condition.operand, not holds, game)
    if isinstance(condition, ast.BoolOp):
        if (condition.op == "and") == holds:  # both sides are known: true, or false
            return _nonempty_if(condition.left, holds, game) | \
                _nonempty_if(condition.right, holds, game)
        return frozenset()
    if not (isinstance(condition, ast.Compare) and isinstance(condition.left, ast.Call)
            and condition.left.name == "count" and "count" not in game.function_params
            and len(condition.left.args) == 1 and only_looks(condition.left.args[0], game)
            and isinstance(condition.right, ast.Literal)
            and condition.right.value.__class__ is int):
        return frozenset()
    # whether the comparison being `holds` rules a count of 0 out
    n, op = condition.right.value, condition.op
    shown = {"==": n >= 1 if holds else n == 0, "!=": n == 0 if holds else n >= 1,
             ">": n >= 0 if holds else False, ">=": n >= 1 if holds else False,
             "<": False if holds else n >= 1, "<=": False if holds else n >= 0}.get(op, False)
    return frozenset({_fact(condition.left.args[0])}) if shown else frozenset()


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


def _empty_procedures(game: Any, node: ast.Call, bound: frozenset[str], seen: frozenset
                      ) -> list[str]:
    """The `empty` procedures `draw(n, zone, …)` may run: its zone's, when the zone is named
    outright (by an id no local hides), every zone's otherwise."""
    source = node.args[1] if len(node.args) > 1 else None
    if isinstance(source, ast.Name) and source.name in game.zones and source.name not in bound:
        zones = [game.zones[source.name]]
    else:
        zones = list(game.zones.values())
    return [z["empty"] for z in zones if z.get("empty") and (z["empty"], None) not in seen]
