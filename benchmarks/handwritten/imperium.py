"""Imperium (games/imperium/) written by hand in plain Python, for speed: the whole-game baseline
of benchmarks/game.py and benchmarks/legal_actions.py.

It imports nothing from Ludex. It plays the same games as `ludex simulate imperium` from the same
seed: the same seeded generator (splitmix64) for the deal and every shuffle, one random agent per
seat with its own splitmix64 generator seeded `seed * 1000 + seat`, drawing uniformly from the
same options in the same order and drawing again when the pick breaks a rule — so every decision,
the final state, the winner and the scores come out identical (benchmarks/game.py asserts it on
hundreds of games before it times anything).

What is kept of Ludex's order of things, because the generators see it:
* cards are dealt in the content's order (card files sorted by name, cards in file order), every
  nation's piles are dealt and shuffled even in a game with fewer players, and the hidden piles
  are shuffled zone by zone (decks, then nation decks, then the market decks);
* "top" is index 0: a card moved onto a pile is inserted first, a drawn batch arrives in reverse;
* an action window offers its actions in the order play_card (hand order), exhaust (play area
  order), acquire (market slots in order), then `pass`; the agent draws among all of them and
  an illegal pick (an exhausted card, no action token left, a cost that cannot be paid) is
  refused and drawn again, as Ludex's random agent does;
* a window takes at most 50 free actions (Ludex's MAX_FREE_ACTIONS).

The message log keeps the content's `log(...)` lines as (key, args) tuples, so the two games can
be compared line by line; phase and turn lines of Ludex's engine are not kept here.
"""

from __future__ import annotations

from . import splitmix
from .splitmix import MASK64 as _MASK64

POWERS = ("celts", "persians", "macedonians", "scythians")  # declaration order = tie-break order
SEATS = {2: POWERS[:2], 3: POWERS[:3], 4: POWERS}
TURNS = 40
MAX_FREE_ACTIONS = 50
PASS = ("pass", None)


class GameOver(Exception):
    pass


class Card:
    """A card's printed text."""

    __slots__ = ("ability", "cost_coins", "cost_military", "event", "id", "red", "unrest",
                 "value")

    def __init__(self, card_id, colour="grey", cost_coins=0, cost_military=0, value=0,
                 unrest=False, event=None, ability=None):
        self.id, self.red = card_id, colour == "red"
        self.cost_coins, self.cost_military, self.value = cost_coins, cost_military, value
        self.unrest, self.event, self.ability = unrest, event, ability


# -- card texts: events and exhaust abilities, each a function of (game, power, card) ------
def _gain(counter, amount):
    def effect(game, p, card):
        nation = game.nations[p]
        setattr(nation, counter, getattr(nation, counter) + amount)
    return effect


def _draw_if_possible(game, p, card):
    game.draw(p, 1, refill=False)


def _draw(game, p, card):
    game.draw(p, 1)


def _levy(game, p, card):
    game.nations[p].military += 1
    game.take_unrest(p)


def _accession(game, p, card):
    game.nations[p].empire = 1
    game.log.append(("empire_proclaimed", (p,)))


def _temple(game, p, card):
    game.return_unrest(p)


def _academy(game, p, card):
    nation = game.nations[p]
    nation.play_area.remove(card)
    nation.history.insert(0, card)


def _raiders_camp(game, p, card):
    game.take_unrest(p)
    game.nations[p].coins += 3


def _rebel_chief(game, p, card):
    game.take_unrest(p)


DEVELOPMENTS = {
    "celts": [Card("celts_hillfort", cost_coins=2, value=2),
              Card("celts_sacred_grove", cost_coins=3, cost_military=1, value=3)],
    "persians": [Card("persians_royal_road", cost_coins=2, value=2)],
    "macedonians": [Card("macedonians_phalanx", cost_coins=2, value=2)],
    "scythians": [Card("scythians_kurgan", cost_coins=2, value=2)],
}


