"""A party night through its services: players, rounds, taps at the tables, STOP, rotation."""

from __future__ import annotations

import pytest

from apps.core.errors import Refused
from apps.core.tokens import read_seat_token
from apps.parties import services
from apps.parties.models import Event, Party, Table
from apps.parties.selectors import tallies
from tests.parties import tables_of

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


def new_night(host, names=NAMES, **options) -> tuple[Party, dict]:
    party = services.create_party(host, name="Friday", **options)
    claims = {}
    for name in names:
        player, token = services.join_party(party.code, new_name=name)
        claims[name] = read_seat_token(token, party.scope)
    return party, claims


def seat_claim(party, claims, table_number, seat):
    party.refresh_from_db()
    table = party.tables.get(round=party.current_round, number=table_number)
    name = party.players.get(pk=table.seats[seat]).name
    return claims[name]


def play_table_to_done(party, claims, number, ids):
    """Roll at a virtual-dice table until it is done (STOP must already be called)."""
    for _ in range(2000):
        table = Table.objects.get(party=party, round=party.current_round, number=number)
        state = table.state
        if state["phase"] == "done":
            return
        if state["phase"] == "rolloff":
            action = {"type": "rolloff"}
            claim = seat_claim(party, claims, number, 0)
        elif state["phase"] == "scramble":
            action = {"type": "grab"}
            claim = seat_claim(party, claims, number, 0)
        else:
            action = {"type": "roll"}
            claim = seat_claim(party, claims, number, state["roller"])
        services.table_action(party.code, claim, next(ids), action)
    raise AssertionError("the table never finished")


def ids_from(prefix):
    count = 0
    while True:
        count += 1
        yield f"{prefix}-{count:06d}"


def test_a_night_starts_with_every_player_seated_four_to_a_table(host):
    party, _ = new_night(host)
    services.start_next_round(party.code)
    tables = tables_of(Party.objects.get(pk=party.pk))
    assert len(tables) == 2
    seated = sorted(p.name for t in tables for p in t.players)
    assert seated == sorted(NAMES)
    assert tables[0].head


