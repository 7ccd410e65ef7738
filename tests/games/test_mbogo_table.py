"""Mbogo's table on a phone: only legal plays, as labelled buttons; Mbogo's attack chosen by
the player it was drawn from."""

from __future__ import annotations

import html
import json
import re

import pytest

from apps.games import services
from apps.games.mbogo.cards import MBOGO_ID, Cage, HandState, ids_of
from apps.games.mbogo.rules import MatchState
from apps.games.models import Room
from apps.games.registry import get_game
from apps.games.selectors import render_room
from tests.games.roomkit import actor, claim_for_player, started_room

pytestmark = pytest.mark.django_db

BUTTON = re.compile(r"<button[^>]*name=\"act\" value=\"([^\"]*)\" aria-label=\"([^\"]*)\"")


def buttons(page: str) -> list[tuple[dict, str]]:
    return [(json.loads(html.unescape(v)), html.unescape(a)) for v, a in BUTTON.findall(page)]


def test_the_player_to_act_is_offered_only_legal_plays_each_with_a_spoken_label():
    room, claims = started_room(("Ann", "Bea", "Cal"))
    player, legal = actor(room)
    page = render_room(room, room.seats.get(player=player))
    offered = buttons(page)
    assert offered and all(action in legal for action, _ in offered)
    assert all(label[0].isupper() for _, label in offered)
    waiting = room.seats.exclude(player=player).filter(player__isnull=False).first()
    assert buttons(render_room(room, waiting)) == []


def mbogo_is_about_to_be_drawn() -> Room:
    """Ann (a cage of two lions) draws Bea's only card, which is Mbogo."""
    room, claims = started_room(("Ann", "Bea"))
    lions, cages = ids_of("lion"), ids_of("cage")
    hand = HandState(
        players=["Ann", "Bea"],
        dealer=0,
        hands=[[ids_of("antelope")[0]], [MBOGO_ID]],
        cages=[[Cage(cages[0], lions[:2])], []],
        centre=[],
        face_down=ids_of("elephant")[0],
        turn=0,
        phase="draw",
    )
    state = MatchState(["Ann", "Bea"], 0, 1, [0, 0], [], hand)
    room.state = state.to_json()
    room.save()
    return room, claims


def test_drawing_mbogo_lets_the_player_it_came_from_pick_the_cage_on_their_phone():
    room, claims = mbogo_is_about_to_be_drawn()
    ann, bea = room.seats.get(name="Ann"), room.seats.get(name="Bea")
    draw = buttons(render_room(room, ann))
    assert draw == [({"type": "draw", "position": 0}, "Draw card 1 of 1 from Bea's hand")]
    services.perform_action(room.code, claims["Ann"], "draw-mbogo", draw[0][0])
    room.refresh_from_db()
    assert "Mbogo! Bea chooses which of your cages it attacks" in render_room(room, ann)
    assert buttons(render_room(room, ann)) == []
    bea_page = render_room(room, bea)
    assert "Mbogo! Choose which of Ann's cages it attacks" in html.unescape(bea_page)
    [(attack, label)] = buttons(bea_page)
    assert label == "Mbogo attacks Ann's cage of lions, releasing 2"
    services.perform_action(room.code, claim_for_player(room, claims, 1), "attack-01", attack)
    room.refresh_from_db()
    state = get_game("mbogo").load_state(room.state)
    assert sorted(state.hand.centre) == ids_of("lion")[:2]
    assert "Cage 1: empty" in render_room(room, None)
