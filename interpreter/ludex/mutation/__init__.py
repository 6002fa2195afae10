"""Mutation testing of game content (`ludex mutate`): does some scenario notice when a rule is
read wrong? `operators` makes the wrong readings, `runner` judges them."""

from .runner import Mutant, MutationRun, Outcome, Report, mutate

__all__ = ["Mutant", "MutationRun", "Outcome", "Report", "mutate"]
