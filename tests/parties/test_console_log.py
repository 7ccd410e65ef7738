"""The console's log of the night: the newest entries, each read whole and said once per
language, and an entry that names its player by the player's row said with the name now."""

from __future__ import annotations

import pytest

from apps.parties import console
from apps.parties.models import Event, Party, Table
from apps.parties.selectors import night_at
from apps.parties.services import rename_player
from apps.parties.services.tables import host_move, table_action
from tests.parties.test_night_at_scale import big_night, claim_at, queries_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


def test_the_console_log_reads_only_the_entries_it_has_not_said_yet(host):
    party = big_night(host, 8, dice_mode="physical")
    claim = claim_at(party, 2, 0)
    table_action(party.code, claim, "log-00000001", {"type": "rolloff"})
    night = night_at(Party.objects.get(pk=party.pk))
    html = []
    # The newest entries' ids, then the entries not said yet, whole.
    assert queries_of(lambda: html.append(console.host_log(night))) == 2
    lines = html[0].split("<li>")[1:]
    assert lines[0].startswith("Table 2: ")  # the roll-off, newest
    assert len(lines) == min(14, night.party.events.count())
    # Nothing new: the ids only, and the same log.
    assert queries_of(lambda: html.append(console.host_log(night))) == 1
    assert html[1] == html[0]
    roller = Table.objects.get(party=party, round=1, number=2).state["roller"]
    report = {"type": "report", "kind": "miss"}
    table_action(party.code, claim_at(party, 2, roller), "log-00000002", report)
    assert queries_of(lambda: html.append(console.host_log(night))) == 2
    assert html[2].split("<li>")[2:] == html[0].split("<li>")[1:14]


def test_an_entry_without_its_players_name_says_the_players_name_now(host):
    party = big_night(host, 8)
    player = party.players.order_by("pk").first()
    # An entry that names its player by the player's row, not by its own data.
    Event.objects.create(
        party=party, version=party.version + 100, kind="player_removed", player=player, data={}
    )
    before = console.host_log(night_at(Party.objects.get(pk=party.pk)))
    assert f"{player.name} leaves after this round." in before
    rename_player(party.code, player.pk, "Zelda Q")
    after = console.host_log(night_at(Party.objects.get(pk=party.pk)))
    assert "Zelda Q leaves after this round." in after


def test_the_log_says_whom_the_host_handed_to_the_app_and_that_the_app_rolled_for_them(host):
    party = big_night(host, 8)
    table = Table.objects.get(party=party, round=1, number=2)
    host_move(party.code, table.pk, {"type": "play"})  # the roll-off
    table.refresh_from_db()
    seat = table.state["roller"]
    name = table.state["players"][seat]
    host_move(party.code, table.pk, {"type": "autoplay", "seat": seat, "on": True})
    log = console.host_log(night_at(Party.objects.get(pk=party.pk)))
    newest = log.split("<li>")[1]
    assert newest.startswith(f"Table 2: the app plays for {name}; The app rolled ")
    assert f"{name} rolled" not in log
    host_move(party.code, table.pk, {"type": "autoplay", "seat": seat, "on": False})
    log = console.host_log(night_at(Party.objects.get(pk=party.pk)))
    assert log.split("<li>")[1].startswith(f"Table 2: {name} has the seat back.")