def nation_cards(p):
    """(zone, card) for a nation's own cards, in the content's order."""
    deck = [Card(f"{p}_warband", "red", value=1, event=_gain("military", 2)),
            Card(f"{p}_traders", "yellow", event=_gain("coins", 2)),
            Card(f"{p}_elders", "blue", value=1, ability=_gain("influence", 1)),
            Card(f"{p}_scouts", "green", event=_draw_if_possible),
            Card(f"{p}_levy", "red", event=_levy),
            Card(f"{p}_farmers", "green", event=_gain("resources", 1)),
            Card(f"{p}_messengers", "yellow", event=_draw),
            Card(f"{p}_raiders", "red", value=1, ability=_gain("coins", 1))]
    return ([("state_card", Card(f"{p}_state"))] + [("deck", c) for c in deck]
            + [("nation_deck", Card(f"{p}_heritage", value=2)),
               ("nation_deck", Card(f"{p}_accession", value=3, event=_accession))]
            + [("development_area", c) for c in DEVELOPMENTS[p]])


MARKET_DECKS = {
    "region_deck": [
        Card("fertile_valley", "green", cost_coins=3, value=2, event=_gain("resources", 1)),
        Card("river_delta", "green", cost_coins=4, value=3, event=_gain("coins", 1)),
        Card("mountain_pass", "green", cost_military=2, value=1),
        Card("coastal_plain", "green", cost_coins=3, value=2, ability=_gain("coins", 1)),
        Card("great_steppe", "green", cost_coins=2, cost_military=1, value=2)],
    "civilised_deck": [
        Card("library", "blue", cost_coins=4, value=3, ability=_draw_if_possible),
        Card("market_town", "blue", cost_coins=2, value=1, event=_gain("coins", 2)),
        Card("temple", "blue", cost_coins=3, value=2, event=_temple),
        Card("academy", "blue", cost_coins=5, value=4, event=_academy),
        Card("harbour", "blue", cost_coins=3, value=2, event=_gain("influence", 1))],
    "uncivilised_deck": [
        Card("hill_tribe", "red", cost_military=2, value=1, event=_gain("military", 1)),
        Card("raiders_camp", "red", cost_military=3, value=2, event=_raiders_camp),
        Card("nomad_horde", "red", cost_military=3, value=2, ability=_gain("military", 1)),
        Card("rebel_chief", "red", cost_military=1, event=_rebel_chief),
        Card("warlord", "red", cost_military=4, value=3)],
}
UNREST_COPIES = 12
# (slot, its deck, whether an Unrest card slips under each new card), in the table's order
MARKET = (("market_region", "region_deck", True), ("market_civilised", "civilised_deck", False),
          ("market_uncivilised", "uncivilised_deck", True))
REFILL = {slot: (deck, unrest_under) for slot, deck, unrest_under in MARKET}


def _content_order():
    """(zone, holder, card) for every card in the order Ludex deals them: card files sorted
    by name (celts, civilised, macedonians, persians, region, scythians, uncivilised,
    unrest), cards in file order."""
    own = {p: [(zone, p, c) for zone, c in nation_cards(p)] for p in POWERS}
    market = {deck: [(deck, "", c) for c in cards] for deck, cards in MARKET_DECKS.items()}
    unrest = Card("unrest", "red", unrest=True)
    return (own["celts"] + market["civilised_deck"] + own["macedonians"] + own["persians"]
            + market["region_deck"] + own["scythians"] + market["uncivilised_deck"]
            + [("unrest_pile", "", (f"unrest#{n}", unrest)) for n in range(1, UNREST_COPIES + 1)])


CARDS: dict[str, Card] = {}  # card instance id -> its text
DEAL: list[tuple[str, str, str]] = []  # (zone, holder, instance) in dealing order
for _zone, _holder, _card in _content_order():
    _instance, _card = _card if isinstance(_card, tuple) else (_card.id, _card)
    CARDS[_instance] = _card
    DEAL.append((_zone, _holder, _instance))


class RandomAgent:
    """Uniform over the options, with its own splitmix64 generator (as Ludex's random agent)."""

    __slots__ = ("state",)

    def __init__(self, seed):
        self.state = seed & _MASK64

    def below(self, bound):
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return (z ^ (z >> 31)) % bound

    def up_to(self, options, count):
        pool = list(options)
        wanted = self.below(min(count, len(pool)) + 1)
        return [pool.pop(self.below(len(pool))) for _ in range(min(wanted, len(pool)))]


