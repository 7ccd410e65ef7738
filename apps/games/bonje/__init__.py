"""Bonje in de Stal, the race card game: rules in ``rules``, bots in ``bots``."""
