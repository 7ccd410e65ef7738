"""The awards ceremony in Chromium: the host moves it on from the console, the big screen
shows each prize, a double winner chooses on her phone, the tied players roll on theirs, and
a server killed mid-ceremony loses nothing."""

from __future__ import annotations

import contextlib
import json

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import LAPTOP, TV
from tests.e2e.test_night_for_the_room import as_player
from tests.e2e.test_party_night import sign_in

ENDED_NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Table
from apps.prizes import services as prizes
from apps.prizes.rules.categories import CONSOLATION, HOST_CHOICE, MOST_WINS, Category
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Awards night")
tokens = {}
for name in ["Ann", "Bea", "Cal", "Dot"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
prizes.set_categories(party.code, [
    Category(MOST_WINS, "Most wins", "Scented candle"),
    Category(HOST_CHOICE, "Best laugh", "Mug"),
    Category(CONSOLATION, "Consolation", "Chocolate"),
])
services.start_next_round(party.code)
table = Table.objects.get(party=party, round=1)
services.host_move(party.code, table.pk, {"type": "end", "winner": 1})
result = services.end_night(party.code)
print(json.dumps({"code": party.code, "scope": party.scope, "tokens": tokens, "result": result}))
"""


def test_a_whole_awards_ceremony_on_four_phones_and_the_big_screen(
    server, new_context, host_login, docs_shot
):
    night = json.loads(server.python(ENDED_NIGHT).splitlines()[-1])
    code, winner = night["code"], night["result"]["winner"]
    phones = {name: as_player(new_context, server, night, name) for name in night["tokens"]}
    tv = new_context(TV).new_page()
    tv.goto(f"{server.url}/p/{code}/screen/")
    expect(tv.locator(".podium")).to_contain_text(winner)
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{code}/host/")

    console.get_by_role("button", name="Start the awards").click()
    expect(tv.locator(".tv-awards")).to_contain_text("The awards")
    console.get_by_role("button", name="Next prize: Most wins").click()
    expect(tv.locator(".award-name")).to_have_text("Most wins")
    expect(tv.locator(".award-winner")).to_have_text(winner)
    expect(phones[winner].locator("#awards .award-list li.mine")).to_contain_text("Most wins")

    # The host gives Best laugh to the night's winner: she chooses which prize to keep.
    console.get_by_role("button", name="Next prize: Best laugh").click()
    console.get_by_role("group", name="Who wins Best laugh?").get_by_role(
        "button", name=winner
    ).click()
    keep = phones[winner].get_by_role("button", name="Keep Best laugh (Mug)")
    expect(keep).to_be_visible()
    expect(tv.locator(".award-winner")).to_contain_text("chooses which prize to keep")
    docs_shot(phones[winner], "awards-phone-choice.png", full_page=False)
    assert_accessible(phones[winner])
    assert_accessible(console)

    # The server dies mid-ceremony and comes back: every screen catches up, nothing is lost.
    server.kill()
    server.start()
    for page in [*phones.values(), tv]:
        expect(page.locator("#live-status")).to_have_text("Connected", timeout=20_000)
    keep.click()
    expect(tv.locator(".tv-awards > .award-list")).to_contain_text("Best laugh")
    # Most wins passes on to the runner-up, her partner.
    expect(tv.locator(".tv-awards > .award-list")).to_contain_text("Most wins")
    expect(console.locator("#host-awards .award-list")).to_contain_text("passed on by " + winner)

    # The consolation: a roll-off on the phones of the two without a prize.
    console.get_by_role("button", name="Next prize: Consolation").click()
    expect(tv.locator(".award-name")).to_have_text("Consolation")
    # Each phone that owes a roll rolls until the roll-off is over: a tie rolls again, and a
    # phone's button may come a moment after the big screen's news (or be gone by the time
    # it is tapped: the next look finds the new one).
    for _ in range(100):
        if "All prizes are given" in console.locator("#host-awards").inner_text():
            break
        for page in phones.values():
            roll = page.get_by_role("button", name="Roll for Consolation")
            if roll.count():
                with contextlib.suppress(PlaywrightTimeout):
                    roll.click(timeout=1000)
                    docs_shot(tv, "awards-tv-rolloff.png", full_page=False)
        tv.wait_for_timeout(200)
    expect(console.locator("#host-awards")).to_contain_text("All prizes are given")
    given = tv.locator(".tv-awards > .award-list li")
    expect(given).to_have_count(3)
    docs_shot(tv, "awards-tv.png", full_page=False)
    assert_accessible(tv)
    holders = [given.nth(i).locator("strong").inner_text() for i in range(3)]
    assert len(set(holders)) == 3  # nobody takes two prizes
    assert holders[1] == winner
    # The night's sheet lists the prizes.
    sheet = console.context.new_page()
    sheet.goto(f"{server.url}/p/{code}/sheet/")
    for prize in ("Scented candle", "Mug", "Chocolate"):
        expect(sheet.locator("body")).to_contain_text(prize)
