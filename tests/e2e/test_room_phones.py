"""The party-game rooms on a phone at 390x844, in English, Dutch and German: a header that
leaves the table its height, Bonje's taken cards that say who took them, and a player invited
from the night who takes their seat with one tap."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE

GAMES = ["bonje", "mbogo", "dschungel"]
LOCALES = ["en-GB", "nl-NL", "de-DE"]
LONG_NAME = "Annemarie-Wilhelmina Verhoeven"  # 30 characters, the most a name may have
NIGHT_NAME = "Bunko bij Annemarie en Wilhelm"  # 30 too

# A night with Annemarie and Dirk; Annemarie made a room of ``game`` from it with a seat kept
# for Dirk (started, when asked: a bot plays for Dirk until he comes).
NIGHT_ROOM = """
import json
from django.contrib.auth import get_user_model
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.parties import services as night
User = get_user_model()
host = User.objects.filter(username="roomshost").first() or User.objects.create_user(
    "roomshost", password="bunko-rooms-21")
party = night.create_party(host, name={night_name!r})
ann, ann_night = night.join_party(party.code, new_name={name!r})
dirk, dirk_night = night.join_party(party.code, new_name="Dirk")
room, seat = services.create_room({game!r}, {{}}, ann.name, prelisted=["Dirk"],
                                  party_code=party.code)
token = services.seat_token(room, seat)
if {started!r}:
    services.start_room(room.code, read_seat_token(token, room.scope))
print(json.dumps({{"code": room.code, "scope": room.scope, "token": token,
                   "night": party.code, "night_scope": party.scope,
                   "phones": {{"ann": ann_night, "dirk": dirk_night}}}}))
"""


def night_room(server, game: str, started: bool = True) -> dict:
    script = NIGHT_ROOM.format(game=game, started=started, name=LONG_NAME, night_name=NIGHT_NAME)
    return json.loads(server.python(script).splitlines()[-1])


def night_phone(new_context, server, info: dict, who: str, locale: str = "en-GB") -> Page:
    """A phone of the night's player ``who``, on the night's page (``room``: also seated in
    the room, as its creator)."""
    context = new_context({**PHONE, "locale": locale})
    cookies = [("seat_" + info["night_scope"].replace(":", "_"), info["phones"][who])]
    if who == "ann":
        cookies.append(("seat_" + info["scope"].replace(":", "_"), info["token"]))
    context.add_cookies([{"name": n, "value": v, "url": server.url} for n, v in cookies])
    page = context.new_page()
    page.goto(f"{server.url}/p/{info['night']}/")
    expect(page.locator("#live-status")).to_have_text(re.compile("."))
    return page


# The header's height, how far right it reaches, and how many lines of text each of its
# parts takes (line boxes told apart by their tops).
HEADER = """() => {
  const header = document.querySelector(".site-header");
  const parts = [...header.querySelectorAll(".brand, nav a, nav select, nav button")]
    .filter((el) => el.offsetParent !== null);
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1)
      .map((r) => Math.round(r.top / 4));
    return new Set(tops).size;
  };
  return {
    height: header.getBoundingClientRect().height,
    right: Math.max(...parts.map((el) => el.getBoundingClientRect().right)),
    parts: parts.map((el) => [el.textContent.trim(), lines(el)]),
  };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_a_game_rooms_header_takes_one_row_of_a_phone_in_every_language(
    server, new_context, docs_shot, game
):
    info = night_room(server, game)
    for locale in LOCALES:
        ann = night_phone(new_context, server, info, "ann", locale)
        ann.goto(f"{server.url}/rooms/{info['code']}/")
        expect(ann.locator("body")).to_have_attribute("data-live-state", "open")
        header = ann.evaluate(HEADER)
        if locale == "de-DE":  # the longest words
            docs_shot(ann, f"room-phone-{game}-de.png", full_page=False)
        # One row of 48 px controls (a link may take two lines inside it): under a tenth
        # of the phone's height, nothing past its right edge.
        assert header["height"] <= 72, (locale, header)
        assert header["right"] <= 390, (locale, header)
        assert all(lines <= 2 for _, lines in header["parts"]), (locale, header)
        back = ann.locator(".site-header nav a").last
        expect(back).to_have_attribute("href", f"/p/{info['night']}/")


# Bea holds the hen she took from Ann's pile; Ann has not taken a card yet.
TAKEN_FROM_ANN = """
import json
from apps.core.tokens import read_seat_token
from apps.games import services
from apps.games.services.common import changed
from tests.games.bonje import BOARS, BULLS, HENS, MARES, RAMS, ROOSTERS, STALLIONS, position
room, ann = services.create_room("bonje", {}, "Ann")
bea = services.take_seat(room.code, 1, "Bea")
services.start_room(room.code, read_seat_token(services.seat_token(room, ann), room.scope))
room.refresh_from_db()
state = position(
    [[[STALLIONS[0]], [BULLS[0]], [BOARS[0]]], [[RAMS[0]], [ROOSTERS[0]], [MARES[0]]]],
    face_up=[None, HENS[2]], held=[None, HENS[1]], took_from=[None, 0],
    stacks=[[HENS[5]], [HENS[6]]],
)
state.players = list(room.state["players"])
room.state = state.to_json()
changed(room, "state", state=state)
tokens = [services.seat_token(room, seat) for seat in (ann, bea)]
print(json.dumps({"code": room.code, "scope": room.scope, "tokens": tokens}))
"""
TAKEN = {
    "en-GB": ("Your pile", "Taken by Bea", "Ann's pile", "Taken by you"),
    "nl-NL": ("Je stapel", "Gepakt door Bea", "De stapel van Ann", "Gepakt door jou"),
    "de-DE": ("Dein Stapel", "Genommen von Bea", "Anns Stapel", "Von dir genommen"),
}
RIBBON = """() => { const r = document.querySelector("#room-live .is-taken .bj-ribbon");
  return r.scrollHeight <= r.clientHeight + 1 && r.scrollWidth <= r.clientWidth + 1; }"""


