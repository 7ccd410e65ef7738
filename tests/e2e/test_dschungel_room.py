"""A turn of Dschungelparty in real browsers: two phones and the big screen, a fixed seed.

Ann rolls, takes a colour, crosses on her sheet (and takes a bonus mark when one comes),
undoes a cross and confirms; Bea chooses from the dice left while the countdown runs. A phone
that missed an update taps a stale button and is told why. The rest of the game is played by
bots through the services, and every screen shows the rainbow stars at the end."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.conftest import TV, seated_phone

pytestmark = pytest.mark.timeout(150)

TAPS = "#room-live .dj-tap"
FINISH = """
from datetime import timedelta
from django.utils import timezone
from apps.games import services
from apps.games.models import Room
code = {code!r}
services.take_over_absent_seats(code, timezone.now() + timedelta(hours=1))
services.play_bots(code)
print(Room.objects.get(code=code).status)
"""


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.liveVersion"))


def press(page: Page, selector: str, keyboard: bool = False) -> None:
    """Press a control (a tap, or focus and Enter) and wait until the page shows the version
    it made."""
    before = version(page)
    if keyboard:
        page.locator(selector).first.focus()
        page.keyboard.press("Enter")
    else:
        page.locator(selector).first.click()
    page.wait_for_function(f"() => Number(document.body.dataset.liveVersion) > {before}")


def new_crosses(page: Page) -> int:
    return page.locator(".dj-mine .dj-new-ring").count()


def fits_a_phone(page: Page) -> None:
    """No sideways scroll at 390 px, and every button and tap target at least 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for button in page.locator("#room-live button:visible").all():
        box = button.bounding_box()
        if box is not None:
            assert box["width"] >= 44 and box["height"] >= 44, button.get_attribute("id")


