"""The numbers of many games: a tally that adds up one record per game, merges with other
tallies (parallel workers, cluster nodes) in any order to the same result, and turns into the
summary `ludex simulate` prints, writes as JSON and plots. It keeps counts, never the games:
its size does not grow with the number of games (errors excepted: each is listed)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(successes: int, trials: int) -> list[float]:
    """The Wilson score 95% interval of a proportion (good at rates near 0 or 1, unlike the
    normal approximation); [0, 1] when there are no trials."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    denominator = 1 + Z95 ** 2 / trials
    centre = (p + Z95 ** 2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95 ** 2 / (4 * trials ** 2)) / denominator
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def rate(successes: int, trials: int) -> dict:
    return {"count": successes, "of": trials,
            "rate": round(successes / trials, 4) if trials else 0.0,
            "interval": wilson(successes, trials)}


@dataclass
class Tally:
    powers: list[str] = field(default_factory=list)  # every power seated, in seat order
    seats: int = 0
    games: int = 0  # finished without error
    draws: int = 0
    shared_wins: int = 0  # games won by several powers together (a cooperative game)
    wins_by_power: Counter = field(default_factory=Counter)
    wins_by_seat: Counter = field(default_factory=Counter)
    seated_by_agent: Counter = field(default_factory=Counter)  # agent name -> seats taken
    wins_by_agent: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)
    turns: Counter = field(default_factory=Counter)
    decisions: Counter = field(default_factory=Counter)
    scores: dict[str, Counter] = field(default_factory=dict)  # power -> score -> games
    card_plays: Counter = field(default_factory=Counter)  # card -> times played
    card_games: Counter = field(default_factory=Counter)  # card -> games it was played in
    card_wins: Counter = field(default_factory=Counter)  # card -> of those, won by a player of it
    actions: list[str] = field(default_factory=list)  # every action a window offers, in order
    action_takes: Counter = field(default_factory=Counter)  # action -> times taken
    action_games: Counter = field(default_factory=Counter)  # action -> games it was taken in
    # (question, later question) -> options refused because the later one would have no way
    # on (a `choose` left empty: dead_ends.py), and the games that met it
    dead_end_refusals: Counter = field(default_factory=Counter)
    dead_end_games: Counter = field(default_factory=Counter)
    errors: list[dict] = field(default_factory=list)
    # warning code -> {"games": games that met it, "count": distinct warnings in all,
    # "first": {"seed", "warning"} of the lowest seed} (engine warnings: rules/search-bound…)
    warnings: dict[str, dict] = field(default_factory=dict)

    def add(self, record: dict) -> None:
        """One game's record (simulate.play_one)."""
        if not self.powers and record.get("seats"):
            self.powers = [p for seat in record["seats"] for p in seat]
            self.seats = len(record["seats"])
        codes = Counter(w["code"] for w in record.get("warnings") or [])
        for code, times in codes.items():
            text = next(w["text"] for w in record["warnings"] if w["code"] == code)
            self._warned(code, {"games": 1, "count": times,
                                "first": {"seed": record["seed"], "warning": text}})
        if record.get("error"):
            self.errors.append({"seed": record["seed"], "message": record["error"],
                                "at": record.get("error_at", record["error"])})
            return
        self.games += 1
        winners, won_seats = record["winners"], set(record["winner_seats"])
        if not winners:
            self.draws += 1
        self.shared_wins += len(winners) > 1
        for winner in winners:
            self.wins_by_power[winner] += 1
        for seat in won_seats:
            self.wins_by_seat[seat] += 1
        for index, agent in enumerate(record["agents"]):
            self.seated_by_agent[agent] += 1
            if index in won_seats:
                self.wins_by_agent[agent] += 1
        self.endings[record["ended"] or "unfinished"] += 1
        self.turns[record["turns"]] += 1
        self.decisions[record["decisions"]] += 1
        for power, score in record["scores"].items():
            self.scores.setdefault(power, Counter())[score] += 1
        self._add_plays(record["plays"], set(winners))
        self._add_actions(record.get("actions") or {})
        for question, later, refused in record.get("dead_ends") or []:
            self.dead_end_refusals[question, later] += refused
            self.dead_end_games[question, later] += 1

    def _add_actions(self, taken: dict[str, int]) -> None:
        """One game's actions (action -> times taken, every action of its windows listed)."""
        self._know_actions(list(taken))
        for action, times in taken.items():
            self.action_takes[action] += times
            self.action_games[action] += times > 0

    def _know_actions(self, actions: list[str]) -> None:
        """Every action listed once, in the game's order (an interrupted or empty tally may
        not have met them yet)."""
        self.actions += [a for a in actions if a not in self.actions]

    def _add_plays(self, plays: dict[str, dict[str, int]], winners: set[str]) -> None:
        """One game's plays (power -> card -> times). A card counts once per game however
        many powers played it (a shared deck), so its games never outnumber the games."""
        players_of: dict[str, set[str]] = {}
        for power, cards in plays.items():
            for card, times in cards.items():
                self.card_plays[card] += times
                players_of.setdefault(card, set()).add(power)
        for card, powers in players_of.items():
            self.card_games[card] += 1
            if winners & powers:  # a power that played it won (one of those who won together)
                self.card_wins[card] += 1

    def merge(self, other: Tally) -> None:
        if not self.powers:
            self.powers, self.seats = list(other.powers), other.seats
        self.games += other.games
        self.draws += other.draws
        self.shared_wins += other.shared_wins
        for name in ("wins_by_power", "wins_by_seat", "seated_by_agent", "wins_by_agent",
                     "endings", "turns", "decisions", "card_plays", "card_games", "card_wins",
                     "action_takes", "action_games", "dead_end_refusals", "dead_end_games"):
            getattr(self, name).update(getattr(other, name))
        for power, counts in other.scores.items():
            self.scores.setdefault(power, Counter()).update(counts)
        self._know_actions(other.actions)
        self.errors.extend(other.errors)
        for code, seen in other.warnings.items():
            self._warned(code, seen)

    def _warned(self, code: str, seen: dict) -> None:
        """Counts of one warning code added in; the example kept is the lowest seed's, so
        tallies merged in any order agree."""
        known = self.warnings.get(code)
        if known is None:
            self.warnings[code] = {**seen, "first": dict(seen["first"])}
            return
        known["games"] += seen["games"]
        known["count"] += seen["count"]
        if seen["first"]["seed"] < known["first"]["seed"]:
            known["first"] = dict(seen["first"])

    def _winning_powers(self) -> list[str]:
        """Every power seated, in seat order, then any power no player holds that won (the
        game beating its players), in a fixed order: tallies merged in any order agree."""
        return self.powers + sorted(p for p in self.wins_by_power if p not in self.powers)

    def summary(self) -> dict:
        """Plain data (JSON): every figure of the report, each rate with its 95% interval."""
        n = self.games
        turns = _spread(self.turns)
        seats = [rate(self.wins_by_seat.get(i, 0), n) for i in range(self.seats)]
        return {
            "finished": n,
            "winners": {p: self.wins_by_power[p] for p in self._winning_powers()
                        if self.wins_by_power[p]},
            "draws": self.draws,
            "shared_wins": rate(self.shared_wins, n),
            "powers": {p: rate(self.wins_by_power.get(p, 0), n) for p in self._winning_powers()},
            "seats": seats,
            "draw_rate": rate(self.draws, n),
            "fair_share": round(1 / self.seats, 4) if self.seats else 0.0,
            "first_seat": {**(seats[0] if seats else rate(0, 0)),
                           "advantage": round(seats[0]["rate"] - 1 / self.seats, 4)
                           if seats and n else 0.0},
            "by_agent": {a: rate(self.wins_by_agent.get(a, 0), self.seated_by_agent[a])
                       for a in sorted(self.seated_by_agent)},
            "turns": {"min": turns["min"], "max": turns["max"], "mean": turns["mean"],
                      "histogram": {str(k): v for k, v in sorted(self.turns.items())}},
            "decisions": {**_spread(self.decisions),
                          "histogram": {str(k): v for k, v in sorted(self.decisions.items())}},
            "endings": dict(sorted(self.endings.items(), key=lambda kv: (-kv[1], kv[0]))),
            "scores": {p: {**_spread(self.scores.get(p, Counter())),
                           "histogram": {str(k): v for k, v in
                                         sorted(self.scores.get(p, Counter()).items())}}
                       for p in self.powers},
            "cards": self._cards(),
            "actions": [{"action": a, "taken": self.action_takes[a],
                         "games": self.action_games[a]} for a in self.actions],
            # the actions no finished game took: a cost no one can pay, a `require` that
            # never holds (none named before a game has finished)
            "never_taken": [a for a in self.actions if not self.action_takes[a]] if n else [],
            # options refused for a dead end: a rule quietly narrowing play, most first
            "dead_ends": [{"question": q, "later": later, "refused": n,
                           "games": self.dead_end_games[q, later]}
                          for (q, later), n in sorted(self.dead_end_refusals.items(),
                                                      key=lambda kv: (-kv[1], kv[0]))],
            "errors": sorted(self.errors, key=lambda e: e["seed"]),
            "warnings": {code: {**seen, "first": dict(seen["first"])}
                         for code, seen in sorted(self.warnings.items())},
        }

    def _cards(self) -> list[dict]:
        rows = []
        for card, plays in sorted(self.card_plays.items(), key=lambda kv: (-kv[1], kv[0])):
            games = self.card_games[card]
            rows.append({"card": card, "plays": plays, "games": games,
                         "win_rate": rate(self.card_wins[card], games)})
        return rows


def _spread(counts: Counter) -> dict:
    total = sum(counts.values())
    if not total:
        return {"min": 0, "max": 0, "mean": 0}
    mean = sum(k * v for k, v in counts.items()) / total
    return {"min": min(counts), "max": max(counts), "mean": round(mean, 2)}
