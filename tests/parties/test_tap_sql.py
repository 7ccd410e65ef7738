"""A tap's reads and writes are SQL written out once (apps/fastpath/tap_reads.py,
tap_writes.py): what they read must be the ORM's own instances, field by field, and what they
store must read back through the ORM exactly as the ORM's own save() and create() stored it.
Every test here runs both ways: on the fast path, and on the ORM it falls back to
(``FAST_PATH=off``, services/tap_store.py)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core import live
from apps.core.errors import Refused
from apps.core.tokens import SeatClaim
from apps.parties.models import Event, Party, Player, Table
from apps.parties.rules.state import TableState, with_tail
from apps.parties.selectors import STATES, decoded_state
from apps.parties.services import log
from apps.parties.services.tables import table_action
from apps.parties.services.tap_store import append_event, locked_table, night_of_tap, player_of
from tests.parties.test_night_at_scale import big_night, claim_at

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=["fast path", "ORM"])
def way(request, settings) -> str:
    settings.FAST_PATH = request.param == "fast path"
    return request.param


def fast_path_only(way: str) -> None:
    if way != "fast path":
        pytest.skip("what the fast path adds to the ORM's own way")


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


@pytest.fixture
def sent(monkeypatch) -> list[dict]:
    messages: list[dict] = []
    monkeypatch.setattr(live, "send_after_commit", lambda groups, message: messages.append(message))
    return messages


def test_a_tap_saves_its_table_as_the_orm_reads_it(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    before = Table.objects.get(party=party, round=1, number=1)
    started = timezone.now()
    table_action(party.code, claim_at(party, 1, 0), "writes-1", {"type": "rolloff"})
    table = Table.objects.get(pk=before.pk)
    assert table.version == before.version + 1
    assert table.seats == before.seats
    assert table.state != before.state
    # The message carries what the tap changed of the version before: added to that
    # version, the state the database got.
    payload = next(m for m in sent if m["type"] == "live.table")["payload"]
    assert payload["base"] == before.version
    made = with_tail(TableState.from_json(before.state), json.loads(payload["tail"]))
    assert made == TableState.from_json(table.state)
    assert timezone.is_aware(table.changed)
    assert started - timedelta(seconds=1) <= table.changed <= timezone.now()


def test_a_tap_appends_its_entry_to_the_log_with_every_field(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    claim = claim_at(party, 1, 0)
    table_action(party.code, claim, "writes-2", {"type": "rolloff", "at": 0})
    entry = Event.objects.get(party=party, action_id="writes-2")
    table = Table.objects.get(party=party, round=1, number=1)
    assert entry.table_id == table.pk
    assert entry.version == table.version
    assert entry.kind == "rolloff"
    assert entry.player_id == claim.seat_id
    assert entry.seat == 0
    assert entry.data["action"] == {"type": "rolloff", "at": 0}
    assert isinstance(entry.data["told"], list)
    assert timezone.is_aware(entry.created)
    # The log reads in order, and a retried tap is still applied once.
    assert table_action(party.code, claim, "writes-2", {"type": "rolloff", "at": 0}) is None
    assert Event.objects.filter(party=party, action_id="writes-2").count() == 1


def test_a_table_entry_without_a_player_stores_nulls(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    table = Table.objects.get(party=party, round=1, number=2)
    table.state = dict(table.state)
    log.record_table(party, table, "host_test", tallies=True)
    entry = Event.objects.get(party=party, table=table, kind="host_test")
    assert entry.player_id is None and entry.seat is None and entry.action_id is None
    assert entry.data == {}
    assert Table.objects.get(pk=table.pk).version == table.version


def test_an_entry_field_the_writer_is_not_given_is_refused_or_takes_its_default(host, sent, way):
    """The written-out insert names every field of the log: one it is not given takes its
    default, as the ORM's would, and a required one (a field added later that nobody passes
    yet) stops the tap instead of being stored as NULL."""
    fast_path_only(way)
    party = big_night(host, 8, dice_mode="physical")
    table = Table.objects.get(party=party, round=1, number=1)
    append_event(party_id=party.pk, table_id=table.pk, version=99, kind="defaults")
    entry = Event.objects.get(party=party, kind="defaults")
    assert entry.data == {} and entry.seat is None and entry.player_id is None
    with pytest.raises(TypeError, match="Event.kind"):
        append_event(party_id=party.pk, table_id=table.pk, version=100)
    assert not Event.objects.filter(party=party, version=100).exists()


def _fields(instance, leave_out=()) -> dict:
    return {
        f.attname: getattr(instance, f.attname)
        for f in type(instance)._meta.concrete_fields
        if f.name not in leave_out
    }


def test_a_taps_reads_are_the_orms_instances_field_by_field(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    claim = claim_at(party, 1, 0)
    night = night_of_tap(party.code, "reads-1")
    assert _fields(night) == _fields(Party.objects.get(pk=party.pk))
    assert not night.retried
    player = player_of(night, claim.seat_id)
    assert _fields(player) == _fields(Player.objects.get(pk=claim.seat_id))
    table = Table.objects.get(party=party, round=1, number=1)
    locked = locked_table(night, table.pk)
    assert _fields(locked, leave_out=("state",)) == _fields(table, leave_out=("state",))
    # The state is left in the database: the state cache usually has it.
    assert locked.get_deferred_fields() == {"state"}
    table_action(party.code, claim, "reads-1", {"type": "rolloff"})
    assert night_of_tap(party.code, "reads-1").retried
    assert night_of_tap("NOSUCH", "reads-1") is None
    assert player_of(night, 10**9) is None


def test_a_tap_whose_phone_knows_its_table_reads_in_one_query(host, sent, way):
    fast_path_only(way)
    party = big_night(host, 8, dice_mode="physical")
    table = Table.objects.get(party=party, round=1, number=1)
    claim, other = claim_at(party, 1, 0), claim_at(party, 2, 0)
    STATES.clear()  # as in a process that did not see the tables' last changes
    with CaptureQueriesContext(connection) as hinted:
        table_action(party.code, claim, "reads-2", {"type": "rolloff"}, table.pk)
    with CaptureQueriesContext(connection) as unhinted:
        table_action(party.code, other, "reads-3", {"type": "rolloff"})

    def reads(captured) -> list[str]:
        return [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]

    # The night, the retry, the player and the locked table in one query, then the state.
    assert len(reads(hinted)) == 2
    assert all(name in reads(hinted)[0] for name in ("parties_party", "parties_player", "FROM"))
    assert "parties_table" in reads(hinted)[0]
    # Without the table: the night, the player, the round's seats, the table, its state.
    assert len(reads(unhinted)) == 5


def test_a_tap_on_a_table_whose_state_is_kept_does_not_read_the_state(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    table = Table.objects.get(party=party, round=1, number=1)
    claim = claim_at(party, 1, 0)
    STATES.clear()
    decoded_state(table.pk, table.version, table.state)  # as after this process's last change
    with CaptureQueriesContext(connection) as captured:
        table_action(party.code, claim, "kept-1", {"type": "rolloff"}, table.pk)
    reads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    assert not any('"state"' in sql for sql in reads), reads
    assert Table.objects.get(pk=table.pk).version == table.version + 1


def test_a_wrong_or_forged_table_hint_changes_nothing_but_the_way_in(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    mine = Table.objects.get(party=party, round=1, number=1)
    other = Table.objects.get(party=party, round=1, number=2)
    claim = claim_at(party, 1, 0)
    # Another table's id: the tap still lands at the player's own table.
    table_action(party.code, claim, "hint-1", {"type": "rolloff"}, other.pk)
    assert Table.objects.get(pk=mine.pk).version == mine.version + 1
    assert Table.objects.get(pk=other.pk).version == other.version
    # A retry through the quick way is still applied once.
    assert table_action(party.code, claim, "hint-1", {"type": "rolloff"}, mine.pk) is None
    assert Table.objects.get(pk=mine.pk).version == mine.version + 1
    # A token whose nonce is stale is refused, however the tap finds its rows.
    stale = SeatClaim(claim.scope, claim.seat_id, "not-the-nonce")
    with pytest.raises(Refused):
        table_action(party.code, stale, "hint-2", {"type": "rolloff"}, mine.pk)
    with pytest.raises(Refused):
        table_action("NOPE1", claim, "hint-3", {"type": "rolloff"}, mine.pk)
