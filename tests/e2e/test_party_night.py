"""A whole Bunko night in Chromium: eight phones, the host's console and the big screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LAPTOP, PHONE

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]


def sign_in(page: Page, server, login) -> None:
    page.goto(server.url + "/signin/?next=/p/new/")
    page.get_by_label("Username").fill(login[0])
    page.get_by_label("Password").fill(login[1])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Set up a night")).to_be_visible()


def create_night(page: Page, dice: str, rounds: int) -> str:
    page.get_by_label("Name of the night").fill(f"Friday {dice}")
    page.get_by_label("Rounds").fill(str(rounds))
    page.get_by_label("Virtual dice" if dice == "virtual" else "Real dice").check()
    page.get_by_role("button", name="Create the night").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text("code")
    return re.search(r"code (\w+)", heading.inner_text()).group(1)


def join(page: Page, server, code: str, name: str) -> None:
    page.goto(server.url + "/")
    page.get_by_label("Party code").fill(code.lower())
    page.get_by_role("button", name="Join", exact=True).click()
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_role("button", name="Join as a new player").click()
    expect(page.locator("#seat")).to_contain_text(f"You are {name}")
    expect(page.locator("#live-status")).to_have_text("Connected")


def seat_of(page: Page) -> tuple[int, str]:
    heading = page.locator("#seat h1").inner_text()
    table = int(re.search(r"Table (\d+)", heading).group(1))
    partner = re.search(r"Your partner is (\w+)", page.locator("#seat").inner_text()).group(1)
    return table, partner


EAGER_PLAYER = """(names) => {
  // A player who taps whatever their phone offers the moment it appears.
  window.eagerPlayer = setInterval(() => {
    const button = [...document.querySelectorAll("#table button")].find(
      (b) => names.includes(b.textContent.trim()) && !b.disabled);
    if (button) button.click();
  }, 50);
}"""


def play_virtual_round(phones: dict[str, Page], screen: Page, round_number: int) -> None:
    """Every phone taps what it offers (roll-off, ROLL, GRAB) until the round is over.

    The taps are DOM clicks on the very buttons a player sees, made in all eight browsers at
    once, as a table of eager players would."""
    offered = ["Roll for the first roller", "ROLL", "GRAB"]
    for page in phones.values():
        page.evaluate(EAGER_PLAYER, offered)
    expect(screen.locator("#banner")).to_contain_text(
        f"Round {round_number} is over", timeout=180_000
    )
    for page in phones.values():
        page.evaluate("clearInterval(window.eagerPlayer)")


def start_round(host: Page, label: str) -> None:
    host.get_by_role("button", name=label).click()
    expect(host.locator("#status")).to_contain_text("tables")


@pytest.mark.parametrize("dice", ["virtual", "physical"])
def test_a_two_table_night_of_two_rounds_on_eight_phones_and_the_big_screen(
    server, new_context, host_login, docs_shot, dice
):
    laptop = new_context(LAPTOP, timeout=15_000)
    host = laptop.new_page()
    sign_in(host, server, host_login)
    code = create_night(host, dice, rounds=2)
    screen = laptop.new_page()
    screen.goto(f"{server.url}/p/{code}/screen/")
    expect(screen.locator("#tables")).to_contain_text(code)

    phones: dict[str, Page] = {}
    for name in NAMES:
        phones[name] = new_context(PHONE, timeout=15_000).new_page()
        join(phones[name], server, code, name)
    expect(screen.locator("#tables")).to_contain_text("8 here")

    start_round(host, "Seat everyone and start round 1")
    seats = {}
    for name, page in phones.items():
        expect(page.locator("#seat h1")).to_contain_text("Table")
        seats[name] = seat_of(page)
    assert sorted(t for t, _ in seats.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    for name, (_table, partner) in seats.items():
        assert seats[partner][1] == name  # partners name each other

    # A reload keeps the phone its player, at its seat.
    first = NAMES[0]
    phones[first].reload()
    expect(phones[first].locator("#seat")).to_contain_text(f"You are {first}")
    assert seat_of(phones[first]) == seats[first]

    if dice == "virtual":
        play_virtual_round(phones, screen, 1)
    else:
        play_physical_round(phones, seats)
    expect(screen.locator("#banner")).to_contain_text("Round 1 is over")
    for name, (table, _partner) in seats.items():
        if table == 2:  # the head table's STOP ended the bottom table's game
            expect(phones[name].locator("#table")).to_contain_text("called STOP")
    for page in phones.values():
        expect(page.locator("#table")).to_contain_text("Final score")
    winners = [
        n for n, page in phones.items() if "Your team won" in page.locator("#table").inner_text()
    ]
    assert len(winners) == 4
    # The big screen's standings: the four winners have a win, the four losers a loss.
    expect(screen.locator("#side .standings-page li")).to_have_count(8)
    rows = {
        row.locator(".name").inner_text(): (
            int(row.locator(".wins").inner_text()),
            int(row.locator(".losses").inner_text()),
        )
        for row in screen.locator("#side .standings-page li").all()
    }
    assert sorted(n for n, (w, _losses) in rows.items() if w == 1) == sorted(winners)
    assert all(w + losses == 1 for w, losses in rows.values())
    if dice == "virtual":
        docs_shot(phones[winners[0]], "party-phone-round-won.png", full_page=False)
        docs_shot(screen, "party-big-screen.png")

    start_round(host, "Rotate and start round 2")
    new_seats = {}
    for name, page in phones.items():
        expect(page.locator("#seat h1")).to_contain_text("Table")
        expect(page.locator("#table")).to_contain_text("Roll for the first roller")
        new_seats[name] = seat_of(page)
    head_pair = [n for n in winners if seats[n][0] == 1]
    for name in head_pair:
        assert new_seats[name][0] == 1  # head winners stay
        assert new_seats[name][1] == seats[name][1]  # and stay partners
    for name in winners:
        if seats[name][0] == 2:
            assert new_seats[name][0] == 1  # bottom winners move up
    for name in NAMES:
        if new_seats[name][0] == 2:
            assert new_seats[name][1] != seats[name][1]  # partners change below the head

    # A stayer at the bottom table swaps partners before the first roll.
    stayer = next(
        n
        for n, page in phones.items()
        if new_seats[n][0] == 2 and page.get_by_role("button", name="Swap partners").count()
    )
    phones[stayer].get_by_role("button", name="Swap partners").click()
    expect(phones[stayer].locator("#seat")).not_to_contain_text(
        f"Your partner is {new_seats[stayer][1]}"
    )
    new_seats[stayer] = seat_of(phones[stayer])
    if dice == "virtual":
        play_virtual_round(phones, screen, 2)
    else:
        play_physical_round(phones, new_seats)
    expect(screen.locator("#banner")).to_contain_text("Round 2 is over")
    host.get_by_role("button", name="Finish the night").click()
    expect(screen.locator("#banner")).to_contain_text("The night is over")
    expect(phones[first].locator("#banner")).to_contain_text("The night is over")
    sheet = phones[first]
    sheet.get_by_role("link", name="See the score sheet").click()
    rows = sheet.locator(".sheet-cards > li")  # a phone shows a card per player
    expect(rows).to_have_count(8)
    total = sheet.locator(".sheet-cards").inner_text()
    assert "Most wins" in sheet.locator("main").inner_text()
    assert total


def play_physical_round(phones: dict[str, Page], seats: dict[str, tuple[int, str]]) -> None:
    """The head table taps 'Two 6s' to 22; the bottom table scores once, then STOP ends it."""
    head = [phones[n] for n, (t, _) in seats.items() if t == 1]
    bottom = [phones[n] for n, (t, _) in seats.items() if t == 2]
    for table in (bottom, head):
        table[0].locator("#table").get_by_role("button", name="Roll for the first roller").click()
        expect(table[0].locator("#table")).to_contain_text("rolled:")
    bottom[1].locator("#table").get_by_role("button", name="One 6").click()
    expect(bottom[2].locator("#table")).to_contain_text("1 point")
    at = head[0].locator("#table [name=at]").first.input_value()
    for tap in range(11):
        # Each phone taps once it shows the table as it is now: the moment the last tap made.
        tapper = head[tap % 4]
        field = tapper.locator("#table [name=at]").first
        expect(field).to_have_value(at)
        tapper.locator("#table").get_by_role("button", name="Two 6s").click()
        if tap < 10:
            expect(field).not_to_have_value(at)
            at = field.input_value()
    expect(head[0].locator("#table")).to_contain_text("Final score")
    expect(bottom[0].locator("#table")).to_contain_text("Final score")


def test_a_restarted_laptop_loses_no_confirmed_tap_and_the_phones_catch_up(
    server, new_context, host_login
):
    host = new_context(LAPTOP, timeout=15_000).new_page()
    sign_in(host, server, host_login)
    code = create_night(host, "physical", rounds=1)
    phones = []
    for name in ["Ida", "Jo", "Kim", "Lou"]:
        page = new_context(PHONE, timeout=20_000).new_page()
        join(page, server, code, name)
        phones.append(page)
    start_round(host, "Seat everyone and start round 1")
    ida = phones[0]
    ida.locator("#table").get_by_role("button", name="Roll for the first roller").click()
    ida.locator("#table").get_by_role("button", name="Two 6s").click()
    for page in phones:
        expect(page.locator("#table .roll-log li")).to_have_count(1)
    before = ida.locator("#table .scores").inner_text()

    server.restart()

    for page in phones:
        expect(page.locator("#live-status")).to_have_text("Connected", timeout=20_000)
        expect(page.locator("#table .scores")).to_have_text(before)
    # A phone that reloads after the restart is still its player, at its seat.
    phones[1].reload()
    expect(phones[1].locator("#seat")).to_contain_text("You are Jo")
    expect(phones[1].locator("#table .roll-log li")).to_have_count(1)
    # And the table plays on.
    phones[2].locator("#table").get_by_role("button", name="One 6").click()
    for page in phones:
        expect(page.locator("#table .roll-log li")).to_have_count(2)


def test_phone_pages_fit_a_phone_with_big_targets_and_real_labels(
    server, new_context, host_login, docs_shot
):
    host = new_context(LAPTOP).new_page()
    sign_in(host, server, host_login)
    code = create_night(host, "physical", rounds=1)
    page = new_context(PHONE).new_page()
    join(page, server, code, "Max")
    for name in ["Ned", "Oli", "Pam"]:
        other = new_context(PHONE).new_page()
        join(other, server, code, name)
    start_round(host, "Seat everyone and start round 1")
    page.locator("#table").get_by_role("button", name="Roll for the first roller").click()
    expect(page.locator("#table").get_by_role("button", name="Two 6s")).to_be_visible()
    docs_shot(page, "party-phone-real-dice.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 17
    for button in page.locator("main button").all():
        if button.is_visible():
            box = button.bounding_box()
            assert box["height"] >= 48, button.inner_text()
    # Keyboard only: tab to a scoring button and press it.
    page.locator("#table").get_by_role("button", name="One 6").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#table .roll-log li")).to_have_count(1)
