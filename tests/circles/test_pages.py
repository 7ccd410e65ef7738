"""The circle's pages as people use them: forms through htmx (a part of the page comes
back) or plain (back to the page with a message), links that sign a phone in, and refusals
that say why."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin as django_admin
from django.test import Client

from apps.circles import services
from apps.circles.models import Circle, Member, Month, NightSeat, Rsvp, SwapRequest
from apps.circles.tokens import make_ask_token, make_invite
from apps.core.tokens import seat_cookie_name
from apps.parties.models import Table
from apps.parties.rules.table import TableState

from .conftest import as_member, first_month, host, tonight
from .nights import play_night

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def test_the_home_page_leads_to_the_circles(client):
    assert 'href="/c/"' in client.get("/").content.decode()


def test_an_admin_starts_a_circle_and_lands_on_its_members_page(client, admin):
    client.force_login(admin)
    response = client.post(
        "/c/new/",
        {
            "name": "Bunko Belles",
            "start": "2027-03",
            "week": "3",
            "weekday": "3",
            "time": "19:00",
            "timezone": "Europe/Amsterdam",
        },
    )
    circle = Circle.objects.get()
    assert response["Location"] == f"/c/{circle.code}/members/"
    assert circle.timezone == "Europe/Amsterdam" and circle.seasons.count() == 1
    page = client.get(response["Location"]).content.decode()
    assert "Invite people" in page and f"/c/{circle.code}/join/" in page


def test_the_links_an_admin_at_the_laptop_copies_open_on_a_phone(
    client, admin, circle, members, monkeypatch
):
    """At localhost the admin's browser names the laptop by a name no phone knows: the links
    shown and copied, and the QR codes, use the laptop's address on the Wi-Fi."""
    from apps.core import network
    from apps.core.qr import qr_svg

    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setattr(network, "_listening", None)
    client.force_login(admin)
    page = client.get(f"/c/{circle.code}/members/", HTTP_HOST="localhost:8211")
    page = page.content.decode()
    invite = f"http://192.168.1.20:8211/c/{circle.code}/join/"
    assert f'value="{invite}' in page and "localhost:8211" not in page
    path = invite.removeprefix("http://192.168.1.20:8211")
    token = page.split(f'value="{invite}', 1)[1].split('"', 1)[0]
    qr = client.get("/qr.svg", {"for": path + token}, HTTP_HOST="localhost:8211")
    assert qr.content.decode() == qr_svg(invite + token)
    member = client.get(
        f"/c/{circle.code}/members/{members['Bea'].pk}/", HTTP_HOST="localhost:8211"
    )
    assert "http://192.168.1.20:8211/c/" in member.content.decode()
    assert "localhost:8211" not in member.content.decode()


def test_starting_a_circle_needs_a_login(client):
    assert client.get("/c/new/")["Location"].startswith("/signin/")


def test_a_phone_joins_from_the_invite_link_and_stays_signed_in(client, circle):
    url = f"/c/{circle.code}/join/{make_invite(circle.pk, circle.invite_nonce, 'member')}/"
    assert "Join Bunko Belles" in client.get(url).content.decode()
    response = client.post(url, {"name": "Ann", "email": "ann@example.com"})
    assert response["Location"] == f"/c/{circle.code}/me/?welcome=1"
    assert circle.cookie_name in response.cookies
    page = client.get(f"/c/{circle.code}/").content.decode()
    assert "Are you coming on" in page
    # Opening the invite again on that phone does not make a second member.
    assert client.get(url)["Location"] == f"/c/{circle.code}/"
    assert Member.objects.filter(circle=circle).count() == 1


def test_a_stale_invite_link_says_so_and_a_forged_one_says_it_is_not_valid(client, circle):
    token = make_invite(circle.pk, circle.invite_nonce, "member")
    services.new_invite_links(circle.pk)
    response = client.post(f"/c/{circle.code}/join/{token}/", {"name": "Ann"})
    assert response.status_code == 400
    assert "replaced by a newer one" in response.content.decode()
    response = client.get(f"/c/{circle.code}/join/not-a-real-link/")
    assert response.status_code == 400 and "not valid" in response.content.decode()
    assert not Member.objects.exists()


