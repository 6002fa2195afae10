"""Playtesting: agents that look ahead (greedy on the game's declared heuristic, Monte Carlo
tree search over re-dealt hidden information), their registry by name, and the statistics and
report of many simulated games. Everything goes through the engine's decision protocol and
`Game.fork`; everything is seeded."""
