"""The games a room can hold. Adding a game is one entry here (plus its rules, bots and
table template); the room framework reads everything else from the entry."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


def _load(path: str) -> Any:
    """``"package.module:attr"`` (or a plain module path) imported on first use."""
    module_path, _, attr = path.partition(":")
    module = importlib.import_module(module_path)
    return getattr(module, attr) if attr else module


@dataclass(frozen=True)
class GameEntry:
    slug: str
    name: str
    tagline: str
    min_players: int
    max_players: int
    rules_path: str  # a module following apps.core.protocol
    state_path: str  # the state class, with from_json()
    bots_path: str  # a module with choose_random / choose_heuristic(state, seat, rng)
    presenter_path: str  # (view, room context) -> template context for the table
    table_template: str
    default_options: dict = field(default_factory=dict)
    # Actions any player may take for the whole table (e.g. dealing the next hand); bots never
    # take them, so a finished hand stays on every screen until a person moves on.
    table_actions: frozenset[str] = frozenset()

    @property
    def rules(self) -> ModuleType:
        return _load(self.rules_path)

    def load_state(self, data: dict) -> Any:
        return _load(self.state_path).from_json(data)

    @property
    def bots(self) -> ModuleType:
        return _load(self.bots_path)

    def present(self, view: dict, context: dict) -> dict:
        return _load(self.presenter_path)(view, context)


GAMES: dict[str, GameEntry] = {
    "mbogo": GameEntry(
        slug="mbogo",
        name="Mbogo",
        tagline="Cage the animals, hunt the wild ones, and watch out for the buffalo.",
        min_players=2,
        max_players=5,
        rules_path="apps.games.mbogo.rules",
        state_path="apps.games.mbogo.rules:MatchState",
        bots_path="apps.games.mbogo.bots",
        presenter_path="apps.games.presenters:present_mbogo",
        table_template="games/mbogo/table.html",
        default_options={"target": 50},
        table_actions=frozenset({"next_hand"}),
    ),
}


class UnknownGame(LookupError):
    pass


def get_game(slug: str) -> GameEntry:
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownGame(f"There is no game called {slug!r} here.") from None
