"""The one change message: what it carries, and what a receiver refuses to read as one."""

from __future__ import annotations

import json

import pytest

from apps.core.changes import Change, NotAChange, night_change, room_change, stamp, table_change


def a_table_change(**overrides) -> Change:
    fields = dict(table=7, number=2, seats=[1, 2, 3, 4], state="{}", changed=1_700_000_000_000)
    return table_change("ABCDE", 3, 41, **{**fields, **overrides})


def test_a_tables_stamp_grows_across_rounds_whatever_the_versions():
    assert stamp(2, 1) > stamp(1, 999_999)
    assert a_table_change().stamp == stamp(3, 41)


@pytest.mark.parametrize(
    "change",
    [
        a_table_change(tallies=True),
        a_table_change(state=None, tail='{"kept":{}}', base=40),
        night_change("ABCDE", 12, ["travelling"]),
        room_change("XY", 5),
    ],
)
def test_every_change_reads_back_the_same_after_crossing_the_channel_layer(change):
    carried = json.loads(json.dumps(change.message()))
    assert Change.read(carried) == change


def test_a_delivery_hint_travels_beside_the_change_not_in_it():
    message = night_change("ABCDE", 12, ["travelling"]).message(latest="travelling")
    assert message["latest"] == "travelling"
    assert Change.read(message) == night_change("ABCDE", 12, ["travelling"])


@pytest.mark.parametrize(
    "message",
    [
        {"type": "live.version", "scope": "XY", "version": 1},  # no such kind
        {"type": "live.room", "version": 1},  # no scope
        {"type": "live.room", "scope": "XY", "version": "1"},  # a version in words
        {"type": "live.room", "scope": "XY", "version": True},
        {"type": "live.room", "scope": "XY", "version": -1},
        {"type": "live.room", "scope": "XY", "version": 1, "payload": []},
        {"type": "live.night", "scope": "ABCDE", "version": 1},  # which parts?
        {"type": "live.night", "scope": "ABCDE", "version": 1, "payload": {"parts": "all"}},
        # Drawn HTML where the table's data should be:
        {
            "type": "live.table",
            "scope": "ABCDE",
            "round": 1,
            "version": 2,
            "payload": {"table": 7, "parts": {"top": "<script>alert(1)</script>"}},
        },
        {**a_table_change().message(), "payload": {**a_table_change().payload, "seats": ["1"]}},
        {**a_table_change().message(), "payload": {**a_table_change().payload, "state": {}}},
        # A tail without the version it adds to:
        {
            **a_table_change(state=None, tail="{}", base=40).message(),
            "payload": {**a_table_change(state=None, tail="{}", base=40).payload, "base": None},
        },
    ],
)
def test_a_message_that_is_not_a_change_is_refused(message):
    with pytest.raises(NotAChange):
        Change.read(message)
