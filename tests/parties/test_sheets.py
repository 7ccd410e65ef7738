"""The night on paper and beyond: the tally, blank sheets, a CSV, a results link."""

from __future__ import annotations

import csv
import io

import pytest

from apps.core.tokens import make_seat_token, seat_cookie_name
from apps.parties import services
from apps.parties.models import Table
from apps.parties.views.sheets import results_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


@pytest.fixture
def played(host):
    party = services.create_party(host, name="Friday", attendance="sitouts")
    for name in ["Ann", "Bea", "Cal", "Dot", "=SUM(A1)"]:
        services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    table = Table.objects.get(party=party, round=1)
    services.host_move(party.code, table.pk, {"type": "end", "winner": 1})
    return party


def test_the_host_downloads_the_night_as_csv_with_names_that_cannot_be_formulas(
    client, host, played
):
    client.force_login(host)
    response = client.get(f"/p/{played.code}/host/night.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["player", "round 1", "wins", "losses", "bunkos", "wipeouts", "prize"]
    names = [r[0] for r in rows[1:]]
    assert "'=SUM(A1)" in names and "=SUM(A1)" not in names
    marks = {r[0]: r[1] for r in rows[1:]}
    assert sorted(marks.values()) == ["-", "L", "L", "W", "W"]


def test_only_the_host_gets_the_csv_and_the_blank_sheets(client, played, django_user_model):
    assert client.get(f"/p/{played.code}/host/night.csv").status_code == 302  # to sign in
    other = django_user_model.objects.create_user("other", password="x")
    client.force_login(other)
    assert client.get(f"/p/{played.code}/host/night.csv").status_code == 403
    assert client.get(f"/p/{played.code}/host/blank-sheets/").status_code == 403


def test_blank_sheets_print_one_per_player_and_a_few_spare(client, host, played):
    client.force_login(host)
    page = client.get(f"/p/{played.code}/host/blank-sheets/").content.decode()
    assert page.count('class="blank-sheet"') == 5 + 4
    assert "Name: <span>Ann</span>" in page
    assert page.count('<tr><th scope="row">') >= 6  # a line per round


def test_the_results_link_shows_the_night_to_anyone_and_a_forged_one_nothing(client, played):
    page = client.get(f"/results/{results_token(played)}/").content.decode()
    assert "Friday" in page and "Ann" in page
    assert client.get("/results/not-a-real-link/").status_code == 404


def test_a_players_own_phone_sees_their_totals_first_and_their_line_marked(client, played):
    ann = played.players.get(name="Ann")
    token = make_seat_token(played.scope, ann.pk, ann.nonce)  # what Ann's phone keeps
    client.cookies[seat_cookie_name(played.scope)] = token
    page = client.get(f"/p/{played.code}/sheet/").content.decode()
    assert page.count('class="mine"') == 2  # her line in the table and her card
    assert 'class="my-night no-print"' in page
    assert page.index("my-night") < page.index("tally-table")
    del client.cookies[seat_cookie_name(played.scope)]
    page = client.get(f"/p/{played.code}/sheet/").content.decode()
    assert "my-night" not in page and 'class="mine"' not in page
