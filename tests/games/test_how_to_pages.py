"""The how-to pages speak the reader's language, show that language's phone screen, and every
game room's phone page and big screen link to its game's page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

from apps.games import services

pytestmark = pytest.mark.django_db

HEADINGS = {
    "en": "How to play Mbogo",
    "nl": "Zo speel je Mbogo",
    "de": "So geht Mbogo",
}


@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_a_how_to_page_is_written_and_pictured_in_the_readers_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for game in ("bunko", "bonje", "dschungel", "mbogo"):
        page = client.get(f"/how/{game}/").content.decode()
        pictures = re.findall(r'<img src="/static/(games/how/[^"]+\.png)"', page)
        assert len(pictures) == 1 and finders.find(pictures[0]), game
        assert pictures[0] == f"games/how/{game}-{language}.png"
    page = client.get("/how/mbogo/").content.decode()
    assert HEADINGS[language] in page


def test_the_dutch_and_german_pages_say_the_games_own_words(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    assert "bonje" in client.get("/how/bonje/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert "Regenbogensterne" in client.get("/how/dschungel/").content.decode()


@pytest.mark.parametrize("game", ["bonje", "dschungel", "mbogo"])
def test_every_game_rooms_phone_and_big_screen_link_to_its_how_to_page(client, game):
    room, _ = services.create_room(game, {}, "Ann")
    for path in (f"/rooms/{room.code}/", f"/rooms/{room.code}/screen/"):
        assert f'href="/how/{game}/' in client.get(path).content.decode(), path


@pytest.mark.parametrize("back", ["/\\evil.example/", "//evil.example/", "https://evil.example/"])
def test_the_how_to_pages_way_back_never_leads_to_another_site(client, back):
    page = client.get("/how/mbogo/", {"back": back}).content.decode()
    assert 'href="/\\' not in page and 'href="//' not in page and 'href="https:' not in page
    assert "Back to the game" not in page


def test_the_how_to_pages_way_back_leads_to_the_game_it_came_from(client):
    page = client.get("/how/mbogo/", {"back": "/rooms/ABCD/"}).content.decode()
    assert 'href="/rooms/ABCD/"' in page
