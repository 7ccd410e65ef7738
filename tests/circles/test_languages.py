"""The circles in the viewer's language: pages and mails translated, the circle's activity kept
in English whoever acted (a log, not words of the moment)."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.circles.models import Activity
from apps.circles.services.common import note

from .conftest import first_month


@pytest.mark.django_db
def test_a_dutch_admins_change_is_noted_in_english_month_names_and_all(circle):
    month = first_month(circle)
    with translation.override("en"):
        english = month.name
    with translation.override("nl"):
        assert month.name != english  # "januari 2027", not "January 2027"
        note(circle, lambda: f"{month.name} changed.", month)
    assert Activity.objects.filter(circle=circle).latest("pk").text == f"{english} changed."


@pytest.mark.django_db
def test_a_circle_page_speaks_its_viewers_language(client, admin, circle):
    client.force_login(admin)
    page = client.get(f"/c/{circle.code}/members/", headers={"accept-language": "de"})
    assert "Leute einladen" in page.text
