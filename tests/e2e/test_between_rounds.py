"""Phones between rounds, in Chromium at 390x844: the stayers' choice of partners when a
ghost stayed too, and a party game while the host has not rotated yet."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.test_night_for_the_room import as_player
from tests.e2e.test_party_night import sign_in

# Six players and two ghosts; the host ends round 1 at both tables (0-0: the host says who
# wins) so that each ghost's team loses. Round 2 at table 2: the table-2 losers stayed (a
# player and Ghost 2), the head losers arrived (Ghost 1 and a player).
GHOSTS_STAY = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Party
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Ghost night", language="{language}")
tokens = {{}}
for name in ["Ben", "Anna", "Lotte", "Femke", "Ivo", "Eva"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
services.start_next_round(party.code)
party = Party.objects.get(pk=party.pk)
ghosts = set(party.players.filter(kind="ghost").values_list("id", flat=True))
for table in party.tables.filter(round=1).order_by("number"):
    ghost_seats = [s for s, pid in enumerate(table.seats) if pid in ghosts]
    assert len(ghost_seats) == 1, "one ghost a table"
    services.host_move(party.code, table.pk, {{"type": "end", "winner": 1 - ghost_seats[0] % 2}})
{rotate}
party = Party.objects.get(pk=party.pk)
table = party.tables.get(round=party.current_round, number=2)
people = [p.name for p in party.players.filter(kind="player")]
stayer = next((n for n in table.state["players"][:2] if n in people), None)
print(json.dumps({{"code": party.code, "scope": party.scope, "tokens": tokens, "stayer": stayer,
                  "table": table.state["players"]}}))
"""
ROTATE = "services.start_next_round(party.code)"


def phone_in(new_context, server, night: dict, name: str, locale: str):
    """A player's phone whose browser speaks ``locale``."""
    context = new_context({**PHONE, "locale": locale})
    cookie = {"name": "seat_" + night["scope"].replace(":", "_"), "value": night["tokens"][name]}
    context.add_cookies([{**cookie, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/p/{night['code']}/")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "open")
    return page


def ghost_night(server, language: str = "en", rotate: bool = True) -> dict:
    script = GHOSTS_STAY.format(language=language, rotate=ROTATE if rotate else "")
    return json.loads(server.python(script).splitlines()[-1])


def test_a_swap_that_would_make_the_two_ghosts_partners_is_not_offered(
    server, new_context, host_login, docs_shot
):
    night = ghost_night(server)
    page = as_player(new_context, server, night, night["stayer"])
    table = page.locator("#table")
    expect(table.locator(".team-names").first).to_be_visible()
    teams = [t.inner_text() for t in table.locator(".team-names").all()]
    assert not any("Ghost 1" in t and "Ghost 2" in t for t in teams), teams
    expect(table.get_by_role("button", name="Swap partners")).to_have_count(0)
    # The stayer is told why there is nothing to choose, and a ghost is no "table-mate".
    expect(table).to_contain_text("a swap would make the two ghosts partners")
    expect(table).not_to_contain_text("table-mate")
    docs_shot(page, "phone-stayer-with-a-ghost.png", full_page=False)
    for locale, told, swap in (
        ("nl-NL", "twee spoken partners", "Wissel van partner"),
        ("de-DE", "beiden Geister", "Partner tauschen"),
    ):
        page = phone_in(new_context, server, night, night["stayer"], locale)
        expect(page.locator("#table")).to_contain_text(told)
        expect(page.locator("#table").get_by_role("button", name=swap)).to_have_count(0)


# Eight players; the head table's game is ended (STOP), table 2 still plays.
HEAD_DONE = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Party
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Games night")
tokens = {}
for name in ["Ben", "Anna", "Lotte", "Femke", "Ivo", "Eva", "Dirk", "Hanna"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
services.start_next_round(party.code)
party = Party.objects.get(pk=party.pk)
head, other = party.tables.filter(round=1).order_by("number")
services.host_move(party.code, head.pk, {"type": "end", "winner": 0})
names = {p.pk: p.name for p in party.players.all()}
print(json.dumps({"code": party.code, "scope": party.scope, "tokens": tokens,
                  "head": [names[pid] for pid in head.seats],
                  "other": [names[pid] for pid in other.seats], "table": other.pk}))
"""


def test_a_phone_offers_a_party_game_after_the_round_until_the_host_rotates(
    server, new_context, host_login, docs_shot
):
    night = json.loads(server.python(HEAD_DONE).splitlines()[-1])
    page = as_player(new_context, server, night, night["head"][0])
    table = page.locator("#table")
    expect(table.get_by_role("link", name="Start a party game")).to_be_visible()
    # The host ends the last table's game: the round is over, the way into a game stays.
    host = new_context(LAPTOP).new_page()
    sign_in(host, server, host_login)
    host.goto(f"{server.url}/p/{night['code']}/host/")
    host.on("dialog", lambda dialog: dialog.accept())
    host.get_by_text("Table stuck?").click()
    host.locator(".tools-box").get_by_role("button").filter(has_text="&").first.click()
    banner = page.locator("#banner")
    expect(banner).to_contain_text("Round 1 is over")
    expect(banner.get_by_role("link", name="Start a party game")).to_be_in_viewport()
    expect(table).not_to_contain_text("Other tables are still playing")
    docs_shot(page, "phone-round-over-party-game.png", full_page=False)
    for locale in ("nl-NL", "de-DE"):
        other = phone_in(new_context, server, night, night["other"][1], locale)
        expect(other.locator("#banner a[href*='?party=']")).to_be_in_viewport()
    banner.get_by_role("link", name="Start a party game").click()
    expect(page).to_have_url(f"{server.url}/games/?party={night['code']}")
