"""Bonje in de Stal in the room framework: everything the framework needs to know of the game."""

from __future__ import annotations

from apps.core.i18n import N_
from apps.games.bonje import bots, presenter, rules
from apps.games.registry import GameEntry

GAME = GameEntry(
    slug="bonje",
    name="Bonje in de Stal",
    tagline=N_("Grab the flipped cards first, fill your stables with couples, call COMPLETE."),
    min_players=2,
    max_players=4,
    rules=rules,
    state=rules.BonjeState,
    bots=bots,
    present=presenter.present,
    template="games/bonje/table.html",
    options=rules.OPTIONS,
    stylesheet="games/bonje/bonje.css",
    script="games/bonje/bonje.js",
    score_label=N_("rounds won"),
)
