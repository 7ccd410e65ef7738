"""The rounds before the one in play: read once a round, and again only after a correction."""

from __future__ import annotations

import random

import pytest

from apps.parties import selectors, services
from apps.parties.models import Party, Table
from apps.parties.render import Phone, phone_standings
from tests.parties.test_night_services import finish_round, new_night, seat_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


def end_every_table(party: Party) -> None:
    """The host ends each table still playing, the team ahead winning (team 0 on a tie)."""
    for table in Table.objects.filter(party=party, round=party.current_round):
        if table.state["phase"] != "done":
            scores = table.state["scores"]
            winner = 1 if scores[1] > scores[0] else 0
            services.host_move(party.code, table.pk, {"type": "end", "winner": winner})


def next_version(party: Party) -> Party:
    """The night at its next version, as any night-wide change makes it."""
    Party.objects.filter(pk=party.pk).update(version=party.version + 1)
    party.refresh_from_db()
    return party


def in_round_four(host) -> tuple[Party, dict]:
    """A night of two tables with three rounds played and the fourth begun."""
    party, claims = new_night(host)
    for _round in (1, 2, 3):
        services.start_next_round(party.code)
        finish_round(party, claims)
    services.start_next_round(party.code)
    party.refresh_from_db()
    return party, claims


def rows_read(monkeypatch) -> list[list]:
    """Every list of tables the night's reads take from the database from now on."""
    read = []
    real_rows_of = selectors.tables.rows_of

    def counted(tables, **kwargs):
        read.append(real_rows_of(tables, **kwargs))
        return read[-1]

    for module in (selectors.tables, selectors.past, selectors.night):
        monkeypatch.setattr(module, "rows_of", counted)
    return read


def test_a_change_of_the_night_late_in_the_evening_reads_only_the_round_in_play(host, monkeypatch):
    party, claims = in_round_four(host)
    first = selectors.night_at(party)
    assert len(first.past_rounds.rows) == 6

    read = rows_read(monkeypatch)
    second = selectors.night_at(next_version(party))
    assert second.past_rounds is first.past_rounds
    assert second.past is first.past  # the past rounds' tallies too
    assert [len(rows) for rows in read] == [2]  # the two tables of round 4, and nothing else
    assert {row.round for row in read[0]} == {4}


def test_a_correction_of_a_past_round_reaches_the_prizes_the_tallies_and_the_score_sheet(
    host,
):
    party, claims = new_night(host, dice_mode="physical")
    services.start_next_round(party.code)
    services.table_action(party.code, seat_claim(party, claims, 1, 0), "r-01", {"type": "rolloff"})
    table = Table.objects.get(party=party, round=1, number=1)
    roller = table.state["roller"]
    services.table_action(
        party.code,
        seat_claim(party, claims, 1, roller),
        "r-02",
        {"type": "report", "kind": "bunko"},
    )
    end_every_table(party)
    services.start_next_round(party.code)
    party.refresh_from_db()
    bunko_roller = table.seats[roller]
    assert party.travelling_bunko_id == bunko_roller
    before = selectors.night_at(party)
    assert before.holders["bunko"] == [bunko_roller]
    assert before.past[bunko_roller].bunkos == 1

    table.refresh_from_db()
    bunko = next(
        i for i, e in enumerate(table.state["entries"]) if e["action"].get("kind") == "bunko"
    )
    services.correct_entry(
        party.code, table.pk, bunko, {"type": "report", "kind": "miss"}, "No Bunko after all"
    )
    party.refresh_from_db()
    after = selectors.night_at(party)
    assert party.travelling_bunko_id is None
    assert after.past_rounds is not before.past_rounds
    assert after.holders["bunko"] == []
    assert after.past[bunko_roller].bunkos == 0
    sheet = phone_standings(Phone(after, after.players[bunko_roller], None))
    assert "Bunko" in sheet and ">1<" not in sheet.split("Bunko", 1)[1][:200]


def test_the_latest_roll_of_this_round_holds_the_prize_before_any_of_the_past_rounds(host):
    party, claims = new_night(host, dice_mode="physical")
    holders = []
    for number in (1, 2):
        services.start_next_round(party.code)
        party.refresh_from_db()
        claim = seat_claim(party, claims, 2, 0)
        services.table_action(party.code, claim, f"p-{number}-1", {"type": "rolloff"})
        table = Table.objects.get(party=party, round=number, number=2)
        roller = table.state["roller"]
        claim = seat_claim(party, claims, 2, roller)
        report = {"type": "report", "kind": "bunko"}
        services.table_action(party.code, claim, f"p-{number}-2", report)
        holders.insert(0, table.seats[roller])
        if number == 1:
            end_every_table(party)
    party.refresh_from_db()
    night = selectors.night_at(party)
    assert night.holders["bunko"] == holders
    assert party.travelling_bunko_id == holders[0]