def test_the_head_table_reaching_21_stops_every_table_and_the_round_rotates(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    party.refresh_from_db()
    ids = ids_from("t")
    play_table_to_done(party, claims, 1, ids)
    party.refresh_from_db()
    bottom = Table.objects.get(party=party, round=1, number=2)
    assert bottom.state["stopped"]  # STOP reached the other table at once
    play_table_to_done(party, claims, 2, ids)
    head = tables_of(party)[0]
    assert max(head.state.scores) >= 21
    services.start_next_round(party.code)
    party.refresh_from_db()
    new_head = tables_of(party)[0]
    winners = {head.players[s].name for s in head.result["winners"]}
    assert winners <= {p.name for p in new_head.players}
    sheet = {t.player.name: t for t in tallies(party)}
    assert sum(t.wins for t in sheet.values()) == 4
    assert sum(t.losses for t in sheet.values()) == 4


def test_a_retried_action_id_is_applied_once(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    claim = seat_claim(party, claims, 1, 0)
    assert services.table_action(party.code, claim, "same-id-01", {"type": "rolloff"})
    version = Party.objects.get(pk=party.pk).version
    assert not services.table_action(party.code, claim, "same-id-01", {"type": "rolloff"})
    assert Party.objects.get(pk=party.pk).version == version


def test_a_tap_out_of_turn_is_refused_and_changes_nothing(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    services.table_action(party.code, seat_claim(party, claims, 1, 0), "r-01", {"type": "rolloff"})
    table = Table.objects.get(party=party, number=1)
    roller = table.state["roller"]
    other = (roller + 1) % 4
    before = (table.state, Party.objects.get(pk=party.pk).version)
    with pytest.raises(Refused, match="turn to roll"):
        services.table_action(
            party.code, seat_claim(party, claims, 1, other), "r-02", {"type": "roll"}
        )
    table.refresh_from_db()
    assert (table.state, Party.objects.get(pk=party.pk).version) == before


def test_a_tap_for_another_table_is_refused(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    with pytest.raises(Refused, match="you are at table 1"):
        services.table_action(
            party.code, seat_claim(party, claims, 1, 0), "x-01", {"type": "rolloff", "table": 2}
        )


def test_a_stale_seat_token_is_refused_after_the_host_frees_the_name(host):
    party, claims = new_night(host)
    ann = party.players.get(name="Ann")
    services.free_player(party.code, ann.id)
    with pytest.raises(Refused, match="no longer valid"):
        services.table_action(party.code, claims["Ann"], "s-01", {"type": "rolloff"})


def test_nothing_can_be_rolled_while_the_night_is_paused(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    services.pause_night(party.code)
    with pytest.raises(Refused, match="paused"):
        services.table_action(
            party.code, seat_claim(party, claims, 1, 0), "p-01", {"type": "rolloff"}
        )


def test_every_change_is_logged_with_the_next_version_of_the_night_or_of_its_table(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    ids = ids_from("v")
    services.table_action(
        party.code, seat_claim(party, claims, 2, 0), next(ids), {"type": "rolloff"}
    )
    night = list(Event.objects.filter(party=party, table=None).values_list("version", flat=True))
    assert night == list(range(1, len(night) + 1))
    table = Table.objects.get(party=party, round=1, number=2)
    assert list(table.event_set.values_list("version", flat=True)) == [1] == [table.version]


def test_physical_dice_taps_score_for_the_roller_and_undo_takes_the_last_entry_back(host):
    party, claims = new_night(host, dice_mode="physical")
    services.start_next_round(party.code)
    services.table_action(party.code, seat_claim(party, claims, 1, 0), "ph-01", {"type": "rolloff"})
    table = Table.objects.get(party=party, number=1)
    roller = table.state["roller"]
    partner_claim = seat_claim(party, claims, 1, (roller + 2) % 4)
    services.table_action(
        party.code, partner_claim, "ph-02", {"type": "report", "kind": "sixes", "count": 2}
    )
    table.refresh_from_db()
    assert table.state["scores"][roller % 2] == 2
    services.table_action(party.code, partner_claim, "ph-03", {"type": "undo"})
    table.refresh_from_db()
    assert table.state["scores"] == [0, 0]
    assert table.state["roller"] == roller


def test_the_host_corrects_an_entry_with_a_reason_kept_in_the_log(host):
    party, claims = new_night(host, dice_mode="physical")
    services.start_next_round(party.code)
    services.table_action(party.code, seat_claim(party, claims, 1, 0), "c-01", {"type": "rolloff"})
    table = Table.objects.get(party=party, number=1)
    roller = table.state["roller"]
    services.table_action(
        party.code,
        seat_claim(party, claims, 1, roller),
        "c-02",
        {"type": "report", "kind": "sixes", "count": 1},
    )
    table.refresh_from_db()
    last = len(table.state["entries"]) - 1  # after the roll-off (maybe several rounds)
    services.correct_entry(
        party.code, table.id, last, {"type": "report", "kind": "sixes", "count": 2}, "It was two"
    )
    table.refresh_from_db()
    assert table.state["scores"][roller % 2] == 2
    event = Event.objects.filter(party=party, kind="corrected", table=table).get()
    assert event.data["reason"] == "It was two"


def finish_round(party, claims):
    ids = ids_from(f"fin{party.current_round}")
    party.refresh_from_db()
    play_table_to_done(party, claims, 1, ids)
    for number in range(2, party.tables.filter(round=party.current_round).count() + 1):
        play_table_to_done(party, claims, number, ids)


def test_the_stayers_swap_partners_before_the_first_roll(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    finish_round(party, claims)
    services.start_next_round(party.code)
    party.refresh_from_db()
    bottom = Table.objects.get(party=party, round=2, number=2)
    stayer, other_stayer, arriver_a, arriver_b = bottom.seats
    name = party.players.get(pk=stayer).name
    services.table_action(party.code, claims[name], "swap-0001", {"type": "swap"})
    bottom.refresh_from_db()
    assert bottom.seats == [stayer, other_stayer, arriver_b, arriver_a]
    assert bottom.state["players"][2] == party.players.get(pk=arriver_b).name


def test_an_arriver_cannot_choose_the_partners(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    finish_round(party, claims)
    services.start_next_round(party.code)
    bottom = Table.objects.get(party=party, round=2, number=2)
    arriver = party.players.get(pk=bottom.seats[2]).name
    with pytest.raises(Refused, match="who stayed at this table choose"):
        services.table_action(party.code, claims[arriver], "swap-0002", {"type": "swap"})


def test_a_late_arrival_plays_from_the_next_round_and_a_leaver_is_replaced(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    late, token = services.join_party(party.code, new_name="Ivy")
    services.remove_player(party.code, party.players.get(name="Ann").id)
    finish_round(party, claims)
    services.start_next_round(party.code)
    party.refresh_from_db()
    seated = {party.players.get(pk=pid).name for t in tables_of(party) for pid in t.table.seats}
    assert "Ivy" in seated and "Ann" not in seated
    assert len(seated) == 8


def test_a_night_of_fixed_rounds_refuses_a_round_too_many(host):
    party, claims = new_night(host, rounds=1)
    services.start_next_round(party.code)
    finish_round(party, claims)
    with pytest.raises(Refused, match="All 1 rounds are played"):
        services.start_next_round(party.code)
    result = services.end_night(party.code)
    assert result["winner"] in NAMES and result["loser"] in NAMES


def test_the_next_round_waits_until_every_table_has_a_winner(host):
    party, claims = new_night(host)
    services.start_next_round(party.code)
    with pytest.raises(Refused, match="still playing"):
        services.start_next_round(party.code)


def test_undoing_a_bunko_gives_the_travelling_bunko_back_to_its_holder_before(host):
    party, claims = new_night(host, dice_mode="physical")
    services.start_next_round(party.code)
    services.table_action(party.code, seat_claim(party, claims, 1, 0), "tb-01", {"type": "rolloff"})
    table = Table.objects.get(party=party, round=1, number=1)
    roller_claim = seat_claim(party, claims, 1, table.state["roller"])
    services.table_action(party.code, roller_claim, "tb-02", {"type": "report", "kind": "bunko"})
    party.refresh_from_db()
    assert party.travelling_bunko_id == roller_claim.seat_id
    services.table_action(party.code, roller_claim, "tb-03", {"type": "undo"})
    party.refresh_from_db()
    assert party.travelling_bunko_id is None
    table.refresh_from_db()
    assert table.state["scores"] == [0, 0]
