"""Limits on anonymous work: code guesses, joins, new game rooms, sign-ins and open sockets
are counted per client (an address, and the browser behind it), generous enough for a party
of 400 phones behind one Wi-Fi address, and refused with a clear 429 or socket message."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.core import limits
from apps.core.limits import Rate
from apps.parties import services
from config.asgi import application

pytestmark = pytest.mark.django_db


@pytest.fixture
def tight(settings):
    settings.RATE_LIMITS = {
        name: Rate(6, 3, 600, rate.says) for name, rate in limits.DEFAULTS.items()
    }


def phone(address: str = "10.0.0.7", csrf: str = "") -> Client:
    """A browser: ``csrf`` names its CSRF cookie (made into a well-formed token)."""
    client = Client(REMOTE_ADDR=address)
    if csrf:
        client.cookies["csrftoken"] = (csrf * 32)[:32]
    return client


def test_guessing_join_codes_is_cut_off_with_a_429_page_and_other_addresses_play_on(tight):
    guesser = phone(csrf="guesser")
    answers = [guesser.post("/join/", {"code": f"ZZZZ{n}"}).status_code for n in range(5)]
    assert answers == [200, 200, 200, 429, 429]
    refused = guesser.post("/games/join/", {"code": "ZZZZZ"})
    assert refused.status_code == 429 and "Too many codes tried" in refused.content.decode()
    assert guesser.get("/rooms/ABCDE/").status_code == 429  # any page, once out of guesses
    # A script dropping its cookies is still one address.
    scripted = [Client(REMOTE_ADDR="10.0.0.7").post("/join/", {"code": "ZZZZZ"}) for _ in range(4)]
    assert scripted[-1].status_code == 429
    assert phone("10.0.0.8").post("/join/", {"code": "ZZZZZ"}).status_code == 200


def test_wrong_codes_in_addresses_count_as_guesses(tight):
    guesses = [Client(REMOTE_ADDR="10.0.0.7").get(f"/p/QQQQ{n}/") for n in range(7)]
    assert [r.status_code for r in guesses] == [404] * 6 + [429]


def test_a_missing_icon_or_a_refused_console_is_no_guess(tight, django_user_model):
    icons = [Client(REMOTE_ADDR="10.0.0.9").get("/apple-touch-icon.png") for _ in range(8)]
    assert {r.status_code for r in icons} == {404}
    host = django_user_model.objects.create_user("host", password="pw-long-enough")
    party = services.create_party(host, name="Friday")
    laptop = Client(REMOTE_ADDR="10.0.0.9")
    assert laptop.get(f"/p/{party.code}/host/").status_code == 302  # signed out: sign in
    assert laptop.get(f"/p/{party.code}/join/").status_code == 200  # not out of guesses


def test_joins_reusing_one_browsers_cookie_are_refused_but_the_next_phone_joins(
    tight, django_user_model
):
    host = django_user_model.objects.create_user("host", password="pw-long-enough")
    party = services.create_party(host, name="Friday")
    spammer = phone(csrf="onetoken")
    codes = [
        spammer.post(f"/p/{party.code}/join/", {"name": f"Spam {n}"}).status_code for n in range(4)
    ]
    assert codes == [302, 302, 302, 429]
    refused = spammer.post(f"/p/{party.code}/join/", {"name": "X"})
    assert "Too many joins" in refused.content.decode()
    friend = phone(csrf="friend")
    assert friend.post(f"/p/{party.code}/join/", {"name": "Bea"}).status_code == 302


def test_room_creations_and_sign_ins_are_limited_per_client(tight):
    maker = phone(csrf="maker")
    made = [
        maker.post("/games/new/", {"game": "mbogo", "name": f"Ann{n}"}).status_code
        for n in range(4)
    ]
    assert made == [302, 302, 302, 429]
    signer = phone(csrf="signer")
    tries = [
        signer.post("/signin/", {"username": "host", "password": "wrong"}).status_code
        for n in range(4)
    ]
    assert tries == [200, 200, 200, 429]


def test_forwarded_addresses_count_only_behind_a_trusted_proxy(tight, settings):
    def guesses(address: str) -> list[int]:
        client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"6.6.6.6, {address}")
        return [client.post("/join/", {"code": "ZZZZZ"}).status_code for _ in range(4)]

    guesses("192.168.1.20")
    assert guesses("192.168.1.21")[-1] == 429  # the proxy's own address counted: one client
    settings.TRUSTED_PROXY = True
    assert guesses("192.168.1.30") == [200] * 4
    assert guesses("192.168.1.31") == [200] * 4  # two clients behind the proxy
    assert limits.client_address("10.0.0.1", "1.2.3.4, 192.168.1.40") == "192.168.1.40"


def test_the_default_limits_let_a_party_of_400_phones_behind_one_address_play():
    address = "203.0.113.9"
    for n in range(400):
        browser = f"phone-{n}"
        limits.hit("code", address, browser)
        limits.hit("join", address, browser)
        limits.socket_opening(address, browser)
        limits.socket_opening(address, browser)  # the night's page and a game room
    for n in range(100):
        limits.hit("room", address, f"phone-{n}")


async def open_socket(cookie: str = "csrftoken=one-browser", path: str = "/ws/rooms/ABCDE/"):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    return communicator, await communicator.connect()


@pytest.mark.django_db(transaction=True)
async def test_a_browser_holding_its_share_of_sockets_is_told_so_and_a_closed_one_frees_a_slot(
    settings,
):
    settings.RATE_LIMITS = {
        "socket": Rate(100, 3, 0, limits.DEFAULTS["socket"].says),
        "code": Rate(100, 3, 600, limits.DEFAULTS["code"].says),
    }
    party_host = await _host()
    path = f"/ws/p/{party_host}/screen/"
    held = [await open_socket(path=path) for _ in range(4)]
    assert all(connected for _, (connected, _) in held)
    refused, (connected, _) = await open_socket(path=path)
    assert connected  # accepted only to say why
    message = await refused.receive_json_from()
    assert message == {"type": "error", "message": limits.DEFAULTS["socket"].says}
    assert (await refused.receive_output())["code"] == 4429
    other, (connected, _) = await open_socket("csrftoken=another-phone", path)
    assert connected
    await held[0][0].disconnect()
    again, (connected, _) = await open_socket(path=path)
    await again.send_json_to({"type": "hello", "since": -1})
    assert (await again.receive_json_from())["type"] == "fragments"
    for communicator in (*[c for c, _ in held[1:]], other, again):
        await communicator.disconnect()
    # A console refused to a phone that is not the host is no guess; a wrong code is.
    for _ in range(4):
        console, (connected, _) = await open_socket(path=f"/ws/p/{party_host}/host/")
        assert not connected
    for _ in range(3):
        wrong, (connected, _) = await open_socket(path="/ws/p/QQQQQ/screen/")
        assert not connected
    refused, (connected, _) = await open_socket(path=path)
    assert connected and "Too many codes" in (await refused.receive_json_from())["message"]


async def _host() -> str:
    from asgiref.sync import sync_to_async
    from django.contrib.auth.models import User

    @sync_to_async
    def make() -> str:
        host = User.objects.create_user("host", password="pw-long-enough")
        return services.create_party(host, name="Friday").code

    return await make()


@pytest.mark.django_db(transaction=True)
async def test_a_repeated_hello_on_the_big_screen_is_answered_without_rendering_again(
    monkeypatch,
):
    # A hello again on the same socket is answered already (tests/core/test_socket_pace.py):
    # each new socket's hello is, from what was drawn for the first.
    from apps.parties import big_screen, render

    code = await _host()
    renders: list[str] = []

    def counted(function):
        def wrapper(template, *args, **kwargs):
            renders.append(template)
            return function(template, *args, **kwargs)

        return wrapper

    for module in (render, big_screen):
        monkeypatch.setattr(module, "render_part", counted(render.render_part))
        monkeypatch.setattr(module, "render_to_string", counted(render.render_to_string))
    screen, (connected, _) = await open_socket(path=f"/ws/p/{code}/screen/")
    assert connected
    await screen.send_json_to({"type": "hello", "since": -1})
    first = await screen.receive_json_from()
    assert renders  # the first hello drew the screen
    renders.clear()
    await screen.disconnect()
    for _ in range(5):
        screen, (connected, _) = await open_socket(path=f"/ws/p/{code}/screen/")
        await screen.send_json_to({"type": "hello", "since": -1})
        assert (await screen.receive_json_from())["html"] == first["html"]
        await screen.disconnect()
    assert renders == []


def test_a_cache_out_of_reach_lets_every_attempt_through_uncounted(monkeypatch, client):
    from apps.core import limits

    def down(*args, **kwargs):
        raise ConnectionError("Redis is restarting")

    for name in ("add", "incr", "decr", "get_many", "set"):
        monkeypatch.setattr(limits.cache, name, down)
    assert limits.hit("join", "10.0.0.9", "phone") is None
    assert limits.over("code", "10.0.0.9") is None
    assert limits.open_socket("10.0.0.9", "phone") == []
    limits.close_socket(["limit:socket:a:10.0.0.9:open"])
    assert client.get("/").status_code == 200


# -- one guesser, one address, a whole party ------------------------------------------------------


def _night(django_user_model):
    host = django_user_model.objects.create_user("host", password="pw-long-enough")
    party = services.create_party(host, name="Friday")
    return party, services.join_party(party.code, new_name="Ann")[1]


def _seated(party, token: str, address: str = "10.0.0.7") -> Client:
    from apps.core.tokens import seat_cookie_name

    client = phone(address, csrf="annsphone")
    client.cookies[seat_cookie_name(party.scope)] = token
    return client


def _guess_from_fresh_clients(address: str = "10.0.0.7", count: int = 10) -> list[int]:
    return [
        Client(REMOTE_ADDR=address).post("/join/", {"code": f"ZZZZ{n}"}).status_code
        for n in range(count)
    ]


def test_a_guesser_at_the_partys_address_is_stopped_but_seated_players_and_the_host_play_on(
    tight, django_user_model
):
    party, token = _night(django_user_model)
    answers = _guess_from_fresh_clients()
    assert answers[-1] == 429
    assert Client(REMOTE_ADDR="10.0.0.7").get(f"/p/{party.code}/").status_code == 429
    assert _seated(party, token).get(f"/p/{party.code}/").status_code == 200
    laptop = phone(csrf="hostlaptop")
    assert laptop.get("/signin/").status_code == 200
    signed_in = laptop.post("/signin/", {"username": "host", "password": "pw-long-enough"})
    assert signed_in.status_code == 302
    assert laptop.get(f"/p/{party.code}/host/").status_code == 200


def test_a_forged_seat_cookie_is_no_way_past_the_addresss_count(tight, django_user_model):
    from apps.core.tokens import seat_cookie_name

    party, _ = _night(django_user_model)
    _guess_from_fresh_clients()
    forger = Client(REMOTE_ADDR="10.0.0.7")
    forger.cookies[seat_cookie_name(party.scope)] = "made-up"
    forger.cookies["circle_ABCDE"] = "1.2.nonce:made-up"
    assert forger.get(f"/p/{party.code}/").status_code == 429


def test_a_seated_phone_that_guesses_is_stopped_by_its_own_count_whatever_its_csrf_cookie(
    tight, django_user_model
):
    party, token = _night(django_user_model)
    answers = []
    for n in range(5):
        guesser = _seated(party, token)
        guesser.cookies["csrftoken"] = (f"fresh{n}" * 32)[:32]
        answers.append(guesser.post("/join/", {"code": f"ZZZZ{n}"}).status_code)
    assert answers == [200, 200, 200, 429, 429]
    assert Client(REMOTE_ADDR="10.0.0.7").post("/join/", {"code": "ZZZZZ"}).status_code == 200


def test_a_circle_member_is_never_refused_for_the_guesses_of_others_at_the_address(
    tight, django_user_model
):
    from apps.circles import services as circles
    from apps.circles.tokens import make_member_token

    admin = django_user_model.objects.create_user("admin", password="pw-long-enough")
    from django.utils import timezone

    from apps.circles.dates import add_months

    circle = circles.create_circle(admin, name="Belles", start=add_months(timezone.localdate(), 1))
    bea = circles.add_member(circle.pk, name="Bea", email="", kind="member")
    _guess_from_fresh_clients()
    member = Client(REMOTE_ADDR="10.0.0.7")
    member.cookies[circle.cookie_name] = make_member_token(circle.pk, bea.pk, bea.nonce)
    assert member.get(f"/c/{circle.code}/").status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_a_seated_phones_socket_opens_while_a_guesser_at_its_address_is_refused(
    settings,
):
    from asgiref.sync import sync_to_async
    from django.contrib.auth.models import User

    from apps.core.tokens import seat_cookie_name

    settings.RATE_LIMITS = {"code": Rate(6, 3, 600, limits.DEFAULTS["code"].says)}

    @sync_to_async
    def night() -> tuple[str, str]:
        host = User.objects.create_user("host", password="pw-long-enough")
        party = services.create_party(host, name="Friday")
        token = services.join_party(party.code, new_name="Ann")[1]
        return party.code, f"{seat_cookie_name(party.scope)}={token}"

    code, seat = await night()
    for _ in range(6):  # fresh cookieless sockets naming nights that do not exist
        wrong, (connected, _) = await open_socket("", path="/ws/p/QQQQQ/screen/")
        assert not connected
    guesser, (connected, _) = await open_socket("", path=f"/ws/p/{code}/phone/")
    assert connected and "Too many codes" in (await guesser.receive_json_from())["message"]
    player, (connected, _) = await open_socket(seat, path=f"/ws/p/{code}/phone/")
    assert connected
    await player.send_json_to({"type": "hello", "since": -1})
    assert (await player.receive_json_from())["type"] == "fragments"
    await player.disconnect()
