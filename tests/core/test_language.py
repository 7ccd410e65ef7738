"""Each viewer's language: a phone's own choice, the big screen the host's."""

from __future__ import annotations

import pytest
from django.conf import settings

from apps.core import i18n
from apps.core.errors import Refused
from apps.core.language import browser_language, language_of_scope, speak, supported
from apps.parties import services
from apps.parties.models import Party


def test_a_regional_code_is_read_as_its_language_and_others_are_not_supported():
    assert supported("de-AT") == "de"
    assert supported("NL_be") == "nl"
    assert supported("fr") is None
    assert supported("") is None


def test_a_socket_speaks_the_cookie_language_before_the_browser_language():
    cookie = {"cookies": {settings.LANGUAGE_COOKIE_NAME: "nl"}, "headers": []}
    browser = {"cookies": {}, "headers": [(b"accept-language", b"fr-FR,de;q=0.8,en;q=0.5")]}
    assert language_of_scope(cookie) == "nl"
    assert language_of_scope(browser) == "de"
    assert language_of_scope({"cookies": {}, "headers": []}) == "en"


@pytest.mark.parametrize(
    "accept",
    ["en;q=0.2,de;q=0.9", "de;q=0.9, nl;q=0.4", "fr,de-AT;q=0.7,en;q=0.3", "*;q=0.1,de"],
)
def test_a_socket_reads_accept_language_by_its_weights_as_a_page_does(accept):
    scope = {"cookies": {}, "headers": [(b"accept-language", accept.encode())]}
    assert language_of_scope(scope) == browser_language(accept) == "de"


def test_the_pure_modules_speak_the_language_of_the_block_and_english_after_it():
    with speak("xx"):
        assert i18n.current() == "en"
    with speak("de"):
        assert i18n.current() == "de"
        assert i18n.ngettext("one", "many", 2) in {"many", i18n.ngettext("one", "many", 2)}
    assert i18n.current() == "en"
    assert i18n._("Roll") == "Roll"


@pytest.mark.django_db
def test_the_host_chooses_the_big_screens_language(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday", language="de-DE")
    assert party.language == "de"
    services.set_screen_language(party.code, "nl")
    assert Party.objects.get(pk=party.pk).language == "nl"


@pytest.mark.django_db
def test_a_language_the_product_does_not_speak_is_refused_and_changes_nothing(
    django_user_model,
):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    with pytest.raises(Refused):
        services.set_screen_language(party.code, "fr")
    assert Party.objects.get(pk=party.pk).language == "en"


@pytest.mark.django_db
def test_the_host_changes_the_screen_language_from_the_console(client, django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    client.force_login(host)
    response = client.post(
        f"/p/{party.code}/host/screen-language/", {"language": "de"}, follow=True
    )
    assert response.status_code == 200
    assert Party.objects.get(pk=party.pk).language == "de"


@pytest.mark.django_db
def test_the_nights_log_reads_each_roll_in_its_readers_language(django_user_model):
    from apps.core.tokens import read_seat_token
    from apps.parties.models import Event
    from apps.parties.presenter import log_line

    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    claims = [
        read_seat_token(services.join_party(party.code, new_name=name)[1], party.scope)
        for name in ("Ann", "Bea", "Cal", "Dot")
    ]
    services.start_next_round(party.code)
    services.table_action(party.code, claims[0], "log-01", {"type": "rolloff"})
    event = Event.objects.filter(party=party, table__isnull=False).latest("pk")
    lines = {}
    for language in ("en", "nl", "de"):
        with speak(language):
            lines[language] = log_line(event, 1)
    assert lines["en"].startswith("Table 1: Roll-off: ")
    assert lines["nl"].startswith("Tafel 1: Opgooien: ")
    assert lines["de"].startswith("Tisch 1: Auswürfeln: ")
