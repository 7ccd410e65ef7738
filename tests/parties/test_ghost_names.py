"""A ghost seat is kept as "Ghost 1" (the key the rules know it by) and shown in each
viewer's language: "Spook 1" on a Dutch phone, "Geist 1" on a German one."""

from __future__ import annotations

import pytest
from django.conf import settings

from apps.core.language import speak
from apps.core.tokens import seat_cookie_name
from apps.parties import services
from apps.parties.models import Player, Table
from apps.parties.presenter import tell
from apps.parties.rules.attendance import is_ghost, shown_name
from apps.parties.rules.table import TableState
from apps.prizes.rules.steps import eligible
from tests.prizes.ceremonies import start, tally

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus"]  # seven: one ghost seat


def test_a_ghosts_name_is_shown_in_the_viewers_language_and_other_names_as_typed():
    shown = {}
    for language in ("en", "nl", "de"):
        with speak(language):
            shown[language] = (shown_name("Ghost 1"), shown_name("Ann"))
    assert shown == {
        "en": ("Ghost 1", "Ann"),
        "nl": ("Spook 1", "Ann"),
        "de": ("Geist 1", "Ann"),
    }


def test_a_ghost_keeps_its_key_so_the_rules_still_know_it_whatever_the_language():
    with speak("nl"):
        state = start({"Ann": tally(wins=1), "Ghost 1": tally(wins=5)}, ("most_wins",))
        assert is_ghost("Ghost 1") and not is_ghost(shown_name("Ghost 1"))
        assert eligible(state, "most_wins", runner_up=False) == [0]


def test_the_nights_log_names_a_ghosts_roll_in_the_readers_language():
    roll = {"seat": 3, "dice": [6, 6, 2], "kind": "points", "points": 2}
    item = {"roll": roll, "names": ["Ann", "Bea", "Cal", "Ghost 1"]}
    with speak("nl"):
        assert tell(item).startswith("Spook 1 gooide 6 6 2")
    assert tell(item).startswith("Ghost 1 rolled 6 6 2")


@pytest.fixture
def night(django_user_model):
    """Seven players and a ghost at two tables, round 1 under way."""
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in NAMES:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    return party, tokens


def ghosts_table(party) -> tuple[Table, int]:
    """The ghost's table this round and the ghost's seat at it."""
    ghost = Player.objects.get(party=party, kind=Player.Kind.GHOST)
    table = next(t for t in Table.objects.filter(party=party, round=1) if ghost.pk in t.seats)
    return table, table.seats.index(ghost.pk)


def ghosts_table_mate(party) -> str:
    table, seat = ghosts_table(party)
    return Player.objects.get(pk=table.seats[(seat + 1) % 4]).name


def page(client, url: str, language: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url).content.decode()


@pytest.mark.django_db
def test_a_dutch_phone_at_a_ghosts_table_shows_the_ghost_in_dutch(client, night):
    party, tokens = night
    assert Player.objects.get(party=party, kind=Player.Kind.GHOST).name == "Ghost 1"
    client.cookies[seat_cookie_name(party.scope)] = tokens[ghosts_table_mate(party)]
    dutch = page(client, f"/p/{party.code}/", "nl")
    assert "Spook 1" in dutch and "Ghost 1" not in dutch
    english = page(client, f"/p/{party.code}/", "en")
    assert "Ghost 1" in english and "Spook 1" not in english


@pytest.mark.django_db
def test_the_console_and_the_big_screen_show_the_ghost_in_their_language(client, night):
    party, _ = night
    client.force_login(party.host)
    console = page(client, f"/p/{party.code}/host/", "nl")
    assert "Spook 1" in console and "Ghost 1" not in console
    assert "Ghost 1" in page(client, f"/p/{party.code}/host/", "en")
    services.set_screen_language(party.code, "de")
    screen = client.get(f"/p/{party.code}/screen/").content.decode()
    assert "Geist 1" in screen and "Ghost 1" not in screen


@pytest.mark.django_db
def test_the_score_sheet_lists_the_ghost_in_the_readers_language(client, night):
    party, _ = night
    table, _seat = ghosts_table(party)
    services.host_move(party.code, table.pk, {"type": "end", "winner": 0})
    sheet = page(client, f"/p/{party.code}/sheet/", "de")
    assert "Geist 1" in sheet and "Ghost 1" not in sheet
    assert TableState.from_json(Table.objects.get(pk=table.pk).state).players.count("Ghost 1")