def test_a_score_sheets_past_rows_are_drawn_once_a_round_and_again_after_a_rename(
    host, monkeypatch
):
    from apps.parties import render

    party, claims = new_night(host)
    for _round in (1, 2):
        services.start_next_round(party.code)
        finish_round(party, claims)
    services.start_next_round(party.code)
    party.refresh_from_db()
    night = selectors.night_at(party)
    player = night.players[Table.objects.get(party=party, round=1, number=1).seats[0]]
    drawn = []
    real = render.render_part
    monkeypatch.setattr(render, "render_part", lambda t, p, c: drawn.append(p) or real(t, p, c))

    first = phone_standings(Phone(night, player, None))
    again = phone_standings(Phone(night, player, None))
    assert drawn == ["sheet_lines"] + ["standings"] * 2  # the past rounds drawn once
    assert first == again and first.count("<tr") == 1 + 3  # the head row and three rounds

    partner = Table.objects.get(party=party, round=1, number=1).seats[2]
    services.rename_player(party.code, partner, "Renamed")
    party.refresh_from_db()
    renamed = phone_standings(Phone(selectors.night_at(party), player, None))
    assert "Renamed" in renamed


def test_a_new_round_draws_only_the_score_sheet_row_of_the_round_just_played(host, monkeypatch):
    from apps.parties import render

    party, claims = new_night(host)
    for _round in (1, 2, 3):
        services.start_next_round(party.code)
        finish_round(party, claims)
    party.refresh_from_db()
    player_id = Table.objects.get(party=party, round=1, number=1).seats[0]
    rows_drawn = []  # the past rows each drawing of them held
    real = render.render_part

    def draw(template, part, context):
        if part == "sheet_lines":
            rows_drawn.append(len(context["sheet_rows"]))
        return real(template, part, context)

    monkeypatch.setattr(render, "render_part", draw)

    def sheet() -> str:
        party.refresh_from_db()
        night = selectors.night_at(party)
        return phone_standings(Phone(night, night.players[player_id], None))

    sheet()  # round 3: rounds 1 and 2 drawn
    services.start_next_round(party.code)
    rows_drawn.clear()
    whole = sheet()  # round 4: only round 3's row is new
    assert sum(rows_drawn) == 1
    assert whole.count("<tr") == 1 + 4

    table = Table.objects.get(party=party, round=1, number=1)
    entries = table.state["entries"]
    index = next(i for i, e in enumerate(entries) if e["action"]["type"] in ("roll", "report"))
    services.correct_entry(
        party.code, table.pk, index, dict(entries[index]["action"]), "The same again"
    )
    rows_drawn.clear()
    corrected = sheet()  # a correction may change any past row: all three drawn again
    assert sum(rows_drawn) == 3
    assert corrected.count("<tr") == whole.count("<tr")


def test_a_new_round_reads_only_the_round_just_played_and_keeps_the_rounds_read_before(
    host, monkeypatch
):
    party, claims = in_round_four(host)
    before = selectors.night_at(party).past_rounds
    finish_round(party, claims)
    services.start_next_round(party.code)
    party.refresh_from_db()

    read = rows_read(monkeypatch)
    after = selectors.night_at(party).past_rounds
    # Round 4's two tables are read; rounds 1 to 3 are the very objects read before.
    assert {row.round for row in read[0]} == {4} and len(read[0]) == 2
    assert all(a is b for a, b in zip(after.rows[:6], before.rows, strict=True))
    # And the rounds kept and added up are what a whole read of the night finds.
    whole = selectors.past_of(party, fresh=True)
    assert after.rows == whole.rows
    assert after.summaries == whole.summaries
    assert after.by_player == whole.by_player
    assert after.prizes == whole.prizes


def test_what_a_night_keeps_of_each_past_round_holds_no_blanks_and_no_repeated_tallies(host):
    from apps.parties import render
    from apps.parties.caches import SHEET_PAST

    party, _claims = in_round_four(host)
    night = selectors.night_at(party)
    player = night.players[Table.objects.get(party=party, round=1, number=1).seats[0]]
    phone_standings(Phone(night, player, None))
    [kept] = [v for v in SHEET_PAST.items.values() if isinstance(v, render.SheetPast)]
    assert kept.html.count("<tr") == 3 and kept.html.startswith("<tr")
    assert len(kept.packed) < len(kept.html.encode())  # kept compressed
    assert "> " not in kept.html and "\n" not in kept.html
    # Every past table's tallies of Bunkos and wipeouts: one tuple for each distinct tally.
    tallies = [t for s in night.past_rounds.summaries for t in (s.bunkos, s.wipeouts)]
    assert len({id(t) for t in tallies}) == len(set(tallies))


def test_what_a_night_keeps_of_a_past_round_is_a_few_bytes_a_player(host):
    """A night's past rounds are kept all night in every server process: each player's
    tables are indexes (not pairs), a past table's row has no clock, the past tallies keep
    their totals without a mark a round, and the score sheet's rows are kept compressed.
    What the screens show of them is unchanged."""
    from array import array

    from apps.parties import render

    party, _claims = in_round_four(host)
    night = selectors.night_at(party)
    past = night.past_rounds
    assert all(type(kept) is array for kept in past.by_player.values())
    assert all(row.changed is None for row in past.rows)
    assert all(tally.rounds is None for tally in night.past.values())

    player = night.players[past.rows[0].seats[0]]
    played = past.played(player.id)
    assert [row.round for row, _summary in played] == [1, 2, 3]
    assert all(row.seats.count(player.id) == 1 for row, _summary in played)
    # The score sheet shows every past round, and the printed sheet still marks each one.
    html = phone_standings(Phone(night, player, night.table_of(player.id)))
    assert html.count('<th scope="row">') == 4
    marks = next(t for t in selectors.tallies(party) if t.player.id == player.id).rounds
    assert [marks[n] for n in (1, 2, 3)] == [
        "W" if s.winners and r.seats.index(player.id) in s.winners else "L" for r, s in played
    ]
    # The console's clock of a table in play is still read.
    assert all(row.changed is not None for row in night.tables)
    assert render.current_rows(night)


