from __future__ import annotations

from apps.games.registry import GameEntry

from . import bots, rules

GAME = GameEntry(
    slug="snap",
    name="Snap",
    tagline="A toy race for the framework's tests.",
    min_players=1,
    max_players=4,
    rules=rules,
    state=rules.SnapState,
    bots=bots,
    present=lambda view, context: {"game": view},
    template="games/partials/generic_table.html",
    options=rules.OPTIONS,
)
