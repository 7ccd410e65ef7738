"""The big screen read from the back of a room, in Chromium: after a round every table says
in full where its teams go next, the small print is big enough, the standings show a page of
names, and nothing on the screen covers anything else."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

# Real names, some long, with ghosts making up the last table (13 players: 3 ghosts).
NAMES = [
    "Femke", "Ivo", "Anna", "Ben", "Lotte", "Dirk", "Eva", "Hanna", "Joost", "Marieke",
    "Sebastiaan", "Wilhelmina", "Ghislaine", "Pieter-Jan",
]  # fmt: skip

NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Party, Table
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Friday at Femke's", attendance="ghosts")
for name in {names}:
    services.join_party(party.code, new_name=name)
services.start_next_round(party.code)
if {finished}:
    for table in Table.objects.filter(party=party, round=1).order_by("number"):
        services.host_move(party.code, table.pk, {{"type": "end", "winner": 0}})
players = list(party.players.exclude(kind="ghost").order_by("id"))
Party.objects.filter(pk=party.pk).update(
    travelling_bunko_id=players[11].id, travelling_wipeout_id=players[10].id
)
services.set_screen_language(party.code, "{language}")
print(json.dumps({{"code": party.code}}))
"""

_nights: dict = {}


def night(server, players: int, *, finished: bool = True, language: str = "en") -> str:
    """A night of ``players`` (ghosts fill the last table) at round 1, played to its end
    unless ``finished`` is false; made once per kind for the whole module."""
    key = (players, finished, language)
    if key not in _nights:
        names = [NAMES[i % len(NAMES)] + (f" {i // len(NAMES) + 1}" if i >= len(NAMES) else "")
                 for i in range(players)]  # fmt: skip
        script = NIGHT.format(names=names, finished=finished, language=language)
        _nights[key] = json.loads(server.python(script).splitlines()[-1])["code"]
    return _nights[key]


def screen(new_context, server, code: str, size: tuple[int, int]):
    page = new_context({"viewport": {"width": size[0], "height": size[1]}}).new_page()
    page.goto(f"{server.url}/p/{code}/screen/")
    expect(page.locator("body")).to_have_attribute("data-live-state", "open")
    return page


# Text cut off: wider than its box, or reaching past the inner edge of the card's border,
# where the card clips it.
CUT = """() => {
  const cut = [];
  for (const card of document.querySelectorAll(".tv-table")) {
    const outer = card.getBoundingClientRect();
    const top = outer.top + card.clientTop, left = outer.left + card.clientLeft;
    const bottom = top + card.clientHeight, right = left + card.clientWidth;
    for (const el of card.querySelectorAll(".names, .next, .score, .state")) {
      const r = el.getBoundingClientRect();
      const outside = r.top < top - 1 || r.bottom > bottom + 1
        || r.left < left - 1 || r.right > right + 1;
      if (el.scrollWidth > el.clientWidth + 1 || outside)
        cut.push(el.textContent.trim());
    }
  }
  return cut;
}"""

# The mark of the winning team beside its score, on the same line, with room between.
MARKS = """() => Array.from(document.querySelectorAll(".tv-table .won")).map((line) => {
  const score = line.querySelector(".score").getBoundingClientRect();
  const mark = line.querySelector(".mark").getBoundingClientRect();
  const middle = (mark.top + mark.bottom) / 2;
  return {
    beside: middle > score.top && middle < score.bottom,
    gap: (mark.left - score.right) / score.height,
  };
})"""

SIZE = "(selector) => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)"

OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
}"""

# Standings rows shown in full on the screen: on the visible page and inside the panel.
STANDINGS = """() => {
  const side = document.querySelector("#side").getBoundingClientRect();
  return Array.from(document.querySelectorAll("#side .standings-page:not([hidden]) li"))
    .filter((li) => {
      const r = li.getBoundingClientRect();
      const name = li.querySelector(".name");
      return r.height && r.top >= side.top - 1 && r.bottom <= side.bottom + 1
        && name.scrollWidth <= name.clientWidth + 1;
    }).map((li) => li.querySelector(".name").textContent);
}"""


@pytest.mark.parametrize(
    ("players", "size"),
    [
        (12, (1280, 720)),
        (13, (1280, 720)),
        (40, (1280, 720)),
        (12, (1920, 1080)),
        (40, (1920, 1080)),
        (13, (3840, 2160)),
        (40, (3840, 2160)),
    ],
)
def test_after_a_round_every_table_says_in_full_where_its_teams_go_next(
    server, new_context, host_login, players, size
):
    page = screen(new_context, server, night(server, players), size)
    expect(page.locator(".tv-table.done")).to_have_count((players + 3) // 4)
    head = page.locator(".tv-table.head")
    expect(head.locator(".team0 .next")).to_have_text("Stay at table 1")
    expect(head.locator(".team1 .next")).to_have_text(f"Go to table {(players + 3) // 4}")
    second = page.locator(".tv-table").nth(1)
    expect(second.locator(".team0 .next")).to_have_text("Move up to table 1")
    expect(second.locator(".team1 .next")).to_have_text("Stay at table 2")
    assert page.evaluate(CUT) == []
    for mark in page.evaluate(MARKS):
        assert mark["beside"] and mark["gap"] >= 0.15, mark


@pytest.mark.parametrize("players", [12, 40])
def test_at_720p_the_small_print_and_the_standings_read_from_the_back_of_the_room(
    server, new_context, host_login, docs_shot, players
):
    page = screen(new_context, server, night(server, players, finished=False), (1280, 720))
    expect(page.locator(".tv-table")).to_have_count(players // 4)
    for small in [".tv-join-mini .join-url", ".tv-travelling .label", ".standings-key"]:
        assert page.evaluate(SIZE, small) >= 18, small
    assert page.evaluate(SIZE, ".tv-join-mini .code") >= 24
    assert page.evaluate(SIZE, "#side .standings-page li") >= 24
    assert len(page.evaluate(STANDINGS)) >= 8  # at round 1 every tally is 0-0
    assert not page.evaluate(OVERLAP, ["#fullscreen", "#travelling"])
    assert not page.evaluate(OVERLAP, ["#fullscreen", "#side"])
    docs_shot(page, f"party-tv-720p-{players}-players.png", full_page=False)


# Where the parts of the page sit: the tables' columns, and what lies below the last table.
LAYOUT = """() => {
  const cards = Array.from(document.querySelectorAll(".tv-table"));
  const lefts = new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left)));
  const last = cards[cards.length - 1].getBoundingClientRect().bottom;
  const below = (s) => document.querySelector(s).getBoundingClientRect().top >= last;
  const lines = (el) => Math.round(el.getBoundingClientRect().height
    / parseFloat(getComputedStyle(el).lineHeight));
  return {
    columns: lefts.size,
    scrolls: document.documentElement.scrollHeight > innerHeight,
    wider: document.documentElement.scrollWidth > innerWidth,
    standings_below: below("#side"), prizes_below: below("#travelling"),
    name_lines: Math.max(...Array.from(document.querySelectorAll("#side .name"), lines)),
  };
}"""


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["upright", "sideways"])
def test_the_big_screen_opened_on_a_phone_scrolls_in_one_column_of_tables_two_a_row(
    server, new_context, host_login, docs_shot, size
):
    page = screen(new_context, server, night(server, 40), size)
    expect(page.locator(".tv-table.done")).to_have_count(10)
    assert page.evaluate(LAYOUT) == {
        "columns": 2,
        "scrolls": True,
        "wider": False,
        "standings_below": True,
        "prizes_below": True,
        "name_lines": 1,
    }
    assert page.evaluate(CUT) == []
    assert page.evaluate(SIZE, ".tv-join-mini .code") >= 20
    page.locator("#side").scroll_into_view_if_needed()
    expect(page.locator("#side")).to_be_in_viewport()
    if size[0] < size[1]:
        docs_shot(page, "party-tv-on-a-phone.png", full_page=False)


def test_the_big_screen_that_lost_the_server_says_so_in_its_own_words(
    server, new_context, host_login
):
    page = screen(new_context, server, night(server, 12, finished=False), (1280, 720))
    lost = page.locator("#live-lost")
    text = lost.inner_text()
    assert "phone" not in text.lower()
    assert "big screen" in text.lower()
    assert "comes back by itself" in text


@pytest.mark.parametrize(
    ("language", "stay", "down"),
    [("nl", "Blijven aan tafel 1", "Naar tafel 3"), ("de", "Bleiben an Tisch 1", "An Tisch 3")],
)
def test_where_the_teams_go_next_reads_in_dutch_and_german_too(
    server, new_context, host_login, docs_shot, language, stay, down
):
    page = screen(new_context, server, night(server, 12, language=language), (1280, 720))
    head = page.locator(".tv-table.head")
    expect(head.locator(".team0 .next")).to_have_text(stay)
    expect(head.locator(".team1 .next")).to_have_text(down)
    assert page.evaluate(CUT) == []
    docs_shot(page, f"party-tv-720p-round-over-{language}.png", full_page=False)
