"""Everyone's score sheet on a phone and on a laptop, and the travelling prizes' lines with
names that end in a full stop, in Chromium, in English, Dutch and German."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import PHONE, TV

# Thirteen players (three ghosts fill the fourth table), three rounds played: Hanna B. rolls
# the first Bunko and Eva the first wipeout, then Anna and Ben take them over.
NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.selectors import tallies
from tests.circles.nights import phones_for, play_round
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Sheet night", dice_mode="physical")
names = ["Anna", "Hanna B.", "Ben", "Eva", "Maximiliane-Sophie", "Femke", "Ivo", "Lotte",
         "Dirk", "Noor", "Sanne", "Jules", "Thijs"]
tokens, by_id = {}, {}
for name in names:
    player, tokens[name] = services.join_party(party.code, new_name=name)
    by_id[player.pk] = tokens[name]
claims = phones_for(party, by_id)
play_round(party, claims, bunkos=["Hanna B."], wipeouts=["Eva"])
play_round(party, claims, bunkos=["Anna"], wipeouts=["Ben"])
play_round(party, claims)
totals = {t.player.name: [t.wins, t.losses, t.bunkos, t.wipeouts] for t in tallies(party)}
print(json.dumps({"code": party.code, "scope": party.scope, "tokens": tokens,
                  "totals": totals}))
"""

# Measured against the screen's own width: a phone's browser zooms out to show what is wider.
NO_SIDEWAYS = """(width) => {
  const cut = [];
  for (const el of document.querySelectorAll("main *")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest(".visually-hidden")) continue;
    if (r.right > width + 1 || r.left < -1) cut.push(el.tagName + "." + el.className);
  }
  return {cut: cut.slice(0, 5), sideways: document.documentElement.scrollWidth > width};
}"""


@pytest.fixture(scope="module")
def night(server, host_login) -> dict:
    return json.loads(server.python(NIGHT).splitlines()[-1])


def seated(new_context, server, night: dict, name: str, size: dict, locale: str) -> Page:
    """``name``'s own phone (or laptop): the night's seat cookie, the browser's language."""
    context = new_context({**size, "locale": locale})
    cookie = {"name": "seat_" + night["scope"].replace(":", "_"), "value": night["tokens"][name]}
    context.add_cookies([{**cookie, "url": server.url}])
    return context.new_page()


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL", "de-DE"])
def test_a_player_reads_their_own_totals_and_everyones_sheet_on_a_phone_without_scrolling_sideways(
    server, new_context, night, docs_shot, locale
):
    page = seated(new_context, server, night, "Anna", PHONE, locale)
    page.goto(f"{server.url}/p/{night['code']}/sheet/")
    width = PHONE["viewport"]["width"]
    assert page.evaluate(NO_SIDEWAYS, width) == {"cut": [], "sideways": False}
    # Anna's own totals come first, on the first screen, highlighted as hers.
    mine = page.locator(".my-night")
    expect(mine).to_be_visible()
    box = mine.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["viewport"]["height"]
    values = [int(v) for v in mine.locator("dd").all_inner_texts()]
    assert values == night["totals"]["Anna"]
    # Everyone's night reads as a card each, its totals labelled for a screen reader.
    cards = page.locator(".sheet-cards > li")
    expect(cards).to_have_count(len(night["totals"]))
    expect(cards.filter(has_text="Hanna B.").locator("dd").first).to_be_visible()
    expect(page.locator(".sheet-cards li.mine")).to_contain_text("Anna")
    expect(page.locator("table.tally-table")).to_be_hidden()
    assert_accessible(page)
    if locale == "de-DE":
        docs_shot(page, "sheet-phone.png", full_page=False)


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_laptop_keeps_the_full_table_with_the_viewers_row_marked(
    server, new_context, night, docs_shot, locale
):
    page = seated(new_context, server, night, "Anna", TV, locale)
    page.goto(f"{server.url}/p/{night['code']}/sheet/")
    table = page.locator("table.tally-table")
    expect(table).to_be_visible()
    expect(table.locator("thead th")).to_have_count(1 + 3 + 4)  # player, 3 rounds, 4 totals
    expect(table.locator("tbody tr")).to_have_count(len(night["totals"]))
    expect(table.locator("tbody tr.mine th")).to_contain_text("Anna")
    expect(page.locator(".sheet-cards")).to_be_hidden()
    assert page.evaluate(NO_SIDEWAYS, TV["viewport"]["width"]) == {"cut": [], "sideways": False}
    assert_accessible(page)
    if locale == "en-GB":
        docs_shot(page, "sheet-laptop.png", full_page=False)


# Each travelling prize's line on the phone, a name that ends in a full stop included.
PASSED_ON = {
    "en-GB": ["Travelling Bunko: Anna (from Hanna B.)", "Travelling wipeout: Ben (from Eva)"],
    "nl-NL": ["Reizende Bunko: Anna (van Hanna B.)", "Reizende wipeout: Ben (van Eva)"],
    "de-DE": ["Wander-Bunko: Anna (von Hanna B.)", "Wander-Wipeout: Ben (von Eva)"],
}

CRAMPED_HEADS = """() => [...document.querySelectorAll(".punch-card thead th")]
  .filter((th) => th.scrollWidth > th.clientWidth).map((th) => th.textContent)"""


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL", "de-DE"])
def test_the_travelling_prizes_name_who_passed_them_on_in_any_language_for_any_name(
    server, new_context, night, docs_shot, locale
):
    for name, line in zip(["Anna", "Ben"], PASSED_ON[locale], strict=True):
        page = seated(new_context, server, night, name, PHONE, locale)
        page.goto(f"{server.url}/p/{night['code']}/")
        expect(page.locator("#live-status")).to_have_attribute("data-state", "open")
        lines = [" ".join(t.split()) for t in page.locator("#travelling p").all_inner_texts()]
        assert line in lines
        # The phone's own sheet: every column's head fits its column ("Niederlage" too).
        expect(page.locator(".punch-card")).to_be_visible()
        assert page.evaluate(CRAMPED_HEADS) == []
    if locale == "de-DE":
        # The sheet may be swapped by a live update at any moment: scroll to whichever copy
        # is on the page now.
        page.evaluate("document.getElementById('standings').scrollIntoView({block: 'center'})")
        docs_shot(page, "party-phone-travelling.png", full_page=False)
