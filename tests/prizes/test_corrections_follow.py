"""Every figure is recomputed from the night's log: a correction on the host's console moves
the score sheets, the totals, the CSV, the travelling prize and the awards with it."""

from __future__ import annotations

import csv
import io
import re

import pytest

from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.parties import services
from apps.parties.models import Table
from apps.parties.rules.state import team_of
from apps.parties.selectors import tallies
from apps.prizes.models import Ceremony
from apps.prizes.rules import settlement
from apps.prizes.services import ceremonies

pytestmark = pytest.mark.django_db


def csv_rows(client, code: str) -> dict[str, dict]:
    text = client.get(f"/p/{code}/host/night.csv").content.decode()
    return {row["player"]: row for row in csv.DictReader(io.StringIO(text))}


def sheet_row(client, code: str, name: str) -> list[str]:
    """The figures of a player's row on the printable tally."""
    page = client.get(f"/p/{code}/sheet/").content.decode()
    row = page.split(f'<th scope="row">{name}', 1)[1].split("</tr>", 1)[0]
    return re.findall(r"<td[^>]*>([^<]*)</td>", row)


def test_a_corrected_bunko_moves_every_sheet_total_and_prize(client, django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday", dice_mode="physical")
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    table = Table.objects.get(party=party)
    claim = read_seat_token(tokens[party.players.get(pk=table.seats[0]).name], party.scope)
    services.table_action(party.code, claim, "f-rolloff", {"type": "rolloff"})
    services.table_action(party.code, claim, "f-bunko", {"type": "report", "kind": "bunko"})
    table.refresh_from_db()
    index = next(
        i for i, e in enumerate(table.state["entries"]) if e["action"].get("kind") == "bunko"
    )
    roller_seat = table.state["entries"][index]["seat"]
    roller = party.players.get(pk=table.seats[roller_seat]).name

    client.force_login(host)
    assert csv_rows(client, party.code)[roller]["bunkos"] == "1"
    assert sheet_row(client, party.code, roller)[-2] == "1"
    client.cookies[seat_cookie_name(party.scope)] = tokens[roller]
    assert (
        f"Travelling Bunko: <strong>{roller}</strong>"
        in client.get(f"/p/{party.code}/").content.decode()
    )

    # The host corrects the Bunko to a miss, with a reason, on the console.
    response = client.post(
        f"/p/{party.code}/host/correct/",
        {"table": table.pk, "index": index, "replacement": "miss", "reason": "Misread the dice"},
    )
    assert response.status_code == 302

    sheet = {t.player.name: t for t in tallies(party)}
    assert sheet[roller].bunkos == 0 and sheet[roller].wins == 0
    assert csv_rows(client, party.code)[roller]["bunkos"] == "0"
    phone = client.get(f"/p/{party.code}/").content.decode()
    assert "Travelling Bunko: <strong>nobody yet</strong>" in phone
    assert sheet_row(client, party.code, roller)[-2] == "0"  # its Bunkos column

    # The game goes to the other team; the awards see the corrected night.
    other_team = 1 - team_of(roller_seat)
    services.host_move(party.code, table.pk, {"type": "end", "winner": other_team})
    services.end_night(party.code)
    ceremonies.start_awards(party.code)
    state = settlement.State.from_json(Ceremony.objects.get(party=party).state)
    while state.phase == "ready":
        ceremonies.host_step(party.code, {"type": "next"})
        state = settlement.State.from_json(Ceremony.objects.get(party=party).state)
    view = settlement.view(state, settlement.HOST)
    assert "Most Bunkos" in view["unawarded"]
    assert "Travelling Bunko" in view["unawarded"]
    winners = {a["category"]: a["player"] for a in view["awards"]}
    assert winners.get("Most wins") != roller
