"""One table of one night in three languages: a phone in Dutch and one in German by their
browsers' languages, one switched to German with the language picker, one in English, and the
big screen in the host's language. All see the same night (the same scores, the same roll),
each in its own words, live updates included."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import LAPTOP, PHONE, TV
from tests.e2e.test_party_night import create_night, sign_in

# Words only each language's phone shows: its seat heading, a roll in its table's log.
WORDS = {
    "nl": {"table": "Tafel 1", "rolled": "gooide", "lang": "nl"},
    "de": {"table": "Tisch 1", "rolled": "würfelte", "lang": "de"},
    "en": {"table": "Table 1", "rolled": "rolled", "lang": "en"},
}


def join(page: Page, server, code: str, name: str) -> None:
    """Join by the night's link, whatever language the page speaks (fields by their ids)."""
    page.goto(f"{server.url}/p/{code}/join/")
    page.locator("#name").fill(name)
    page.locator("form.stack button[type=submit]").click()
    expect(page.locator("#seat")).to_contain_text(name)


def scores(page: Page, selector: str) -> list[str]:
    return [s.strip() for s in page.locator(selector).all_inner_texts()]


def last_dice(page: Page, selector: str) -> list[str]:
    return re.findall(r"\d", page.locator(selector).first.get_attribute("aria-label") or "")


def test_each_phone_reads_the_same_night_in_its_own_language(
    server, host_login, new_context, docs_shot
):
    host = new_context(LAPTOP).new_page()
    sign_in(host, server, host_login)
    code = create_night(host, "virtual", 3)

    phones = {
        "Ans": ("nl", new_context({**PHONE, "locale": "nl-NL"}).new_page()),
        "Dirk": ("de", new_context({**PHONE, "locale": "de-DE"}).new_page()),
        "Pia": ("de", new_context({**PHONE, "locale": "en-US"}).new_page()),
        "Ed": ("en", new_context({**PHONE, "locale": "en-US"}).new_page()),
    }
    for name, (_language, page) in phones.items():
        join(page, server, code, name)
    # Pia's phone speaks English until she picks German; her seat keeps it.
    pia = phones["Pia"][1]
    pia.locator("#language-choice").select_option("de")
    expect(pia.locator("html")).to_have_attribute("lang", "de")

    screen = new_context(TV).new_page()
    screen.goto(f"{server.url}/p/{code}/screen/")
    expect(screen.locator("#banner")).to_contain_text("Players are joining")

    host.get_by_role("button", name="Seat everyone and start round 1").click()
    for language, page in phones.values():
        expect(page.locator("html")).to_have_attribute("lang", WORDS[language]["lang"])
        expect(page.locator("#seat h1")).to_contain_text(WORDS[language]["table"])
        expect(page.locator("#live-status")).not_to_be_empty()
    expect(screen.locator("#banner")).to_contain_text("Round 1 of 3")

    # The roll-off (one tap rolls for every seat), then the first roller rolls once.
    phones["Ans"][1].locator("#table form.move button").first.click()
    roller = None
    for _ in range(100):
        roller = next(
            (p for _l, p in phones.values() if p.locator("#table .turn.yours").count()), None
        )
        if roller:
            break
        phones["Ans"][1].wait_for_timeout(100)
    assert roller is not None, "nobody's phone says it is their turn after the roll-off"
    roller.locator("#table button.roll").click()

    for language, page in phones.values():
        expect(page.locator("#table .roll-log li").first).to_contain_text(WORDS[language]["rolled"])
    expect(screen.locator(".tv-table .dice")).to_be_visible()
    seen = {name: scores(page, "#table .team-score") for name, (_l, page) in phones.items()}
    assert len({tuple(s) for s in seen.values()}) == 1, seen
    assert scores(screen, ".tv-table .score") == seen["Ans"]
    dice = {name: last_dice(page, "#table p.dice") for name, (_l, page) in phones.items()}
    assert len({tuple(d) for d in dice.values()}) == 1 and len(dice["Ans"]) == 3, dice
    assert last_dice(screen, ".tv-table .dice") == dice["Ans"]

    # The roll line itself, in each phone's words (the live fragment, not the page load).
    expect(phones["Ans"][1].locator("#table .round-line")).to_contain_text("Ronde 1")
    expect(phones["Dirk"][1].locator("#table .round-line")).to_contain_text("Runde 1")
    expect(pia.locator("#table .round-line")).to_contain_text("Runde 1")
    expect(phones["Ed"][1].locator("#table .round-line")).to_contain_text("Round 1")

    # German's longer words must fit a phone: nothing wider than the screen.
    for name, (_language, page) in phones.items():
        docs_shot(page, f"language-phone-{name.lower()}.png")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"], f"{name}'s page is {width} px wide"
    docs_shot(screen, "language-screen.png", full_page=False)
