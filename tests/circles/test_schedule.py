"""The year of hosts: the planner's one action, swaps between hosts, a month's date and
place, the reminder before a night, and the calendar feed."""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta

import icalendar
import pytest
from django.utils import timezone

from apps.circles import services
from apps.circles.models import Hosting, Member, Month, SwapRequest
from apps.circles.selectors import swap_targets
from apps.circles.tokens import make_feed_token
from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.models import Deadline

from .conftest import add_people, first_month, host, lines

pytestmark = pytest.mark.django_db


def months(circle) -> list[Month]:
    return list(Month.objects.filter(season__circle=circle).order_by("index"))


def hosts(month: Month) -> list[str]:
    return [h.member.name for h in month.hostings.select_related("member")]


def test_making_the_schedule_gives_each_of_twelve_members_one_month(circle):
    add_people(circle, [f"P{i}" for i in range(12)])
    services.plan_season(circle.seasons.get().pk, random.Random(1))
    hosted = [hosts(m) for m in months(circle)]
    assert all(len(h) == 1 for h in hosted)
    assert sorted(h[0] for h in hosted) == sorted(f"P{i}" for i in range(12))


def test_the_schedule_respects_the_months_a_member_cannot_host(circle, members):
    season_months = months(circle)
    blocked = [m.first.month for m in season_months[:11]]  # Ann can host only the last month
    services.update_member(members["Ann"].pk, name="Ann", cannot_host=blocked)
    services.plan_season(circle.seasons.get().pk, random.Random(2))
    assert [m for m in months(circle) if "Ann" in hosts(m)] == [season_months[11]]


def test_the_schedule_is_mailed_to_every_member_with_their_months(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=True):
        services.plan_season(circle.seasons.get().pk, random.Random(3))
    assert len(mailoutbox) == 8
    ann_mail = next(m for m in mailoutbox if m.to == ["ann@example.com"])
    ann_month = next(m for m in months(circle) if "Ann" in hosts(m))
    assert f"You host: {ann_month.name}" in ann_mail.body
    assert "/calendar/" in ann_mail.body


def test_planning_again_keeps_the_hosts_of_months_already_past(circle, members):
    season = circle.seasons.get()
    services.plan_season(season.pk, random.Random(4))
    first = first_month(circle)
    before = hosts(first)
    Month.objects.filter(pk=first.pk).update(date=timezone.localdate() - timedelta(days=3))
    services.plan_season(season.pk, random.Random(99))
    assert hosts(first) == before


def test_planning_without_members_is_refused(circle):
    with pytest.raises(Refused, match="Invite the members first"):
        services.plan_season(circle.seasons.get().pk)
    assert not Hosting.objects.exists()


def _two_hosted(circle, members):
    first, second = months(circle)[:2]
    host(first, members["Ann"])
    host(second, members["Bea"])
    return first, second


def test_a_swap_the_other_host_accepts_exchanges_the_months_and_the_admin_hears(
    circle, members, admin, django_capture_on_commit_callbacks, mailoutbox
):
    admin.email = "admin@example.com"
    admin.save()
    first, second = _two_hosted(circle, members)
    with django_capture_on_commit_callbacks(execute=True):
        swap = services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    assert mailoutbox[-1].to == ["bea@example.com"] and "swap" in mailoutbox[-1].subject
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_swap(circle.pk, swap.pk, members["Bea"].pk, accept=True)
    assert (hosts(first), hosts(second)) == (["Bea"], ["Ann"])
    assert SwapRequest.objects.get(pk=swap.pk).status == "accepted"
    assert lines(circle)[0] == f"Swapped: Bea now hosts {first.name}, Ann hosts {second.name}."
    assert {m.to[0] for m in mailoutbox[-2:]} == {"ann@example.com", "admin@example.com"}


