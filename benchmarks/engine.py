"""The same rule logic through Ludex's compiled closures and as hand-written Python, side by
side in one run.

Cases (on The Sword of Rome's real map and tables):
* reinforcement_count — for every power, CU due from the reinforcement table: rows whose space
  its original owner controls and that is not besieged (SOR-5.10.1-a/b);
* draw_reshuffle      — draw a deck empty into the hand, run the deck's empty procedure
  (discard shuffled back) and keep drawing (SOR-6.4.2).
* payment           — Imperium: pay 3 coins when resources may stand in for 2 coins each
  (IMP-PAY-b), the minimal payment worked out and applied;
* atomic_action     — the cost of atomicity: one Sword of Rome support action run so that a
  failure leaves nothing changed (the engine's lazy copy: a space, zone, card or counter is
  copied when a verb first writes it) beside the same action run in place.

Before timing, each pair runs once on copies of the same state and must leave the same result
(`check_same_work`). The two sides then take turns, best of 21 rounds each.
Usage: python benchmarks/engine.py [--json] [--repeat N]
"""

from __future__ import annotations

import argparse
import copy
import time

from ludex.compiler import Compiler
from ludex.content import load_game
from ludex.engine import Game, load_definition
from ludex.errors import Collector
from ludex.folders import discover
from ludex.gamedef import build_definition
from ludex.parser import parse
from ludex.resources import games_dir
from ludex.runtime import Context
from ludex.schemas import Validators
from ludex.state import deal_cards, new_state, place_start, run_atomic
from report import emit

REINFORCEMENT = """
let total = 0
for p in powers():
    for row in rows(reinforcements) where row.power == p and row.space != none:
        if row.space.control == p and not row.space.besieged and not row.space.subjugating:
            let total = total + row.cu
"""

DRAW = """
repeat 20:
    draw(5, deck, hand, romans)
    move_all(hand, discard, romans)
"""


def setup():
    errors = Collector()
    game = load_game(discover(games_dir() / "sword_of_rome"), errors, Validators())
    definition = build_definition(game, errors)
    state = new_state(definition, seed=1)
    place_start(definition, state, {s["id"]: s.get("start") or {}
                                    for s in game.data("map")["spaces"]})
    deal_cards(definition, state)
    return definition, state


PAY = """
set_counter(coins, celts, 0)
set_counter(resources, celts, 2)
pay(coins, celts, 3)
"""


def python_pay(state):
    coins, resources = state["counters"]["coins"], state["counters"]["resources"]
    coins["celts"], resources["celts"] = 0, 2
    amount, rate = 3, 2
    options = []
    for k in range(min(resources["celts"], -(-amount // rate)) + 1):
        direct = max(0, amount - k * rate)
        value = direct + k * rate
        if direct > coins["celts"] or (direct and value - 1 >= amount) or \
                (k and value - rate >= amount):
            continue
        options.append((direct, k))
    direct, k = options[0]
    coins["celts"] -= direct
    resources["celts"] -= k


def compiled(definition, text):
    """The program as a function of a context, returning its frame (its locals, in order)."""
    run, size = Compiler(definition, "<bench>", "bench").program(parse(text))

    def call(ctx):
        frame = [None] * size
        run(ctx, frame)
        return frame
    return call


def check_same_work(definition, state, imperium, imperium_state) -> None:
    """Before timing: each pair of sides, run once on copies of the same state, must leave
    the same result — a baseline that skips part of the work would flatter nobody."""
    copies = [copy.deepcopy(state) for _ in range(2)]
    ludex_total = compiled(definition, REINFORCEMENT)(Context(definition, copies[0]))[0]
    assert ludex_total == python_reinforcement(definition, copies[1]) > 0
    compiled(definition, DRAW)(Context(definition, copies[0], budget=10**12))
    python_draw(definition, copies[1])
    assert copies[0] == copies[1], "draw_reshuffle: the two sides leave different states"
    copies = [copy.deepcopy(imperium_state) for _ in range(2)]
    compiled(imperium, PAY)(Context(imperium, copies[0]))
    python_pay(copies[1])
    assert copies[0]["counters"] == copies[1]["counters"], "payment: different counters"


def python_reinforcement(definition, state):
    total = 0
    rows = definition.tables["reinforcements"]
    spaces = state["spaces"]
    for p in definition.power_ids:
        for row in rows:
            if row["power"] != p or row["space"] is None:
                continue
            markers = spaces[row["space"]]["markers"]
            if markers["control"] == p and not markers["besieged"] \
                    and not markers["subjugating"]:
                total += row["cu"]
    return total


def python_draw(definition, state):
    zones = state["zones"]
    deck, hand, discard = zones["deck"]["romans"], zones["hand"]["romans"], \
        zones["discard"]["romans"]
    for _ in range(20):
        for _ in range(5):
            if not deck:  # the reshuffle: the discard pile becomes the deck
                for card in discard:
                    state["cards"][card]["zone"] = ["deck", "romans"]
                deck.extend(discard)
                discard.clear()
                definition.rng_shuffle(state, deck)
            if not deck:
                break
            card = deck.pop(0)
            hand.insert(0, card)
            state["cards"][card]["zone"] = ["hand", "romans"]
        for card in list(hand):
            hand.remove(card)
            discard.append(card)
            state["cards"][card]["zone"] = ["discard", "romans"]


def timed_pair(ludex_fn, baseline_fn, repeat: int, rounds: int = 21) -> tuple[float, float]:
    """Best time of each side over `rounds`, the two taking turns: a slow spell of a noisy
    machine then falls on both sides, not on one."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for side, fn in enumerate((ludex_fn, baseline_fn)):
            start = time.perf_counter()
            for _ in range(repeat):
                fn()
            best[side] = min(best[side], time.perf_counter() - start)
    return best[0], best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=500)
    args = parser.parse_args()
    definition, state = setup()
    reinforce = compiled(definition, REINFORCEMENT)
    draw = compiled(definition, DRAW)
    ctx = Context(definition, state, budget=10**12)
    cases = [
        ("reinforcement_count", lambda: reinforce(ctx),
         lambda: python_reinforcement(definition, state)),
        ("draw_reshuffle", lambda: draw(ctx), lambda: python_draw(definition, state)),
    ]
    imperium, imperium_start = load_definition("imperium")
    imperium_state = Game(imperium, imperium_start, players=2, seed=1).state
    check_same_work(definition, state, imperium, imperium_state)
    pay = compiled(imperium, PAY)
    pay_ctx = Context(imperium, imperium_state, budget=10**12)
    cases.append(("payment", lambda: pay(pay_ctx), lambda: python_pay(imperium_state)))

    support = compiled(definition, "apply_support(romans, [\"raise_loyalty\", praeneste])\n"
                                   "set_marker(praeneste, loyalty, 2)")
    cases.append(("atomic_action",
                  lambda: run_atomic(definition, state, lambda c: support(c)),
                  lambda: support(Context(definition, state, budget=10**12))))
    results = []
    for name, ludex_fn, baseline_fn in cases:
        ludex_s, baseline_s = timed_pair(ludex_fn, baseline_fn, args.repeat)
        results.append({"name": name, "ludex_s": ludex_s, "baseline_s": baseline_s,
                        "ratio": ludex_s / baseline_s})
    emit(results, args.json)


if __name__ == "__main__":
    main()