class MissedUpdates:
    """A phone on a weak signal: while ``dropping``, the room's updates never reach it (its
    moves still reach the server, and their answers come back)."""

    def __init__(self, page: Page) -> None:
        self.dropping = False
        page.route_web_socket(re.compile(r"/ws/rooms/"), self.route)

    def route(self, socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        server.on_message(lambda message: self.forward(socket, message))

    def forward(self, socket: WebSocketRoute, message: str | bytes) -> None:
        if self.dropping and json.loads(message).get("type") == "fragments":
            return
        socket.send(message)


def test_two_phones_and_the_big_screen_play_a_turn_and_see_the_rainbow_stars(
    server, phone, new_context, docs_shot
):
    ann, bea = phone(), phone()
    ann_signal = MissedUpdates(ann)
    ann.goto(server.url + "/games/")
    ann.get_by_role("radio", name=re.compile("Dschungelparty")).check()
    ann.get_by_text("Settings for Auch schon clever: Dschungelparty").click()
    ann.get_by_label("Time for the others' choice (seconds)").fill("120")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Make the room").click()
    code = ann.locator(".room-head .room-code").inner_text()

    screen = new_context(TV).new_page()
    screen.goto(f"{server.url}/rooms/{code}/screen/")
    bea.goto(f"{server.url}/rooms/{code}/")
    bea.get_by_label("Your name").fill("Bea")
    bea.get_by_role("button", name="Sit here, on seat 2").click()
    expect(ann.locator(".seat-list")).to_contain_text("Bea")
    ann.get_by_role("button", name="Start Auch schon clever: Dschungelparty").click()

    # Ann rolls; the big screen shows whose turn it is, Bea's phone says who rolls.
    expect(ann.locator("#turn-headline")).to_have_text("Your turn: roll the dice")
    expect(bea.locator("#turn-headline")).to_have_text("Ann rolls the dice")
    expect(screen.locator("#turn-headline")).to_have_text("Ann rolls the dice")
    fits_a_phone(ann)
    press(ann, "#do-roll")
    if ann.locator("#do-reroll").count():  # nothing fitted: all five once more
        press(ann, "#do-reroll")
    expect(screen.locator(".dj-dice .dj-die")).to_have_count(5)
    expect(ann.locator(".dj-choice").first).to_be_visible()
    fits_a_phone(ann)

    # Ann takes a colour: the fields she may cross are buttons on her sheet. With bananas to
    # spare she fills crate 1 (two single bananas), which wins a pink bonus mark.
    purple = ann.locator("#choose-purple").count() > 0
    press(ann, "#choose-purple" if purple else ".dj-choice")
    expect(ann.locator("#turn-headline")).to_have_text(re.compile("Cross in"))
    first = "#tap-purple-0-0" if purple else TAPS
    fits_a_phone(ann)
    press(ann, first)
    assert new_crosses(ann) == 1
    expect(screen.locator(".dj-seat").first).to_contain_text("1 not confirmed")

    # Undo the cross, make it again, then every bonus mark won, one after another.
    press(ann, "#do-undo")
    assert new_crosses(ann) == 0
    press(ann, first)
    if purple:
        press(ann, "#tap-purple-0-1")
        expect(ann.locator("#turn-headline")).to_have_text("Bonus mark: pink")
        docs_shot(ann, "dschungel-phone.png", full_page=False)
    for _ in range(6):  # a bonus mark may win another; never more than a few
        if not ann.locator("#do-skip_bonus").count():
            break
        expect(ann.locator("#turn-headline")).to_contain_text("Bonus mark")
        press(ann, f"{TAPS}.is-bonus")
    assert not ann.locator("#do-skip_bonus").count()

    # Ann confirms on a weak signal: the server takes it, but her phone misses the update
    # and still shows her turn's buttons. Her stale tap is refused, with the reason.
    crosses = new_crosses(ann)
    ann_signal.dropping = True
    ann.locator("#do-confirm").click()
    expect(ann.locator("#do-confirm")).to_be_enabled()  # answered, but not redrawn
    ann.locator("#do-undo").click()
    expect(ann.locator("#turn-error")).to_have_text("The others are choosing from your dice now.")
    ann_signal.dropping = False
    assert crosses >= 1

    # Bea chooses from the dice Ann left while the countdown runs.
    expect(bea.locator("#turn-headline")).to_have_text(
        re.compile("Take a colour from Ann's dice|None of Ann's dice fit")
    )
    expect(screen.locator(".dj-countdown [data-countdown-ms]")).to_be_visible()
    if bea.locator(".dj-choice").count():
        expect(bea.locator(".dj-countdown")).to_contain_text("s left to choose")
        fits_a_phone(bea)
        docs_shot(screen, "dschungel-screen.png", full_page=False)
        # Bea plays by keyboard alone; after her cross the focus moves on to what is next.
        press(bea, ".dj-choice", keyboard=True)
        if bea.locator(TAPS).count():
            press(bea, TAPS, keyboard=True)
            assert bea.evaluate("document.activeElement.closest('.dj') !== null")
        for _ in range(6):
            if not bea.locator("#do-skip_bonus").count():
                break
            press(bea, "#do-skip_bonus", keyboard=True)
        press(bea, "#do-confirm", keyboard=True)
    expect(bea.locator("#turn-headline")).to_have_text("Your turn: roll the dice")
    expect(ann.locator("#turn-headline")).to_have_text("Bea rolls the dice")
    expect(screen.locator(".dj-log")).to_contain_text("Ann took")

    # The rest of the game: both leave the table to bots, played out through the services.
    assert server.python(FINISH.format(code=code)).splitlines()[-1] == "finished"
    for page in (ann, bea, screen):
        page.reload()
        expect(page.locator(".dj-outcome")).to_be_visible()
        expect(page.locator("#turn-headline")).to_have_text(
            re.compile(r"(Ann|Bea) wins with \d+ rainbow stars?|Ann and Bea share the win")
        )
        expect(page.get_by_test_id("results")).to_contain_text("Final standings")
    fits_a_phone(ann)
    docs_shot(screen, "dschungel-end.png", full_page=False)


# Ann has rolled a banana, a joker and three dice of other colours (a constructed position).
ROLLED = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.games.models import Room
from apps.games.services.common import changed
from tests.games.dschungel import BANANA, DOTS, ELEPHANT, JOKER, STRIPES, table
room, ann = services.create_room("dschungel", {{}}, "Ann")
bea = services.take_seat(room.code, 1, "Bea")
services.start_room(room.code, read_seat_token(services.seat_token(room, ann), room.scope))
room.refresh_from_db()
state = table([BANANA, JOKER, STRIPES, ELEPHANT, DOTS])
state.players = list(room.state["players"])
room.state = state.to_json()
changed(room, "state", state=state)
tokens = [services.seat_token(room, seat) for seat in (ann, bea)]
print(json.dumps({{"code": room.code, "scope": room.scope, "tokens": tokens}}))
"""
JOKER_FOR_CRATE_1 = "Cross bunch 1 of banana crate 1 using: joker; Stays for the others: banana"
# The dice whose caption needs more width than the die gets (it would run into the next).
CAPTIONS = """() => Array.from(document.querySelectorAll("#room-live .dj-die"))
  .map((d) => ({text: d.textContent.trim(), needs: d.scrollWidth, gets: d.clientWidth}))
  .filter((d) => d.needs > d.gets)"""


def test_the_active_player_spends_the_joker_with_one_labelled_tap_and_leaves_the_banana(
    server, new_context, docs_shot
):
    room = json.loads(server.python(ROLLED.format()).splitlines()[-1])
    ann = seated_phone(new_context, server, room, 0)
    screen = new_context(TV).new_page()
    screen.goto(f"{server.url}/rooms/{room['code']}/screen/")
    press(ann, "#choose-purple")

    # Under the purple sheet: the crosses made with the joker instead, each one labelled tap.
    choices = ann.locator("#room-live .dj-dice-choices")
    expect(choices.get_by_role("heading")).to_have_text("Or cross with other dice")
    choice = ann.get_by_role("button", name=JOKER_FOR_CRATE_1)
    expect(choice).to_be_visible()
    fits_a_phone(ann)
    assert ann.evaluate(CAPTIONS) == []
    docs_shot(ann, "dschungel-phone-choice-of-die.png")

    # Chosen from the keyboard: the joker crosses, the banana stays for Bea.
    press(ann, f"#{choice.get_attribute('id')}", keyboard=True)
    assert new_crosses(ann) == 1
    expect(ann.locator("#room-live .dj-die.dj-c-joker")).to_have_class(re.compile("dj-s-used"))
    expect(ann.locator("#room-live .dj-die.dj-c-purple")).not_to_have_class(re.compile("dj-s-used"))
    # The big screen shows the cross, made with the joker, while the banana stays rolled.
    expect(screen.locator(".dj-dice .dj-die.dj-c-joker")).to_have_class(re.compile("dj-s-used"))
    docs_shot(screen, "dschungel-screen-choice-of-die.png", full_page=False)
    press(ann, "#do-confirm")
    bea = seated_phone(new_context, server, room, 1)
    expect(bea.locator("#turn-headline")).to_have_text("Take a colour from Ann's dice")
    expect(bea.locator("#choose-purple")).to_contain_text("banana")


# A die's state word ("taken", "genomen", "gewählt") broken over two lines.
BROKEN_TAGS = """() => Array.from(document.querySelectorAll("#room-live .dj-die .dj-tag"))
  .filter((t) => t.getClientRects().length > 1).map((t) => t.textContent)"""


@pytest.mark.parametrize("locale", ["nl-NL", "de-DE"])
def test_the_choice_of_die_reads_whole_on_a_dutch_and_a_german_phone(
    server, new_context, locale, docs_shot
):
    room = json.loads(server.python(ROLLED.format()).splitlines()[-1])
    ann = seated_phone(new_context, server, room, 0, locale)
    press(ann, "#choose-purple")
    expect(ann.locator("#room-live .dj-dice-choice").first).to_be_visible()
    fits_a_phone(ann)
    assert ann.evaluate(CAPTIONS) == []
    assert ann.evaluate(BROKEN_TAGS) == []
    docs_shot(ann, f"dschungel-phone-choice-of-die-{locale[:2]}.png", full_page=False)
    if locale == "de-DE":
        expect(ann.locator("#room-live .dj-dice-choice").first).to_contain_text(
            "Kreuze Staude 1 in Bananenkiste 1 an, mit: Joker"
        )
