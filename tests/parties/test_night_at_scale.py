"""A big night costs a tap no more than a small one: the same queries at 8 and at 400
players, updates only to the table's phones and the screens, each update the size of one
table. And the host's corrections keep STOP where the rules put it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.changes import table_change
from apps.core.tokens import SeatClaim
from apps.parties import big_screen, console, consumers, render, services
from apps.parties.caches import FRAGMENTS
from apps.parties.models import Party, Player, Table
from apps.parties.selectors import NIGHTS, STATES, ms_of, table_rows, table_states
from apps.parties.services.tables import table_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


def big_night(host, players: int, **options) -> Party:
    party = services.create_party(host, name="Charity", **options)
    Player.objects.bulk_create(
        Player(party=party, name=f"Player {i:03d}", claimed=True) for i in range(players)
    )
    services.start_next_round(party.code)
    party.refresh_from_db()
    return party


def claim_at(party: Party, number: int, seat: int) -> SeatClaim:
    table = Table.objects.get(party=party, round=party.current_round, number=number)
    player = Player.objects.get(pk=table.seats[seat])
    return SeatClaim(party.scope, player.pk, player.nonce)


def cold() -> None:
    for cache in (FRAGMENTS, NIGHTS, STATES):
        cache.clear()


def queries_of(work) -> int:
    with CaptureQueriesContext(connection) as captured:
        work()
    return len(captured)


def costs(party: Party) -> dict[str, int]:
    table = Table.objects.get(party=party, round=1, number=2)
    claim = claim_at(party, 2, 0)
    cold()
    tap = queries_of(lambda: table_action(party.code, claim, "tap-00000001", {"type": "rolloff"}))
    party.refresh_from_db()
    cold()
    full_phone = queries_of(lambda: render.render_phone(party.code, claim))
    html, phone = render.render_phone(party.code, claim)
    cold()
    night = render.night_at(party)
    row = next(r for r in table_rows(party) if r.pk == table.pk)
    one_table = queries_of(lambda: render.phone_table(phone, row))
    cold()
    screen_card = queries_of(lambda: big_screen.screen_card(night, row))
    cold()
    host_card = queries_of(lambda: console.host_card(night, row))
    return {
        "tap": tap,
        "phone page": full_phone,
        "phone table": one_table,
        "screen card": screen_card,
        "host card": host_card,
    }


def test_a_tap_and_each_render_run_the_same_queries_at_8_and_at_400_players(host):
    small = costs(big_night(host, 8))
    large = costs(big_night(host, 400))
    assert small == large
    assert small["tap"] <= 10 and small["phone table"] <= 2 and small["screen card"] <= 2


def test_the_four_phones_at_a_table_share_one_drawing_of_its_scores_dice_and_log(host, monkeypatch):
    party = big_night(host, 8)
    cold()
    drawn = []
    real = render.render_part
    monkeypatch.setattr(
        render, "render_part", lambda t, part, c: drawn.append(part) or real(t, part, c)
    )
    pages = []
    for seat in range(4):
        html, phone = render.render_phone(party.code, claim_at(party, 1, seat))
        pages.append(html)
    assert drawn.count("table") == 4
    assert drawn.count("table_top") == 1 and drawn.count("table_log") == 1
    teams = {page.split('data-my-team="')[1][0] for page in pages}
    assert teams == {"0", "1"}  # each phone still says which team is its own


def test_a_redraw_of_thirty_changed_tables_on_the_console_reads_as_much_as_of_one(host):
    party = big_night(host, 400)
    console = consumers.PartyConsumer()
    console.view, console.night = "host", render.night_at(party)
    rows = console.night.tables

    def redraw(count: int) -> int:
        FRAGMENTS.clear()
        table_states(rows)  # the tables' states as a busy night has them: in the cache
        changes = [
            table_change(
                party.code,
                r.round,
                r.version,
                table=r.pk,
                number=r.number,
                seats=list(r.seats),
                state="{}",
                changed=ms_of(timezone.now()),
            )
            for r in rows[:count]
        ]
        return queries_of(lambda: console._screen_tables(changes, False, False))

    assert redraw(30) == redraw(1)


def test_the_screens_get_one_small_fragment_per_tap_whatever_the_size_of_the_night(host):
    party = big_night(host, 400)
    night = render.night_at(party)
    row = night.tables[57]
    card = big_screen.screen_card(night, row)
    assert card.startswith('\n<article id="t-1-58"') or "t-1-58" in card[:80]
    assert len(card.encode()) < 2_000
    assert len(console.host_card(night, row).encode()) < 4_000


def bunkos_until_stop(party: Party) -> None:
    """The head table taps Bunko after Bunko (each scramble 3-0) until STOP."""
    head = claim_at(party, 1, 0)
    for tap in range(40):
        state = Table.objects.get(party=party, round=1, number=1).state
        if state["stopped"]:
            return
        if state["phase"] == "scramble":
            split = {"type": "scramble", "team0": 3, "team1": 0}
            table_action(party.code, head, f"split-{tap:04d}", split)
        else:
            table_action(party.code, head, f"bunko-{tap:04d}", {"type": "report", "kind": "bunko"})
    raise AssertionError("the head table never reached 21")


def test_a_correction_below_21_lets_the_tables_play_on_and_one_back_to_21_calls_stop(host):
    party = big_night(host, 8, dice_mode="physical")
    table_action(party.code, claim_at(party, 1, 0), "rolloff-1", {"type": "rolloff"})
    table_action(party.code, claim_at(party, 2, 0), "rolloff-2", {"type": "rolloff"})
    bunkos_until_stop(party)
    head = Table.objects.get(party=party, round=1, number=1)
    bottom = Table.objects.get(party=party, round=1, number=2)
    assert head.state["stopped"] and bottom.state["stopped"]
    reports = [i for i, e in enumerate(head.state["entries"]) if e["action"]["type"] == "report"]
    services.correct_entry(
        party.code, head.pk, reports[-1], {"type": "report", "kind": "miss"}, "No Bunko"
    )
    head.refresh_from_db()
    bottom.refresh_from_db()
    assert not head.state["stopped"]
    assert not bottom.state["stopped"], "the other tables play on"
    services.correct_entry(
        party.code, head.pk, reports[-1], {"type": "report", "kind": "bunko"}, "A Bunko after all"
    )
    head.refresh_from_db()
    bottom.refresh_from_db()
    assert head.state["stopped"] and bottom.state["stopped"], "21 again calls STOP"
    assert party.events.filter(kind="stop", table=None).count() == 2


def test_in_classic_bunco_the_phone_shows_the_target_the_rules_score(client, host):
    """Round 7 of classic Bunco scores 1s (the target cycles 1 to 6)."""
    from apps.core.tokens import seat_cookie_name
    from apps.parties.rules.table import setup

    party = services.create_party(host, name="Classic", classic=True)
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    table = Table.objects.get(party=party)
    state = setup(table.state["players"], {**table.state["options"], "round": 7}, None)
    table.state = state.to_json()
    table.save()
    client.cookies[seat_cookie_name(party.scope)] = tokens["Ann"]
    page = client.get(f"/p/{party.code}/").content.decode()
    assert "target number 1" in page and "target number 7" not in page


def test_the_correction_menu_offers_what_the_nights_rules_score(host_client, host):
    classic = big_night(host, 8, classic=True, dice_mode="physical")
    table_action(classic.code, claim_at(classic, 1, 0), "r-1", {"type": "rolloff"})
    page = host_client.get(f"/p/{classic.code}/host/").content.decode()
    assert "Three of a kind (mini Bunko)" not in page  # nothing to correct yet
    state = Table.objects.get(party=classic, number=1).state
    roller = claim_at(classic, 1, state["roller"])
    table_action(classic.code, roller, "r-2", {"type": "report", "kind": "mini"})
    table = Table.objects.get(party=classic, number=1)
    console = host_client.get(f"/p/{classic.code}/host/").content.decode()
    assert f"/host/table/{table.pk}/correct/" in console  # the form comes when opened
    page = host_client.get(
        f"/p/{classic.code}/host/table/{table.pk}/correct/", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Three of a kind (mini Bunko)" in page and "Wipeout" not in page
    last = len(table.state["entries"]) - 1
    response = host_client.post(
        f"/p/{classic.code}/host/correct/",
        {"table": table.pk, "index": last, "replacement": "mini", "reason": "Three 4s"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.state["rolls"][-1].get("mini") is True


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


def test_the_console_of_a_hundred_tables_stays_light(host_client, host):
    party = big_night(host, 400)
    page = host_client.get(f"/p/{party.code}/host/").content
    assert len(page) < 300_000  # the tables' tools and the players' menus come when opened
    player = party.players.first()
    menu = host_client.get(f"/p/{party.code}/host/player/{player.pk}/", HTTP_HX_REQUEST="true")
    assert b"New name" in menu.content and b"<html" not in menu.content
    table = party.tables.first()
    tools = host_client.get(f"/p/{party.code}/host/table/{table.pk}/tools/")
    assert b"Let the app play for" in tools.content and b"Back to the console" in tools.content
    assert host_client.get(f"/p/{party.code}/host/table/{table.pk}/nothing/").status_code == 404


def test_another_host_opens_no_menu_of_this_night(client, host, django_user_model):
    party = big_night(host, 8)
    other = django_user_model.objects.create_user("other-host")
    client.force_login(other)
    player = party.players.first()
    assert client.get(f"/p/{party.code}/host/player/{player.pk}/").status_code == 403
    table = party.tables.first()
    assert client.get(f"/p/{party.code}/host/table/{table.pk}/tools/").status_code == 403


def test_the_phones_redrawn_for_a_night_wide_change_read_the_night_and_its_rooms_once(host):
    party = big_night(host, 40)
    claims = [claim_at(party, number, seat) for number in range(1, 11) for seat in range(4)]
    cold()

    def reads(claim, version=None) -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            render.render_phone(party.code, claim, version, shared=version is not None)
        return [q["sql"] for q in captured.captured_queries]

    def of_night_or_rooms(sqls: list[str]) -> list[str]:
        return [sql for sql in sqls if 'FROM "parties_party"' in sql or '"games_room"' in sql]

    first = of_night_or_rooms(reads(claims[0], party.version))
    assert first  # the first phone reads them
    for claim in claims[1:]:
        assert of_night_or_rooms(reads(claim, party.version)) == []
    # A phone drawn on its own (a page load, a reconnect) reads them afresh.
    assert len(of_night_or_rooms(reads(claims[1]))) == 2
