"""A correction on the host's console in Chromium: the form comes when opened, a preview says
what it will do, the table and the player's phone follow, and the host can take it back."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import LAPTOP
from tests.e2e.test_night_for_the_room import as_player, make_night
from tests.e2e.test_party_night import sign_in

MISS = """
from apps.core.tokens import read_seat_token
from apps.parties import services
from apps.parties.models import Party
party = Party.objects.get(code="{code}")
table = party.tables.get(round=1)
roller = party.players.get(pk=table.seats[0])
claim = read_seat_token("{token}", party.scope)
services.table_action(party.code, claim, "e2e-rolloff", {{"type": "rolloff"}})
table.refresh_from_db()
who = party.players.get(pk=table.seats[table.state["roller"]])
print(who.name)
"""
# The phone's own team's score (the section names the phone's team).
MY_SCORE = (
    '#table[data-my-team="0"] .team0 .team-score, #table[data-my-team="1"] .team1 .team-score'
)


def test_the_host_corrects_a_miss_into_two_sixes_and_takes_it_back(server, new_context, host_login):
    night = make_night(server, 4, dice="physical")
    token = night["tokens"]["P000"]
    roller = server.python(MISS.format(code=night["code"], token=token)).splitlines()[-1]
    phone = as_player(new_context, server, night, roller)
    phone.get_by_role("button", name=re.compile(r"^No ")).click()
    expect(phone.locator("#table .roll-log")).to_contain_text("no ")

    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{night['code']}/host/")
    console.get_by_text("Correct an entry").click()
    box = console.locator(".correct-box")
    box.get_by_label("Should have been").select_option("six2")
    box.get_by_label("Reason (kept in the log)").fill("Two sixes, misread")
    box.get_by_role("button", name="Check the correction").click()
    expect(box.locator(".confirm-box")).to_contain_text("the scores become")
    box.get_by_role("button", name="Correct it").click()
    expect(console.locator("#host-message")).to_contain_text("Corrected")
    expect(phone.locator(MY_SCORE)).to_have_text("2")
    console.get_by_role("button", name="Undo the correction").click()
    expect(phone.locator(MY_SCORE)).to_have_text("0")
    expect(console.locator("#log")).to_contain_text("Two sixes, misread")


def test_the_host_renames_a_player_from_the_menu_that_opens_beside_the_name(
    server, new_context, host_login
):
    night = make_night(server, 4)
    phone = as_player(new_context, server, night, "P002")
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{night['code']}/host/")
    console.get_by_label("Change P002").click()
    menu = console.locator(".player-menu[open] .menu-box")
    menu.get_by_label("New name").fill("Pat")
    menu.get_by_role("button", name="Rename").click()
    expect(console.locator("#host-message")).to_contain_text("Renamed to Pat")
    expect(phone.locator("#seat")).to_contain_text("Pat")


def test_a_menu_fetched_again_while_the_host_types_a_new_name_keeps_what_they_typed(
    server, new_context, host_login
):
    night = make_night(server, 4)
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{night['code']}/host/")
    menu_url = re.compile(r"/host/player/\d+/$")
    with console.expect_response(menu_url):
        console.get_by_label("Change P002").click()
    # The console's socket connects again (a laptop's Wi-Fi blinks) and its hello brings the
    # player list drawn anew, the menu open in it, whose form is fetched again. Hold that
    # fetch until the host has typed.
    held = []
    console.route(menu_url, lambda route: held.append(route))
    console.evaluate("BunkoLive.socket.close()")
    for _ in range(100):
        if held:
            break
        console.wait_for_timeout(50)
    assert held, "the open menu was not fetched again"
    menu = console.locator(".player-menu[open] .menu-box")
    menu.get_by_label("New name").fill("Pat")
    console.wait_for_timeout(200)  # the browser's own toggle event may fetch it a second time
    with console.expect_response(menu_url):
        for route in held:
            route.continue_()
    menu.get_by_role("button", name="Rename").click()
    expect(console.locator("#host-message")).to_contain_text("Renamed to Pat")
