"""Who may do what: every view of the circles app for every role.

Roles: nobody (a phone without a link), another circle's admin, this circle's admin, the
month's host, a member, a substitute. Someone outside the circle gets the same "not found" as
for a wrong code (a guess, counted as one); someone in it whose role the view is not for reads
why (status 403); either way nothing changes. A role the view is for gets past the door (a
refusal after that is the service's, with its own sentence and status 400)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from apps.circles import services
from apps.circles.models import (
    Activity,
    Circle,
    Hosting,
    Member,
    Month,
    NightSeat,
    Rsvp,
    Season,
    SubstituteAsk,
    SwapRequest,
)
from apps.parties.models import Party

from .conftest import as_member, first_month, host

pytestmark = pytest.mark.django_db

ROLES = ["nobody", "outsider", "admin", "host", "member", "substitute"]
OUTSIDE = {"nobody", "outsider"}
EVERYONE_IN = {"admin", "host", "member", "substitute"}
ADMIN = {"admin"}
RUNNERS = {"admin", "host"}  # the month's host, or the admin standing in
MEMBERS = {"host", "member"}  # members proper (substitutes are asked, they don't RSVP)

# view -> (method, url (from the objects), data, roles it is for)
VIEWS = {
    "circle": ("get", "/c/{code}/", {}, EVERYONE_IN),
    "standings": ("get", "/c/{code}/standings/", {}, EVERYONE_IN),
    "history": ("get", "/c/{code}/standings/{bea}/", {}, EVERYONE_IN),
    "month": ("get", "/c/{code}/months/{month}/", {}, EVERYONE_IN),
    "me": ("get", "/c/{code}/me/", {}, {"host", "member", "substitute"}),
    "me-save": (
        "post",
        "/c/{code}/me/",
        {"name": "Renamed"},
        {"host", "member", "substitute"},
    ),
    "language": (
        "post",
        "/c/{code}/me/language/",
        {"language": "nl"},
        {"host", "member", "substitute"},
    ),
    "signup": (
        "post",
        "/c/{code}/me/login/",
        {"username": "newlogin", "password1": "long-pass-2121", "password2": "long-pass-2121"},
        {"host", "member", "substitute"},
    ),
    "forget": ("post", "/c/{code}/me/forget/", {}, EVERYONE_IN),
    "members": ("get", "/c/{code}/members/", {}, ADMIN),
    "member": ("get", "/c/{code}/members/{bea}/", {}, ADMIN),
    "member-save": ("post", "/c/{code}/members/{bea}/", {"name": "Beatrix"}, ADMIN),
    "add-member": ("post", "/c/{code}/members/add/", {"name": "Zed", "kind": "member"}, ADMIN),
    "move-substitute": (
        "post",
        "/c/{code}/members/move/",
        {"member": "{sue}", "step": "1"},
        ADMIN,
    ),
    "set-kind": (
        "post",
        "/c/{code}/members/kind/",
        {"member": "{bea}", "kind": "substitute"},
        ADMIN,
    ),
    "remove-member": ("post", "/c/{code}/members/remove/", {"member": "{bea}"}, ADMIN),
    "new-invites": ("post", "/c/{code}/members/invites/", {}, ADMIN),
    "mail-invites": (
        "post",
        "/c/{code}/members/invites/mail/",
        {"addresses": "x@example.com", "kind": "member"},
        ADMIN,
    ),
    "reset-link": ("post", "/c/{code}/members/{bea}/link/", {}, ADMIN),
    "admin-login": (
        "post",
        "/c/{code}/members/{bea}/login/",
        {"member": "{bea}", "username": "bealogin", "password": "long-pass-2121"},
        ADMIN,
    ),
    "settings": ("get", "/c/{code}/settings/", {}, ADMIN),
    "settings-save": (
        "post",
        "/c/{code}/settings/",
        {
            "name": "Renamed",
            "week": "1",
            "weekday": "4",
            "time": "20:00",
            "timezone": "UTC",
            "reminder_days": "2",
            "answer_hours": "12",
            "rounds": "6",
            "dice_mode": "virtual",
        },
        ADMIN,
    ),
    "prizes": ("post", "/c/{code}/settings/prizes/", {"use_most_wins": "on"}, ADMIN),
    "new-feed": ("post", "/c/{code}/settings/calendar/", {}, ADMIN),
    "plan": ("post", "/c/{code}/plan/{season}/", {}, ADMIN),
    "new-season": ("post", "/c/{code}/seasons/new/", {}, ADMIN),
    "edit-month": (
        "post",
        "/c/{code}/months/{month}/edit/",
        {"date": "{date}", "time": "20:15", "place": "The Barn", "host_note": ""},
        RUNNERS,
    ),
    "tick": (
        "post",
        "/c/{code}/months/{month}/checklist/",
        {"item": "food", "done": "on"},
        RUNNERS,
    ),
    "fill": ("post", "/c/{code}/months/{month}/fill/", {"fill": "ghosts"}, RUNNERS),
    "ask-substitutes": ("post", "/c/{code}/months/{month}/substitutes/", {}, RUNNERS),
    "start": ("post", "/c/{code}/months/{month}/start/", {}, RUNNERS),
    "rsvp": ("post", "/c/{code}/months/{month}/rsvp/", {"answer": "yes"}, MEMBERS),
    "arrive": ("post", "/c/{code}/months/{month}/arrive/", {}, EVERYONE_IN),
    "request-swap": (
        "post",
        "/c/{code}/swaps/ask/",
        {"month": "{month}", "target": "{other_month}:{cal}"},
        MEMBERS,
    ),
    "answer-swap": (
        "post",
        "/c/{code}/swaps/answer/",
        {"swap": "{swap}", "answer": "accept"},
        MEMBERS,
    ),
    "cancel-swap": ("post", "/c/{code}/swaps/cancel/", {"swap": "{swap}"}, MEMBERS),
}

# The matrix as a table: what each role may do, every view listed once.
MATRIX = {name: {role: role in roles for role in ROLES} for name, (*_, roles) in VIEWS.items()}


def fingerprint() -> tuple:
    """Everything a request could change, to see that a refused one changed nothing."""
    models = [
        Circle,
        Member,
        Season,
        Month,
        Hosting,
        Rsvp,
        SubstituteAsk,
        SwapRequest,
        NightSeat,
        Activity,
        Party,
    ]
    rows = tuple(tuple(sorted(map(str, m.objects.values_list()))) for m in models)
    users = tuple(get_user_model().objects.values_list("username", "password").order_by("pk"))
    return rows, users


@pytest.fixture
def world(admin, outsider, circle, members, subs):
    month = first_month(circle)
    other = Month.objects.filter(season__circle=circle, index=1).get()
    host(month, members["Ann"])
    host(other, members["Cal"])
    swap = services.request_swap(members["Ann"].pk, month.pk, other.pk, members["Cal"].pk)
    clients = {role: Client() for role in ROLES}
    clients["outsider"].force_login(outsider)
    clients["admin"].force_login(admin)
    as_member(clients["host"], members["Ann"])
    as_member(clients["member"], members["Bea"])
    as_member(clients["substitute"], subs["Sue"])
    values = {
        "code": circle.code,
        "month": month.pk,
        "other_month": other.pk,
        "season": circle.seasons.get().pk,
        "bea": members["Bea"].pk,
        "cal": members["Cal"].pk,
        "sue": subs["Sue"].pk,
        "swap": swap.pk,
        "date": month.date.isoformat(),
    }
    return clients, values


def call(client: Client, view: str, values: dict, htmx: bool = False):
    method, url, data, _roles = VIEWS[view]
    url = url.format(**values)
    data = {k: v.format(**values) for k, v in data.items()}
    headers = {"HX-Request": "true"} if htmx else {}
    return getattr(client, method)(url, data, headers=headers)


def main_of(page: str) -> str:
    """What a page says (its <main>), apart from the header's sign-in or sign-out and the
    per-answer CSRF token: the same for an existing circle and a wrong code."""
    return page.split('<main id="main"', 1)[1].split("</main>", 1)[0]


@pytest.mark.parametrize("view", list(VIEWS))
def test_every_view_lets_in_only_the_roles_it_is_for(world, view):
    clients, values = world
    for role in ROLES:
        before = None if MATRIX[view][role] else fingerprint()
        with transaction.atomic():
            response = call(clients[role], view, values)
            text = response.content.decode()
            if MATRIX[view][role]:
                assert response.status_code not in (403, 404, 500), (role, text[:500])
            elif role in OUTSIDE:
                assert response.status_code == 404, (role, response.status_code)
                wrong_code = call(clients[role], view, {**values, "code": "QQQQQ"})
                assert main_of(text) == main_of(wrong_code.content.decode()), (role, text[:800])
                assert fingerprint() == before, role
            else:
                assert response.status_code == 403, (role, response.status_code)
                assert 'role="alert"' in text and ("Only" in text or "not one of its" in text), (
                    role,
                    text[:800],
                )
                assert fingerprint() == before, role
            transaction.set_rollback(True)  # each role starts from the same circle


def test_the_matrix_names_what_each_role_may_do():
    may = {role: sorted(v for v, row in MATRIX.items() if row[role]) for role in ROLES}
    assert may["nobody"] == may["outsider"] == []
    assert set(may["substitute"]) == {
        "arrive", "circle", "forget", "history", "language", "me", "me-save", "month",
        "signup", "standings",
    }  # fmt: skip
    assert set(may["member"]) == set(may["substitute"]) | {
        "rsvp", "request-swap", "answer-swap", "cancel-swap",
    }  # fmt: skip
    assert set(may["host"]) == set(may["member"]) | {
        "edit-month", "tick", "fill", "ask-substitutes", "start",
    }  # fmt: skip
    assert "me" not in may["admin"] and "members" in may["admin"] and "start" in may["admin"]


def test_an_outsider_who_guesses_a_circles_code_learns_nothing_and_is_counted(world, settings):
    from apps.core import limits
    from apps.core.limits import Rate

    settings.RATE_LIMITS = {"code": Rate(6, 3, 600, limits.DEFAULTS["code"].says)}
    clients, values = world
    before = fingerprint()
    response = call(clients["outsider"], "plan", values)
    wrong = call(clients["outsider"], "plan", {**values, "code": "QQQQQ"})
    assert response.status_code == wrong.status_code
    assert main_of(response.content.decode()) == main_of(wrong.content.decode())
    assert response.status_code == 404 and "Belles" not in response.content.decode()
    assert call(clients["outsider"], "circle", values).status_code == 404
    assert call(clients["outsider"], "circle", values).status_code == 429  # out of its 3 guesses
    assert fingerprint() == before


def test_a_refused_htmx_request_shows_its_message_in_the_pages_alert(world):
    clients, values = world
    response = call(clients["member"], "tick", values, htmx=True)
    assert response.status_code == 403
    assert response["HX-Retarget"] == "#circle-error"
    assert "(or the circle&#x27;s admin) can do that" in response.content.decode()


def test_the_host_of_one_month_does_not_run_another(world):
    clients, values = world
    before = fingerprint()
    response = call(clients["host"], "tick", {**values, "month": values["other_month"]})
    assert response.status_code == 403
    assert fingerprint() == before


def test_a_member_link_for_one_circle_opens_no_other(world, outsider):
    clients, values = world
    other = Circle.objects.get(admin=outsider)
    response = clients["member"].get(f"/c/{other.code}/")
    assert response.status_code == 404
