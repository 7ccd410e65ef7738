from __future__ import annotations

import pytest

from apps.games.registry import all_games


@pytest.fixture
def snap(settings):
    """The toy game Snap (tests/games/toy), registered for this test only."""
    settings.GAMES = [*settings.GAMES, "tests.games.toy"]
    all_games.cache_clear()
    yield all_games()["snap"]
    all_games.cache_clear()
