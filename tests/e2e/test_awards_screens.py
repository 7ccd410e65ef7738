"""The end of the night on every screen in Chromium: the awards' countdowns read before and
after their time, every screen says the night is over, and the big screen's travelling box
agrees with the ceremony about who takes a travelling prize home."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import LAPTOP, PHONE, TV
from tests.e2e.test_night_for_the_room import as_player
from tests.e2e.test_party_night import sign_in

# A night of four, over after one round; the awards are run up to where {step}.
AWARDS_NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Table
from apps.prizes import services as prizes
from apps.prizes.services import ceremonies
from apps.prizes.rules.categories import CONSOLATION, HOST_CHOICE, MOST_WINS, Category
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Countdown night")
tokens = {{}}
for name in ["Ann", "Bea", "Cal", "Dot"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
kinds = {{"choice": [Category(MOST_WINS, "Most wins"), Category(HOST_CHOICE, "Best laugh", "Mug")],
         "rolloff": [Category(CONSOLATION, "Consolation", "Chocolate")]}}
prizes.set_categories(party.code, kinds["{step}"])
services.start_next_round(party.code)
table = Table.objects.get(party=party, round=1)
services.host_move(party.code, table.pk, {{"type": "end", "winner": 1}})
result = services.end_night(party.code)
ceremony = ceremonies.start_awards(party.code)
ceremonies.host_step(party.code, {{"type": "next"}})
if "{step}" == "choice":  # the night's winner wins Best laugh too: she chooses
    ceremonies.host_step(party.code, {{"type": "next"}})
    seat = ceremony.players.index(party.players.get(name=result["winner"]).pk)
    ceremonies.host_step(party.code, {{"type": "pick", "player": seat}})
print(json.dumps({{"code": party.code, "scope": party.scope, "tokens": tokens,
                  "result": result}}))
"""

SECONDS = re.compile(r"data-countdown-ms=\"(\d+)\">(\d+)</span>")


def awards_night(server, step: str) -> dict:
    return json.loads(server.python(AWARDS_NIGHT.format(step=step)).splitlines()[-1])