def test_a_join_with_a_taken_name_shows_why_next_to_the_form(client, circle, members):
    url = f"/c/{circle.code}/join/{make_invite(circle.pk, circle.invite_nonce, 'member')}/"
    response = client.post(url, {"name": "ann"})
    assert response.status_code == 400
    assert "already a member called Ann" in response.content.decode()


def test_an_rsvp_through_htmx_returns_the_answer_buttons_with_the_answer_chosen(
    client, circle, members
):
    month = first_month(circle)
    as_member(client, members["Bea"])
    url = f"/c/{circle.code}/months/{month.pk}/rsvp/"
    response = client.post(url, {"answer": "maybe"}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and page.lstrip().startswith(f'<div id="rsvp-{month.pk}"')
    assert 'value="maybe" aria-pressed="true"' in page
    assert Rsvp.objects.get(member=members["Bea"]).answer == "maybe"
    # Without htmx: back to the page (of this server only).
    response = client.post(url, {"answer": "yes", "next": f"/c/{circle.code}/"})
    assert response["Location"] == f"/c/{circle.code}/"
    response = client.post(url, {"answer": "yes", "next": "https://elsewhere.example/"})
    assert response["Location"] == f"/c/{circle.code}/months/{month.pk}/"


def test_an_rsvp_after_the_night_started_shows_the_reason_and_changes_nothing(
    client, admin, circle, members
):
    month = tonight(first_month(circle))
    host(month, members["Ann"])
    for name in ["Bea", "Cal", "Dot"]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    services.start_night(month.pk, admin)
    as_member(client, members["Eve"])
    response = client.post(
        f"/c/{circle.code}/months/{month.pk}/rsvp/", {"answer": "yes"}, headers=HTMX
    )
    assert response.status_code == 400
    assert "already started" in response.content.decode()
    assert not Rsvp.objects.filter(member=members["Eve"]).exists()


def test_the_planner_button_returns_the_new_schedule(client, admin, circle, members):
    client.force_login(admin)
    season = circle.seasons.get()
    response = client.post(f"/c/{circle.code}/plan/{season.pk}/", headers=HTMX)
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="season">')
    assert "The schedule is made" in page
    assert "no host" not in page
    for name in members:
        assert name in page


def test_the_host_asks_the_substitutes_and_sees_who_was_asked(client, circle, members, subs):
    month = first_month(circle)
    host(month, members["Ann"])
    for name in ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    as_member(client, members["Ann"])
    page = client.get(f"/c/{circle.code}/months/{month.pk}/").content.decode()
    assert "1 seat short of 2 full tables of 4" in page
    response = client.post(f"/c/{circle.code}/months/{month.pk}/substitutes/", headers=HTMX)
    page = response.content.decode()
    assert "Asked Sue." in page and "Waiting for Sue to answer." in page


def sue_asked_for_annes_night(circle, members):
    """Ann hosts the first month, seven are coming: one seat short, and Sue is asked."""
    month = first_month(circle)
    host(month, members["Ann"])
    for name in ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus"]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    (ask,) = services.ask_substitutes(month.pk)
    return month, ask


def test_a_substitute_accepts_from_the_link_and_the_link_then_says_so(
    client, circle, members, subs
):
    month, ask = sue_asked_for_annes_night(circle, members)
    url = f"/c/sub/{make_ask_token(ask.pk, ask.nonce)}/"
    page = client.get(url).content.decode()
    assert "Sue, can you fill a seat?" in page and "Yes, I'll come" in page
    page = client.post(url, {"answer": "accept"}, headers=HTMX).content.decode()
    assert "See you there!" in page
    assert Rsvp.objects.get(member=subs["Sue"]).answer == "yes"
    assert "You're coming" in client.get(url).content.decode()
    assert client.get("/c/sub/forged-link/").status_code == 400


def test_a_dutch_substitute_reads_whose_home_and_a_dutch_host_reads_the_answers_in_dutch(
    client, circle, members, subs
):
    month, ask = sue_asked_for_annes_night(circle, members)
    subs["Sue"].language = "nl"
    subs["Sue"].save(update_fields=["language"])
    url = f"/c/sub/{make_ask_token(ask.pk, ask.nonce)}/"
    page = client.get(url).content.decode()
    assert "Bij Ann" in page and "Ann's" not in page and "Om Ann" not in page
    members["Ann"].language = "nl"
    members["Ann"].save(update_fields=["language"])
    as_member(client, members["Ann"])
    page = client.get(f"/c/{circle.code}/months/{month.pk}/").content.decode()
    assert ">gevraagd," in page and ">asked" not in page


def test_the_month_page_shows_the_hosts_checklist_and_the_admin_sees_it(
    client, admin, circle, members
):
    month = first_month(circle)
    host(month, members["Ann"])
    as_member(client, members["Ann"])
    url = f"/c/{circle.code}/months/{month.pk}/checklist/"
    page = client.post(url, {"item": "food", "done": "on"}, headers=HTMX).content.decode()
    assert 'aria-checked="true"' in page
    assert Month.objects.get(pk=month.pk).food_ready
    admin_client = Client()
    admin_client.force_login(admin)
    assert "checklist 1/4" in admin_client.get(f"/c/{circle.code}/").content.decode()


def test_starting_the_night_needs_a_login_and_then_opens_the_host_console(client, circle, members):
    month = tonight(first_month(circle))
    host(month, members["Ann"])
    for name in ["Bea", "Cal", "Dot"]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    as_member(client, members["Ann"])
    url = f"/c/{circle.code}/months/{month.pk}/start/"
    response = client.post(url, headers=HTMX)
    assert response.status_code == 400 and "with a login" in response.content.decode()
    response = client.post(
        f"/c/{circle.code}/me/login/",
        {"username": "ann", "password1": "ann-long-pass-21", "password2": "ann-long-pass-21"},
    )
    assert response.status_code == 302
    response = client.post(url, headers=HTMX)
    month.refresh_from_db()
    assert response["HX-Redirect"] == f"/p/{month.party.code}/host/"
    assert client.get(response["HX-Redirect"]).status_code == 200  # Ann runs her night


def test_a_member_at_the_night_joins_it_as_themselves_from_the_month_page(
    client, admin, circle, members
):
    month = tonight(first_month(circle))
    host(month, members["Ann"])
    for name in ["Bea", "Cal", "Dot"]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    party = services.start_night(month.pk, admin)
    as_member(client, members["Bea"])
    page = client.get(f"/c/{circle.code}/months/{month.pk}/").content.decode()
    assert "join the night as Bea" in page
    response = client.post(f"/c/{circle.code}/months/{month.pk}/arrive/")
    assert response["Location"] == f"/p/{party.code}/"
    assert seat_cookie_name(party.scope) in response.cookies
    page = client.get(f"/p/{party.code}/").content.decode()
    assert "You are <strong>Bea</strong>" in page
    page = client.get(f"/c/{circle.code}/months/{month.pk}/").content.decode()
    assert "Back to my seat" in page


def test_a_swap_asked_on_one_phone_is_accepted_on_the_other_and_the_admin_sees_it(
    admin, circle, members
):
    first = first_month(circle)
    second = Month.objects.get(season__circle=circle, index=1)
    host(first, members["Ann"])
    host(second, members["Bea"])
    ann, bea, boss = Client(), Client(), Client()
    as_member(ann, members["Ann"])
    as_member(bea, members["Bea"])
    boss.force_login(admin)
    page = ann.post(
        f"/c/{circle.code}/swaps/ask/",
        {"month": first.pk, "target": f"{second.pk}:{members['Bea'].pk}"},
        headers=HTMX,
    ).content.decode()
    assert "Asked Bea to swap" in page
    page = bea.get(f"/c/{circle.code}/").content.decode()
    assert "Ann asks to swap" in page and "Accept the swap" in page
    swap = SwapRequest.objects.get()
    accepted = bea.post(
        f"/c/{circle.code}/swaps/answer/", {"swap": swap.pk, "answer": "accept"}, headers=HTMX
    )
    assert f"you now host {first.name}" in accepted.content.decode()
    # The accepter's page reads its schedule again (the refresher's event), and the schedule
    # it gets names Bea as the first month's host.
    assert accepted["HX-Trigger"] == "circle-changed"
    page = bea.get(f"/c/{circle.code}/").content.decode()
    refresher = page.split('hx-trigger="circle-changed from:body"', 1)[0].rsplit("<div", 1)[1]
    assert f'hx-get="/c/{circle.code}/"' in refresher
    schedule = page.split('id="schedule-list"', 1)[1].split("</ol>", 1)[0]
    first_row = schedule.split('class="month-row', 2)[1]
    assert "Bea" in first_row and "Ann" not in first_row
    page = boss.get(f"/c/{circle.code}/").content.decode()
    assert f"Swapped: Bea now hosts {first.name}, Ann hosts {second.name}." in page


def test_the_standings_page_shows_the_season_and_follows_a_correction(
    client, admin, circle, members
):
    circle.dice_mode = "physical"
    circle.save()
    month = tonight(first_month(circle))
    host(month, members["Ann"])
    for name in ["Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]:
        services.set_rsvp(month.pk, members[name].pk, "yes")
    party = play_night(services.start_night(month.pk, admin), rounds=1)
    client.force_login(admin)
    page = client.get(f"/c/{circle.code}/standings/").content.decode()
    assert "Wins per night" in page and "<svg" in page and "Bunkos over the season" in page
    # The host corrects the first real roll at the head table into a Bunko-free miss by the
    # night's own correction form; the standings are read afresh.
    head = Table.objects.get(party=party, round=1, number=1)
    state = TableState.from_json(head.state)
    index = next(i for i, e in enumerate(state.entries) if e["action"].get("kind") == "sixes")
    response = client.post(
        f"/p/{party.code}/host/correct/",
        {"table": head.pk, "index": index, "replacement": "wipeout", "reason": "It was 1-1-1"},
    )
    assert response.status_code == 302
    roller = NightSeat.objects.get(player_id=head.seats[state.entries[index]["seat"]]).member
    history = client.get(f"/c/{circle.code}/standings/{roller.pk}/").content.decode()
    assert "<td>1</td>" in history  # the new wipeout in the member's own history


def test_the_django_admin_registers_every_model_of_the_app():
    models = set(apps.get_app_config("circles").get_models())
    assert models and models <= set(django_admin.site._registry)


def test_a_phone_lists_the_circles_it_is_signed_in_to_and_can_sign_out(client, circle, members):
    as_member(client, members["Bea"])
    assert "Bunko Belles" in client.get("/c/").content.decode()
    response = client.post(f"/c/{circle.code}/me/forget/")
    assert response["Location"] == "/c/"
    assert client.get(f"/c/{circle.code}/").status_code == 404


def test_the_admin_saves_the_settings_and_the_prizes_with_htmx(client, admin, circle):
    client.force_login(admin)
    page = client.post(
        f"/c/{circle.code}/settings/",
        {
            "name": "Bunko Babes",
            "week": "2",
            "weekday": "4",
            "time": "20:00",
            "timezone": "Europe/Amsterdam",
            "reminder_days": "2",
            "answer_hours": "200",
            "rounds": "6",
            "dice_mode": "physical",
        },
        headers=HTMX,
    )
    assert page.status_code == 400 and "168 hours" in page.content.decode()
    assert Circle.objects.get(pk=circle.pk).name == "Bunko Belles"
    page = client.post(
        f"/c/{circle.code}/settings/prizes/",
        {"use_most_wins": "on", "name_most_wins": "Queen Bee", "use_consolation": "on"},
        headers=HTMX,
    )
    assert page.status_code == 200
    assert [c["name"] for c in Circle.objects.get(pk=circle.pk).prize_categories] == [
        "Queen Bee",
        "Consolation prize",
    ]
    page = client.post(f"/c/{circle.code}/settings/prizes/", {}, headers=HTMX)
    assert page.status_code == 400 and "at least one prize" in page.content.decode()


def test_planning_without_members_says_why_next_to_the_button(client, admin, circle):
    client.force_login(admin)
    season = circle.seasons.get()
    response = client.post(f"/c/{circle.code}/plan/{season.pk}/", headers=HTMX)
    assert response.status_code == 400
    assert "Invite the members first" in response.content.decode()


def test_mails_sent_later_point_at_the_laptops_network_address_not_localhost(
    monkeypatch, rf, settings
):
    from apps.circles.views import common

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "bunko.example.org"]  # a public server
    monkeypatch.setattr(common, "lan_addresses", lambda: ["192.168.1.20"])
    assert common.site_of(rf.get("/", HTTP_HOST="localhost:8000")) == "http://192.168.1.20:8000/"
    assert common.site_of(rf.get("/", HTTP_HOST="bunko.example.org")) == (
        "http://bunko.example.org/"
    )


def test_the_member_page_opens_at_its_top_with_no_field_taking_the_focus(client, circle, members):
    as_member(client, members["Ann"])
    page = client.get(f"/c/{circle.code}/me/").content.decode()
    assert "Your details" in page and "autofocus" not in page


def test_made_up_invite_and_member_links_count_as_guesses(client, circle, settings):
    from apps.core import limits
    from apps.core.limits import Rate

    settings.RATE_LIMITS = {"code": Rate(3, 3, 600, limits.DEFAULTS["code"].says)}
    answers = [client.get(f"/c/{circle.code}/join/made-up-{n}/").status_code for n in range(2)]
    answers.append(client.get(f"/c/{circle.code}/m/made-up/").status_code)
    assert answers == [400, 400, 400]
    assert client.get(f"/c/{circle.code}/m/made-up-too/").status_code == 429


def test_every_dead_end_is_a_page_in_the_visitors_language_with_a_way_on(client, circle, members):
    """An unknown circle or month, a member on an admin's page, a form's address opened by
    itself: each a styled page in the visitor's language, with a way on."""
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    nowhere = client.get("/c/NOPE9/", **german)
    assert nowhere.status_code == 404
    page = nowhere.content.decode()
    assert "Hier ist nichts" in page and 'href="/c/"' in page and "site.css" in page
    month = client.get(f"/c/{circle.code}/months/999999/", **german)
    assert month.status_code == 404 and "Hier ist nichts" in month.content.decode()

    members["Dot"].language = "nl"
    members["Dot"].save(update_fields=["language"])
    as_member(client, members["Dot"])
    refused = client.get(f"/c/{circle.code}/members/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert ">Dot</a>" in page and ">Sign in<" not in page and "Inloggen" not in page
    assert 'lang="nl"' in page

    form_only = client.get(f"/c/{circle.code}/settings/prizes/", **german)
    assert form_only.status_code == 405 and "POST" in form_only["Allow"]
    assert "Nutze die Knöpfe der Seite" in form_only.content.decode()


def test_a_member_who_adds_the_circle_to_the_home_screen_comes_back_to_the_circle(
    client, circle, members
):
    as_member(client, members["Bea"])
    page = client.get(f"/c/{circle.code}/").content.decode()
    link = f'rel="manifest" href="/manifest.webmanifest?start=/c/{circle.code}/"'
    assert link in page
    manifest = client.get(f"/manifest.webmanifest?start=/c/{circle.code}/").json()
    assert manifest["start_url"] == f"/c/{circle.code}/?from=home-screen"
    # Only a circle's page may be asked for: anything else opens the party home.
    for elsewhere in ("https://evil.example/", "//evil.example/c/X/", "/c/A/../../admin/"):
        asked = client.get("/manifest.webmanifest", {"start": elsewhere}).json()
        assert asked["start_url"] == "/?from=home-screen"
    # A phone not signed in to the circle keeps the party home's icon.
    stranger = Client().get("/c/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in stranger


def test_a_server_error_is_a_page_in_the_visitors_language_with_a_way_on(rf):
    from django.utils import translation
    from django.views.defaults import server_error

    with translation.override("nl"):
        response = server_error(rf.get("/c/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Er ging iets mis" in page and "Naar de startpagina" in page and "site.css" in page