def test_the_asker_hears_a_decline_and_the_asked_host_hears_a_request_taken_back(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    first, second = _two_hosted(circle, members)
    ann, bea = members["Ann"], members["Bea"]
    with django_capture_on_commit_callbacks(execute=True):
        swap = services.request_swap(ann.pk, first.pk, second.pk, bea.pk)
        services.answer_swap(circle.pk, swap.pk, bea.pk, accept=False)
    (declined,) = [m for m in mailoutbox if m.to == ["ann@example.com"]]
    assert "Bea declined the swap" in declined.subject
    assert f"you still host {first.name}" in declined.body

    mailoutbox.clear()
    bea.language = "nl"
    bea.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        swap = services.request_swap(ann.pk, first.pk, second.pk, bea.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.cancel_swap(circle.pk, swap.pk, ann.pk)
    asked, taken_back = [m for m in mailoutbox if m.to == ["bea@example.com"]]
    assert "Ann heeft de ruilvraag ingetrokken" in taken_back.subject
    assert "Je hoeft niets te antwoorden." in taken_back.body
    assert lines(circle)[0] == f"Ann no longer asks Bea to swap {first.name} for {second.name}."
    assert (hosts(first), hosts(second)) == (["Ann"], ["Bea"])


def test_a_declined_swap_changes_nothing(circle, members):
    first, second = _two_hosted(circle, members)
    swap = services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    services.answer_swap(circle.pk, swap.pk, members["Bea"].pk, accept=False)
    assert (hosts(first), hosts(second)) == (["Ann"], ["Bea"])


def test_only_the_asked_host_answers_a_swap_and_only_the_asker_takes_it_back(circle, members):
    first, second = _two_hosted(circle, members)
    swap = services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    with pytest.raises(Refused, match="Only Bea"):
        services.answer_swap(circle.pk, swap.pk, members["Cal"].pk, accept=True)
    with pytest.raises(Refused, match="Only Ann"):
        services.cancel_swap(circle.pk, swap.pk, members["Bea"].pk)
    services.cancel_swap(circle.pk, swap.pk, members["Ann"].pk)
    with pytest.raises(Refused, match="closed"):
        services.answer_swap(circle.pk, swap.pk, members["Bea"].pk, accept=True)
    assert (hosts(first), hosts(second)) == (["Ann"], ["Bea"])


def test_a_swap_for_a_month_already_past_is_refused_and_changes_nothing(circle, members):
    first, second = _two_hosted(circle, members)
    Month.objects.filter(pk=first.pk).update(date=timezone.localdate() - timedelta(days=2))
    with pytest.raises(Refused, match="already past"):
        services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    assert not SwapRequest.objects.exists()


def test_a_swap_accepted_after_its_month_went_past_is_refused(circle, members):
    first, second = _two_hosted(circle, members)
    swap = services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    Month.objects.filter(pk=second.pk).update(date=timezone.localdate() - timedelta(days=2))
    with pytest.raises(Refused, match="already past"):
        services.answer_swap(circle.pk, swap.pk, members["Bea"].pk, accept=True)
    assert (hosts(first), hosts(second)) == (["Ann"], ["Bea"])
    assert SwapRequest.objects.get(pk=swap.pk).status == "void"  # and it is closed as such


def test_no_swap_is_offered_or_made_into_a_month_someone_said_they_cant_host(circle, members):
    """Carla can't host June to August: the planner keeps her out of them, and so do swaps,
    offered, asked or accepted."""
    first, second = _two_hosted(circle, members)
    ann, bea = members["Ann"], members["Bea"]
    bea.cannot_host = [first.date.month]
    bea.save(update_fields=["cannot_host"])
    assert (second, bea) not in swap_targets(ann, first)
    with pytest.raises(Refused, match=f"Bea can't host in {first.date:%B}"):
        services.request_swap(ann.pk, first.pk, second.pk, bea.pk)
    assert not SwapRequest.objects.exists()

    # Said after the request: the answer is refused, the request closed, nothing swapped.
    bea.cannot_host = []
    bea.save(update_fields=["cannot_host"])
    swap = services.request_swap(ann.pk, first.pk, second.pk, bea.pk)
    bea.cannot_host = [first.date.month]
    bea.save(update_fields=["cannot_host"])
    with pytest.raises(Refused, match=f"You said you can't host in {first.date:%B}"):
        services.answer_swap(circle.pk, swap.pk, bea.pk, accept=True)
    assert (hosts(first), hosts(second)) == (["Ann"], ["Bea"])
    assert SwapRequest.objects.get(pk=swap.pk).status == "void"

    # And the asker is never offered a month they can't host.
    ann.cannot_host = [second.date.month]
    ann.save(update_fields=["cannot_host"])
    assert all(month != second for month, _host in swap_targets(ann, first))


def test_only_a_months_own_host_can_offer_it_in_a_swap(circle, members):
    first, second = _two_hosted(circle, members)
    with pytest.raises(Refused, match="don't host"):
        services.request_swap(members["Cal"].pk, first.pk, second.pk, members["Bea"].pk)


def test_a_new_date_and_place_are_saved_mailed_and_the_reminder_moves(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    month = first_month(circle)
    host(month, members["Ann"])
    new_day = month.date.replace(day=25 if month.date.day != 25 else 24)
    with django_capture_on_commit_callbacks(execute=True):
        services.edit_month(
            month.pk, day=new_day, at=time(20, 0), place="The Barn", host_note="Bring a dish"
        )
    month.refresh_from_db()
    assert (month.date, month.time, month.place) == (new_day, time(20, 0), "The Barn")
    assert len(mailoutbox) == 8 and "The Barn" in mailoutbox[0].body
    reminder = Deadline.objects.get(scope=f"circle:{month.pk}", key="reminder")
    expected = month.starts_at - timedelta(days=circle.reminder_days)
    assert abs(reminder.due_at - expected) < timedelta(seconds=1)


def test_a_months_night_stays_in_its_month(circle):
    month = first_month(circle)
    with pytest.raises(Refused, match="must be in"):
        services.edit_month(
            month.pk, day=month.date + timedelta(days=40), at=month.time, place="", host_note=""
        )


def test_the_reminder_goes_out_the_set_number_of_days_before_and_only_once(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    services.plan_season(circle.seasons.get().pk, random.Random(5))
    month = first_month(circle)
    due = month.starts_at - timedelta(days=3)
    assert scheduler.run_due(now=due - timedelta(minutes=1)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert scheduler.run_due(now=due + timedelta(seconds=1)) >= 1
    reminders = [m for m in mailoutbox if "Bunko on" in m.subject]
    assert len(reminders) == 8
    assert "You haven't said whether you're coming" in reminders[0].body
    assert scheduler.run_due(now=due + timedelta(hours=1)) == 0
    assert Month.objects.get(pk=month.pk).reminded_at is not None


def test_the_calendar_feed_lists_every_month_with_its_date_host_and_place(client, circle, members):
    month = first_month(circle)
    host(month, members["Ann"])
    Member.objects.filter(pk=members["Ann"].pk).update(address="12 Elm Street")
    token = make_feed_token(circle.pk, circle.feed_nonce)
    response = client.get(f"/c/{circle.code}/calendar/{token}.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(response.content)
    events = sorted(calendar.walk("VEVENT"), key=lambda e: e.decoded("dtstart"))
    assert len(events) == 12
    first = events[0]
    assert str(first["summary"]).startswith("Bunko at Ann's")
    assert str(first["location"]) == "12 Elm Street"
    start = first.decoded("dtstart")
    assert isinstance(start, datetime) and start == month.starts_at
    assert str(events[1]["summary"]).startswith("Bunko (host to be found)")


def test_a_calendar_link_made_stale_or_forged_is_refused(client, circle):
    token = make_feed_token(circle.pk, circle.feed_nonce)
    services.new_feed_link(circle.pk)
    assert client.get(f"/c/{circle.code}/calendar/{token}.ics").status_code == 404
    assert client.get(f"/c/{circle.code}/calendar/forged.ics").status_code == 404


def test_a_new_usual_night_moves_the_months_still_on_the_old_one_and_keeps_a_hosts_date(
    circle,
):
    first, second, *rest = months(circle)
    services.edit_month(
        first.pk, day=first.date.replace(day=25 if first.date.day != 25 else 24),
        at=first.time, place="", host_note="",
    )  # fmt: skip
    kept = Month.objects.get(pk=first.pk).date
    services.update_circle(circle.pk, {"week": 1, "weekday": 4, "time": time(20, 0)})
    assert Month.objects.get(pk=first.pk).date == kept
    moved = Month.objects.get(pk=second.pk)
    assert (moved.date.day <= 7, moved.date.weekday(), moved.time) == (True, 4, time(20, 0))


def test_the_next_season_follows_the_last_one(circle):
    first = circle.seasons.get()
    season = services.new_season(circle.pk)
    assert season.start == first.start.replace(year=first.start.year + 1)
    assert season.months.count() == 12


def test_the_admin_giving_a_month_another_host_lapses_its_swap_requests(circle, members):
    first, second = _two_hosted(circle, members)
    swap = services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    services.edit_month(
        first.pk, day=first.date, at=first.time, place="", host_note="",
        hosts=[members["Cal"].pk],
    )  # fmt: skip
    assert hosts(first) == ["Cal"]
    assert SwapRequest.objects.get(pk=swap.pk).status == "void"
    with pytest.raises(Refused, match="closed"):
        services.answer_swap(circle.pk, swap.pk, members["Bea"].pk, accept=True)
