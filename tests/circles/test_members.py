"""Who is in a circle: invitations, joining from a phone, the member link, logins, leaving."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from apps.circles import services
from apps.circles.models import Member, Month
from apps.circles.tokens import make_invite, make_member_token
from apps.core.errors import Refused

from .conftest import first_month, host, lines

pytestmark = pytest.mark.django_db


def invite(circle, kind="member") -> str:
    return make_invite(circle.pk, circle.invite_nonce, kind)


def test_a_new_circle_has_a_season_of_twelve_months_on_its_usual_night(admin):
    from datetime import date, time

    circle = services.create_circle(
        admin, name="  Bunko   Belles ", start=date(2027, 3, 9), week=3, weekday=3, at=time(19, 30)
    )
    assert circle.name == "Bunko Belles" and circle.admin == admin
    months = list(Month.objects.filter(season__circle=circle).order_by("index"))
    assert [m.first for m in months][:2] == [date(2027, 3, 1), date(2027, 4, 1)]
    assert months[-1].first == date(2028, 2, 1)
    assert months[0].date == date(2027, 3, 18)  # the third Thursday of March 2027
    assert all(m.date.weekday() == 3 and m.time == time(19, 30) for m in months)


def test_a_phone_joins_from_the_invite_link_with_a_name_and_gets_its_member_link_by_mail(
    circle, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=True):
        member = services.join_circle(invite(circle), name=" Ann ", email="ann@example.com")
    assert (member.name, member.kind, member.email) == ("Ann", "member", "ann@example.com")
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["ann@example.com"]
    assert f"/c/{circle.code}/m/" in mailoutbox[0].body
    assert "Ann joined." in lines(circle)


def test_the_substitutes_invite_link_puts_the_newcomer_at_the_end_of_the_list(circle, subs):
    member = services.join_circle(invite(circle, "substitute"), name="Vi")
    assert member.is_substitute
    assert member.position > max(s.position for s in subs.values())


def test_an_invite_link_made_stale_by_new_links_is_refused_and_nothing_is_created(circle):
    old = invite(circle)
    services.new_invite_links(circle.pk)
    with pytest.raises(Refused, match="replaced by a newer one"):
        services.join_circle(old, name="Ann")
    assert not Member.objects.exists()


@pytest.mark.parametrize(
    "token",
    ["", "garbage", "eyJjIjoxfQ:1abc:forged-signature", "x" * 600],
)
def test_a_forged_or_garbled_invite_link_is_refused_and_nothing_is_created(circle, token):
    with pytest.raises(Refused, match="not valid"):
        services.join_circle(token, name="Ann")
    assert not Member.objects.exists()


def test_two_members_cannot_share_a_name_nor_take_a_ghosts_name(circle, members):
    with pytest.raises(Refused, match="already a member called Ann"):
        services.join_circle(invite(circle), name="ann")
    with pytest.raises(Refused, match="Ghost"):
        services.join_circle(invite(circle), name="Ghost 1")
    with pytest.raises(Refused, match="at most 30"):
        services.join_circle(invite(circle), name="A" * 31)


def test_a_signed_in_user_who_joins_is_that_member_on_every_device(circle, django_user_model):
    user = django_user_model.objects.create_user("zoe", password="zoe-pass-21")
    member = services.join_circle(invite(circle), name="Zoe", user=user)
    assert member.user == user
    with pytest.raises(Refused, match="already a member"):
        services.join_circle(invite(circle), name="Zoe Two", user=user)


def test_a_member_makes_a_login_and_a_taken_username_or_weak_password_is_refused(circle, members):
    ann, bea = members["Ann"], members["Bea"]
    user = services.give_login(ann.pk, "ann", "long-enough-21")
    ann.refresh_from_db()
    assert ann.user == user and user.check_password("long-enough-21")
    with pytest.raises(Refused, match="taken"):
        services.give_login(bea.pk, "ANN", "long-enough-21")
    with pytest.raises(Refused, match="too short"):
        services.give_login(bea.pk, "bea", "short")
    with pytest.raises(Refused, match="already has a login"):
        services.give_login(ann.pk, "ann2", "long-enough-21")
    assert get_user_model().objects.filter(username__startswith="bea").count() == 0


def test_resetting_a_member_link_signs_the_old_link_out(client, circle, members):
    ann = members["Ann"]
    old = make_member_token(circle.pk, ann.pk, ann.nonce)
    services.reset_member_link(circle.pk, ann.pk)
    response = client.get(f"/c/{circle.code}/m/{old}/")
    assert response.status_code == 400
    assert "no longer valid" in response.content.decode()


def test_substitutes_move_up_and_down_the_list(circle, subs):
    services.move_substitute(circle.pk, subs["Uma"].pk, -1)
    order = list(
        circle.members.filter(kind="substitute").order_by("position").values_list("name", flat=True)
    )
    assert order == ["Sue", "Uma", "Tia"]
    services.move_substitute(circle.pk, subs["Sue"].pk, -1)  # already first: stays
    order = list(
        circle.members.filter(kind="substitute").order_by("position").values_list("name", flat=True)
    )
    assert order == ["Sue", "Uma", "Tia"]


def test_a_member_who_leaves_is_taken_off_the_months_to_come_and_the_admin_is_told(circle, members):
    ann = members["Ann"]
    month = first_month(circle)
    host(month, ann)
    services.remove_member(circle.pk, ann.pk)
    ann.refresh_from_db()
    assert not ann.active and not month.hostings.exists()
    assert f"Ann left the circle. No host now: {month.name}." in lines(circle)


def test_a_host_of_a_month_to_come_cannot_become_a_substitute(circle, members):
    month = first_month(circle)
    host(month, members["Ann"])
    with pytest.raises(Refused, match="hosts a month to come"):
        services.set_kind(circle.pk, members["Ann"].pk, "substitute")
    services.set_kind(circle.pk, members["Bea"].pk, "substitute")
    assert Member.objects.get(pk=members["Bea"].pk).is_substitute


def test_invitations_go_out_by_mail_with_the_link(
    circle, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=True):
        services.send_invitations(
            circle.pk, ["a@example.com", "b@example.com"], "member", "http://x/join"
        )
    assert [m.to for m in mailoutbox] == [["a@example.com"], ["b@example.com"]]
    assert "http://x/join" in mailoutbox[0].body and "Bunko Belles" in mailoutbox[0].subject
