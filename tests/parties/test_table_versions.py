"""A fragment stamped with a table's version shows the table at that version: a message that
arrives after the table moved on draws the table as it is now, stamped as such, and never
files a later state under an earlier version."""

from __future__ import annotations

import re

import pytest

from apps.core.tokens import read_seat_token
from apps.parties import render, services
from apps.parties.models import Table
from apps.parties.selectors import STATES, TableRow, table_at, table_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(django_user_model):
    host = django_user_model.objects.create_user("host")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for i in range(4):
        _, tokens[f"P{i}"] = services.join_party(party.code, new_name=f"P{i}")
    services.start_next_round(party.code)
    party.refresh_from_db()
    return party, tokens


def test_a_late_message_for_an_old_version_draws_the_table_as_it_is_now(night):
    party, tokens = night
    old = table_rows(party)[0]
    claim = read_seat_token(tokens["P0"], party.scope)
    services.table_action(party.code, claim, "late-rolloff", {"type": "rolloff"})
    STATES.clear()  # the tap kept both versions; a message this late finds them gone
    now = Table.objects.get(pk=old.pk)
    assert now.version > old.version
    row, state = table_at(old)
    assert row.version == now.version
    assert state.to_json() == now.state
    assert STATES.peek((old.pk, old.version)) is None  # nothing filed under the old version
    phone = render.phone_at(party, claim)
    html = render.phone_table(
        phone, TableRow(old.pk, old.round, old.number, old.version, old.seats)
    )
    assert re.search(r'id="table"[^>]*data-v="(\d+)"', html).group(1) == str(row.stamp)


def test_a_version_still_cached_is_drawn_as_it_was(night):
    party, tokens = night
    before = table_rows(party)[0]
    row, state = table_at(before)
    claim = read_seat_token(tokens["P0"], party.scope)
    services.table_action(party.code, claim, "kept-rolloff", {"type": "rolloff"})
    again, same = table_at(before)
    assert again.version == before.version and same is state


def test_a_tap_keeps_the_state_it_made_under_its_new_version(
    night, django_capture_on_commit_callbacks
):
    party, tokens = night
    claim = read_seat_token(tokens["P0"], party.scope)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_action(party.code, claim, "kept-new", {"type": "rolloff"})
    now = Table.objects.get(pk=table_rows(party)[0].pk)
    kept = STATES.peek((now.pk, now.version))
    assert kept is not None and kept.to_json() == now.state
