"""Ludex: run the rules of card-driven board games from data."""

__version__ = "0.1.0"
