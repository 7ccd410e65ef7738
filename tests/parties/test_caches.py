"""The process's caches keep what is still current: the newest versions of each table and
night, a bounded number of entries, and nothing unused for long; a whole night of taps leaves
them the same size as its first minutes."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from apps.core import scheduler
from apps.parties import big_screen, caches, console, render, services
from apps.parties.caches import FRAGMENTS, LOG_LINES, Cache, by_version, fragment_slot
from apps.parties.models import Party, Player, Table
from apps.parties.rules.table import TableState, legal_actions
from apps.parties.selectors import NIGHTS, STATES
from apps.parties.services.tables import table_action
from tests.parties.test_night_at_scale import claim_at


def test_a_newer_version_of_a_table_lets_go_of_its_older_versions():
    states = Cache(100, slot=by_version, keep=2)
    for version in range(1, 11):
        states.put((7, version), f"table 7 at v{version}")
    states.put((8, 1), "table 8 at v1")
    assert sorted(states.items) == [(7, 9), (7, 10), (8, 1)]
    assert states.peek((7, 8)) is None


def test_what_one_version_shows_to_each_seat_is_kept_together():
    drawings = Cache(100, slot=fragment_slot, keep=2)
    for version in (1, 2, 3):
        for seat in range(4):
            drawings.put(("en", ("panel", 7, version, ("Ann", "Bo"), seat)), "html")
    kept = {key[1][2] for key in drawings.items}
    assert kept == {2, 3}
    assert len(drawings.items) == 8


def test_a_log_line_has_no_version_and_is_kept_by_use_alone():
    assert fragment_slot(("en", ("log-line", 41, "Ann", 3))) is None
    assert fragment_slot(("en", ("log-line", 41, None, None))) is None
    assert fragment_slot(("nl", ("card", 5, 12, ("Ann",)))) == (("nl", "card", 5), 12)


def test_the_size_bound_still_holds_across_many_tables():
    states = Cache(50, slot=by_version, keep=3)
    for table in range(100):
        states.put((table, 1), "state")
    assert len(states.items) == 50
    assert sum(len(v) for v in states.versions.values()) == 50
    assert len(states.versions) == 50  # the slots of the tables pushed out went with them


def test_an_entry_unused_for_ten_minutes_is_let_go(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(caches.time, "monotonic", lambda: now[0])
    states = Cache(100, slot=by_version)
    states.put((1, 1), "ended night's table")
    states.put((2, 1), "table in play")
    now[0] += caches.IDLE_SECONDS - 60
    states.get((2, 1), lambda: "drawn again")  # in use: stays
    now[0] += 120
    assert states.sweep() == 1
    assert list(states.items) == [(2, 1)]
    assert states.versions == {2: {1: {(2, 1)}}}


def test_the_heartbeat_sweeps_every_cache(monkeypatch):
    assert caches.sweep_idle in scheduler.SWEEPS
    now = [5000.0]
    monkeypatch.setattr(caches.time, "monotonic", lambda: now[0])
    STATES.put((1, 1), "state")
    NIGHTS.put(("ABCD", 1), "night")
    FRAGMENTS.put_in("en", ("card", 1, 1, ()), "card")
    now[0] += caches.IDLE_SECONDS + 1
    assert caches.sweep_idle() == 3
    assert caches.cached_entries() == 0


@pytest.mark.django_db
def test_a_night_of_taps_keeps_the_caches_as_small_as_its_first_round(
    django_user_model, monkeypatch
):
    """Three rounds at three tables, every phone and the big screen drawn after every tap:
    the caches hold the newest versions of each table and of the night, not an entry per tap."""
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Long night")
    Player.objects.bulk_create(
        Player(party=party, name=f"Player {i:02d}", claimed=True) for i in range(12)
    )
    sizes: dict[int, list[int]] = {}
    LOG_LINES.clear()
    for round_number in (1, 2, 3):
        services.start_next_round(party.code)
        party = Party.objects.get(pk=party.pk)
        for tap in range(1000):
            moved = False
            for number in (1, 2, 3):
                table = Table.objects.get(party=party, round=round_number, number=number)
                state = TableState.from_json(table.state)
                move = next(((s, a) for s in range(4) for a in legal_actions(state, s)), None)
                if move is None:
                    continue
                moved = True
                seat, action = move
                table_action(party.code, claim_at(party, number, seat), f"t{tap}-{number}", action)
                for seat in range(4):
                    render.render_phone(party.code, claim_at(party, number, seat))
            big_screen.render_screen(party.code, "/")
            console.host_log(render.night_of(party.code, Party.objects.get(pk=party.pk).version))
            sizes.setdefault(round_number, []).append(len(FRAGMENTS.items) + len(STATES.items))
            if not moved:
                break
    assert all(len(v) > 30 for v in sizes.values())  # the rounds were played, not skipped
    # In a round, hundreds of taps of ten drawings each: no entry per tap is kept. The
    # console's log says each tap in a line of its own, kept apart in a cache of its own size.
    assert all(max(v) - v[0] <= 40 for v in sizes.values())
    assert 14 <= len(LOG_LINES.items) <= LOG_LINES.size
    # A round that is over keeps its tables' newest drawings until they go unused: once the
    # clock passes the idle time, only what the pages of the round in play ask for is left.
    later = time.monotonic() + caches.IDLE_SECONDS + 1
    monkeypatch.setattr(caches.time, "monotonic", lambda: later)
    for number in (1, 2, 3):
        for seat in range(4):
            render.render_phone(party.code, claim_at(party, number, seat))
    big_screen.render_screen(party.code, "/")
    caches.sweep_idle()
    assert len(FRAGMENTS.items) + len(STATES.items) <= max(sizes[1]) + 10


def test_the_rounds_played_are_kept_as_their_marks_on_the_sheet_not_as_their_games(
    django_user_model, monkeypatch
):
    """The tallies and the travelling prizes read every table of the night at each change of
    the night. What they keep of a finished round is its summary: once the round's tables
    go unused, none of their games is held, however many rounds the night has played."""
    from apps.parties.selectors import SUMMARIES, night_at, tallies
    from tests.parties.test_night_for_the_room import end_round

    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Long night")
    for i in range(12):
        services.join_party(party.code, new_name=f"Player {i:02d}")
    for _round in (1, 2, 3, 4):
        services.start_next_round(party.code)
        end_round(party)
        party.refresh_from_db()
        night_at(party)  # the screens read the night as the round ends
        for number in (1, 2, 3):
            render.render_phone(party.code, claim_at(party, number, 0))
        big_screen.render_screen(party.code, "/")
    drawn = {slot[-1] for slot in FRAGMENTS.versions if type(slot[-1]) is int}
    services.start_next_round(party.code)
    party.refresh_from_db()
    night = night_at(party)
    past = {row.pk for row in night.past_rounds.rows}
    # At once, not only when they have gone idle: a past round's games and drawings are let
    # go as the night is read in the next round.
    assert not past & {pk for pk, _version in STATES.items}
    assert drawn & past  # the round just over was drawn...
    assert not past & {slot[-1] for slot in FRAGMENTS.versions}  # ...and is let go

    later = time.monotonic() + caches.IDLE_SECONDS + 1
    monkeypatch.setattr(caches.time, "monotonic", lambda: later)
    night_at(party)
    for number in (1, 2, 3):
        render.render_phone(party.code, claim_at(party, number, 0))
    caches.sweep_idle()

    # The score sheet reads every table of the night again: from the summaries kept, or from
    # the database (those gone idle), and only the summaries are kept.
    sheet = tallies(party)
    assert len(past) == 12
    assert not past & {pk for pk, _version in STATES.items}
    assert past <= {pk for pk, _version in SUMMARIES.items}
    assert all(t.wins + t.losses == 4 for t in sheet)  # four rounds won or lost by everyone


def test_letting_go_of_a_slot_drops_all_its_versions_and_nothing_else():
    states = Cache(100, slot=by_version, keep=3)
    for version in (1, 2, 3):
        states.put((7, version), "table 7")
        states.put((8, version), "table 8")
    states.let_go([7, 99])
    assert sorted(states.items) == [(8, 1), (8, 2), (8, 3)]
    assert list(states.versions) == [8]


def test_letting_go_of_an_owner_drops_its_drawings_in_every_language_and_nothing_else():
    drawings = Cache(100, slot=fragment_slot, keep=2)
    for language in ("en", "nl"):
        drawings.put((language, ("card", 7, 1, ("Ann",))), "table 7")
        drawings.put((language, ("panel", 7, 1, ("Ann",), 0, False)), "table 7, seat 0")
        drawings.put((language, ("card", 8, 1, ("Bo",))), "table 8")
        drawings.put((language, ("side", "NIGHT", 3, (1, 1))), "the standings")
        drawings.put((language, ("log-line", 7, "Ann", 3)), "a log line")
    drawings.let_go_owned({7})
    assert sorted(key[1][:2] for key in drawings.items) == sorted(
        [("card", 8), ("side", "NIGHT"), ("log-line", 7)] * 2
    )


def test_a_nights_versions_share_what_did_not_change_and_not_what_did(django_user_model):
    """Sockets hold the versions they last drew: two versions of a night share the players,
    the past rounds and their tallies when those did not change, and never share a player
    who was renamed or a past round that was corrected."""
    from apps.parties.selectors import night_at
    from tests.parties.test_night_for_the_room import end_round

    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Long night")
    for i in range(8):
        services.join_party(party.code, new_name=f"Player {i:02d}")
    services.start_next_round(party.code)
    end_round(party)
    services.start_next_round(party.code)
    party.refresh_from_db()
    first = night_at(party)
    # A night-wide change, while the heartbeat stamps when each phone was last seen.
    Player.objects.filter(party=party).update(seen_at=timezone.now())
    Party.objects.filter(pk=party.pk).update(version=party.version + 1)
    party.refresh_from_db()
    second = night_at(party)
    assert second is not first
    assert second.players is first.players
    assert all(p.seen_at is not None for p in second.players.values())  # the newest stamps
    assert second.past_rounds is first.past_rounds and second.past is first.past

    renamed = next(iter(first.players))
    Player.objects.filter(pk=renamed).update(name="Renamed")
    Party.objects.filter(pk=party.pk).update(version=party.version + 1)
    party.refresh_from_db()
    third = night_at(party)
    assert third.players[renamed].name == "Renamed"
    assert first.players[renamed].name != "Renamed"  # the older version is as it was
    others = [pid for pid in third.players if pid != renamed]
    assert all(third.players[pid] is first.players[pid] for pid in others)
    assert third.past[renamed].player.name == "Renamed"