def test_the_past_tables_share_one_id_object_a_player_among_their_seats():
    from apps.parties.rules.summary import TableSummary
    from apps.parties.selectors import NO_PAST, TableRow

    def row(pk: int, number: int, seats: list[str]) -> TableRow:
        # Each read from the database makes int objects of its own (ids past 256 are not
        # shared by Python).
        return TableRow(pk, number, 1, 1, tuple(int(s) for s in seats))

    summary = TableSummary("done", False, (0,) * 4, (0,) * 4, (0, 2), ())
    one = NO_PAST.then([row(1, 1, ["1001", "1002", "1003", "1004"])], [summary], frozenset())
    two = one.then([row(2, 2, ["1004", "1003", "1002", "1001"])], [summary], frozenset())
    seated = [pid for r in two.rows for pid in r.seats]
    assert len({id(pid) for pid in seated}) == 4
    assert two.rows[0] is one.rows[0]
    assert [r.seats for r in two.rows] == [(1001, 1002, 1003, 1004), (1004, 1003, 1002, 1001)]


def test_a_server_reading_a_long_night_afresh_decodes_a_few_past_tables_at_a_time(
    host, monkeypatch
):
    """A server started late in a night (or a host's correction) reads every past table's
    game to sum it up: read in one query, all of them were decoded and held at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    party, _claims = in_round_four(host)
    whole = selectors.past_of(party, fresh=True)
    selectors.PAST.clear()
    selectors.SUMMARIES.clear()
    monkeypatch.setattr(selectors.tables, "STATES_PER_READ", 4)
    with CaptureQueriesContext(connection) as queries:
        past = selectors.past_of(party)
    reads = [q["sql"] for q in queries if '"state"' in q["sql"].split(" FROM ")[0]]
    assert len(reads) == 2  # the six past tables, four and then two
    assert past.rows == whole.rows and past.summaries == whole.summaries


def test_a_tap_and_its_drawings_read_no_more_late_in_a_long_night_than_in_its_second_round(
    host, monkeypatch
):
    """What a tap costs must not grow with the rounds a night has played: the same queries
    for the tap and for drawing it on its four phones (score sheets included), the big
    screen (standings included) and the console (log included), in round 2 and in round 13."""
    from dataclasses import replace

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.core import live
    from apps.core.changes import Change
    from apps.parties import fanout, render
    from apps.parties.rules.state import TableState
    from tests.bench.late_night import age_night, phone_move, play_round

    sent: list[dict] = []
    monkeypatch.setattr(live, "send_after_commit", lambda groups, message: sent.append(message))
    party, claims = new_night(host, rounds=None)
    rng = random.Random(3)

    def tap_and_draw() -> tuple[int, str]:
        party.refresh_from_db()
        table = Table.objects.get(party=party, round=party.current_round, number=1)
        names = {p.pk: p.name for p in party.players.all()}
        seat_claims = [claims[names[pid]] for pid in table.seats]
        phones = [render.render_phone(party.code, claim)[1] for claim in seat_claims]
        night = render.night_at(party)

        def tap(action_id: str) -> Change:
            table.refresh_from_db()
            seat, action = phone_move(TableState.from_json(table.state), rng)
            sent.clear()
            services.table_action(party.code, seat_claims[seat], action_id, action, table.pk)
            [change] = [c for c in map(live.read_change, sent) if c and c.kind == "table"]
            return replace(change, payload={**change.payload, "tallies": True})

        def draw(change: Change) -> str:
            html = "".join(fanout.phone_table(phone, change) for phone in phones)
            for view in ("screen", "host"):
                heard: dict[int, int] = {}
                html += fanout.screen_tables(
                    view,
                    night,
                    [change],
                    lambda heard=heard: fanout.rows_heard(night, heard),
                    heard,
                    tallies=True,
                    with_log=view == "host",
                )
            return html

        draw(tap(f"warm-{party.current_round}"))  # the round's first drawings are made
        with CaptureQueriesContext(connection) as queries:
            html = draw(tap(f"measured-{party.current_round}"))
        return len(queries), html

    age_night(party.code, 1)
    services.start_next_round(party.code)
    early, early_html = tap_and_draw()
    play_round(party.code, 0, rng)
    age_night(party.code, 10)
    services.start_next_round(party.code)
    late, late_html = tap_and_draw()

    assert party.current_round == 13
    assert late_html.count('<th scope="row">') > early_html.count('<th scope="row">')
    assert late == early
