"""Signing in: wrong passwords are counted per username and address, and a browser that has
signed in as that username before counts on its own, so a guesser at the host's account
stops neither the host nor anyone else signing in from the same address."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.core import limits
from apps.core.limits import Rate

pytestmark = pytest.mark.django_db

RIGHT = {"username": "host", "password": "pw-long-enough"}
WRONG = {"username": "host", "password": "wrong"}


@pytest.fixture
def host(settings, django_user_model):
    settings.RATE_LIMITS = {"signin": Rate(6, 3, 600, limits.DEFAULTS["signin"].says)}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return django_user_model.objects.create_user("host", password=RIGHT["password"])


def browser(address: str = "10.0.0.7") -> Client:
    return Client(REMOTE_ADDR=address)


def test_a_guesser_at_the_hosts_account_from_fresh_browsers_is_stopped(host):
    answers = [browser().post("/signin/", WRONG).status_code for _ in range(5)]
    assert answers == [200, 200, 200, 429, 429]
    refused = browser().post("/signin/", RIGHT)  # a lock that the right guess opened stops none
    assert refused.status_code == 429 and "Too many sign-in" in refused.content.decode()
    assert browser("10.0.0.8").post("/signin/", RIGHT).status_code == 302


def test_the_host_signs_in_from_their_own_browser_while_someone_guesses_at_their_account(host):
    laptop = browser()
    assert laptop.post("/signin/", RIGHT).status_code == 302
    laptop.post("/signout/")
    for _ in range(8):
        browser().post("/signin/", WRONG)
    assert browser().post("/signin/", RIGHT).status_code == 429
    assert laptop.post("/signin/", RIGHT).status_code == 302
    assert laptop.get("/p/").status_code != 302  # signed in


def test_guesses_at_one_username_do_not_lock_another_out(host, django_user_model):
    django_user_model.objects.create_user("bea", password="bea-pw-long-enough")
    for _ in range(5):
        browser().post("/signin/", {"username": "bea", "password": "wrong"})
    assert browser().post("/signin/", RIGHT).status_code == 302


def test_the_right_password_is_not_counted_as_a_wrong_one(host):
    laptop = browser()
    for _ in range(7):
        assert laptop.post("/signin/", RIGHT).status_code == 302
        laptop.post("/signout/")
    assert browser().post("/signin/", RIGHT).status_code == 302


def test_a_browser_with_its_own_wrong_passwords_is_refused_until_its_window_ends(host):
    laptop = browser()
    assert laptop.post("/signin/", RIGHT).status_code == 302
    laptop.post("/signout/")
    answers = [laptop.post("/signin/", WRONG).status_code for _ in range(3)]
    assert answers == [200, 200, 200]
    refused = laptop.post("/signin/", RIGHT)
    assert refused.status_code == 429 and refused["Retry-After"] == "600"
    assert browser().post("/signin/", RIGHT).status_code == 302  # its mistakes are its own


def test_spraying_many_usernames_from_one_address_is_stopped(host):
    answers = [
        browser().post("/signin/", {"username": f"guess{n}", "password": "x"}).status_code
        for n in range(8)
    ]
    assert answers == [200] * 6 + [429, 429]
