"""A month's night: RSVPs, the substitutes asked in order, the fallback to ghosts or
sit-outs, starting the night with the RSVPs as its players, and members arriving."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.circles import services
from apps.circles.models import Circle, Month, NightSeat, Rsvp, SubstituteAsk
from apps.circles.selectors import attendance
from apps.circles.tokens import make_ask_token
from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.tokens import read_seat_token
from apps.parties.models import Party, Player
from apps.prizes.selectors import categories_of

from .conftest import first_month, host, tonight

pytestmark = pytest.mark.django_db


def coming(month, members, names):
    for name in names:
        services.set_rsvp(month.pk, members[name].pk, "yes")


def token(ask: SubstituteAsk) -> str:
    return make_ask_token(ask.pk, ask.nonce)


def asks(month) -> list[tuple[str, str]]:
    return [(a.member.name, a.status) for a in month.asks.select_related("member")]


@pytest.fixture
def month(circle, members):
    month = first_month(circle)
    host(month, members["Ann"])
    return month


def test_a_members_rsvp_is_coming_not_coming_or_maybe_and_can_change(month, members):
    services.set_rsvp(month.pk, members["Bea"].pk, "maybe")
    services.set_rsvp(month.pk, members["Cal"].pk, "no")
    services.set_rsvp(month.pk, members["Bea"].pk, "yes")
    seen = attendance(month)
    assert [m.name for m in seen.coming] == ["Ann", "Bea"]  # the host counts as coming
    assert [m.name for m in seen.not_coming] == ["Cal"]
    assert "Dot" in [m.name for m in seen.no_answer]


def test_the_host_sees_how_many_seats_are_short_of_a_multiple_of_four(month, members):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve"])  # with Ann: 5
    seen = attendance(month)
    assert (seen.count, seen.short, seen.tables) == (5, 3, 2)
    coming(month, members, ["Fay", "Gus", "Hal"])
    assert (attendance(month).short, attendance(month).tables) == (0, 2)


def test_a_substitute_does_not_rsvp(month, subs):
    with pytest.raises(Refused, match="Substitutes are asked"):
        services.set_rsvp(month.pk, subs["Sue"].pk, "yes")


def test_an_rsvp_after_the_night_started_is_refused_and_changes_nothing(
    admin, circle, month, members
):
    tonight(month)
    coming(month, members, ["Bea", "Cal", "Dot"])
    services.start_night(month.pk, admin)
    with pytest.raises(Refused, match="already started"):
        services.set_rsvp(month.pk, members["Eve"].pk, "yes")
    assert not Rsvp.objects.filter(member=members["Eve"]).exists()


def test_asking_the_substitutes_asks_the_first_ones_on_the_list_by_mail(
    month, members, subs, django_capture_on_commit_callbacks, mailoutbox
):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay"])  # 6: two short
    with django_capture_on_commit_callbacks(execute=True):
        made = services.ask_substitutes(month.pk)
    assert [a.member.name for a in made] == ["Sue", "Tia"]
    assert sorted(m.to[0] for m in mailoutbox) == ["sue@example.com", "tia@example.com"]
    assert "/c/sub/" in mailoutbox[0].body
    # Two seats short, and said so; the sentence ends after the place, not inside it.
    assert "is 2 seats short of full tables of four" in mailoutbox[0].body
    assert ".)" not in mailoutbox[0].body
    with pytest.raises(Refused, match="asked already"):
        services.ask_substitutes(month.pk)


def test_a_substitute_asked_for_one_seat_reads_one_seat_in_each_language(
    month, members, subs, django_capture_on_commit_callbacks, mailoutbox
):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])  # 7: one short
    subs["Sue"].language = "nl"
    subs["Sue"].save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        services.ask_substitutes(month.pk)
    (sue,) = mailoutbox
    assert "één speler tekort voor een tafel van vier" in sue.body


def test_a_decline_asks_the_next_substitute_and_an_accept_fills_the_seat(month, members, subs):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])  # 7: one short
    (sue,) = services.ask_substitutes(month.pk)
    services.answer_ask(token(sue), accept=False)
    assert asks(month) == [("Sue", "declined"), ("Tia", "asked")]
    tia = month.asks.get(member=subs["Tia"])
    services.answer_ask(token(tia), accept=True)
    seen = attendance(month)
    assert (seen.count, seen.short) == (8, 0)
    assert "Tia" in [m.name for m in seen.coming]


def test_a_substitute_who_does_not_answer_in_time_is_passed_over_for_the_next(
    circle, month, members, subs
):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])
    (sue,) = services.ask_substitutes(month.pk)
    assert sue.due_at - sue.asked_at == timedelta(hours=circle.answer_hours)
    assert scheduler.run_due(now=sue.due_at - timedelta(seconds=1)) == 0
    assert scheduler.run_due(now=sue.due_at + timedelta(seconds=1)) == 1
    assert asks(month) == [("Sue", "expired"), ("Tia", "asked")]
    with pytest.raises(Refused, match="time to answer ran out"):
        services.answer_ask(token(sue), accept=True)


def test_when_the_tables_fill_up_the_open_requests_are_withdrawn(month, members, subs):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay"])  # 6: two short
    services.ask_substitutes(month.pk)
    coming(month, members, ["Gus", "Hal"])  # 8: full
    assert asks(month) == [("Sue", "withdrawn"), ("Tia", "withdrawn")]
    with pytest.raises(Refused, match="tables are full"):
        services.answer_ask(token(month.asks.get(member=subs["Sue"])), accept=True)


def test_a_substitute_whose_request_is_withdrawn_gets_a_mail_saying_the_seat_is_filled(
    month, members, subs, django_capture_on_commit_callbacks, mailoutbox
):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay"])  # 6: two short
    with django_capture_on_commit_callbacks(execute=True):
        services.ask_substitutes(month.pk)
    mailoutbox.clear()
    subs["Tia"].language = "de"
    subs["Tia"].save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        coming(month, members, ["Gus", "Hal"])  # 8: full
    told = {m.to[0]: m for m in mailoutbox if "filled" in m.subject or "besetzt" in m.subject}
    assert set(told) == {"sue@example.com", "tia@example.com"}
    assert "you are not needed this time" in told["sue@example.com"].body
    assert "Hello Sue," in told["sue@example.com"].body
    assert "Hallo Tia," in told["tia@example.com"].body


def test_an_accept_after_the_seat_was_filled_otherwise_is_refused(month, members, subs):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])
    (sue,) = services.ask_substitutes(month.pk)
    # Hal says yes meanwhile, then says no again: Sue's request was withdrawn at the yes.
    services.set_rsvp(month.pk, members["Hal"].pk, "yes")
    with pytest.raises(Refused, match="tables are full"):
        services.answer_ask(token(sue), accept=True)
    assert not Rsvp.objects.filter(member=subs["Sue"]).exists()


def test_when_the_list_runs_out_the_host_is_told_and_can_fall_back_to_ghosts(
    month, members, subs, django_capture_on_commit_callbacks, mailoutbox
):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])
    services.ask_substitutes(month.pk)
    with django_capture_on_commit_callbacks(execute=True):
        for name in ["Sue", "Tia", "Uma"]:
            services.answer_ask(token(month.asks.get(member=subs[name])), accept=False)
    assert mailoutbox[-1].to == ["ann@example.com"]
    assert "no substitute left" in mailoutbox[-1].subject
    with pytest.raises(Refused, match="Every substitute on the list has been asked"):
        services.ask_substitutes(month.pk)
    services.set_fill(month.pk, "ghosts")
    assert Month.objects.get(pk=month.pk).fill == "ghosts"


def test_falling_back_to_sit_outs_withdraws_the_open_requests(month, members, subs):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay"])
    services.ask_substitutes(month.pk)
    services.set_fill(month.pk, "sitouts")
    assert asks(month) == [("Sue", "withdrawn"), ("Tia", "withdrawn")]


def test_a_forged_substitute_link_is_refused(month):
    with pytest.raises(Refused, match="not valid"):
        services.answer_ask("forged", accept=True)
    with pytest.raises(Refused, match="not valid"):
        services.answer_ask(make_ask_token(12345, "nonce"), accept=True)


def test_starting_the_night_makes_the_party_with_the_rsvps_and_the_circles_prizes(
    admin, circle, month, members, subs
):
    circle.prize_categories = [{"kind": "most_wins", "name": "Top dog", "prize": ""}]
    circle.save()
    tonight(month)
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])
    (sue,) = services.ask_substitutes(month.pk)
    services.answer_ask(token(sue), accept=True)
    services.set_rsvp(month.pk, members["Hal"].pk, "maybe")
    party = services.start_night(month.pk, admin)
    assert party.host == admin and party.attendance == "substitutes"
    players = {p.name: p.kind for p in party.players.all()}
    assert players == {
        **{n: "player" for n in ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus"]},
        "Sue": "substitute",
    }
    assert [c.name for c in categories_of(party)] == ["Top dog"]
    assert NightSeat.objects.filter(month=month).count() == 8
    with pytest.raises(Refused, match="already started"):
        services.start_night(month.pk, admin)
    assert Party.objects.count() == 1


def test_the_night_does_not_start_while_seats_are_short_unless_the_host_falls_back(
    admin, month, members
):
    tonight(month)
    coming(month, members, ["Bea", "Cal", "Dot", "Eve"])  # 5
    with pytest.raises(Refused, match="3 seats are still short"):
        services.start_night(month.pk, admin)
    assert not Party.objects.exists()
    services.set_fill(month.pk, "ghosts")
    party = services.start_night(month.pk, admin)
    assert party.attendance == "ghosts" and party.players.count() == 5


def test_the_night_needs_four_players_and_its_day(admin, month, members):
    with pytest.raises(Refused, match="can be started from"):
        services.start_night(month.pk, admin)
    tonight(month)
    coming(month, members, ["Bea"])
    with pytest.raises(Refused, match="needs at least 4 players"):
        services.start_night(month.pk, admin)


def test_a_member_who_arrives_becomes_their_own_player_and_a_second_phone_takes_over(
    admin, month, members
):
    tonight(month)
    coming(month, members, ["Bea", "Cal", "Dot"])
    party = services.start_night(month.pk, admin)
    player, seat_token = services.arrive(month.pk, members["Bea"].pk)
    assert player.name == "Bea" and player.claimed
    assert NightSeat.objects.get(month=month, member=members["Bea"]).player == player
    claim = read_seat_token(seat_token, party.scope)
    assert claim.seat_id == player.pk
    # Her phone's battery died: on her other phone, her member link proves it is Bea, so
    # that phone becomes her seat and the first one no longer plays for her.
    again, second_token = services.arrive(month.pk, members["Bea"].pk)
    assert again.pk == player.pk and again.claimed
    second = read_seat_token(second_token, party.scope)
    assert second.seat_id == player.pk and second.nonce != claim.nonce
    assert Player.objects.get(pk=player.pk).nonce == second.nonce


def test_a_member_who_said_no_but_came_after_all_joins_the_night_as_themselves(
    admin, month, members
):
    tonight(month)
    coming(month, members, ["Bea", "Cal", "Dot"])
    services.set_rsvp(month.pk, members["Eve"].pk, "no")
    party = services.start_night(month.pk, admin)
    player, _ = services.arrive(month.pk, members["Eve"].pk)
    assert player.party == party and player.name == "Eve" and player.kind == Player.Kind.PLAYER
    assert NightSeat.objects.get(month=month, member=members["Eve"]).player == player


def test_arriving_before_the_night_started_is_refused(month, members):
    with pytest.raises(Refused, match="not started yet"):
        services.arrive(month.pk, members["Bea"].pk)


def test_a_substitute_asked_close_to_the_night_gets_at_least_half_an_hour(
    circle, month, members, subs
):
    now = timezone.now()
    Month.objects.filter(pk=month.pk).update(
        date=(now + timedelta(minutes=40)).date(), time=(now + timedelta(minutes=40)).time()
    )
    month.refresh_from_db()
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])
    (sue,) = services.ask_substitutes(month.pk)
    assert timedelta(minutes=29) < sue.due_at - sue.asked_at <= timedelta(minutes=31)


def test_the_host_counts_as_coming_and_gives_no_rsvp_of_their_own(month, members):
    services.set_rsvp(month.pk, members["Bea"].pk, "no")
    host(month, members["Bea"])  # Bea said no before she took the month over
    assert [m.name for m in attendance(month).coming] == ["Bea"]
    with pytest.raises(Refused, match="count as coming"):
        services.set_rsvp(month.pk, members["Bea"].pk, "no")


def test_the_checklist_is_the_hosts_and_substitutes_found_is_read_from_the_answers(
    month, members, subs
):
    from apps.circles.selectors import checklist

    services.set_checklist(month.pk, "place", True)
    month.refresh_from_db()
    items = {i["key"]: i for i in checklist(month, attendance(month))}
    assert items["place"]["done"] and not items["food"]["done"]
    assert not items["substitutes"]["done"] and items["substitutes"]["state"] == "3 seats short."
    services.set_fill(month.pk, "ghosts")
    month.refresh_from_db()
    assert checklist(month, attendance(month))[-1]["done"]
    with pytest.raises(Refused, match="not on the host's checklist"):
        services.set_checklist(month.pk, "music", True)


def test_a_substitute_withdrawn_when_the_tables_filled_is_asked_again_when_a_seat_frees(
    month, members, subs
):
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"])  # 7
    services.ask_substitutes(month.pk)  # Sue
    services.set_rsvp(month.pk, members["Hal"].pk, "yes")  # 8: Sue withdrawn
    services.set_rsvp(month.pk, members["Hal"].pk, "no")  # 7 again
    (again,) = services.ask_substitutes(month.pk)
    assert again.member.name == "Sue"
    assert asks(month) == [("Sue", "withdrawn"), ("Sue", "asked")]


def test_a_circles_own_prize_categories_go_through_a_played_night_to_its_awards(
    client, admin, circle, month, members
):
    """The admin chooses and names the circle's prizes on its settings page; the month's night
    starts with them, is played, and its awards give exactly those, by those names."""
    from apps.parties.models import Player
    from apps.prizes.models import Award
    from apps.prizes.services import ceremonies

    from .nights import play_night

    client.force_login(admin)
    form = {
        "use_most_bunkos": "on",
        "name_most_bunkos": "Bunko queen",
        "use_most_losses": "on",
        "name_most_losses": "Booby prize",
    }
    saved = client.post(f"/c/{circle.code}/settings/prizes/", form)
    assert saved.status_code == 200, saved.content.decode()[:400]
    Circle.objects.filter(pk=circle.pk).update(dice_mode="physical")  # dice tapped in, as on paper
    tonight(month)
    coming(month, members, ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"])
    party = services.start_night(month.pk, admin)
    assert [c.name for c in categories_of(party)] == ["Booby prize", "Bunko queen"]
    party = play_night(party, rounds=2, bunkos=["Bea"])
    ceremonies.start_awards(party.code)
    for _ in range(20):
        if Award.objects.filter(party=party).count() == 2:
            break
        try:
            ceremonies.host_step(party.code, {"type": "next"})
        except Refused:
            # One player won both prizes and chooses which to keep (the dice decide who):
            # as if she let the time for it run out.
            scheduler.run_due(timezone.now() + timedelta(hours=1))
    given = {a.name: a.player.name for a in Award.objects.filter(party=party)}
    assert given["Booby prize"] in {p.name for p in Player.objects.filter(party=party)}
    if given["Booby prize"] == "Bea":
        # The seating made Bea lose most too: the Booby prize is settled first, she keeps it,
        # and nobody else rolled a Bunko to take the Bunko queen after her ("the other goes
        # to the runner-up"), so it is not given.
        assert "Bunko queen" not in given
    else:
        assert given["Bunko queen"] == "Bea"  # the only one who rolled a Bunko
