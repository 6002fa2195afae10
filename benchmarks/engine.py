"""The same rule logic through Ludex's compiled closures and as hand-written Python, side by
side in one run.

Cases (on The Sword of Rome's real map and tables):
* reinforcement_count — for every power, CU due from the reinforcement table: rows whose space
  its original owner controls and that is not besieged (SOR-5.10.1-a/b). The hand-written side
  indexes the static table by power once, as Ludex does when it loads the game;
* draw_reshuffle      — draw a deck empty into the hand, run the deck's empty procedure
  (discard shuffled back) and keep drawing (SOR-6.4.2). The hand-written side moves cards a
  batch at a time and shuffles with its own copy of the game's generator (splitmix64,
  Fisher-Yates), not Ludex's;
* payment             — Imperium: pay 3 coins when resources may stand in for 2 coins each
  (IMP-PAY-b), the minimal payment worked out and applied;
* atomic_action_cost  — an ablation, both sides Ludex: one Sword of Rome support action run
  atomically (so that a failure leaves nothing changed: the engine's lazy copy, a space, zone,
  card or counter copied when a verb first writes it) beside the same action run in place. Its
  ratio is what atomicity costs, not a ratio to hand-written code.

Before timing, each pair runs once on copies of the same state and must leave the same result
(`check_same_work`). Both sides are warmed up, then take turns, best of 21 rounds each.
Usage: python benchmarks/engine.py [--json] [--repeat N] [--quick]
"""

from __future__ import annotations

import argparse
import copy

from handwritten import splitmix
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
from report import alternate, case, emit

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
    assert ludex_total == python_reinforcement(reinforcement_index(definition), copies[1]) > 0
    compiled(definition, DRAW)(Context(definition, copies[0], budget=10**12))
    python_draw(copies[1])
    assert copies[0] == copies[1], "draw_reshuffle: the two sides leave different states"
    copies = [copy.deepcopy(imperium_state) for _ in range(2)]
    compiled(imperium, PAY)(Context(imperium, copies[0]))
    python_pay(copies[1])
    assert copies[0]["counters"] == copies[1]["counters"], "payment: different counters"


def reinforcement_index(definition):
    """power -> [(space, cu)] of its table rows with a space: built once, as Ludex builds its
    index of a static table by the column a loop filters on when the game loads."""
    index = {p: [] for p in definition.power_ids}
    for row in definition.tables["reinforcements"]:
        if row["space"] is not None and row["power"] in index:
            index[row["power"]].append((row["space"], row["cu"]))
    return index


def python_reinforcement(index, state):
    total = 0
    spaces = state["spaces"]
    for p, rows in index.items():
        for space, cu in rows:
            markers = spaces[space]["markers"]
            if markers["control"] == p and not markers["besieged"] \
                    and not markers["subjugating"]:
                total += cu
    return total


def python_shuffle(state, items):
    """The baselines' own shuffle (handwritten/splitmix.py) with the game's generator state."""
    state["rng"] = splitmix.shuffle(state["rng"], items)


def python_draw(state, power="romans"):
    zones, cards = state["zones"], state["cards"]
    deck, hand, discard = zones["deck"][power], zones["hand"][power], zones["discard"][power]
    for _ in range(20):
        wanted = 5
        while wanted:
            if not deck:  # the reshuffle: the discard pile becomes the deck
                for card in discard:
                    cards[card]["zone"] = ["deck", power]
                deck += discard
                discard.clear()
                python_shuffle(state, deck)
                if not deck:
                    break
            batch = deck[:wanted]
            del deck[:len(batch)]
            for card in batch:
                cards[card]["zone"] = ["hand", power]
            hand[:0] = batch[::-1]
            wanted -= len(batch)
        for card in hand:
            cards[card]["zone"] = ["discard", power]
        discard += hand
        hand.clear()


def run(repeat: int = 500, rounds: int = 21) -> list[dict]:
    definition, state = setup()
    reinforce = compiled(definition, REINFORCEMENT)
    index = reinforcement_index(definition)
    draw = compiled(definition, DRAW)
    ctx = Context(definition, state, budget=10**12)
    imperium, imperium_start = load_definition("imperium")
    imperium_state = Game(imperium, imperium_start, players=2, seed=1).state
    check_same_work(definition, state, imperium, imperium_state)
    pay = compiled(imperium, PAY)
    pay_ctx = Context(imperium, imperium_state, budget=10**12)
    support = compiled(definition, "apply_support(romans, [\"raise_loyalty\", praeneste])\n"
                                   "set_marker(praeneste, loyalty, 2)")
    cases = [
        ("reinforcement_count", "baseline", lambda: reinforce(ctx),
         lambda: python_reinforcement(index, state), "hand-written, table indexed by power"),
        ("draw_reshuffle", "baseline", lambda: draw(ctx), lambda: python_draw(state),
         "hand-written, its own shuffle"),
        ("payment", "baseline", lambda: pay(pay_ctx), lambda: python_pay(imperium_state),
         "hand-written"),
        ("atomic_action_cost", "ablation",
         lambda: run_atomic(definition, state, lambda c: support(c)),
         lambda: support(Context(definition, state, budget=10**12)),
         "the same action run in place by Ludex"),
    ]
    results = []
    for name, kind, ludex_fn, baseline_fn, what in cases:
        def repeated(fn):
            def run_repeated():
                for _ in range(repeat):
                    fn()
            return run_repeated
        ludex_s, baseline_s = alternate([repeated(ludex_fn), repeated(baseline_fn)], rounds)
        results.append(case(name, kind, ludex_s, baseline_s, what, per="run", units=repeat))
    return results


QUICK = {"repeat": 1, "rounds": 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="a tiny run (the tests')")
    args = parser.parse_args()
    emit(run(**(QUICK if args.quick else {"repeat": args.repeat})), args.json)


if __name__ == "__main__":
    main()
