"""The night as the room sees it, in Chromium: the big screen on a TV of any size, the
celebrations, the host's confirmations, and a player called back from a party game."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.test_party_night import sign_in

NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Player
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="TV night {players}", dice_mode="{dice}",
                              attendance="{attendance}")
tokens = {{}}
for i in range({players}):
    player, tokens["P%03d" % i] = services.join_party(party.code, new_name="P%03d" % i)
services.start_next_round(party.code)
print(json.dumps({{"code": party.code, "scope": party.scope, "tokens": tokens}}))
"""


def make_night(server, players: int, dice: str = "virtual", attendance: str = "ghosts") -> dict:
    script = NIGHT.format(players=players, dice=dice, attendance=attendance)
    return json.loads(server.python(script).splitlines()[-1])


def as_player(new_context, server, night: dict, name: str) -> Page:
    context = new_context(PHONE)
    context.add_cookies(
        [
            {
                "name": "seat_" + night["scope"].replace(":", "_"),
                "value": night["tokens"][name],
                "url": server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{server.url}/p/{night['code']}/")
    expect(page.locator("#live-status")).to_have_text("Connected")
    return page


OVERFLOW = """() => {
  const bad = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("[hidden]") || el.id === "moment") continue;
    if (el.classList.contains("skip-link")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1 || r.left < -1 || r.top < -1)
      bad.push(el.tagName + "#" + el.id + "." + el.className);
  }
  return {
    bad: bad.slice(0, 5),
    scrollX: document.documentElement.scrollWidth > innerWidth,
    scrollY: document.documentElement.scrollHeight > innerHeight,
  };
}"""


@pytest.mark.parametrize("tables", [2, 30])
@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_the_big_screen_fits_every_table_on_a_tv_without_scrolling(
    server, new_context, host_login, docs_shot, tables, size
):
    night = make_night(server, tables * 4)
    page = new_context({"viewport": {"width": size[0], "height": size[1]}}).new_page()
    page.goto(f"{server.url}/p/{night['code']}/screen/")
    expect(page.locator(".tv-table")).to_have_count(tables)
    expect(page.locator(".site-header")).to_have_count(0)  # no site header, no sign-out
    result = page.evaluate(OVERFLOW)
    assert result == {"bad": [], "scrollX": False, "scrollY": False}
    # Scores stay legible across the room: at least 2.2% of the screen's height.
    # (measured in one go: a redraw may swap the card between a lookup and a measurement)
    height = page.evaluate(
        "document.querySelector('.tv-table .score').getBoundingClientRect().height"
    )
    assert height >= 0.022 * size[1]
    # The code and QR stay, small, once the night is under way.
    expect(page.locator(".tv-join-mini")).to_contain_text(night["code"])
    if size == (1280, 720):
        docs_shot(page, f"party-tv-{tables}-tables.png", full_page=False)


def test_a_bunko_celebrates_on_the_phones_of_its_table_and_on_the_big_screen(
    server, new_context, host_login
):
    night = make_night(server, 8, dice="physical")
    screen = new_context(LAPTOP).new_page()
    screen.goto(f"{server.url}/p/{night['code']}/screen/")
    expect(screen.locator("#live-status")).to_have_attribute("data-state", "open")
    phones = {name: as_player(new_context, server, night, name) for name in night["tokens"]}
    head = [n for n, p in phones.items() if "Table 1" in p.locator("#seat h1").inner_text()]
    tapper = phones[head[0]]
    tapper.get_by_role("button", name="Roll for the first roller").click()
    bunko = tapper.get_by_role("button", name="Bunko! (three 6s)")
    expect(bunko).to_be_visible()
    roller = tapper.locator("#table .turn").inner_text()
    bunko.click()
    for name in head:
        expect(phones[name].locator("#celebration")).to_contain_text("BUNKO!")
    expect(screen.locator("#moment")).to_be_visible()
    expect(screen.locator("#moment")).to_contain_text("BUNKO!")
    expect(screen.locator("#moment .moment-more")).to_contain_text("at table 1")
    # The travelling Bunko changed hands: the big screen says who holds it now.
    holder = screen.locator("#travelling p").first
    expect(holder).not_to_contain_text("—")
    assert holder.locator("strong").inner_text() in head
    assert roller  # the table named whose dice they were


def test_ending_the_night_asks_first_and_can_be_taken_back(
    server, new_context, host_login, docs_shot
):
    night = make_night(server, 24)
    host = new_context({"viewport": {"width": 1280, "height": 800}}).new_page()
    sign_in(host, server, host_login)
    host.goto(f"{server.url}/p/{night['code']}/host/")
    assert host.evaluate("document.documentElement.scrollHeight") <= 800  # one screen
    docs_shot(host, "party-console.png", full_page=False)
    host.get_by_text("End the night now…").click()
    confirm = host.get_by_role("group", name="End the night now?")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("You can take it back")
    confirm.get_by_role("button", name="Yes, end the night").click()
    expect(host.locator("#status")).to_contain_text("The night is over")
    # Nobody has played a game: nobody is named for most wins from all-zero records.
    expect(host.locator("#status")).to_contain_text("Most wins: nobody")
    host.locator("#host-message").get_by_role("button", name="Undo: reopen the night").click()
    expect(host.locator("#status")).to_contain_text("Round 1")
    expect(host.locator("#status")).not_to_contain_text("The night is over")


def test_a_player_in_a_party_game_is_called_back_when_the_next_round_starts(
    server, new_context, host_login
):
    night = make_night(server, 5, attendance="sitouts")
    phones = {name: as_player(new_context, server, night, name) for name in night["tokens"]}
    resting = next(n for n, p in phones.items() if "sit out" in p.locator("#seat").inner_text())
    page = phones[resting]
    page.get_by_role("link", name="Start a party game").click()
    page.get_by_role("button", name="Make the room").click()
    expect(page.locator(".room-head")).to_be_visible()
    # Invited: another phone of the night sees its seat kept and takes it from the night.
    host = new_context(LAPTOP).new_page()
    sign_in(host, server, host_login)
    host.goto(f"{server.url}/p/{night['code']}/host/")
    expect(host.locator("#tables")).to_contain_text("Party games of this night")
    # The host ends the stalled table's game (0-0: the host picks the winners), then starts
    # the next round: the player in the party game is called back to a table.
    host.on("dialog", lambda dialog: dialog.accept())
    host.get_by_text("Table stuck?").click()
    host.locator(".tools-box").get_by_role("button").filter(has_text="&").first.click()
    host.get_by_role("button", name="Rotate and start round 2").click()
    call = page.locator("#night-call")
    expect(call).to_contain_text("Round 2 has started: go to table")
    call.get_by_role("link", name="Back to the night").click()
    expect(page.locator("#seat")).to_contain_text("Table")


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_tally_and_blank_sheets_print_cleanly_on_a4_and_letter(
    server, new_context, host_login, docs_shot, paper
):
    night = make_night(server, 16)
    host = new_context(LAPTOP).new_page()
    sign_in(host, server, host_login)
    host.goto(f"{server.url}/p/{night['code']}/host/blank-sheets/")
    sheets = host.locator(".blank-sheet").count()
    pdf = host.pdf(format=paper, print_background=True)
    pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
    assert pages == -(-sheets // 2)  # two sheets a page, none cut in half
    host.emulate_media(media="print")
    docs_shot(host, f"blank-sheets-{paper.lower()}.png", full_page=False)
    host.goto(f"{server.url}/p/{night['code']}/sheet/")
    pdf = host.pdf(format=paper)
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1  # 16 players fit
    assert host.locator(".site-header").is_hidden() or host.locator(".site-header").count() == 0
