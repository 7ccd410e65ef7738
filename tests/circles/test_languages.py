"""The circles in the viewer's language: pages and mails translated, and the circle's
activity kept as what happened (names as typed, months by their date) and told in the words
of whoever reads it."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.utils import translation

from apps.circles import activity, services
from apps.circles.models import Activity, usual_night
from apps.core.errors import Refused

from .conftest import first_month, host, lines
from .test_dates import written

pytestmark = pytest.mark.django_db


def test_a_circle_page_speaks_its_viewers_language(client, admin, circle):
    client.force_login(admin)
    page = client.get(f"/c/{circle.code}/members/", headers={"accept-language": "de"})
    assert "Leute einladen" in page.text


def _feed(client, circle, language: str) -> str:
    page = client.get(f"/c/{circle.code}/", headers={"accept-language": language}).text
    return page[page.index('id="activity-title"') :]


def test_the_same_change_reads_in_dutch_to_a_dutch_admin_and_in_english_to_an_english_one(
    client, admin, circle, members
):
    first, second = list(circle.seasons.get().months.order_by("index"))[:2]
    host(first, members["Ann"])
    host(second, members["Bea"])
    with translation.override("de"):  # whoever acted, in whatever language
        services.request_swap(members["Ann"].pk, first.pk, second.pk, members["Bea"].pk)
    client.force_login(admin)
    with translation.override("nl"):
        dutch = f"Ann heeft Bea gevraagd om {first.name} te ruilen voor {second.name}."
    with translation.override("en"):
        english = f"Ann asked Bea to swap {first.name} for {second.name}."
    assert dutch != english and first.first.strftime("%B") not in dutch
    assert dutch in _feed(client, circle, "nl")
    assert english in _feed(client, circle, "en")


def test_names_are_shown_as_typed_and_months_in_the_viewers_language(client, admin, circle):
    services.add_member(circle.pk, name="Zoë <b>", kind="substitute")
    month = first_month(circle)
    services.new_season(circle.pk)
    client.force_login(admin)
    feed = _feed(client, circle, "de")
    assert "Zoë &lt;b&gt; wurde als Ersatzspieler hinzugefügt." in feed
    assert lines(circle, "nl")[0].startswith("Het seizoen ")
    assert str(month.first.year + 1) in lines(circle, "nl")[0]


def test_an_old_line_kept_as_english_text_still_shows(client, admin, circle):
    Activity.objects.create(circle=circle, text="Ann joined.")
    client.force_login(admin)
    assert "Ann joined." in _feed(client, circle, "nl")
    assert lines(circle, "de")[0] == "Ann joined."


SAMPLE = {
    "name": "Ann",
    "other": "Bea",
    "names": ["Ann", "Bea"],
    "month": "2027-03-01",
    "other_month": "2027-04-01",
    "unhosted": ["2027-05-01"],
    "season": "2027-01-01",
    "day": "2027-03-18",
    "time": "19:30",
    "place": "12 Elm Street",
    "count": 5,
    "week": 3,
    "weekday": 3,
    "at": "19:30",
}


@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_every_kind_of_line_reads_whole_in_every_language(circle, language):
    for kind in sorted(activity.KINDS):
        with translation.override(language):
            told = activity.line(Activity(circle=circle, kind=kind, data=SAMPLE))
        assert told.endswith(".") and "{" not in told, (kind, told)
        for key in ("name", "other", "place"):
            if "{" + key + "}" in activity.LINES.get(kind, ""):
                assert SAMPLE[key] in told, (kind, told)


@pytest.mark.parametrize(
    ("language", "week", "said"),
    [
        ("en", 3, "on the third Thursday at 19:00"),
        ("en", 5, "on the last Thursday at 19:00"),
        ("nl", 1, "op de eerste donderdag om 19:00"),
        ("nl", 3, "op de derde donderdag om 19:00"),
        ("nl", 5, "op de laatste donderdag om 19:00"),
        ("de", 2, "am zweiten Donnerstag um 19:00"),
        ("de", 3, "am dritten Donnerstag um 19:00"),
        ("de", 5, "am letzten Donnerstag um 19:00"),
    ],
)
def test_the_usual_night_bends_its_ordinal_as_each_language_does(language, week, said):
    with translation.override(language):
        assert usual_night(week, 3, time(19, 0)) == said


def test_a_german_circle_page_says_its_usual_night_in_whole_german(client, admin, circle):
    client.force_login(admin)
    page = client.get(f"/c/{circle.code}/", headers={"accept-language": "de"}).text
    assert "meist am dritten Donnerstag um 19:00" in page


def test_months_moved_to_a_new_usual_night_are_told_in_whole_sentences(circle):
    data = {"count": 3, "week": 5, "weekday": 3, "at": "19:30"}
    told = {}
    for language in ("en", "nl", "de"):
        with translation.override(language):
            told[language] = activity.line(Activity(kind="months_moved", data=data))
    assert told["en"] == "3 months to come now have their night on the last Thursday at 19:30."
    assert told["nl"] == "3 komende maanden hebben hun avond nu op de laatste donderdag om 19:30."
    assert told["de"] == "3 kommende Monate haben ihren Abend jetzt am letzten Donnerstag um 19:30."


def test_why_a_night_cannot_start_yet_is_told_in_german(circle):
    month = first_month(circle)
    day_before = month.date - timedelta(days=1)
    with translation.override("de"):
        reason = services.may_start(month, today=month.date - timedelta(days=5))
        assert reason == (
            f"Der Abend im {month.name} kann ab {written(day_before, 'de')} "
            "(dem Vortag) gestartet werden."
        )


def test_a_night_long_past_is_over_in_dutch(circle):
    month = first_month(circle)
    with translation.override("nl"):
        reason = services.may_start(month, today=month.date + timedelta(days=2))
        assert reason == f"De avond van {month.name} is voorbij."


def test_asking_substitutes_with_nobody_coming_or_every_table_full_is_refused_in_dutch(
    circle, members, subs
):
    month = first_month(circle)
    with translation.override("nl"), pytest.raises(Refused, match="^Er komt nog niemand.$"):
        services.ask_substitutes(month.pk)
    host(month, members["Ann"])
    for name in ("Bea", "Cal", "Dot"):
        services.set_rsvp(month.pk, members[name].pk, "yes")
    with translation.override("nl"), pytest.raises(Refused, match="^Elke tafel is vol"):
        services.ask_substitutes(month.pk)


def test_the_settings_explain_the_reminder_and_the_usual_night_in_german(client, admin, circle):
    client.force_login(admin)
    page = client.get(f"/c/{circle.code}/settings/", headers={"accept-language": "de"}).text
    assert "0: keine Erinnerung." in page
    assert "ein Datum, das ein Gastgeber gewählt hat, bleibt." in page
