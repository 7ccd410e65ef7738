"""A short game of Bonje in de Stal in real browsers: two phones, a quick bot and the big
screen, from the lobby to the winner."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TV, seated_phone

# What a phone does when it can, most urgent first: play the card in hand (a truck: the
# animal, then where: a stable, or out of the game when no stable takes it), else grab a
# face-up card.
TARGET = "#room-live :is(.bj-target, .bj-out):not([hidden])"
PICK = "#room-live .bj-pick"
TAKE = "#room-live .bj-take"
COUNT_ERRORS = """() => {
  window.bjErrors = 0;
  document.addEventListener("live:error", () => { window.bjErrors += 1; });
}"""


def sit(page: Page, name: str, seat: int) -> None:
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name=f"Sit here, on seat {seat}").click()
    expect(page.locator(".seat-list")).to_contain_text(name)
    expect(page.locator("#live-status")).to_have_text("Connected")


SMALL_BUTTONS = """() => Array.from(document.querySelectorAll("#room-live button"))
  .filter((b) => b.offsetParent !== null)
  .map((b) => [b.id || b.textContent.trim(), b.getBoundingClientRect()])
  .filter(([, box]) => box.width < 48 || box.height < 48)
  .map(([name]) => name)"""


def fits_a_phone(page: Page) -> None:
    """No sideways scroll, and every control a thumb can hit (read in one go: the table may
    be swapped at any moment)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_BUTTONS) == []


def press(page: Page, selector: str, keyboard: bool) -> bool:
    """Press the first control matching ``selector``, by touch or by keyboard; False when a
    move elsewhere swapped it away first (the card was grabbed, or handed to this phone as
    the last one)."""
    control = page.query_selector(selector)
    if control is None:
        return False
    try:
        if keyboard:
            control.focus()
            page.keyboard.press("Enter")
        else:
            control.click(timeout=2_000)
    except PlaywrightError as error:
        # Swapped away between the query and the press: detached, or kept in the page but
        # no longer pressable (the card went to another stable while the click waited).
        if "not attached" not in error.message and "Timeout" not in error.message:
            raise
        return False
    return True


def act(page: Page, keyboard: bool) -> bool:
    """One move on this phone if it has one; whether it sent one."""
    if page.locator(TARGET).count():
        return press(page, TARGET, keyboard)
    if page.locator(PICK).count():
        return press(page, PICK, keyboard) and press(page, TARGET, keyboard)
    if page.locator(TAKE).count():
        return press(page, TAKE, keyboard)
    return False


def answered(page: Page, version: str, errors: int) -> None:
    """Wait until the move was applied (a new version arrived) or refused."""
    page.wait_for_function(
        "([v, e]) => document.body.dataset.liveVersion !== v || window.bjErrors !== e",
        arg=[version, errors],
        timeout=5_000,
    )


# Beyond the game's own deadline below (150 s), so a slow machine's game that runs long
# fails with how many moves were made, not with a bare timeout.
@pytest.mark.timeout(210)
def test_two_phones_a_bot_and_the_big_screen_play_a_short_game_to_its_winner(
    server, phone, new_context, docs_shot
):
    ann, bea = phone(), phone()
    ann.goto(server.url + "/games/")
    ann.locator("input[name=game][value=bonje]").check()
    ann.get_by_text("Settings for Bonje in de Stal").click()
    ann.locator("#id_bonje__length").select_option("short")
    ann.locator("#id_bonje__reveal_ms").fill("0")  # your own card at once: a shorter game
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Make the room").click()
    expect(ann.locator(".room-head h1")).to_contain_text("Bonje in de Stal")
    code = ann.locator(".room-head .room-code").inner_text()

    screen = new_context(TV).new_page()
    screen.goto(f"{server.url}/rooms/{code}/screen/")
    bea.goto(f"{server.url}/rooms/{code}/")
    sit(bea, "Bea", 2)
    expect(ann.locator(".seat-list")).to_contain_text("Bea")
    ann.get_by_label("Kind of bot for seat 3").select_option("quick")
    ann.get_by_role("button", name="Put a bot on seat 3").click()
    expect(screen.locator(".seat-list")).to_contain_text("Bot Kiki")
    expect(ann.locator(".seat-list")).to_contain_text("Quick: fast and sharp")
    ann.get_by_role("button", name="Start Bonje in de Stal").click()

    # COMPLETE with empty stables, pressed from the keyboard, is refused in words right above
    # the button (a bot's elephant may already fill one of them).
    ann.locator("#bj-complete").focus()
    ann.keyboard.press("Enter")
    expect(ann.locator("#bar-error")).to_have_text(
        re.compile(r"^Your stable \d is not complete: (it is empty|an elephant fills it): ")
    )
    expect(screen.locator(".bj-slot")).to_have_count(3)
    fits_a_phone(ann)
    # A guest who opens the room's link now watches the table, with no seat form in the way.
    watcher = phone()
    watcher.goto(f"{server.url}/rooms/{code}/")
    expect(watcher.locator(".bj-slot")).to_have_count(3)
    expect(watcher.locator("#sit-form")).to_be_hidden()
    assert watcher.locator("#bj-complete").count() == 0

    phones = [ann, bea]
    for page in phones:
        page.evaluate(COUNT_ERRORS)
    moves, checked, shot = 0, False, False
    deadline = time.monotonic() + 150
    while not all(p.locator("[data-testid=results]").count() for p in phones):
        assert time.monotonic() < deadline, f"the game did not end ({moves} moves made)"
        sent = []
        for page in phones:  # both phones move at once, as at a real table
            before = (page.evaluate("document.body.dataset.liveVersion"), page.evaluate("bjErrors"))
            if act(page, keyboard=moves % 4 == 1):
                sent.append((page, before))
                moves += 1
        for page, (version, errors) in sent:
            answered(page, version, errors)
        if not sent:
            ann.wait_for_timeout(60)  # the next flip, or the bot's move
        if not checked and ann.locator(TARGET).count():
            fits_a_phone(ann)  # with a card in hand and its targets marked
            checked = True
        if moves >= 8 and not shot:
            ann.evaluate("window.scrollTo(0, 0)")
            docs_shot(ann, "bonje-phone.png", full_page=False)
            docs_shot(screen, "bonje-screen.png", full_page=False)
            assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
            shot = True
    assert moves >= 10 and checked  # the quick bot may call COMPLETE after a few turns

    # The winner and the final standings on every screen.
    for page in [*phones, screen]:
        expect(page.locator("[data-testid=results]")).to_contain_text("Final standings")
        expect(page.locator("[data-testid=round-result]")).to_contain_text("Bot Kiki")
    expect(screen.locator("#bj-headline")).to_have_text(re.compile("wins? the game!"))
    assert ann.locator("#bj-complete").count() == 0  # the bar goes with the game
    docs_shot(screen, "bonje-screen-end.png", full_page=False)
    for page in phones:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


