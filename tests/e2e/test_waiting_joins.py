"""Joins beyond the players the host expects, in Chromium: three phones wait, the host's
console lists them live, lets one in (its phone goes to its seat by itself) and turns one
away (its phone says so)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, PHONE

SETUP = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
host = get_user_model().objects.get(username=%r)
party = services.create_party(host, name="Doors", expected_players=2)
for name in ("Ann", "Bea"):
    services.join_party(party.code, new_name=name)
print(json.dumps({"code": party.code}))
"""


def sign_in(page: Page, server, login, then: str) -> None:
    page.goto(f"{server.url}/signin/?next={then}")
    page.get_by_label("Username").fill(login[0])
    page.get_by_label("Password").fill(login[1])
    page.get_by_role("button", name="Sign in").click()


def ask_to_join(page: Page, server, code: str, name: str) -> None:
    page.goto(f"{server.url}/p/{code}/join/")
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_role("button", name="Join as a new player").click()
    expect(page.get_by_role("heading", name="Waiting for the host to let you in")).to_be_visible()


def test_joins_beyond_the_bound_wait_and_the_host_lets_one_in_and_turns_one_away(
    server, host_login, new_context
):
    code = json.loads(server.python(SETUP % host_login[0]).splitlines()[-1])["code"]
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login, f"/p/{code}/host/")
    expect(console.locator("#live-status")).to_have_attribute("data-state", "open")
    expect(console.locator("#waiting")).to_contain_text("Players: 2 of 2 expected")

    phones = {name: new_context(PHONE).new_page() for name in ("Cal", "Dot", "Eve")}
    for name, page in phones.items():
        ask_to_join(page, server, code, name)
    # The console hears each waiting phone on its socket: no reload.
    waiting = console.locator("#waiting")
    expect(waiting.get_by_role("heading")).to_have_text("3 phones wait for your OK to join")
    assert_accessible(console, "#waiting")
    assert_accessible(phones["Eve"])
    let_in_cal = waiting.get_by_role("button", name="Let in Cal")
    turn_away_dot = waiting.get_by_role("button", name="Turn away Dot")
    box = let_in_cal.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44

    let_in_cal.click()
    expect(console.locator("#host-message")).to_contain_text("Cal is in")
    expect(phones["Cal"].locator("#seat")).to_contain_text("You are Cal", timeout=8_000)
    expect(phones["Cal"].locator("#live-status")).to_have_text("Connected")
    expect(console.locator("#players")).to_contain_text("Cal")

    turn_away_dot.click()
    expect(console.locator("#host-message")).to_contain_text("Dot was turned away")
    expect(phones["Dot"].get_by_role("heading", name="The host did not let you in")).to_be_visible(
        timeout=8_000
    )
    expect(waiting.get_by_role("heading")).to_have_text("1 phone waits for your OK to join")
    expect(waiting).not_to_contain_text("Dot")
    expect(
        phones["Eve"].get_by_role("heading", name="Waiting for the host to let you in")
    ).to_be_visible()
    assert "Dot" not in console.locator("#players").inner_text()
    # Each phone stayed within its own width.
    for page in phones.values():
        assert (
            page.evaluate("() => document.documentElement.scrollWidth")
            <= PHONE["viewport"]["width"]
        )
