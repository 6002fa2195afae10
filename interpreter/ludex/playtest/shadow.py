"""A forkable copy of the game an agent is asked about, kept in step with it.

Agents are handed the live game; looking ahead means forking it many times, and forks are
cheap from a game that keeps checkpoints (`Game.fork`). The shadow is forked once from the
live game and then given each new answer the live game has taken."""

from __future__ import annotations

from ..engine import Game


class Shadow:
    def __init__(self):
        self.game: Game | None = None
        self.live: Game | None = None  # held, so no other game can take its place

    def follow(self, live: Game) -> Game:
        shadow = self.game
        if (shadow is None or self.live is not live or len(shadow.history) > len(live.history)
                or shadow.history != live.history[:len(shadow.history)]):
            shadow = self.game = live.fork(checkpoints=True)
            self.live = live
        for answer in live.history[len(shadow.history):]:
            shadow.apply(answer)
        return shadow
