"""One game room, two languages: a Dutch phone and a German phone at the same Mbogo table each
read the table, and a live move, in their own language."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import PHONE


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
    bea.wait_for_function(f"document.body.dataset.liveVersion !== '{version}'")
    expect(ann.locator("#turn-headline")).to_have_text("Jouw beurt: trek een kaart van Bea")
    expect(bea.locator("#turn-headline")).to_have_text("Ann zieht bei dir")
    expect(ann.locator(".log li").first).to_have_text(re.compile(r"^Ann (zette|kooide|liet|had) "))
    expect(bea.locator(".log li").first).to_have_text(re.compile(r"^Ann (hat|hatte) "))

    # Phone-sized in both languages: nothing wider than the screen.
    for page, name in ((ann, "nl"), (bea, "de")):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        docs_shot(page, f"language-mbogo-{name}.png", full_page=False)
