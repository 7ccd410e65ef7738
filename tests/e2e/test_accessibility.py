"""axe-core on every kind of page, at a phone's size and on the big screen, and after live
fragments arrive: no serious or critical violation anywhere."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE, TV
from tests.e2e.test_night_for_the_room import as_player, make_night
from tests.e2e.test_party_night import sign_in

ROOM = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
room, seat = services.create_room("{game}", {{}}, "Ann")
token = services.seat_token(room, seat)
claim = read_seat_token(token, room.scope)
for slot in range(1, {bots} + 1):
    services.set_seat_bot(room.code, claim, slot, True)
services.start_room(room.code, claim)
print(json.dumps({{"code": room.code, "scope": room.scope, "token": token}}))
"""


def test_the_public_pages_have_no_serious_violation(server, new_context):
    page = new_context(PHONE).new_page()
    for path in ["/", "/join/", "/games/", "/check/", "/how/bunko/", "/offline/", "/signin/"]:
        page.goto(server.url + path)
        assert_accessible(page)


def test_a_night_on_the_phone_the_big_screen_and_the_console(server, new_context, host_login):
    night = make_night(server, 8)
    player = as_player(new_context, server, night, "P000")
    assert_accessible(player)
    # a live fragment: the table after a tap
    stamp = player.locator("#table").get_attribute("data-v")
    button = player.locator("#table form[data-live-action] button").first
    if button.count():
        button.click()
        player.wait_for_function(f"() => document.getElementById('table').dataset.v !== '{stamp}'")
        assert_accessible(player)
    tv = new_context(TV).new_page()
    tv.goto(f"{server.url}/p/{night['code']}/screen/")
    expect(tv.locator(".tv-table").first).to_be_visible()
    assert_accessible(tv)
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    for path in ["host/", "host/prizes/", "sheet/", "host/blank-sheets/"]:
        console.goto(f"{server.url}/p/{night['code']}/{path}")
        assert_accessible(console)


@pytest.mark.parametrize(("game", "bots"), [("mbogo", 2), ("bonje", 1), ("dschungel", 1)])
def test_each_party_game_on_the_phone_and_the_big_screen(server, new_context, game, bots):
    room = json.loads(server.python(ROOM.format(game=game, bots=bots)).splitlines()[-1])
    context = new_context(PHONE)
    context.add_cookies(
        [
            {
                "name": "seat_" + room["scope"].replace(":", "_"),
                "value": room["token"],
                "url": server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{server.url}/rooms/{room['code']}/")
    expect(page.locator("#live-status")).to_have_text("Connected")
    assert_accessible(page)
    page.goto(f"{server.url}/how/{game}/")
    assert_accessible(page)
    tv = new_context(TV).new_page()
    tv.goto(f"{server.url}/rooms/{room['code']}/screen/")
    assert_accessible(tv)


SIDEWAYS = "document.documentElement.scrollWidth > innerWidth + 1"
# Through the CSSOM: the pages' Content-Security-Policy refuses an added <style>.
TEXT_AT_200 = "document.documentElement.style.setProperty('font-size', '200%', 'important')"


def test_text_at_200_percent_keeps_the_phone_usable_at_390_wide(server, new_context, host_login):
    night = make_night(server, 4)
    player = as_player(new_context, server, night, "P001")
    player.evaluate(TEXT_AT_200)
    assert not player.evaluate(SIDEWAYS)
    button = player.locator("#table form[data-live-action] button").first
    expect(button).to_be_visible()
    # Measured in the page in one go: the socket's first update may swap the table in
    # between a look for the button and a second look for its box.
    left, right = button.evaluate(
        "b => [b.getBoundingClientRect().left, b.getBoundingClientRect().right]"
    )
    assert left >= 0 and right <= 390
    player.goto(f"{server.url}/join/")
    player.evaluate(TEXT_AT_200)
    assert not player.evaluate(SIDEWAYS)
