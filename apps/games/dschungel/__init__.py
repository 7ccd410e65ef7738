"""Auch schon clever: Dschungelparty, the roll-and-write dice game: the dice and the sheet as
data in ``sheet``, the rules in ``rules`` (with ``areas`` and ``turn``), bots in ``bots``."""