class Nation:
    """One power's counters and piles (top of a pile first)."""

    __slots__ = ("actions", "coins", "deck", "development_area", "discard", "empire", "hand",
                 "history", "influence", "military", "nation_deck", "play_area", "resources",
                 "state_card", "step_turn")

    def __init__(self):
        self.coins, self.military, self.influence, self.resources = 2, 1, 1, 0
        self.empire = self.step_turn = 0
        self.actions = 0  # action tokens on the State card
        self.state_card = None
        self.deck, self.hand, self.discard, self.play_area = [], [], [], []
        self.history, self.nation_deck, self.development_area = [], [], []


class Imperium:
    """One game: `Imperium(seed, players).play()` plays it to the end with random agents."""

    def __init__(self, seed, players=3):
        self.rng = seed & _MASK64
        self.players = SEATS[players]
        self.agents = {p: RandomAgent(seed * 1000 + i) for i, p in enumerate(self.players)}
        self.nations = {p: Nation() for p in POWERS}
        self.turn = 1
        self.final_round = False
        self.ended = self.winner = None
        self.history = []  # every answer, in order
        self.log = []
        self.slots = {slot: [] for slot, _, _ in MARKET}
        self.decks = {deck: [] for deck in MARKET_DECKS}
        self.unrest_pile = []
        self.exhausted = set()  # cards carrying an action token
        self.coins_on = {}  # market card -> coins tokens on it
        self.under = {}  # market card -> Unrest cards under it
        self._deal()

    # -- the seeded generator (splitmix64, rejection sampling, Fisher-Yates) ---------------
    def shuffle(self, items):
        self.rng = splitmix.shuffle(self.rng, items)

    def _deal(self):
        nations = self.nations
        for zone, holder, card in DEAL:
            if holder:
                nation = nations[holder]
                if zone == "state_card":
                    nation.state_card, nation.actions = card, 5
                else:
                    getattr(nation, zone).append(card)
            elif zone == "unrest_pile":
                self.unrest_pile.append(card)
            else:
                self.decks[zone].append(card)
        for p in POWERS:
            self.shuffle(nations[p].deck)
        for p in POWERS:
            self.shuffle(nations[p].nation_deck)
        for deck in self.decks.values():
            self.shuffle(deck)

    # -- play -------------------------------------------------------------------------------
    def play(self):
        try:
            for slot, _, _ in MARKET:
                self.refill(slot)
            for p in self.players:
                self.draw(p, 5)
            while True:
                for p in self.players:
                    self.window(p)
                    self.clean_up(p)
                for slot in self.slots.values():
                    for card in slot:
                        self.coins_on[card] = self.coins_on.get(card, 0) + 1
                if self.final_round:
                    self.ended = "market_exhausted"
                    break
                if self.turn >= TURNS:
                    self.ended = "last_turn"
                    break
                self.turn += 1
        except GameOver:
            pass
        if self.winner is None:
            scores = self.scores()
            best = max(scores.values())
            # the tie-break goes to the earlier power in the game's order
            self.winner = next(p for p in self.players if scores[p] == best)
        return self

    def ask_one(self, p, options, legal=None):
        """The seat's agent picks among `options`; a pick `legal` refuses is dropped and the
        agent draws again among the rest."""
        agent = self.agents[p]
        pick = options[agent.below(len(options))]
        if legal is not None and not legal(p, pick):
            pool = [o for o in options if o is not pick]
            while True:
                pick = pool[agent.below(len(pool))]
                if legal(p, pick):
                    break
                pool.remove(pick)
        self.history.append(pick)
        return pick

    def window_options(self, p):
        """The action window's options: play_card, exhaust, acquire, then pass."""
        nation = self.nations[p]
        barbarian = nation.empire == 0
        options = [("play_card", c) for c in nation.hand
                   if not CARDS[c].unrest and (barbarian or not CARDS[c].red)]
        options += [("exhaust", c) for c in nation.play_area if CARDS[c].ability is not None]
        for slot in self.slots.values():
            options += [("acquire", c) for c in slot]
        options.append(PASS)
        return options

    def legal(self, p, option):
        """Whether an option of the action window breaks no rule."""
        kind, card = option
        if kind == "exhaust":
            return card not in self.exhausted and self.nations[p].actions > 0
        if kind == "acquire":
            nation, text = self.nations[p], CARDS[card]
            return (nation.coins + 2 * nation.resources >= text.cost_coins
                    and nation.military + nation.influence >= text.cost_military)
        return True

    def legal_actions(self, p):
        """The window's options that break no rule (the hand-written `legal_actions`)."""
        return [o for o in self.window_options(p) if self.legal(p, o)]

    def window(self, p):
        nation = self.nations[p]
        for _ in range(MAX_FREE_ACTIONS):
            kind, card = self.ask_one(p, self.window_options(p), self.legal)
            if kind == "play_card":
                nation.hand.remove(card)
                nation.play_area.insert(0, card)
                self.log.append(("card_played", (p, card)))
                event = CARDS[card].event
                if event is not None:
                    event(self, p, card)
            elif kind == "exhaust":
                nation.actions -= 1
                self.exhausted.add(card)
                CARDS[card].ability(self, p, card)
            elif kind == "acquire":
                self.acquire(p, card)
            else:
                return

    def acquire(self, p, card):
        nation, text = self.nations[p], CARDS[card]
        slot = next(s for s in self.slots.values() if card in s)
        self.pay_coins(p, text.cost_coins)
        self.pay_military(p, text.cost_military)
        nation.coins += self.coins_on.pop(card, 0)
        for unrest in self.under.pop(card, ()):
            nation.hand.insert(0, unrest)
        slot.remove(card)
        nation.hand.insert(0, card)
        self.log.append(("card_acquired", (p, card)))
        self.refill(next(name for name, s in self.slots.items() if s is slot))

    def pay_coins(self, p, amount):
        """Pay coins, each resource standing for 2 (no change given); the payer chooses among
        the minimal ways when there are several (most coins first)."""
        if amount <= 0:
            return
        nation = self.nations[p]
        have = nation.coins
        fewest = 0 if have >= amount else (amount - have + 1) // 2
        last = min((amount + 1) // 2, nation.resources)
        if last > fewest:
            units = fewest + self.agents[p].below(last - fewest + 1)
            direct = max(0, amount - 2 * units)
            answer = {"resources": units} if not direct else \
                {"coins": direct, "resources": units} if units else {"coins": direct}
            self.history.append(answer)
        else:
            units = fewest
        nation.coins -= max(0, amount - 2 * units)
        nation.resources -= units

    def pay_military(self, p, amount):
        """Pay military, each influence standing for 1."""
        if amount <= 0:
            return
        nation = self.nations[p]
        fewest = max(0, amount - nation.military)
        last = min(amount, nation.influence)
        if last > fewest:
            units = fewest + self.agents[p].below(last - fewest + 1)
            direct = amount - units
            answer = {"influence": units} if not direct else \
                {"military": direct, "influence": units} if units else {"military": direct}
            self.history.append(answer)
        else:
            units = fewest
        nation.military -= amount - units
        nation.influence -= units

    def refill(self, slot_name):
        deck_name, unrest_under = REFILL[slot_name]
        deck, slot = self.decks[deck_name], self.slots[slot_name]
        if not deck:
            self.final_round = True
            self.log.append(("market_exhausted", ()))
            return
        card = deck.pop(0)
        slot.insert(0, card)
        if unrest_under and self.unrest_pile:
            self.under.setdefault(card, []).append(self.unrest_pile.pop(0))
            if not self.unrest_pile:
                self.collapse()

    def take_unrest(self, p):
        if self.unrest_pile:
            card = self.unrest_pile.pop(0)
            self.nations[p].discard.insert(0, card)
            if not self.unrest_pile:
                self.collapse()
            self.log.append(("unrest_taken", (p,)))

    def return_unrest(self, p):
        nation = self.nations[p]
        held = [c for c in nation.hand + nation.discard if CARDS[c].unrest]
        if not held:
            return
        card = held[0] if len(held) == 1 else self.ask_one(p, held)
        (nation.hand if card in nation.hand else nation.discard).remove(card)
        self.unrest_pile.insert(0, card)
        self.log.append(("unrest_returned", (p,)))

    def draw(self, p, amount, refill=True):
        nation = self.nations[p]
        deck, hand, drawn = nation.deck, nation.hand, 0
        while drawn < amount:
            if not deck:
                if not refill:
                    break
                self.reshuffle(p)
                if not deck:
                    break
            batch = deck[:amount - drawn]
            del deck[:len(batch)]
            hand[:0] = batch[::-1]
            drawn += len(batch)

    def reshuffle(self, p):
        """IMP-RESHUFFLE-a: once a turn, move the Nation or the Development token first."""
        nation = self.nations[p]
        if nation.step_turn != self.turn:
            steps = ["move_nation_token"] if nation.nation_deck else []
            dev = nation.development_area
            if dev and nation.coins + 2 * nation.resources >= CARDS[dev[0]].cost_coins and \
                    nation.military + nation.influence >= CARDS[dev[0]].cost_military:
                steps.append("move_development_token")
            if steps:
                steps.append("skip")
                step = self.ask_one(p, steps)
                if step == "move_nation_token":
                    nation.step_turn = self.turn
                    nation.discard.insert(0, nation.nation_deck.pop(0))
                elif step == "move_development_token":
                    nation.step_turn = self.turn
                    built = dev[0]
                    self.pay_coins(p, CARDS[built].cost_coins)
                    self.pay_military(p, CARDS[built].cost_military)
                    dev.pop(0)
                    nation.discard.insert(0, built)
        nation.deck += nation.discard
        nation.discard.clear()
        self.shuffle(nation.deck)
        self.log.append(("deck_reshuffled", (p,)))

    def clean_up(self, p):
        nation = self.nations[p]
        for card in nation.play_area:
            if card in self.exhausted:
                self.exhausted.remove(card)
                nation.actions += 1
            nation.discard.insert(0, card)
        nation.play_area.clear()
        if nation.hand:
            thrown = self.agents[p].up_to(nation.hand, len(nation.hand))
            self.history.append(thrown)
            for card in thrown:
                nation.hand.remove(card)
                nation.discard.insert(0, card)
        self.draw(p, max(0, 5 - len(nation.hand)))

    # -- the end ----------------------------------------------------------------------------
    def unrest_held(self, p):
        n = self.nations[p]
        return sum(CARDS[c].unrest for pile in (n.hand, n.play_area, n.deck, n.discard,
                                               n.history) for c in pile)

    def score(self, p):
        n = self.nations[p]
        points = sum(CARDS[c].value for pile in (n.hand, n.play_area, n.deck, n.discard,
                                                 n.history, n.nation_deck) for c in pile)
        return points - 2 * self.unrest_held(p)

    def scores(self):
        return {p: self.score(p) for p in self.players}

    def collapse(self):
        """IMP-COLLAPSE: the Unrest pile just ran out; fewest Unrest cards wins, then score."""
        held = {p: self.unrest_held(p) for p in self.players}
        tied = [p for p in self.players if held[p] == min(held.values())]
        scores = {p: self.score(p) for p in tied}
        self.winner = next(p for p in tied if scores[p] == max(scores.values()))
        self.log.append(("collapse", ()))
        self.ended = "collapse"
        raise GameOver

    # -- for comparing with Ludex's state (not used in play) --------------------------------
    def zones(self):
        """The piles as Ludex's state keeps them: zone -> holder -> cards, top first."""
        per_power = ("deck", "hand", "discard", "play_area", "history", "nation_deck",
                     "development_area")
        zones = {z: {p: list(getattr(self.nations[p], z)) for p in POWERS} for z in per_power}
        zones["state_card"] = {p: [self.nations[p].state_card] for p in POWERS}
        zones.update({slot: {"": list(cards)} for slot, cards in self.slots.items()})
        zones.update({deck: {"": list(cards)} for deck, cards in self.decks.items()})
        zones["unrest_pile"] = {"": list(self.unrest_pile)}
        return zones

    def counters(self):
        names = {"coins": "coins", "military": "military", "influence": "influence",
                 "resources": "resources", "empire": "empire", "nation_step_turn": "step_turn"}
        return {name: {p: getattr(self.nations[p], attr) for p in POWERS}
                for name, attr in names.items()}