@pytest.mark.parametrize("locale", LOCALES)
def test_bonjes_taken_card_says_who_took_it_from_whose_pile(server, new_context, docs_shot, locale):
    from tests.e2e.conftest import seated_phone

    room = json.loads(server.python(TAKEN_FROM_ANN).splitlines()[-1])
    ann = seated_phone(new_context, server, room, 0, locale)
    bea = seated_phone(new_context, server, room, 1, locale)
    ann_pile, ann_sees, bea_pile, bea_sees = TAKEN[locale]
    for page, pile, ribbon in ((ann, ann_pile, ann_sees), (bea, bea_pile, bea_sees)):
        taken = page.locator("#room-live .bj-slot.is-taken")
        expect(taken).to_have_count(1)
        expect(taken.locator(".bj-owner")).to_have_text(pile)
        expect(taken.locator(".bj-ribbon")).to_have_text(ribbon)
        assert page.evaluate(RIBBON), f"the ribbon {ribbon!r} is cut"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    docs_shot(ann, f"bonje-taken-{locale[:2]}.png", full_page=False)


def take_your_seat(page: Page) -> None:
    invitation = page.locator("#invitations .invitation")
    expect(invitation).to_have_count(1)
    invitation.locator(".button").click()  # "Take your seat"
    page.wait_for_url(re.compile(r"/rooms/\w+/$"))


@pytest.mark.parametrize("game", GAMES)
def test_a_player_invited_from_the_night_is_seated_with_one_tap(
    server, new_context, docs_shot, game
):
    info = night_room(server, game)
    dirk = night_phone(new_context, server, info, "dirk")
    expect(dirk.locator("#invitations")).to_contain_text("You have a seat at")
    if game == "bonje":
        docs_shot(dirk, "party-phone-invited.png", full_page=False)
    take_your_seat(dirk)
    expect(dirk.locator("body")).to_have_attribute("data-live-state", "open")
    # Seated: no "I am Dirk" to tap, no seat form, and the night's invitation is gone.
    expect(dirk.locator("#sit-form")).to_have_count(0)
    expect(dirk.get_by_role("button", name="I am Dirk")).to_have_count(0)
    dirk.goto(f"{server.url}/p/{info['night']}/")
    expect(dirk.locator("#invitations .invitation")).to_have_count(0)


def test_an_invited_player_in_the_lobby_sits_at_once_in_dutch(server, new_context, docs_shot):
    info = night_room(server, "mbogo", started=False)
    dirk = night_phone(new_context, server, info, "dirk", "nl-NL")
    take_your_seat(dirk)
    me = dirk.locator(".seat-row", has=dirk.locator(".badge.you"))
    expect(me).to_contain_text("Dirk")
    docs_shot(dirk, "room-invited-lobby-nl.png", full_page=False)


POST_INVITE = """([action, invite]) => {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  for (const [name, value] of [["invite", invite],
      ["csrfmiddlewaretoken", document.querySelector("meta[name=csrf-token]").content]]) {
    const input = document.createElement("input");
    Object.assign(input, {type: "hidden", name, value});
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}"""


def test_a_forged_or_stale_invitation_is_refused_in_words_and_changes_nothing(
    server, new_context, docs_shot
):
    info = night_room(server, "mbogo", started=False)
    dirk = night_phone(new_context, server, info, "dirk")
    form = dirk.locator("#invitations form")
    action = form.get_attribute("action")
    invite = form.locator("input[name=invite]").get_attribute("value")

    # Forged: the signature does not match.
    dirk.evaluate(POST_INVITE, [action, invite[:-3] + "abc"])
    expect(dirk.locator("#invite-error")).to_have_text(
        "This invitation is not valid. If a seat is kept for you, tap your name on this page."
    )
    expect(dirk.get_by_role("button", name="I am Dirk")).to_be_visible()  # still kept

    # Another of the night's phones (Annemarie's) cannot use Dirk's invitation.
    ann = night_phone(new_context, server, info, "ann")
    ann.evaluate(POST_INVITE, [action, invite])
    expect(ann.locator("#invite-error")).to_have_text(
        "This invitation is for Dirk's phone at the night."
    )
    expect(ann.locator(".seat-list")).to_contain_text("Dirk · not here yet")

    # Stale: another phone took Dirk's seat from the room's page in the meantime.
    other = new_context(PHONE).new_page()
    other.goto(f"{server.url}/rooms/{info['code']}/")
    other.get_by_role("button", name="I am Dirk").click()
    expect(other.locator(".badge.you")).to_be_visible()
    dirk.evaluate(POST_INVITE, [action, invite])
    expect(dirk.locator("#invite-error")).to_have_text(
        f"Another phone already holds Dirk's seat. If that phone is not yours, ask {LONG_NAME} "
        "to give your seat to a new phone."
    )
    expect(dirk.locator("#sit-form")).to_be_attached()  # Dirk's phone is not seated
    other.reload()
    expect(other.locator(".seat-row", has=other.locator(".badge.you"))).to_contain_text("Dirk")
    docs_shot(dirk, "room-invitation-refused.png", full_page=False)
