"""The console's way out of a stuck table, in Chromium at 1440x900: whom the app may play
for, a panel that stays inside its column, and the player and the log told that the app
played."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.e2e.conftest import LAPTOP
from tests.e2e.test_night_for_the_room import as_player
from tests.e2e.test_party_night import sign_in

# Six players and two ghosts, one ghost a table, round 1 under way.
GHOST_NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Party
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Stuck night")
tokens = {}
for name in ["Ben", "Anna", "Lotte", "Femke", "Ivo", "Eva"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
services.start_next_round(party.code)
party = Party.objects.get(pk=party.pk)
names = {p.pk: p.name for p in party.players.all()}
tables = [[names[pid] for pid in t.seats] for t in party.tables.order_by("number")]
print(json.dumps({"code": party.code, "scope": party.scope, "tokens": tokens, "tables": tables}))
"""

BOXES = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {tools: box(document.querySelector(".table-tools[open]")),
          log: box(document.querySelector("#log")),
          grid: box(document.querySelector(".host-grid")),
          tables: box(document.querySelector("#tables"))};
}"""


def open_tools(host, number: int):
    card = host.locator("#tables article").nth(number - 1)
    card.locator(".table-tools summary").click()
    expect(card.locator(".tools-box form").first).to_be_visible()
    return card


def test_the_stuck_table_tools_offer_only_players_and_the_app_says_it_played(
    server, new_context, host_login, docs_shot
):
    night = json.loads(server.python(GHOST_NIGHT).splitlines()[-1])
    seats = night["tables"][1]
    ghost = next(n for n in seats if n.startswith("Ghost"))
    host = new_context(LAPTOP).new_page()
    sign_in(host, server, host_login)
    host.goto(f"{server.url}/p/{night['code']}/host/")
    host.on("dialog", lambda dialog: dialog.accept())
    card = open_tools(host, 2)
    tools = card.locator(".tools-box")
    # The app plays the ghost anyway: only the three players are offered.
    offered = tools.locator("input[name=type][value=autoplay] ~ button")
    expect(offered).to_have_count(3)
    assert sorted(offered.all_inner_texts()) == sorted(n for n in seats if n != ghost)
    # The open panel stays in the tables' column, above "What happened", and in view.
    boxes = host.evaluate(BOXES)
    assert boxes["tools"][3] <= boxes["log"][1], boxes
    assert boxes["tools"][3] <= boxes["grid"][3] + 1 and boxes["tools"][1] >= boxes["grid"][1]
    docs_shot(host, "console-table-stuck.png", full_page=False)

    tools.get_by_role("button", name="Roll off for the table").click()
    expect(card.locator(".table-state")).to_contain_text("rolls")
    roller = card.locator(".table-state").inner_text().split(" rolls")[0]
    phone = as_player(new_context, server, night, roller)
    card = host.locator("#tables article").nth(1)
    if not card.locator(".table-tools").evaluate("details => details.open"):
        card = open_tools(host, 2)
    card.locator(".tools-box").get_by_role("button", name=roller, exact=True).click()
    # The app rolls for the player at once, and says so: on the player's phone, in the log.
    expect(phone.locator("#table .app-plays")).to_contain_text("let the app roll for you")
    expect(phone.locator("#table")).to_contain_text("The app rolled")
    log = host.locator("#log .log-lines")
    expect(log).to_contain_text(f"Table 2: the app plays for {roller}; The app rolled")
    expect(log).not_to_contain_text(f"{roller} rolled")
    docs_shot(phone, "phone-app-plays-for-you.png", full_page=False)
    for language in ("nl", "de"):
        host.locator("#language-choice").select_option(language)
        expect(host.locator("html")).to_have_attribute("lang", language)
        expect(host.locator("#live-status")).to_have_attribute("data-state", "open")
        card = open_tools(host, 2)
        expect(card.locator(".tools-box form").first).to_be_visible()
        boxes = host.evaluate(BOXES)
        assert boxes["tools"][3] <= boxes["log"][1], boxes
