"""Who may open what: every URL of the product and every socket action, for each role.

Roles: ``anonymous`` (a phone with no link), ``player`` (a phone that joined this night),
``stranger`` (a phone that joined another night), ``host`` (this night's host), ``other_host``
(another night's host) and ``circle_admin`` (a circle's admin, not this night's host).
The URL patterns are read from Django's resolver, so a new URL fails here until its row is
added. Outcomes: ``ok`` (past the door: a page, a redirect onward or a form's own refusal),
``login`` (302 to the sign-in page), ``403`` and ``404``.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from apps.circles import services as circles
from apps.circles.tokens import make_feed_token, make_invite, make_member_token
from apps.core.tokens import seat_cookie_name
from apps.games import services as rooms
from apps.parties import services as nights
from apps.parties.models import Table
from apps.parties.views.sheets import results_token

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "stranger", "host", "other_host", "circle_admin")
NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]


def outcomes(**by_role: str) -> dict[str, str]:
    """A row: ``everyone`` sets the default, named roles differ from it."""
    default = by_role.pop("everyone", "ok")
    return {role: by_role.get(role, default) for role in ROLES}


PUBLIC = outcomes()
HOST_ONLY = outcomes(everyone="login", player="login", host="ok", other_host="403")
HOST_ONLY.update(circle_admin="403")
SIGNED_IN = outcomes(anonymous="login", player="login", stranger="login")
# Outside a circle its pages answer as a wrong code would: 404 (counted as a guess).
CIRCLE_ADMIN = outcomes(everyone="404", circle_admin="ok")
CIRCLE_ADMIN_SIGNED_IN = outcomes(everyone="404", circle_admin="ok")
CIRCLE_MEMBER = outcomes(everyone="404", circle_admin="403")  # the admin is no member

# route -> (method, path with {names}, outcomes per role[, form data with {names}])
URLS: dict[str, tuple] = {
    "": ("get", "/", PUBLIC),
    "check/": ("get", "/check/", PUBLIC),
    "qr.svg": ("get", "/qr.svg?text=x", PUBLIC),
    "favicon.ico": ("get", "/favicon.ico", PUBLIC),
    "how/<slug:game>/": ("get", "/how/bunko/", PUBLIC),
    "manifest.webmanifest": ("get", "/manifest.webmanifest", PUBLIC),
    "sw.js": ("get", "/sw.js", PUBLIC),
    "offline/": ("get", "/offline/", PUBLIC),
    "i18n/setlang/": ("post", "/i18n/setlang/", PUBLIC, {"language": "nl", "next": "/"}),
    "signin/": ("get", "/signin/", PUBLIC),
    "signout/": ("post", "/signout/", PUBLIC),
    "admin/": ("get", "/admin/", outcomes(everyone="login")),
    # game rooms: open to whoever has the code; a seat's phone acts on its socket
    "games/": ("get", "/games/", PUBLIC),
    "games/new/": ("post", "/games/new/", PUBLIC, {"game": "mbogo", "name": "Zoe"}),
    "games/join/": ("post", "/games/join/", PUBLIC, {"code": "{room}"}),
    "rooms/<code:code>/": ("get", "/rooms/{room}/", PUBLIC),
    "rooms/<code:code>/sit/": ("post", "/rooms/{room}/sit/", PUBLIC, {"slot": "1", "name": "Zoe"}),
    "rooms/<code:code>/screen/": ("get", "/rooms/{room}/screen/", PUBLIC),
    # an invitation from a night's phone, signed: without one, refused for everyone alike
    "rooms/<code:code>/invited/": (
        "post",
        "/rooms/{room}/invited/",
        outcomes(everyone="400"),
        {"invite": "not-signed"},
    ),
    # a night: its phone pages and big screen by code; its console for its host alone
    "join/": ("get", "/join/", PUBLIC),
    "p/": ("get", "/p/", SIGNED_IN),
    "p/new/": ("get", "/p/new/", SIGNED_IN),
    "p/<code:code>/": ("get", "/p/{party}/", PUBLIC),
    "p/<code:code>/join/": ("get", "/p/{party}/join/", PUBLIC),
    "p/<code:code>/screen/": ("get", "/p/{party}/screen/", PUBLIC),
    "p/<code:code>/sheet/": ("get", "/p/{party}/sheet/", PUBLIC),
    "results/<str:token>/": ("get", "/results/{results}/", PUBLIC),
    "p/<code:code>/host/": ("get", "/p/{party}/host/", HOST_ONLY),
    "p/<code:code>/host/blank-sheets/": ("get", "/p/{party}/host/blank-sheets/", HOST_ONLY),
    "p/<code:code>/host/night.csv": ("get", "/p/{party}/host/night.csv", HOST_ONLY),
    "p/<code:code>/host/correct/": ("post", "/p/{party}/host/correct/", HOST_ONLY),
    "p/<code:code>/host/table/": ("post", "/p/{party}/host/table/", HOST_ONLY),
    "p/<code:code>/host/player/<int:player_id>/": (
        "get",
        "/p/{party}/host/player/{ann}/",
        HOST_ONLY,
    ),
    "p/<code:code>/host/table/<int:table_id>/<slug:part>/": (
        "get",
        "/p/{party}/host/table/{table}/correct/",
        HOST_ONLY,
    ),
    "p/<code:code>/host/<slug:action>/": ("post", "/p/{party}/host/rename/", HOST_ONLY),
    "p/<code:code>/host/prizes/": ("get", "/p/{party}/host/prizes/", HOST_ONLY),
    "p/<code:code>/host/awards/": ("post", "/p/{party}/host/awards/", HOST_ONLY),
    # circles (their own roles are in tests/circles/test_permissions.py)
    "c/": ("get", "/c/", PUBLIC),
    "c/new/": ("get", "/c/new/", SIGNED_IN),
    "c/sub/<str:token>/": ("get", "/c/sub/not-a-token/", outcomes(everyone="400")),
    "c/<code:code>/": ("get", "/c/{circle}/", CIRCLE_ADMIN),
    "c/<code:code>/plan/<int:season_id>/": ("post", "/c/{circle}/plan/{season}/", CIRCLE_ADMIN),
    "c/<code:code>/seasons/new/": ("post", "/c/{circle}/seasons/new/", CIRCLE_ADMIN),
    "c/<code:code>/settings/": ("get", "/c/{circle}/settings/", CIRCLE_ADMIN),
    "c/<code:code>/settings/prizes/": (
        "post",
        "/c/{circle}/settings/prizes/",
        CIRCLE_ADMIN,
        {"use_most_wins": "on"},
    ),
    "c/<code:code>/settings/calendar/": ("post", "/c/{circle}/settings/calendar/", CIRCLE_ADMIN),
    "c/<code:code>/calendar/<str:token>.ics": ("get", "/c/{circle}/calendar/{feed}.ics", PUBLIC),
    "c/<code:code>/standings/": ("get", "/c/{circle}/standings/", CIRCLE_ADMIN),
    "c/<code:code>/standings/<int:member_id>/": (
        "get",
        "/c/{circle}/standings/{bea}/",
        CIRCLE_ADMIN,
    ),
    # signed links: whoever holds one is let in (a wrong one is refused in words)
    "c/<code:code>/join/<str:token>/": ("get", "/c/{circle}/join/{invite}/", PUBLIC),
    "c/<code:code>/m/<str:token>/": ("get", "/c/{circle}/m/{member_link}/", PUBLIC),
    "c/<code:code>/me/": ("get", "/c/{circle}/me/", CIRCLE_MEMBER),
    "c/<code:code>/me/language/": ("post", "/c/{circle}/me/language/", CIRCLE_MEMBER),
    "c/<code:code>/me/login/": ("post", "/c/{circle}/me/login/", CIRCLE_MEMBER),
    "c/<code:code>/me/forget/": ("post", "/c/{circle}/me/forget/", CIRCLE_ADMIN),
    "c/<code:code>/members/": ("get", "/c/{circle}/members/", CIRCLE_ADMIN),
    "c/<code:code>/members/add/": ("post", "/c/{circle}/members/add/", CIRCLE_ADMIN),
    "c/<code:code>/members/move/": ("post", "/c/{circle}/members/move/", CIRCLE_ADMIN),
    "c/<code:code>/members/kind/": ("post", "/c/{circle}/members/kind/", CIRCLE_ADMIN),
    "c/<code:code>/members/remove/": ("post", "/c/{circle}/members/remove/", CIRCLE_ADMIN),
    "c/<code:code>/members/invites/": ("post", "/c/{circle}/members/invites/", CIRCLE_ADMIN),
    "c/<code:code>/members/invites/mail/": (
        "post",
        "/c/{circle}/members/invites/mail/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/members/<int:member_id>/": ("get", "/c/{circle}/members/{bea}/", CIRCLE_ADMIN),
    "c/<code:code>/members/<int:member_id>/link/": (
        "post",
        "/c/{circle}/members/{bea}/link/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/members/<int:member_id>/login/": (
        "post",
        "/c/{circle}/members/{bea}/login/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/months/<int:month_id>/": ("get", "/c/{circle}/months/{month}/", CIRCLE_ADMIN),
    "c/<code:code>/months/<int:month_id>/edit/": (
        "post",
        "/c/{circle}/months/{month}/edit/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/months/<int:month_id>/rsvp/": (
        "post",
        "/c/{circle}/months/{month}/rsvp/",
        CIRCLE_MEMBER,
    ),
    "c/<code:code>/months/<int:month_id>/checklist/": (
        "post",
        "/c/{circle}/months/{month}/checklist/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/months/<int:month_id>/fill/": (
        "post",
        "/c/{circle}/months/{month}/fill/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/months/<int:month_id>/substitutes/": (
        "post",
        "/c/{circle}/months/{month}/substitutes/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/months/<int:month_id>/start/": (
        "post",
        "/c/{circle}/months/{month}/start/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/months/<int:month_id>/arrive/": (
        "post",
        "/c/{circle}/months/{month}/arrive/",
        CIRCLE_ADMIN,
    ),
    "c/<code:code>/swaps/ask/": ("post", "/c/{circle}/swaps/ask/", CIRCLE_MEMBER),
    "c/<code:code>/swaps/answer/": ("post", "/c/{circle}/swaps/answer/", CIRCLE_MEMBER),
    "c/<code:code>/swaps/cancel/": ("post", "/c/{circle}/swaps/cancel/", CIRCLE_MEMBER),
}


def url_routes() -> set[str]:
    """Every URL pattern of the product, the admin counted as one."""

    def walk(resolver: URLResolver, prefix: str = ""):
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if route == "admin/":
                    yield route
                else:
                    yield from walk(pattern, route)
            elif isinstance(pattern, URLPattern):
                yield route

    return set(walk(get_resolver()))


def outcome(response) -> str:
    status = response.status_code
    if status == 302 and response["Location"].split("?")[0] in ("/signin/", "/admin/login/"):
        return "login"
    if status in (403, 404, 400, 429, 500, 405):
        return str(status)
    return "ok"


@pytest.fixture
def world(django_user_model, settings):
    settings.RATE_LIMITS_ON = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = {
        role: django_user_model.objects.create_user(role, password=f"{role}-pass-21")
        for role in ("host", "other_host", "circle_admin")
    }
    party = nights.create_party(users["host"], name="Friday")
    players = {name: nights.join_party(party.code, new_name=name) for name in NAMES}
    nights.start_next_round(party.code)
    other = nights.create_party(users["other_host"], name="Saturday")
    _, zed_token = nights.join_party(other.code, new_name="Zed")
    circle = circles.create_circle(users["circle_admin"], name="Belles", start=_next_month())
    bea = circles.add_member(circle.pk, name="Bea", email="", kind="member")
    room, _ = rooms.create_room("mbogo", {}, "Ann", party_code=party.code)
    clients = {role: Client() for role in ROLES}
    for role, user in users.items():
        clients[role].force_login(user)
    clients["player"].cookies[seat_cookie_name(party.scope)] = players["Ann"][1]
    clients["stranger"].cookies[seat_cookie_name(other.scope)] = zed_token
    season = circle.seasons.get()
    values = {
        "party": party.code,
        "ann": players["Ann"][0].pk,
        "table": Table.objects.filter(party=party).first().pk,
        "results": results_token(party),
        "room": room.code,
        "circle": circle.code,
        "season": season.pk,
        "month": season.months.order_by("index").first().pk,
        "bea": bea.pk,
        "feed": make_feed_token(circle.pk, circle.feed_nonce),
        "invite": make_invite(circle.pk, circle.invite_nonce, "member"),
        "member_link": make_member_token(circle.pk, bea.pk, bea.nonce),
    }
    return clients, values


def _next_month():
    from django.utils import timezone

    from apps.circles.dates import add_months

    return add_months(timezone.localdate(), 1)


def test_every_url_is_in_the_matrix():
    assert url_routes() == set(URLS)


def test_every_url_answers_each_role_as_the_matrix_says(world):
    clients, values = world
    cookies = {role: {k: m.value for k, m in c.cookies.items()} for role, c in clients.items()}
    wrong = []
    for route, (method, path, expected, *data) in URLS.items():
        form = {k: v.format(**values) for k, v in (data[0] if data else {}).items()}
        for role in ROLES:
            client = Client()
            for name, value in cookies[role].items():  # signing out must not carry over
                client.cookies[name] = value
            with transaction.atomic():
                response = getattr(client, method)(path.format(**values), form)
                transaction.set_rollback(True)  # each role meets the same night
            got = outcome(response)
            if got != expected[role]:
                wrong.append(f"{route} {role}: {got} (expected {expected[role]})")
    assert wrong == []


# -- sockets ------------------------------------------------------------------------------------

# What a role is refused with, in the consumers' and services' own words.
NOT_HERE = {
    "This phone has not joined this party",
    "The big screen and the host's console don't roll dice.",
    "You are watching this table; take a seat to play.",
    "Only the player who made the room",
    "This phone has no part in the awards.",
}

SOCKETS = {
    "check_socket": ("/ws/check/", PUBLIC),
    "party_socket": ("/ws/p/{party}/phone/", PUBLIC),
    "party_screen_socket": ("/ws/p/{party}/screen/", PUBLIC),
    "party_host_socket": ("/ws/p/{party}/host/", outcomes(everyone="closed", host="ok")),
    "room_socket": ("/ws/rooms/{room}/", PUBLIC),
    "room_screen_socket": ("/ws/rooms/{room}/screen/", PUBLIC),
}
PLAYER_ONLY = outcomes(everyone="refused", player="ok")
EVERYONE_REFUSED = outcomes(everyone="refused")
# (socket, the action) -> outcomes; "ok" is past the door (done, or refused by the rules).
SOCKET_ACTIONS = {
    ("party_socket", "roll"): ({"type": "roll"}, PLAYER_ONLY),
    # No ceremony yet: everyone hears that the awards have not started (who may roll in
    # one is tests/prizes/test_awards_live.py).
    ("party_socket", "awards"): ({"type": "awards.roll"}, PUBLIC),
    ("party_screen_socket", "roll"): ({"type": "roll"}, EVERYONE_REFUSED),
    ("party_host_socket", "roll"): ({"type": "roll"}, outcomes(everyone="closed", host="refused")),
    ("room_socket", "move"): ({"type": "play", "cards": [1]}, PLAYER_ONLY),
    ("room_socket", "room.bot"): ({"type": "room.bot", "slot": 2}, PLAYER_ONLY),
    ("room_socket", "room.unbot"): ({"type": "room.unbot", "slot": 2}, PLAYER_ONLY),
    ("room_socket", "room.start"): ({"type": "room.start"}, PLAYER_ONLY),
    ("room_socket", "room.release"): ({"type": "room.release", "slot": 0}, PLAYER_ONLY),
    ("room_screen_socket", "move"): ({"type": "play", "cards": [1]}, EVERYONE_REFUSED),
    ("room_screen_socket", "room.start"): ({"type": "room.start"}, EVERYONE_REFUSED),
}


def test_every_socket_and_every_room_request_is_in_the_matrix():
    from apps.games.consumers import LOBBY_ACTS
    from config.routing import websocket_urlpatterns

    assert {p.name for p in websocket_urlpatterns} == set(SOCKETS)
    assert set(LOBBY_ACTS) <= {act for _, act in SOCKET_ACTIONS}


@pytest.fixture
def socket_world(world):
    """The world, with the player's phone holding the room's first seat (it made the room)."""
    from apps.games.models import Room

    clients, values = world
    room = Room.objects.get(code=values["room"])
    creator = room.seats.get(is_creator=True)
    clients["player"].cookies[seat_cookie_name(room.scope)] = rooms.seat_token(room, creator)
    cookies = {
        role: "; ".join(f"{k}={m.value}" for k, m in c.cookies.items())
        for role, c in clients.items()
    }
    return cookies, values


async def _open(path: str, cookie: str):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


async def _answer(communicator, act: dict) -> str:
    await communicator.send_json_to({"type": "action", "id": "matrix-0001", "act": act})
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message.get("id") != "matrix-0001":
            continue
        if message["type"] == "ack":
            return "ok"
        refused = any(text in message["message"] for text in NOT_HERE)
        return "refused" if refused else "ok"


@pytest.mark.django_db(transaction=True)
async def test_every_socket_and_socket_action_answers_each_role_as_the_matrix_says(socket_world):
    cookies, values = socket_world
    wrong = []
    for name, (path, expected) in SOCKETS.items():
        for role in ROLES:
            communicator, connected = await _open(path.format(**values), cookies[role])
            if ("ok" if connected else "closed") != expected[role]:
                wrong.append(f"{name} {role}: connected={connected}")
            if connected:
                await communicator.disconnect()
    for (name, label), (act, expected) in SOCKET_ACTIONS.items():
        for role in ROLES:
            communicator, connected = await _open(SOCKETS[name][0].format(**values), cookies[role])
            got = await _answer(communicator, act) if connected else "closed"
            if got != expected[role]:
                wrong.append(f"{name} {label} {role}: {got} (expected {expected[role]})")
            if connected:
                await communicator.disconnect()
    print(wrong)
    assert wrong == []
