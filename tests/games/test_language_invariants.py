"""A game is the same game in every language: the rules keep keys and numbers, never words, so
the same seeded game played in German and in English leaves the same state, offers the same
moves and hides the same cards; only what the screens say differs."""

from __future__ import annotations

import json
import random
import re

import pytest

from apps.core.errors import Refused
from apps.core.language import speak
from apps.core.protocol import IllegalAction
from apps.games.registry import get_game

STEPS = 160
NAMES = ["Ann", "Bea", "Cal"]


def _play(slug: str, language: str, seed: int) -> tuple[list, list[str]]:
    """Each step of a seeded game: the state's JSON, the moves offered (as JSON) and the
    refusal given to a move out of turn; every seat's screen is drawn on the way (so a
    presenter that wrote into the state would show)."""
    entry = get_game(slug)
    rules = entry.rules
    rng, moves = random.Random(seed), random.Random(seed + 1)
    trail, said = [], []
    with speak(language):
        state = rules.setup(NAMES, {}, rng)
        for _step in range(STEPS):
            offered = {s: rules.legal_actions(state, s) for s in [None, *range(len(NAMES))]}
            for seat in range(len(NAMES)):
                shown = entry.present(rules.view(state, seat), {"players": [None] * len(NAMES)})
                said.append(shown["game"]["headline"])
            refusals = []
            for seat, actions in offered.items():
                if seat is not None and not actions:
                    try:
                        rules.apply(state, seat, {"type": "pass"}, random.Random(0))
                    except (IllegalAction, Refused) as refused:
                        refusals.append(type(refused).__name__)
            trail.append(
                (
                    json.dumps(state.to_json(), sort_keys=True),
                    json.dumps(list(offered.items()), sort_keys=True),
                    refusals,
                )
            )
            choices = [(s, a) for s, acts in offered.items() for a in acts]
            if not choices:
                break
            seat, action = moves.choice(choices)
            state = rules.apply(state, seat, action, rng)
    return trail, said


@pytest.mark.parametrize("slug", ["bonje", "dschungel", "mbogo"])
def test_a_seeded_game_leaves_the_same_state_in_german_as_in_english(slug):
    english, in_english = _play(slug, "en", seed=7)
    german, in_german = _play(slug, "de", seed=7)
    dutch, in_dutch = _play(slug, "nl", seed=7)
    assert len(english) > 20
    assert german == english
    assert dutch == english
    # the screens did speak their language all along
    assert len(in_german) == len(in_english) == len(in_dutch)
    assert all(
        d != e for d, e in zip(in_german, in_english, strict=True) if any(c.isalpha() for c in e)
    )


def test_the_state_holds_no_words_of_the_language_it_was_played_in():
    states = _play("mbogo", "de", seed=3)[0][-1][0] + _play("bonje", "nl", seed=3)[0][-1][0]
    for word in ("Käfig", "hat", "Stall", "hengst", "merrie", "Runde", "ronde"):
        assert word not in states


def test_the_words_kept_in_caches_follow_the_language_of_the_moment():
    from apps.games.bonje.seat_view import stable_data
    from apps.games.bonje.stables import Stable
    from apps.games.dschungel.drawing import areas

    shown = {}
    for language in ("en", "de", "en", "nl"):
        with speak(language):
            shown.setdefault(language, set()).add(
                (areas()["green"]["title"], stable_data([Stable([])], 0)["needs_line"])
            )
    assert shown["en"] == {("Green · flowers", "Needs a male and a female of one kind")}
    assert shown["de"] == {("Grün · Blumen", "Braucht Männchen und Weibchen einer Art")}
    assert shown["nl"] == {("Groen · bloemen", "Mist een mannetje en een vrouwtje van één soort")}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "nl"])
def test_the_sheets_drawing_keeps_its_numbers_written_for_svg_in_every_language(language):
    from tests.games.bonje.roomkit import page_for
    from tests.games.dschungel.rooms import dschungel_room

    room, _ = dschungel_room()
    with speak(language):
        page = page_for(room, "Ann") + page_for(room, None)
    assert "translate(94.0 172.0)" in page
    assert not re.search(r'(translate\(|x="|cx="|left:)-?\d+,\d', page)
