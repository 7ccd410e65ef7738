"""The games a room can hold. Each game is a package (``apps/games/<game>/``) whose
``game.py`` holds one ``GameEntry``; ``settings.GAMES`` lists the packages. The room framework
reads everything game-specific from the entry and knows nothing else of the game."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from apps.core.errors import Refused
from apps.core.protocol import BotLevel, Option


@dataclass(frozen=True)
class GameEntry:
    slug: str
    name: str
    tagline: str
    min_players: int
    max_players: int
    rules: ModuleType  # follows apps.core.protocol
    state: type  # the rules' state class, with from_json()
    bots: ModuleType  # LEVELS: dict[str, BotLevel]; choose(state, seat, level, rng)
    # (the rules' view for one viewer, the room's context) -> the table template's context
    present: Callable[[dict, dict], dict]
    template: str  # the table, included in the room page, the big screen and live updates
    options: tuple[Option, ...] = field(default=())
    # The game's own static files (paths for {% static %}), loaded by its room pages.
    stylesheet: str = ""
    script: str = ""
    # What the outcome's scores count, for the final standings ("rounds won"); "" for points.
    score_label: str = ""

    def load_state(self, data: dict) -> Any:
        return self.state.from_json(data)

    @property
    def bot_levels(self) -> dict[str, BotLevel]:
        return dict(self.bots.LEVELS)

    @property
    def default_bot_level(self) -> str:
        return next(iter(self.bots.LEVELS))

    def think_ms(self, state: Any, seat: int, level: str, rng) -> int:
        """How long a bot waits before its move: the game may say (a pause to read the
        scores), else a time within its level's range."""
        if hasattr(self.bots, "think_ms"):
            ms = float(self.bots.think_ms(state, seat, level, rng))
        else:
            levels = self.bot_levels
            low, high = levels.get(level, levels[self.default_bot_level]).think_ms
            ms = rng.uniform(low, high)
        # GAME_BOT_PACE scales every bot (0 in tests: bots move as soon as they may).
        return int(ms * float(getattr(settings, "GAME_BOT_PACE", 1.0)))


def _load(package: str) -> GameEntry:
    return importlib.import_module(f"{package}.game").GAME


@cache
def all_games() -> dict[str, GameEntry]:
    entries = [_load(package) for package in settings.GAMES]
    return {entry.slug: entry for entry in entries}


def get_game(slug: str) -> GameEntry:
    try:
        return all_games()[slug]
    except KeyError:
        raise Refused(_("There is no game called {name} here.").format(name=repr(slug))) from None
