"""Auch schon clever: Dschungelparty in the room framework: everything the framework needs to
know of the game."""

from __future__ import annotations

from apps.core.i18n import N_
from apps.games.dschungel import bots, presenter, rules
from apps.games.registry import GameEntry

GAME = GameEntry(
    slug="dschungel",
    name="Auch schon clever: Dschungelparty",
    tagline=N_("Roll, take a colour, cross flowers, bananas, fountains and coconuts for stars."),
    min_players=1,
    max_players=4,
    rules=rules,
    state=rules.State,
    bots=bots,
    present=presenter.present,
    template="games/dschungel/table.html",
    options=rules.OPTIONS,
    stylesheet="games/dschungel/dschungel.css",
    script="games/dschungel/dschungel.js",
)