# Every stable of Ann and Bea holds an animal; Bea holds a transport truck and Ann has just
# taken the elephant from her own pile (a constructed position).
NO_PLACE_YET = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.games.services.common import changed
from tests.games.bonje import elephant_against_truck
room, ann = services.create_room("bonje", {{}}, "Ann")
bea = services.take_seat(room.code, 1, "Bea")
services.start_room(room.code, read_seat_token(services.seat_token(room, ann), room.scope))
room.refresh_from_db()
state = elephant_against_truck(players=2)
state.players = list(room.state["players"])
room.state = state.to_json()
changed(room, "state", state=state)
tokens = [services.seat_token(room, seat) for seat in (ann, bea)]
print(json.dumps({{"code": room.code, "scope": room.scope, "tokens": tokens}}))
"""
TRUCK_OUT = """
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.games.models import Room
room = Room.objects.get(code={code!r})
truck = {{"type": "truck", "from_seat": 0, "from_stable": 0, "animal": "stallion",
          "to_seat": None, "to_stable": None}}
services.perform_action(room.code, read_seat_token({token!r}, room.scope), "bea-truck", truck)
"""
# The headline, with the width its words need and the width it gets.
HEADLINE = """() => { const h = document.getElementById("bj-headline");
  return {text: h.textContent.trim(), cut: h.scrollWidth > h.clientWidth
    || h.scrollHeight > h.clientHeight + 1}; }"""


def test_an_elephant_with_no_place_yet_waits_and_its_removal_is_told_in_the_story(
    server, new_context, docs_shot
):
    room = json.loads(server.python(NO_PLACE_YET.format()).splitlines()[-1])
    ann = seated_phone(new_context, server, room, 0)
    bea = seated_phone(new_context, server, room, 1)
    screen = new_context(TV).new_page()
    screen.goto(f"{server.url}/rooms/{room['code']}/screen/")

    # No stable takes the elephant yet, but Bea's truck could empty one: WAIT is the move.
    expect(ann.locator("#bj-headline")).to_have_text("No place yet for the elephant")
    expect(ann.locator("#room-live")).to_contain_text(
        "No other player has an empty stable yet. WAIT: a card still to be played may make a "
        "place for it."
    )
    assert ann.locator(TARGET).count() == 0
    wait = ann.get_by_role("button", name=re.compile("^WAIT"))
    expect(wait).to_be_enabled()
    fits_a_phone(ann)
    docs_shot(ann, "bonje-phone-no-place-yet.png")
    wait.focus()
    ann.keyboard.press("Enter")
    expect(ann.locator("#bj-headline")).to_have_text("You wait with the elephant")
    expect(screen.locator("#bj-headline")).to_have_text("Turn 1: the taken cards are played")
    docs_shot(screen, "bonje-screen-waiting.png", full_page=False)

    # Bea trucks Ann's stallion out of the game: the only empty stable is Ann's own.
    server.python(TRUCK_OUT.format(code=room["code"], token=room["tokens"][1]))
    expect(ann.locator("#room-live .bj-log")).to_contain_text(
        "Your elephant still had no place when its turn came and left the game: no other "
        "player has an empty stable."
    )
    expect(bea.locator("#room-live .bj-log")).to_contain_text(
        "Ann's elephant still had no place when its turn came and left the game"
    )


@pytest.mark.parametrize("locale", ["nl-NL", "de-DE"])
def test_the_wait_for_a_place_reads_whole_on_a_dutch_and_a_german_phone(
    server, new_context, locale, docs_shot
):
    room = json.loads(server.python(NO_PLACE_YET.format()).splitlines()[-1])
    ann = seated_phone(new_context, server, room, 0, locale)
    headline = ann.evaluate(HEADLINE)
    assert not headline["cut"], headline["text"]
    fits_a_phone(ann)
    docs_shot(ann, f"bonje-phone-no-place-yet-{locale[:2]}.png", full_page=False)
