"""Where a circle's form goes back to: a page of this server named by its path, or else the
page the form came from. A stray `next` never answers an error, never leaves the site and
never does anything but show a page."""

from __future__ import annotations

import pytest

from apps.circles.models import Rsvp

from .conftest import as_member, first_month

pytestmark = pytest.mark.django_db

STRAY = ["foo", "logout", "circles:circle", "//evil.example/", "https://evil.example/", "/\\evil"]


@pytest.fixture
def signed_in(client, admin, members):
    """The circle's admin, signed in, on the phone of its member Ann."""
    client.force_login(admin)
    return as_member(client, members["Ann"])


@pytest.mark.parametrize("stray", STRAY)
def test_an_rsvp_with_a_stray_next_goes_back_to_the_month_and_signs_nobody_out(
    signed_in, circle, members, stray
):
    month = first_month(circle)
    url = f"/c/{circle.code}/months/{month.pk}/rsvp/"
    response = signed_in.post(url, {"answer": "yes", "next": stray})
    assert response.status_code == 302
    assert response["Location"] == f"/c/{circle.code}/months/{month.pk}/"
    assert Rsvp.objects.get(member=members["Ann"]).answer == "yes"
    assert "_auth_user_id" in signed_in.session


@pytest.mark.parametrize("stray", STRAY)
def test_a_swap_with_a_stray_next_goes_back_to_the_circle_page(signed_in, circle, stray):
    response = signed_in.post(f"/c/{circle.code}/swaps/cancel/", {"swap": "1", "next": stray})
    assert response.status_code == 302
    assert response["Location"] == f"/c/{circle.code}/"
    assert "_auth_user_id" in signed_in.session


def test_a_local_next_is_followed_with_its_query(signed_in, circle):
    month = first_month(circle)
    back = f"/c/{circle.code}/?season={month.season_id}"
    response = signed_in.post(
        f"/c/{circle.code}/months/{month.pk}/rsvp/", {"answer": "no", "next": back}
    )
    assert response["Location"] == back


def test_a_next_to_this_server_by_its_full_address_goes_back_to_the_form_page(signed_in, circle):
    # Only a path is followed: the address a phone used can be one an attacker named.
    month = first_month(circle)
    response = signed_in.post(
        f"/c/{circle.code}/months/{month.pk}/rsvp/",
        {"answer": "no", "next": f"http://testserver/c/{circle.code}/"},
    )
    assert response["Location"] == f"/c/{circle.code}/months/{month.pk}/"
