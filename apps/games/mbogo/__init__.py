"""Mbogo, the card game: rules in ``rules``, bots in ``bots``."""
