"""The season's standings: per member over the nights played, recounted from the nights'
tables, so a host's correction shows at once; and their pictures."""

from __future__ import annotations

import pytest

from apps.circles import charts, services
from apps.circles.models import Month, NightSeat
from apps.circles.standings import standings
from apps.core.errors import Refused
from apps.parties import services as parties
from apps.parties.models import Table
from apps.parties.rules.table import TableState
from apps.parties.selectors import tallies
from apps.prizes.models import Award

from .conftest import first_month, host, tonight
from .nights import play_night

pytestmark = pytest.mark.django_db

EIGHT = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def played(admin, circle, members):
    """The first month's night, played: 2 rounds, Bea rolls a Bunko, Cal a wipeout."""
    circle.dice_mode = "physical"
    circle.save()
    month = tonight(first_month(circle))
    host(month, members["Ann"])
    for name in EIGHT[1:]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    party = services.start_night(month.pk, admin)
    play_night(party, rounds=2, bunkos=["Bea"], wipeouts=["Cal"])
    month.refresh_from_db()
    return month


def test_each_member_has_the_nights_results_of_their_own_player(played, members):
    table = standings(played.season)
    party = played.party
    sheet = {t.player.name: t for t in tallies(party)}
    for line in table.lines:
        assert line.nights == 1
        tally = sheet[line.member.name]
        assert (line.wins, line.losses, line.bunkos, line.wipeouts) == (
            tally.wins,
            tally.losses,
            tally.bunkos,
            tally.wipeouts,
        )
    assert sum(line.wins for line in table.lines) == 8  # 2 rounds x 4 winners
    assert table.line_of(members["Bea"]).bunkos >= 1
    assert table.line_of(members["Cal"]).wipeouts >= 1
    assert [line.wins for line in table.lines] == sorted(
        (line.wins for line in table.lines), reverse=True
    )


def test_a_renamed_player_still_counts_for_their_member(played, members):
    seat = NightSeat.objects.get(month=played, member=members["Dot"])
    parties.rename_player(played.party.code, seat.player_id, "Dotty")
    assert standings(played.season).line_of(members["Dot"]).nights == 1


def test_the_standings_follow_a_hosts_correction_of_a_nights_entry(played, members):
    """The host turns Cal's wipeout into a miss: the season has one wipeout less for Cal at
    once (the night's tables are recounted on every read)."""
    party = played.party
    before = standings(played.season).line_of(members["Cal"])
    seat = NightSeat.objects.get(month=played, member=members["Cal"])
    wipeouts = [
        (table, index)
        for table in Table.objects.filter(party=party).order_by("round", "number")
        for index, entry in enumerate(TableState.from_json(table.state).entries)
        if entry["action"].get("kind") == "wipeout" and table.seats[entry["seat"]] == seat.player_id
    ]
    assert wipeouts, "Cal rolled no wipeout"
    for table, index in wipeouts:
        try:
            parties.correct_entry(
                party.code, table.pk, index, {"type": "report", "kind": "miss"}, "It was a miss"
            )
        except Refused:
            continue  # a correction that does not fit the entries after it changes nothing
        break
    else:
        pytest.fail("no wipeout of Cal's could be corrected")
    after = standings(played.season).line_of(members["Cal"])
    assert after.wipeouts == before.wipeouts - 1
    # Whatever else the replay changed (a table tied again plays on), the season says what
    # the night's score sheet says now.
    sheet = {t.player.pk: t for t in tallies(party)}[seat.player_id]
    assert (after.wins, after.losses, after.wipeouts) == (sheet.wins, sheet.losses, sheet.wipeouts)


def test_prizes_given_at_the_night_count_for_the_member(played, members):
    seat = NightSeat.objects.get(month=played, member=members["Eve"])
    Award.objects.create(
        party=played.party, position=0, kind="consolation", name="Consolation", player=seat.player
    )
    line = standings(played.season).line_of(members["Eve"])
    assert line.prizes == 1 and line.history[0].prizes == ["Consolation"]


def test_a_player_the_host_added_by_a_members_name_counts_for_that_member(admin, circle, members):
    circle.dice_mode = "physical"
    circle.save()
    month = tonight(first_month(circle))
    host(month, members["Ann"])
    for name in EIGHT[1:7]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    services.set_fill(month.pk, "sitouts")
    party = services.start_night(month.pk, admin)  # 7, and Hal added at the party by hand
    parties.add_player(party.code, "hal")
    play_night(party, rounds=1)
    assert standings(month.season).line_of(members["Hal"]).nights == 1


def test_members_who_have_not_played_are_listed_after_those_who_have(played, circle):
    from .conftest import add_people

    add_people(circle, ["Ivy"])
    table = standings(Month.objects.get(pk=played.pk).season)
    assert table.lines[-1].member.name == "Ivy" and table.lines[-1].nights == 0


def test_the_charts_are_svg_with_a_title_and_every_members_name_escaped(played, members):
    services.update_member(members["Fay"].pk, name="Fay <b>&</b>")
    table = standings(played.season)
    wins = charts.wins_per_night(table)
    bunkos = charts.bunkos_over_season(table, me=members["Bea"].pk)
    history = charts.member_nights(table.line_of(members["Bea"]), table.nights)
    for svg in (wins, bunkos, history):
        assert svg.startswith("<svg") and "<title" in svg and "<desc" in svg
        assert "<b>" not in svg
    assert "Fay &lt;b&gt;" in wins
    assert 'class="chart-line c' in bunkos and " me" in bunkos


def test_no_chart_before_the_first_night(circle, members):
    table = standings(circle.seasons.get())
    assert charts.wins_per_night(table) == "" and charts.bunkos_over_season(table) == ""
