"""Mbogo in the room framework: everything the framework needs to know of the game."""

from __future__ import annotations

from apps.core.i18n import N_
from apps.games.mbogo import bots, presenter, rules
from apps.games.registry import GameEntry

GAME = GameEntry(
    slug="mbogo",
    name="Mbogo",
    tagline=N_("Cage the animals, hunt the wild ones, and watch out for the buffalo."),
    min_players=2,
    max_players=5,
    rules=rules,
    state=rules.MatchState,
    bots=bots,
    present=presenter.present,
    template="games/mbogo/table.html",
    options=rules.OPTIONS,
)
