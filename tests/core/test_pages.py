"""The pages every visitor meets first."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_the_home_page_says_what_the_app_does_and_where_to_start(client):
    page = client.get("/").content.decode()
    assert "Your Bunko party, run from one laptop" in page
    assert 'href="/signin/"' in page
    assert 'href="/check/"' in page


@pytest.mark.django_db
def test_every_page_has_a_skip_link_and_a_main_landmark(client):
    for url in ["/", "/check/", "/signin/"]:
        page = client.get(url).content.decode()
        assert 'class="skip-link" href="#main"' in page, url
        assert '<main id="main"' in page, url


@pytest.mark.django_db
def test_htmx_is_served_by_the_laptop_itself_only_where_a_page_uses_it(client, django_user_model):
    from apps.parties import services

    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    client.force_login(host)
    console = client.get(f"/p/{party.code}/host/").content.decode()
    assert '<script src="/static/django_htmx/htmx' in console
    assert "unpkg" not in console and "cdn" not in console.lower()
    assert "htmx" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_host_signs_in_with_the_login_made_for_this_laptop(client, django_user_model):
    django_user_model.objects.create_user("host", password="party-time-21")
    response = client.post("/signin/", {"username": "host", "password": "party-time-21"})
    assert response.status_code == 302
    assert "Sign out host" in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_wrong_password_is_explained_on_the_form(client):
    response = client.post("/signin/", {"username": "host", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_the_qr_code_of_a_link_on_this_server_is_an_svg(client):
    response = client.get("/qr.svg", {"for": "/check/"})
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")


def test_no_qr_code_is_made_for_an_outside_address(client):
    assert client.get("/qr.svg", {"for": "//evil.example/"}).status_code == 400
    assert client.get("/qr.svg", {"for": "https://evil.example/"}).status_code == 400