def assert_countdown_printed(page: Page, path: str) -> None:
    """The page as the server sends it, before any script: each countdown has its number."""
    html = page.context.request.get(page.url.split("/p/")[0] + path).text()
    assert "data-countdown-ms" in html
    assert re.findall(r"data-countdown-ms=\"\d+\"></span>", html) == []
    for ms, seconds in SECONDS.findall(html):
        assert int(seconds) == -(-int(ms) // 1000) > 0


def counting(page: Page, scope: str) -> None:
    """The countdown in ``scope`` shows a number of seconds left, and it goes down."""
    number = page.locator(f"{scope} [data-countdown-ms]")
    expect(number).to_have_text(re.compile(r"^[1-9]\d*$"))
    first = int(number.inner_text())
    expect(number).not_to_have_text(str(first), timeout=3000)
    assert int(number.inner_text()) < first


def test_the_awards_countdowns_show_the_seconds_left_then_say_the_time_is_up(
    server, new_context, host_login
):
    night = awards_night(server, "choice")
    code, winner = night["code"], night["result"]["winner"]
    phone = as_player(new_context, server, night, winner)
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{code}/host/")
    tv = new_context(TV).new_page()
    tv.goto(f"{server.url}/p/{code}/screen/")

    counting(phone, "#awards")
    expect(phone.locator("#awards .award-choice p.muted")).to_have_text(
        re.compile(r"^In [1-9]\d* s you keep Most wins\.$")
    )
    counting(console, "#host-awards")
    expect(console.locator("#host-awards")).to_contain_text(
        re.compile(r"between Most wins and Best laugh: [1-9]\d* s left, then Most wins stays")
    )
    counting(tv, ".tv-awards")
    expect(tv.locator(".award-countdown")).to_have_text(re.compile(r"^[1-9]\d* s$"))
    assert_countdown_printed(phone, f"/p/{code}/")
    assert_countdown_printed(console, f"/p/{code}/host/")
    assert_countdown_printed(tv, f"/p/{code}/screen/")

    # Its time up before the app's move comes, the phone says what happens, not "0 s" (a
    # phone whose socket hears nothing: the server's move would redraw it).
    context = new_context(PHONE)
    context.add_cookies(phone.context.cookies())
    late = context.new_page()
    late.route_web_socket(re.compile(r"/ws/"), lambda socket: None)
    late.clock.install()
    late.goto(phone.url)
    expect(late.locator("#awards [data-countdown-ms]")).to_have_count(1)
    late.clock.fast_forward("00:40")
    expect(late.locator("#awards .award-choice p.muted")).to_have_text(
        "Time is up: you keep Most wins."
    )


def test_a_roll_off_tells_the_phones_and_the_console_when_the_app_rolls(
    server, new_context, host_login
):
    night = awards_night(server, "rolloff")
    code = night["code"]
    phone = as_player(new_context, server, night, "Ann")
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{code}/host/")
    counting(phone, "#awards")
    expect(phone.locator("#awards")).to_contain_text(
        re.compile(r"The app rolls for you in [1-9]\d* s\.")
    )
    counting(console, "#host-awards")
    expect(console.locator("#host-awards")).to_contain_text(
        re.compile(r"In [1-9]\d* s the app rolls for the phones that have not rolled\.")
    )
    assert_countdown_printed(phone, f"/p/{code}/")
    assert_countdown_printed(console, f"/p/{code}/host/")


# Eight players on two tables; round 1 of 6 is over: table 2's losers stay there next round.
ROUND_OVER = """
import json
from django.contrib.auth import get_user_model
from apps.parties import services
from apps.parties.models import Table
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Early night", rounds=6)
tokens = {}
for name in ["Ann", "Bea", "Cal", "Dot", "Eva", "Fay", "Gus", "Hal"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
services.start_next_round(party.code)
names = dict(party.players.values_list("pk", "name"))
losers = []
for table in Table.objects.filter(party=party, round=1).order_by("number"):
    services.host_move(party.code, table.pk, {"type": "end", "winner": 0})
    losers.append(names[table.seats[1]])
print(json.dumps({"code": party.code, "scope": party.scope, "tokens": tokens, "loser": losers[1]}))
"""


def test_when_the_night_ends_every_screen_says_so_and_none_tells_of_a_next_round(
    server, new_context, host_login, docs_shot
):
    night = json.loads(server.python(ROUND_OVER).splitlines()[-1])
    code = night["code"]
    phone = as_player(new_context, server, night, night["loser"])
    expect(phone.locator("#table")).to_contain_text("Next round you stay at this table.")
    tv = new_context(TV).new_page()
    tv.goto(f"{server.url}/p/{code}/screen/")
    expect(tv.locator(".tv-round")).to_have_text("Round 1 of 6")
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{code}/host/")

    console.locator("#end-now summary").click()
    console.get_by_role("button", name="Yes, end the night").click()
    expect(console.locator("#status-title")).to_have_text("The night is over")
    expect(console.get_by_role("button", name="Start the awards")).to_be_visible()
    # The phone, told over its socket: the night is over, no table to go to.
    expect(phone.locator("#banner")).to_contain_text("The night is over.")
    expect(phone.locator("#seat h1")).to_have_text("Thanks for playing!")
    expect(phone.locator("#table")).to_contain_text("Your team lost this round.")
    expect(phone.locator("body")).not_to_contain_text("Next round")
    expect(phone.get_by_role("link", name="See the score sheet")).to_be_visible()
    # The big screen: over, not "Round 1 of 6"; the night's winners where the tables were.
    expect(tv.locator(".tv-pill")).to_have_text("The night is over")
    expect(tv.locator(".tv-round")).to_have_text("Thanks for playing!")
    expect(tv.locator(".podium")).to_be_visible()
    docs_shot(phone, "night-over-phone.png", full_page=False)
    docs_shot(tv, "night-over-tv.png", full_page=False)


# Eva rolled the latest wipeout, Femke the one before; with real dice. The host gives Eva
# Best laugh first: at the travelling wipeout she keeps Best laugh, and it passes on to Femke.
WIPEOUT_NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.core.tokens import read_seat_token
from apps.parties import services
from apps.parties.models import Table
from apps.parties.rules.state import TableState
from apps.prizes import services as prizes
from apps.prizes.rules.categories import HOST_CHOICE, TRAVELLING_WIPEOUT, Category
host = get_user_model().objects.get(username="nighthost")
party = services.create_party(host, name="Wipeout night", dice_mode="physical")
tokens, claims = {}, {}
for name in ["Eva", "Femke", "Ann", "Ben"]:
    player, tokens[name] = services.join_party(party.code, new_name=name)
    claims[name] = read_seat_token(tokens[name], party.scope)
prizes.set_categories(party.code, [
    Category(HOST_CHOICE, "Best laugh", "Mug"),
    Category(TRAVELLING_WIPEOUT, "Travelling wipeout", "Rubber duck"),
])
services.start_next_round(party.code)
table = Table.objects.get(party=party, round=1)
names = dict(party.players.values_list("pk", "name"))
seats = [names[pid] for pid in table.seats]
taps = iter(range(1000))
def report(kind):
    services.table_action(party.code, claims[seats[0]], "tap%d" % next(taps),
                          {"type": "report", "kind": kind})
def roller():
    table.refresh_from_db()
    return seats[TableState.from_json(table.state).roller]
services.table_action(party.code, claims[seats[0]], "first", {"type": "rolloff"})
for who in ("Femke", "Eva"):
    while roller() != who:
        report("miss")
    report("wipeout")
services.host_move(party.code, table.pk, {"type": "end", "winner": 0})
services.end_night(party.code)
print(json.dumps({"code": party.code, "scope": party.scope, "tokens": tokens}))
"""


def test_the_travelling_wipeout_passed_on_at_the_awards_shows_its_new_holder_everywhere(
    server, new_context, host_login, docs_shot
):
    night = json.loads(server.python(WIPEOUT_NIGHT).splitlines()[-1])
    code = night["code"]
    eva = as_player(new_context, server, night, "Eva")
    femke = as_player(new_context, server, night, "Femke")
    tv = new_context(TV).new_page()
    tv.goto(f"{server.url}/p/{code}/screen/")
    box = tv.locator("#travelling p").nth(1)
    expect(box).to_contain_text("Eva")
    console = new_context(LAPTOP).new_page()
    sign_in(console, server, host_login)
    console.goto(f"{server.url}/p/{code}/host/")

    console.get_by_role("button", name="Start the awards").click()
    console.get_by_role("button", name="Next prize: Best laugh").click()
    console.get_by_role("group", name="Who wins Best laugh?").get_by_role(
        "button", name="Eva"
    ).click()
    console.get_by_role("button", name="Next prize: Travelling wipeout").click()
    # Before the prize is settled the box still names who holds it.
    expect(tv.locator(".award-winner")).to_contain_text("Eva won it too")
    expect(box.locator("strong")).to_have_text("Eva")
    eva.get_by_role("button", name="Keep Best laugh (Mug)").click()

    expect(tv.locator(".award-label").first).to_have_text("Passed on by Eva")
    expect(tv.locator(".award-winner")).to_have_text("Femke")
    expect(box.locator("strong")).to_have_text("Femke")
    expect(box).to_contain_text("Passed on by Eva")
    for phone in (eva, femke):
        expect(phone.locator("#travelling")).to_contain_text(
            "Travelling wipeout: Femke, passed on by Eva"
        )
    # A screen opened now says the same.
    tv.reload()
    expect(box.locator("strong")).to_have_text("Femke")
    docs_shot(tv, "awards-tv-travelling.png", full_page=False)
