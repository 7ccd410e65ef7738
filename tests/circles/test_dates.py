"""Dates as each language writes them on the circle's pages and in its mails: German with the
period of its ordinal day ("Donnerstag, 18. März"), Dutch in lower case ("donderdag 18 maart"),
English as it always was ("Thursday 18 March")."""

from __future__ import annotations

from datetime import date, timedelta
from importlib import import_module

import pytest
from django.utils import translation

from apps.circles import activity, services
from apps.circles.models import Activity, Member, Month, season_name
from apps.core.errors import Refused
from apps.core.formats import NAMES

from .conftest import first_month, host

pytestmark = pytest.mark.django_db

DAYS = {
    "en": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday",
    "nl": "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
    "de": "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag",
}
MONTHS = {
    "en": "January February March April May June July August September October November December",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
}


def written(day: date, language: str) -> str:
    """The date as a native writer of ``language`` writes it with its weekday."""
    weekday = DAYS[language].split()[day.weekday()]
    month = MONTHS[language].split()[day.month - 1]
    if language == "de":
        return f"{weekday}, {day.day}. {month}"
    return f"{weekday} {day.day} {month}"


@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_every_language_writes_every_named_date_format(language):
    module = import_module(f"apps.core.formats.{language}.formats")
    assert [name for name in NAMES if not getattr(module, name, None)] == []


@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_a_months_page_writes_its_date_as_the_viewers_language_does(
    client, admin, circle, language
):
    month = first_month(circle)
    client.force_login(admin)
    page = client.get(
        f"/c/{circle.code}/months/{month.pk}/", headers={"accept-language": language}
    ).text
    assert f"<strong>{written(month.date, language)}</strong>" in page


def test_a_german_reminder_puts_the_period_after_the_day(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    Member.objects.filter(pk=members["Bea"].pk).update(language="de")
    month = first_month(circle)
    host(month, members["Ann"])
    services.set_rsvp(month.pk, members["Cal"].pk, "yes")  # two coming: substitutes are asked
    Member.objects.filter(pk=members["Bea"].pk).update(kind=Member.Kind.SUBSTITUTE)
    with django_capture_on_commit_callbacks(execute=True):
        services.ask_substitutes(month.pk)
    mail = next(m for m in mailoutbox if m.to == ["bea@example.com"])
    assert written(month.date, "de") in mail.subject
    assert written(month.date, "de") in mail.body


def test_the_activity_tells_a_moved_night_in_each_languages_date():
    data = {"month": "2027-03-01", "day": "2027-03-18", "time": "19:30"}
    said = {}
    for language in ("en", "nl", "de"):
        with translation.override(language):
            said[language] = activity.line(Activity(kind="night_moved", data=data))
    assert "Thursday 18 March at 19:30" in said["en"]
    assert "donderdag 18 maart om 19:30" in said["nl"]
    assert "Donnerstag, 18. März um 19:30" in said["de"]


def test_short_month_names_are_the_languages_own():
    with translation.override("en"):
        assert season_name(date(2027, 3, 1)) == "Mar 2027 – Feb 2028"
    with translation.override("nl"):
        assert season_name(date(2027, 3, 1)) == "mrt 2027 – feb 2028"
    with translation.override("de"):
        assert season_name(date(2027, 3, 1)) == "Mär 2027 – Feb 2028"


def test_the_charts_name_the_months_in_the_readers_language():
    with translation.override("de"):
        assert Month(first=date(2027, 3, 1)).short_name == "Mär"
    with translation.override("nl"):
        assert Month(first=date(2027, 3, 1)).short_name == "mrt"
    with translation.override("en"):
        assert Month(first=date(2027, 3, 1)).short_name == "Mar"


def test_a_night_moved_out_of_its_month_is_refused_with_the_month_in_german(circle):
    month = first_month(circle)
    with translation.override("de"), pytest.raises(Refused) as refused:
        services.edit_month(
            month.pk, day=month.date + timedelta(days=40), at=month.time, place="", host_note=""
        )
    german = MONTHS["de"].split()[month.first.month - 1]
    assert str(refused.value).endswith(f"muss im {german} sein.")
