"""What a party needs around the scoring: the join address phones can reach, no dead ends
after the end, sheets that keep every round, a log in sentences, a night's party games."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.core import network
from apps.core.errors import Refused
from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.games import services as rooms
from apps.parties import services
from apps.parties.console import host_log
from apps.parties.links import night_link
from apps.parties.models import Party, Table
from apps.parties.render import night_at

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve"]


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


def night(host, names=NAMES, **options) -> tuple[Party, dict]:
    party = services.create_party(host, name="Friday", **options)
    tokens = {}
    for name in names:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    return party, tokens


def end_round(party: Party) -> None:
    party.refresh_from_db()
    for table in Table.objects.filter(party=party, round=party.current_round):
        if table.state["phase"] != "done":
            services.host_move(party.code, table.pk, {"type": "end", "winner": 0})


def phone_page(client, party, tokens, name) -> str:
    client.cookies[seat_cookie_name(party.scope)] = tokens[name]
    return client.get(f"/p/{party.code}/").content.decode()


def test_the_join_address_is_the_laptops_lan_address_whatever_the_browser_used(
    client, host, monkeypatch
):
    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20"])
    assert network.public_base_for("localhost:8000") == "http://192.168.1.20:8000"
    party, _ = night(host)
    page = client.get(f"/p/{party.code}/screen/", HTTP_HOST="localhost:8000").content.decode()
    assert f"http://192.168.1.20:8000/p/{party.code}/join/" in page


def test_a_night_ended_before_any_game_names_nobody_and_can_be_reopened(host):
    party, _ = night(host, NAMES[:4])
    services.start_next_round(party.code)
    result = services.end_night(party.code)
    assert result["winner"] is None and result["loser"] is None and result["rolloffs"] == []
    services.reopen_night(party.code)
    party.refresh_from_db()
    assert party.status == Party.Status.PLAYING and party.result == {}
    with pytest.raises(Refused, match="has not ended"):
        services.reopen_night(party.code)


def test_after_the_end_no_phone_is_told_to_hold_the_dice_or_to_come_back_next_round(client, host):
    party, tokens = night(host, attendance="sitouts")
    services.start_next_round(party.code)
    end_round(party)
    services.end_night(party.code)
    for name in NAMES:
        page = phone_page(client, party, tokens, name)
        assert "The night is over" in page
        assert "on hold" not in page and "hold the dice" not in page
        assert "next round" not in page


def test_a_player_back_from_a_rest_is_not_told_they_stayed_at_the_table(client, host):
    party, tokens = night(host, NAMES + ["Fay", "Gus", "Hal", "Ida"], attendance="sitouts")
    services.start_next_round(party.code)
    resting = party.sit_outs.get().player.name
    end_round(party)
    services.start_next_round(party.code)
    page = phone_page(client, party, tokens, resting)
    assert "Table" in page
    assert "You stayed at this table" not in page and "Swap partners" not in page


def test_the_score_sheet_keeps_a_round_sat_out_and_a_name_ending_in_a_full_stop(client, host):
    party, tokens = night(host, ["Ann B.", "Bea", "Cal", "Dot", "Eve"], attendance="sitouts")
    services.start_next_round(party.code)
    resting = party.sit_outs.get().player.name
    end_round(party)
    services.start_next_round(party.code)
    end_round(party)
    page = client.get(f"/p/{party.code}/sheet/").content.decode()
    row = page[page.index(f">{resting}<") :].split("</tr>")[0]
    assert '<td class="round">-</td>' in row  # the round sat out is there, as a rest
    services.rename_player(party.code, party.players.get(name="Bea").pk, "Bea C.")
    lines = host_log(night_at(Party.objects.get(pk=party.pk)))
    assert "Bea is now called Bea C." in lines and "Bea C.." not in lines


def test_the_browser_asks_for_a_favicon_and_gets_the_apps_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith(".svg")


def test_a_name_held_by_another_phone_says_who_holds_it_and_what_to_do(client, host):
    party, _ = night(host, ["Ann"])
    response = client.post(f"/p/{party.code}/join/", {"name": "ann"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Ann has already joined on another phone" in page
    assert "ask the host to free the name Ann" in page and "with an initial" in page


def test_the_nights_log_reads_as_sentences(host):
    party, tokens = night(host, NAMES[:4], dice_mode="physical")
    services.start_next_round(party.code)
    claim = read_seat_token(tokens["Ann"], party.scope)
    services.table_action(party.code, claim, "log-0001", {"type": "rolloff"})
    services.table_action(
        party.code, claim, "log-0002", {"type": "report", "kind": "sixes", "count": 2}
    )
    html = host_log(night_at(Party.objects.get(pk=party.pk)))
    assert "Table 1: " in html and ": 2 points, rolls again" in html
    assert "Round 1 started at 1 tables." in html or "Round 1 started at 1 table" in html
    assert "v1" not in html


def test_an_invited_phone_sees_its_seat_at_the_party_game(client, host):
    party, tokens = night(host, NAMES[:4])
    rooms.create_room("mbogo", {}, "Ann", prelisted=["Ann", "Bea"], party_code=party.code)
    page = phone_page(client, party, tokens, "Bea")
    assert "You have a seat at Mbogo" in page and "Take your seat" in page
    assert "You have a seat" not in phone_page(client, party, tokens, "Cal")


def test_the_host_puts_a_party_game_on_the_big_screen_and_takes_it_off(client, host):
    party, _ = night(host, NAMES[:4])
    room, _seat = rooms.create_room("mbogo", {}, "Ann", party_code=party.code)
    services.show_room(party.code, room.code)
    page = client.get(f"/p/{party.code}/screen/").content.decode()
    assert f'src="/rooms/{room.code}/screen/?embed=1"' in page
    services.show_room(party.code, "")
    assert "<iframe" not in client.get(f"/p/{party.code}/screen/").content.decode()
    with pytest.raises(Refused, match="not one of tonight's"):
        services.show_room(party.code, "ZZZZZ")


def test_a_phone_has_how_to_play_at_hand_and_no_host_sign_in(client, host):
    party, tokens = night(host, NAMES[:4])
    page = phone_page(client, party, tokens, "Ann")
    assert "How to play" in page and "Host sign-in" not in page
    for game in ("bunko", "mbogo", "bonje", "dschungel"):
        assert client.get(f"/how/{game}/").status_code == 200
    assert "scramble" in client.get("/how/bunko/").content.decode()


def test_real_dice_keep_bunko_and_wipeout_apart_from_the_hits(client, host):
    party, tokens = night(host, NAMES[:4], dice_mode="physical")
    services.start_next_round(party.code)
    claim = read_seat_token(tokens["Ann"], party.scope)
    services.table_action(party.code, claim, "apart-001", {"type": "rolloff"})
    page = phone_page(client, party, tokens, "Ann")
    hits = page[page.index('class="report-grid"') : page.index('class="report-special"')]
    special = page[page.index('class="report-special"') :].split("</div>")[0]
    assert "One 6" in hits and "Two 6s" in hits and "Bunko" not in hits
    assert "Bunko! (three 6s)" in special and "Wipeout (three 1s)" in special


def test_a_player_who_stayed_with_a_ghost_chooses_the_partners_alone(client, host):
    party, tokens = night(host, NAMES + ["Fay", "Gus"])
    services.start_next_round(party.code)
    party.refresh_from_db()
    ghost = party.players.get(kind="ghost").id
    for _round in range(3):
        # The ghost's team loses at its table, and the other table's losers are players:
        # by round 3 at the latest the ghost stays at table 2 with a player.
        for table in Table.objects.filter(party=party, round=party.current_round):
            loser = table.seats.index(ghost) % 2 if ghost in table.seats else 1
            services.host_move(party.code, table.pk, {"type": "end", "winner": 1 - loser})
        services.start_next_round(party.code)
        party.refresh_from_db()
        table = Table.objects.get(party=party, round=party.current_round, number=2)
        if ghost in [table.seats[s] for s in table.state["options"]["stayers"]]:
            break
    stayer = next(p for p in party.players.filter(pk__in=table.seats[:2]) if not p.is_ghost)
    page = phone_page(client, party, tokens, stayer.name)
    assert "Swap partners" in page
    assert "you choose the partners before the first roll" in page
    assert "table-mate" not in page


def test_a_player_in_a_game_room_is_called_to_her_table_in_her_language(host):
    party, tokens = night(host, NAMES[:4])
    services.start_next_round(party.code)
    cookies = {seat_cookie_name(party.scope): tokens["Ann"]}
    assert night_link(party.code, cookies).call == "Round 1 has started: go to table 1"
    with translation.override("nl"):
        assert night_link(party.code, cookies).call == "Ronde 1 is begonnen: ga naar tafel 1"
    with translation.override("de"):
        assert night_link(party.code, cookies).call == "Runde 1 hat begonnen: geh an Tisch 1"
    assert night_link(party.code, {}).call == ""  # a phone with no seat at the night
