"""Each member's own language: kept with the member from their own pages (the admin's
language when the admin adds them is a guess their own browser replaces), chosen on their
page or in the header, and spoken by every mail they get, the scheduler's reminders too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client

from apps.circles import services
from apps.circles.models import Member
from apps.circles.tokens import make_invite
from apps.core import scheduler

from .conftest import as_member, first_month, host

pytestmark = pytest.mark.django_db

DUTCH_MONTHS = "januari februari maart april mei juni juli augustus september oktober november"
GERMAN_MONTHS = "Januar Februar März April Mai Juni Juli August September Oktober November"


def dutch_month(day) -> str:
    return [*DUTCH_MONTHS.split(), "december"][day.month - 1]


def german_month(day) -> str:
    return [*GERMAN_MONTHS.split(), "Dezember"][day.month - 1]


def speaks(member: Member, language: str) -> None:
    Member.objects.filter(pk=member.pk).update(language=language)


def arm_reminder(month, by):
    """``by`` hosts the month; its reminder is armed as when its date is saved."""
    host(month, by)
    services.edit_month(month.pk, day=month.date, at=month.time, place="", host_note="")
    return month


def mail_to(mailoutbox, address: str):
    return next(m for m in reversed(mailoutbox) if m.to == [address])


def test_the_reminder_from_the_scheduler_speaks_each_members_language(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    speaks(members["Ann"], "nl")
    speaks(members["Bea"], "de")
    month = arm_reminder(first_month(circle), members["Dot"])
    with django_capture_on_commit_callbacks(execute=True):
        assert scheduler.run_due(now=month.starts_at - timedelta(days=3, seconds=-1)) == 1
    ann, bea, cal = (mail_to(mailoutbox, f"{n}@example.com") for n in ("ann", "bea", "cal"))
    assert ann.subject.startswith("Bunko Belles: Bunko op ")
    assert dutch_month(month.date) in ann.subject
    assert "Je hebt nog niet gezegd of je komt." in ann.body
    assert bea.subject.startswith("Bunko Belles: Bunko am ")
    assert german_month(month.date) in bea.subject
    assert "Du hast noch nicht gesagt, ob du kommst." in bea.body
    assert cal.subject.startswith("Bunko Belles: Bunko on ")
    assert month.date.strftime("%B") in cal.subject
    assert "You haven't said whether you're coming." in cal.body


def test_a_reminder_says_the_answer_given_in_the_members_language(
    circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    speaks(members["Bea"], "de")
    month = arm_reminder(first_month(circle), members["Ann"])
    services.set_rsvp(month.pk, members["Bea"].pk, "yes")
    services.set_rsvp(month.pk, members["Cal"].pk, "no")
    with django_capture_on_commit_callbacks(execute=True):
        scheduler.run_due(now=month.starts_at - timedelta(days=3, seconds=-1))
    assert "Du hast gesagt, dass du kommst." in mail_to(mailoutbox, "bea@example.com").body
    assert "You said you're not coming." in mail_to(mailoutbox, "cal@example.com").body


def test_a_swap_is_asked_and_answered_in_each_hosts_own_language(
    circle, members, admin, django_capture_on_commit_callbacks, mailoutbox
):
    speaks(members["Ann"], "nl")
    speaks(members["Bea"], "de")
    first, second = list(circle.seasons.get().months.order_by("index"))[:2]
    host(first, members["Ann"])
    host(second, members["Bea"])
    ann, bea = Member.objects.get(name="Ann"), Member.objects.get(name="Bea")
    with django_capture_on_commit_callbacks(execute=True):
        swap = services.request_swap(ann.pk, first.pk, second.pk, bea.pk)
    asked = mail_to(mailoutbox, "bea@example.com")
    assert asked.subject == "Bunko Belles: Ann möchte Monate tauschen"
    assert "Ann möchte tauschen: Du wärst an der Reihe" in asked.body
    assert german_month(first.date) in asked.body
    with django_capture_on_commit_callbacks(execute=True):
        services.answer_swap(circle.pk, swap.pk, bea.pk, accept=True)
    answered = mail_to(mailoutbox, "ann@example.com")
    assert answered.subject == "Bunko Belles: Bea heeft de ruil geaccepteerd"
    assert dutch_month(second.date) in answered.body


def test_a_substitute_is_asked_in_their_language_and_one_without_in_the_default(
    circle, members, subs, django_capture_on_commit_callbacks, mailoutbox
):
    speaks(subs["Sue"], "nl")
    month = first_month(circle)
    host(month, members["Ann"])
    services.set_rsvp(month.pk, members["Bea"].pk, "yes")  # two coming: two seats short
    with django_capture_on_commit_callbacks(execute=True):
        services.ask_substitutes(month.pk)
    sue, tia = mail_to(mailoutbox, "sue@example.com"), mail_to(mailoutbox, "tia@example.com")
    assert sue.subject.startswith("Bunko Belles: kun je invallen op ")
    assert dutch_month(month.date) in sue.subject
    assert "Kun je komen?" in sue.body
    assert tia.subject.startswith("Bunko Belles: can you fill a seat on ")
    assert settings.LANGUAGE_CODE == "en"


def test_a_member_the_admin_adds_speaks_the_admins_language_from_the_welcome_mail_on(
    client, admin, circle, django_capture_on_commit_callbacks, mailoutbox
):
    client.force_login(admin)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/c/{circle.code}/members/add/",
            {"name": "Ann", "email": "ann@example.com", "kind": "member"},
            headers={"accept-language": "de"},
        )
    assert Member.objects.get(name="Ann").language == "de"
    assert mailoutbox[-1].subject == "Willkommen bei Bunko Belles"


def test_mailed_invitations_speak_the_admins_language(
    client, admin, circle, django_capture_on_commit_callbacks, mailoutbox
):
    client.force_login(admin)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/c/{circle.code}/members/invites/mail/",
            {"addresses": "zoe@example.com", "kind": "member"},
            headers={"accept-language": "nl"},
        )
    assert mailoutbox[-1].to == ["zoe@example.com"]
    assert "Bunko Belles" in mailoutbox[-1].subject and "uitgenodigd" in mailoutbox[-1].subject


def test_a_phone_that_joins_keeps_its_browsers_language_with_the_member(client, circle):
    url = f"/c/{circle.code}/join/{make_invite(circle.pk, circle.invite_nonce, 'member')}/"
    client.post(url, {"name": "Ann"}, headers={"accept-language": "nl-NL,nl;q=0.9"})
    assert Member.objects.get(name="Ann").language == "nl"


def test_a_member_without_a_language_gets_their_browsers_on_their_own_pages(
    client, circle, members
):
    as_member(client, members["Ann"])
    client.get(f"/c/{circle.code}/", headers={"accept-language": "de"})
    assert Member.objects.get(name="Ann").language == "de"


def test_a_language_picked_on_the_phone_is_kept_with_the_member(client, circle, members):
    speaks(members["Ann"], "nl")
    as_member(client, members["Ann"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.get(f"/c/{circle.code}/")
    assert Member.objects.get(name="Ann").language == "de"


def test_a_phone_without_a_language_cookie_shows_the_members_language_and_keeps_it(
    client, circle, members
):
    speaks(members["Ann"], "nl")
    as_member(client, members["Ann"])
    page = client.get(f"/c/{circle.code}/me/", headers={"accept-language": "en"})
    assert "Jouw gegevens" in page.text
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    assert Member.objects.get(name="Ann").language == "nl"


def test_the_language_chosen_on_the_member_page_is_kept_and_spoken(
    client, circle, members, django_capture_on_commit_callbacks, mailoutbox
):
    as_member(client, members["Ann"])
    page = client.get(f"/c/{circle.code}/me/").text
    assert 'name="language"' in page and '<label for="member-language">' in page
    response = client.post(f"/c/{circle.code}/me/language/", {"language": "nl"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    assert Member.objects.get(name="Ann").language == "nl"
    page = client.get(response["Location"]).text
    assert "Jouw gegevens" in page
    assert '<option value="nl" lang="nl" selected>Nederlands</option>' in page
    with django_capture_on_commit_callbacks(execute=True):
        services.reset_member_link(circle.pk, members["Ann"].pk)
    assert mailoutbox[-1].subject == "Je nieuwe link voor Bunko Belles"


def test_a_language_the_product_does_not_speak_is_refused_and_changes_nothing(
    client, circle, members
):
    speaks(members["Ann"], "nl")
    as_member(client, members["Ann"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = client.post(f"/c/{circle.code}/me/language/", {"language": "fr"})
    assert response.status_code == 302
    assert Member.objects.get(name="Ann").language == "nl"


def admin_adds(client, admin, circle, language: str) -> Member:
    """The admin, whose pages speak ``language``, adds Zoe by hand."""
    client.force_login(admin)
    client.post(
        f"/c/{circle.code}/members/add/",
        {"name": "Zoe", "email": "zoe@example.com", "kind": "member"},
        headers={"accept-language": language},
    )
    return Member.objects.get(name="Zoe")


def test_a_member_the_admin_added_gets_their_browsers_language_over_the_admins_guess(
    client, admin, circle
):
    zoe = admin_adds(client, admin, circle, "en")
    assert zoe.language == "en" and zoe.language_guessed
    phone = as_member(Client(), zoe)
    page = phone.get(f"/c/{circle.code}/me/", headers={"accept-language": "de-DE,de;q=0.9"})
    assert "Deine Angaben" in page.text
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    zoe.refresh_from_db()
    assert (zoe.language, zoe.language_guessed) == ("de", False)


def test_the_admins_guess_stays_while_the_browser_asks_for_none_of_the_products_languages(
    client, admin, circle
):
    zoe = admin_adds(client, admin, circle, "nl")
    phone = as_member(Client(), zoe)
    page = phone.get(f"/c/{circle.code}/me/", headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert "Jouw gegevens" in page.text
    zoe.refresh_from_db()
    assert (zoe.language, zoe.language_guessed) == ("nl", True)


def test_the_browser_replaces_the_guess_once_and_not_the_language_it_gave(client, admin, circle):
    zoe = admin_adds(client, admin, circle, "de")
    as_member(Client(), zoe).get(f"/c/{circle.code}/", headers={"accept-language": "nl"})
    page = as_member(Client(), zoe).get(f"/c/{circle.code}/me/", headers={"accept-language": "en"})
    assert "Jouw gegevens" in page.text
    assert Member.objects.get(name="Zoe").language == "nl"


def test_a_member_who_picked_dutch_on_their_page_keeps_it_with_an_english_browser(
    client, admin, circle
):
    zoe = admin_adds(client, admin, circle, "de")
    phone = as_member(Client(), zoe)
    phone.post(f"/c/{circle.code}/me/language/", {"language": "nl"})
    other = as_member(Client(), zoe)
    page = other.get(f"/c/{circle.code}/me/", headers={"accept-language": "en-GB,en;q=0.9"})
    assert "Jouw gegevens" in page.text
    zoe.refresh_from_db()
    assert (zoe.language, zoe.language_guessed) == ("nl", False)


def test_a_language_picked_in_the_header_beats_the_guess_and_later_browsers(client, admin, circle):
    zoe = admin_adds(client, admin, circle, "de")
    phone = as_member(Client(), zoe)
    phone.post(
        "/i18n/setlang/",
        {"language": "nl", "next": f"/c/{circle.code}/"},
        headers={"accept-language": "en"},
    )
    phone.get(f"/c/{circle.code}/", headers={"accept-language": "en"})
    assert Member.objects.get(name="Zoe").language == "nl"
    other = as_member(Client(), zoe)
    page = other.get(f"/c/{circle.code}/me/", headers={"accept-language": "en"})
    assert "Jouw gegevens" in page.text
    assert Member.objects.get(name="Zoe").language == "nl"


def test_a_hosts_month_reads_right_in_german_and_dutch_whoever_hosts_it():
    """No name is a "Gastgeber" or a "gastheer": the sentences give the night to a name."""
    from django.utils.translation import gettext, override

    sentences = {
        "The admin made {names} the host of {month}.": {"names": "Anna", "month": "Mai"},
        "Swapped: {name} now hosts {month}, {other} hosts {other_month}.": {
            "name": "Anna",
            "month": "Mai",
            "other": "Eva",
            "other_month": "Juni",
        },
        "{member} hosts a month to come: give that month another host first.": {"member": "Anna"},
    }
    for language in ("de", "nl"):
        with override(language):
            for sentence, names in sentences.items():
                said = gettext(sentence).format(**names)
                assert "Anna" in said
                assert "Gastgeber" not in said and "gastheer" not in said, said
