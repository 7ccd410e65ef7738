"""A whole hand of Mbogo in real browsers: three phones and a bot, a fixed seed, a big screen."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE

ACTIONS = "#room-live .actions button[name=act]"
OPTIONS = """
import json
from apps.games.models import Room
print(json.dumps(Room.objects.get(code={code!r}).options))
"""


def sit(page: Page, name: str, seat: int) -> None:
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name=f"Sit here, on seat {seat}").click()
    expect(page.locator(".seat-list")).to_contain_text(name)
    expect(page.locator("#live-status")).to_have_text("Connected")


def take_a_turn(page: Page, keyboard: bool) -> bool:
    """Press the first offered play on this phone, if it has one, and wait for the table to
    show it; whether it did. Only the seat whose turn it is has plays, so the tap is legal."""
    buttons = page.locator(ACTIONS)
    if not buttons.count():
        return False
    version = page.evaluate("document.body.dataset.liveVersion")
    if keyboard:
        buttons.first.focus()
        page.keyboard.press("Enter")
    else:
        buttons.first.click()
    page.wait_for_function(
        f"() => document.body.dataset.liveVersion !== '{version}'", timeout=5_000
    )
    return True


def test_three_phones_and_a_bot_play_a_whole_hand_to_the_score(server, phone, laptop, docs_shot):
    ann, bea, cal = phone(), phone(), phone()
    ann.goto(server.url + "/")
    ann.get_by_role("link", name="Start a party game").click()
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Make the room").click()
    code = ann.locator(".room-head .room-code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{5}", code)

    laptop.goto(f"{server.url}/rooms/{code}/screen/")
    expect(laptop.locator("body")).to_have_class(re.compile("bigscreen"))
    expect(laptop.get_by_role("img", name=f"QR code to join room {code}")).to_be_visible()

    # Bea types the code on the lobby page; Cal opens the room's link (what the QR holds).
    bea.goto(server.url + "/games/")
    bea.get_by_label("Room code").fill(code.lower())
    bea.get_by_role("button", name="Join").click()
    sit(bea, "Bea", 2)
    cal.goto(f"{server.url}/rooms/{code}/")
    sit(cal, "Cal", 3)

    expect(ann.locator(".seat-list")).to_contain_text("Cal")
    ann.get_by_role("button", name="Put a bot on seat 4").click()
    expect(laptop.locator(".seat-list")).to_contain_text("Bot Kiki")
    ann.get_by_role("button", name="Start Mbogo").click()

    phones = [ann, bea, cal]
    for page in phones:
        expect(page.locator("#hand-title")).to_contain_text("Your hand · 15 cards")
    expect(laptop.locator("#turn-headline")).to_be_visible()
    assert laptop.locator("#hand-title").count() == 0

    # Phone-sized and readable: no sideways scroll, 17px text, 48px targets.
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390
    assert ann.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 17
    for button in ann.locator("#room-live button:visible").all():
        assert button.bounding_box()["height"] >= 48

    moves, shot = 0, False
    deadline = time.monotonic() + 150
    while not all(p.locator(".score-breakdown").count() for p in phones):
        assert time.monotonic() < deadline, f"the hand did not end ({moves} moves made)"
        acted = False
        for page in phones:
            if take_a_turn(page, keyboard=moves % 5 == 0):
                moves += 1
                acted = True
                break
        if not acted:
            ann.wait_for_timeout(50)  # the bot's move, or a swap still on its way
        if moves == 12 and not shot:
            docs_shot(ann, "mbogo-phone.png")
            docs_shot(laptop, "mbogo-screen.png")
            shot = True
    for page in [*phones, laptop]:
        expect(page.locator(".score-breakdown")).to_be_visible()
        expect(page.locator(".score-breakdown")).to_contain_text("Bot Kiki")
    assert moves > 20
    # Bea, left of the dealer, deals the next hand; the others are told so.
    expect(bea.get_by_role("button", name="Next hand")).to_be_visible()
    expect(ann.locator(".score-breakdown")).to_contain_text("Bea deals the next hand.")
    for page in phones:  # the score table fits the phone, or scrolls inside its card
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


# Seat names taller than one line: their words were broken to fit beside the seat's controls.
BROKEN_NAMES = """() => Array.from(document.querySelectorAll(".seat-name"))
  .filter((n) => n.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(n).fontSize))
  .map((n) => n.textContent.trim())"""


@pytest.mark.parametrize(
    ("locale", "settings", "play_to", "choices"),
    [
        ("en-GB", "Settings for Mbogo", "Play to", ["One hand", "25 points", "100 points"]),
        ("de-DE", "Einstellungen für Mbogo", "Spielen bis", ["Ein Spiel", "25 Punkte"]),
    ],
)
def test_the_lobby_offers_how_long_the_match_runs_and_the_room_keeps_it(
    server, new_context, locale, settings, play_to, choices
):
    ann = new_context({**PHONE, "locale": locale}).new_page()
    ann.goto(server.url + "/games/")
    ann.check("input[name=game][value=mbogo]")
    ann.get_by_text(settings).click()
    target = ann.get_by_label(play_to)
    expect(target).to_be_visible()
    offered = target.locator("option").all_inner_texts()
    assert all(any(o.startswith(c) for o in offered) for c in choices), offered
    assert target.bounding_box()["height"] >= 44
    target.select_option("25")
    ann.fill("#id_name", "Ann")
    ann.locator("form[action$='/games/new/'] button[type=submit]").click()
    code = ann.locator(".room-head .room-code").inner_text()
    assert server.python(OPTIONS.format(code=code)).splitlines()[-1] == '{"target": 25}'
    # The room's lobby, with its empty seats beside their bot controls, fits the phone whole.
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390
    assert ann.evaluate(BROKEN_NAMES) == []
