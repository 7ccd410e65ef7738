"""One game room, two languages: a Dutch phone and a German phone at the same Mbogo table each
read the table, and a live move, in their own language."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, TV


def test_a_dutch_phone_and_a_german_phone_each_see_a_live_move_in_their_language(
    server, new_context, docs_shot
):
    ann = new_context({**PHONE, "locale": "nl-NL"}).new_page()
    bea = new_context({**PHONE, "locale": "de-DE"}).new_page()
    ann.goto(server.url + "/games/")
    expect(ann.locator("h1")).to_have_text("Partyspellen")
    ann.check("input[name=game][value=mbogo]")
    ann.fill("#id_name", "Ann")
    ann.get_by_role("button", name="Maak de kamer").click()
    code = ann.locator(".room-head .room-code").inner_text()

    bea.goto(f"{server.url}/rooms/{code}/")
    bea.fill("#sit-name", "Bea")
    bea.get_by_role("button", name="Hier hinsetzen, auf Platz 2").click()
    expect(ann.locator(".seat-list")).to_contain_text("Bea")
    ann.get_by_role("button", name="Start Mbogo").click()

    expect(ann.locator("#turn-headline")).to_have_text("Jouw beurt: speel een kaart")
    expect(bea.locator("#turn-headline")).to_have_text("Ann ist dran")
    version = bea.evaluate("document.body.dataset.liveVersion")
    ann.locator("#room-live .actions button[name=act]").first.click()
    bea.wait_for_function(f"() => document.body.dataset.liveVersion !== '{version}'")
    expect(ann.locator("#turn-headline")).to_have_text("Jouw beurt: trek een kaart van Bea")
    expect(bea.locator("#turn-headline")).to_have_text("Ann zieht bei dir")
    expect(ann.locator(".log li").first).to_have_text(re.compile(r"^Ann (zette|kooide|liet|had) "))
    expect(bea.locator(".log li").first).to_have_text(re.compile(r"^Ann (hat|hatte) "))

    # Phone-sized in both languages: nothing wider than the screen.
    for page, name in ((ann, "nl"), (bea, "de")):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        docs_shot(page, f"language-mbogo-{name}.png", full_page=False)


# Each pile's name under its card, with what it needs and what it gets (scrollWidth over
# clientWidth: a name cut with "…" needs more than it gets).
PILE_NAMES = """() => Array.from(document.querySelectorAll("#room-live .bj-owner"))
  .filter((p) => p.offsetParent !== null)
  .map((p) => ({text: p.textContent.trim(), needs: p.scrollWidth, gets: p.clientWidth}))"""


def test_a_dutch_bonje_table_names_every_pile_whole_on_the_phone_and_the_big_screen(
    server, new_context, docs_shot
):
    ann = new_context({**PHONE, "locale": "nl-NL"}).new_page()
    ann.goto(server.url + "/games/")
    ann.check("input[name=game][value=bonje]")
    ann.fill("#id_name", "Annemarie")
    ann.get_by_role("button", name="Maak de kamer").click()
    code = ann.locator(".room-head .room-code").inner_text()
    for free in (2, 1, 0):  # four piles: the narrowest columns a phone shows
        ann.locator(".bot-form button[type=submit]").first.click()
        expect(ann.locator(".bot-form")).to_have_count(free)
    screen = new_context({**TV, "locale": "nl-NL"}).new_page()
    screen.goto(f"{server.url}/rooms/{code}/screen/")
    ann.get_by_role("button", name="Start Bonje in de Stal").click()

    for page, name in ((ann, "phone"), (screen, "screen")):
        expect(page.locator("#room-live .bj-owner")).to_have_count(4)
        piles = page.evaluate(PILE_NAMES)
        assert len(piles) == 4, piles
        assert sum(p["text"].startswith("De stapel van ") for p in piles) >= 3, piles
        assert all(p["needs"] <= p["gets"] for p in piles), f"a pile's name is cut: {piles}"
        docs_shot(page, f"bonje-piles-nl-{name}.png", full_page=False)
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390
    assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
