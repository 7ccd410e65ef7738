"""Joins beyond the players the host expects wait for the host's OK (the bound, the actions,
the phone's page and the console's live list)."""

from __future__ import annotations

import contextlib

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.core.errors import Refused
from apps.core.tokens import make_seat_token, seat_cookie_name
from apps.parties import services
from apps.parties.models import Event, JoinRequest, Party, Player
from apps.parties.rules.doors import RECOMMENDED_PLAYERS, expected_players, must_wait
from apps.parties.selectors import expected_of
from config.asgi import application

NAMES = [f"Player {i:02d}" for i in range(1, 41)]


def wait_cookie(code: str) -> str:
    return seat_cookie_name(services.wait_scope(code))


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


@pytest.fixture
def party(host):
    return services.create_party(host, name="Friday", expected_players=4)


def fill(party: Party, count: int) -> list[Player]:
    return [services.join_party(party.code, new_name=name)[0] for name in NAMES[:count]]


def knock(code: str, name: str) -> JoinRequest:
    arrival = services.ask_to_join(code, name)
    assert arrival.player is None and arrival.waiting is not None
    return arrival.waiting


# -- the bound -----------------------------------------------------------------------------------


def test_a_night_nobody_set_expects_the_recommended_twelve():
    assert expected_players(None, 0) == RECOMMENDED_PLAYERS == 12


def test_after_the_first_round_a_night_expects_twice_the_players_of_the_round():
    assert expected_players(None, 8) == 16
    assert expected_players(None, 4) == 12  # never fewer than a recommended party


def test_the_hosts_own_number_wins_over_the_derived_one():
    assert expected_players(20, 0) == 20
    assert expected_players(6, 40) == 6


def test_a_new_name_waits_once_the_night_has_the_players_it_expects():
    assert not must_wait(11, 12)
    assert must_wait(12, 12)
    assert must_wait(30, 12)


@pytest.mark.django_db
def test_joins_during_a_round_do_not_raise_the_bound_they_are_held_to(host):
    party = services.create_party(host, name="Open")
    fill(party, 8)
    services.start_next_round(party.code)
    party.refresh_from_db()
    assert expected_of(party) == 16
    for name in NAMES[8:16]:
        services.ask_to_join(party.code, name)
    party.refresh_from_db()
    assert expected_of(party) == 16
    knock(party.code, "Junk")


# -- the actions ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_new_names_join_at_once_up_to_the_bound_and_wait_beyond_it(party):
    joined = [services.ask_to_join(party.code, name) for name in NAMES[:4]]
    assert all(a.player is not None and a.waiting is None for a in joined)
    waiting = knock(party.code, "Eve")
    assert waiting.status == JoinRequest.Status.WAITING
    assert not party.players.filter(name="Eve").exists()
    assert Event.objects.filter(party=party, kind="join_waiting").count() == 1


@pytest.mark.django_db
def test_sixty_made_up_names_put_no_player_into_a_full_night(party):
    fill(party, 4)
    for i in range(60):
        with contextlib.suppress(Refused):
            services.ask_to_join(party.code, f"Junk {i}")
    assert party.players.count() == 4
    assert party.join_requests.count() == services.doors.MOST_WAITING


@pytest.mark.django_db
def test_a_name_the_host_listed_never_waits(party):
    fill(party, 4)
    listed = services.add_player(party.code, "Zoe")
    player, _token = services.join_party(party.code, player_id=listed.pk)
    assert player.claimed


@pytest.mark.django_db
def test_a_let_in_phone_becomes_a_player_as_if_it_had_joined(party):
    fill(party, 4)
    waiting = knock(party.code, "Eve")
    player = services.let_in(party.code, waiting.pk)
    assert (player.name, player.claimed, player.kind) == ("Eve", True, Player.Kind.PLAYER)
    assert player.joined_round == 1
    waiting.refresh_from_db()
    assert (waiting.status, waiting.player) == (JoinRequest.Status.LET_IN, player)


@pytest.mark.django_db
def test_a_double_tap_on_let_in_changes_nothing_the_second_time(party):
    fill(party, 4)
    waiting = knock(party.code, "Eve")
    services.let_in(party.code, waiting.pk)
    version = Party.objects.get(pk=party.pk).version
    with pytest.raises(Refused, match="Eve is already in"):
        services.let_in(party.code, waiting.pk)
    with pytest.raises(Refused, match="Eve is already in"):
        services.turn_away(party.code, waiting.pk)
    assert Party.objects.get(pk=party.pk).version == version
    assert party.players.filter(name="Eve").count() == 1


@pytest.mark.django_db
def test_a_turned_away_phone_cannot_be_let_in_from_an_old_console(party):
    fill(party, 4)
    waiting = knock(party.code, "Eve")
    services.turn_away(party.code, waiting.pk)
    with pytest.raises(Refused, match="already turned away"):
        services.let_in(party.code, waiting.pk)
    assert not party.players.filter(name="Eve").exists()


@pytest.mark.django_db
def test_another_nights_request_is_nobody_here(party, host):
    other = services.create_party(host, name="Saturday", expected_players=1)
    services.join_party(other.code, new_name="Ann")
    theirs = knock(other.code, "Bob")
    with pytest.raises(Refused, match="Nobody by that request"):
        services.let_in(party.code, theirs.pk)
    theirs.refresh_from_db()
    assert theirs.status == JoinRequest.Status.WAITING


@pytest.mark.django_db
def test_a_name_taken_meanwhile_is_not_let_in_twice(party):
    fill(party, 4)
    waiting = knock(party.code, "Eve")
    services.add_player(party.code, "Eve B")
    services.rename_player(party.code, party.players.get(name="Eve B").pk, "Eve")
    with pytest.raises(Refused, match="on tonight's list now"):
        services.let_in(party.code, waiting.pk)


@pytest.mark.django_db
def test_the_same_name_cannot_wait_twice(party):
    fill(party, 4)
    knock(party.code, "Eve")
    with pytest.raises(Refused, match="already waiting"):
        services.ask_to_join(party.code, "eve")


@pytest.mark.django_db
def test_turn_them_all_away_clears_the_waiting_list(party):
    fill(party, 4)
    for name in ["Eve", "Fay", "Gus"]:
        knock(party.code, name)
    assert services.turn_away_all(party.code) == 3
    assert not party.join_requests.filter(status=JoinRequest.Status.WAITING).exists()


@pytest.mark.django_db
def test_the_host_raises_the_number_and_new_names_join_again(party):
    fill(party, 4)
    knock(party.code, "Eve")
    assert services.set_expected_players(party.code, 6) == 6
    assert services.ask_to_join(party.code, "Fay").player is not None
    assert services.set_expected_players(party.code, None) == RECOMMENDED_PLAYERS
    with pytest.raises(Refused, match="between 1 and"):
        services.set_expected_players(party.code, 0)


# -- the phone's page ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_join_beyond_the_bound_shows_the_phone_the_waiting_page(party):
    fill(party, 4)
    phone = Client()
    response = phone.post(f"/p/{party.code}/join/", {"name": "Eve"}, follow=True)
    assert "Waiting for the host to let you in" in response.content.decode()
    assert seat_cookie_name(party.scope) not in phone.cookies
    assert party.join_requests.get().name == "Eve"


@pytest.mark.django_db
def test_the_let_in_phone_is_taken_to_its_seat_when_it_asks_again(party):
    fill(party, 4)
    phone = Client()
    phone.post(f"/p/{party.code}/join/", {"name": "Eve"})
    services.let_in(party.code, party.join_requests.get().pk)
    response = phone.get(f"/p/{party.code}/join/", headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == f"/p/{party.code}/"
    assert phone.cookies[wait_cookie(party.code)].value == ""
    page = phone.get(f"/p/{party.code}/")
    assert page.status_code == 200 and "Eve" in page.content.decode()


@pytest.mark.django_db
def test_a_let_in_seat_is_handed_over_once(party):
    fill(party, 4)
    phone = Client()
    phone.post(f"/p/{party.code}/join/", {"name": "Eve"})
    kept = phone.cookies[wait_cookie(party.code)].value
    services.let_in(party.code, party.join_requests.get().pk)
    phone.get(f"/p/{party.code}/join/")
    copy = Client()
    copy.cookies[wait_cookie(party.code)] = kept
    response = copy.get(f"/p/{party.code}/join/")
    assert response.status_code == 200 and "Pick your name" not in response.content.decode()
    assert seat_cookie_name(party.scope) not in copy.cookies


@pytest.mark.django_db
def test_a_turned_away_phone_is_told_in_words(party):
    fill(party, 4)
    phone = Client()
    phone.post(f"/p/{party.code}/join/", {"name": "Eve"})
    services.turn_away(party.code, party.join_requests.get().pk)
    response = phone.get(f"/p/{party.code}/join/", headers={"HX-Request": "true"})
    text = response.content.decode()
    assert "The host did not let you in" in text and "hx-trigger" not in text
    assert not party.players.filter(name="Eve").exists()


@pytest.mark.django_db
def test_a_forged_waiting_token_follows_nobody_in(party):
    fill(party, 4)
    phone = Client()
    phone.post(f"/p/{party.code}/join/", {"name": "Eve"})
    waiting = party.join_requests.get()
    services.let_in(party.code, waiting.pk)
    forger = Client()
    forger.cookies[wait_cookie(party.code)] = make_seat_token(
        services.wait_scope(party.code), waiting.pk, "guessed"
    )
    forger.get(f"/p/{party.code}/join/")
    # A seat's token for the request's id is not a waiting token either.
    forger.cookies[wait_cookie(party.code)] = make_seat_token(party.scope, waiting.pk, "x")
    forger.get(f"/p/{party.code}/join/")
    assert seat_cookie_name(party.scope) not in forger.cookies
    assert JoinRequest.objects.get(pk=waiting.pk).nonce == waiting.nonce


@pytest.mark.django_db
def test_a_second_tap_on_join_finds_the_same_request(party):
    fill(party, 4)
    phone = Client()
    phone.post(f"/p/{party.code}/join/", {"name": "Eve"})
    response = phone.post(f"/p/{party.code}/join/", {"name": "Eve"}, follow=True)
    assert "Waiting for the host to let you in" in response.content.decode()
    assert party.join_requests.count() == 1


@pytest.mark.django_db
def test_a_phone_coming_back_with_its_own_seat_never_waits(party):
    players = fill(party, 4)
    phone = Client()
    phone.cookies[seat_cookie_name(party.scope)] = make_seat_token(
        party.scope, players[0].pk, players[0].nonce
    )
    response = phone.get(f"/p/{party.code}/join/")
    assert response.status_code == 302 and response["Location"] == f"/p/{party.code}/"
    assert not party.join_requests.exists()


@pytest.mark.django_db
def test_the_host_sets_the_number_on_the_console_and_in_the_setup(host):
    client = Client()
    client.force_login(host)
    client.post(
        "/p/new/",
        {
            "name": "Big one",
            "rounds": "4",
            "expected_players": "28",
            "dice_mode": "virtual",
            "attendance": "ghosts",
            "seating": "random",
        },
    )
    party = Party.objects.get(name="Big one")
    assert party.expected_players == 28
    client.post(f"/p/{party.code}/host/expected-players/", {"expected": "40"})
    party.refresh_from_db()
    assert party.expected_players == 40
    page = client.get(f"/p/{party.code}/host/").content.decode()
    assert "Players: 0 of 40 expected" in page


@pytest.mark.django_db
def test_the_console_lists_the_waiting_names_with_labelled_buttons(party, host):
    fill(party, 4)
    knock(party.code, "Eve")
    client = Client()
    client.force_login(host)
    page = client.get(f"/p/{party.code}/host/").content.decode()
    assert "1 phone waits for your OK to join" in page
    assert 'Let in<span class="visually-hidden"> Eve</span>' in page
    assert 'Turn away<span class="visually-hidden"> Eve</span>' in page
    request = party.join_requests.get()
    response = client.post(
        f"/p/{party.code}/host/let-in/",
        {"join_request": request.pk},
        headers={"HX-Request": "true"},
    )
    assert "Eve is in" in response.content.decode()
    again = client.post(
        f"/p/{party.code}/host/let-in/",
        {"join_request": request.pk},
        headers={"HX-Request": "true"},
    )
    assert "Eve is already in" in again.content.decode()


# -- the console's live list ---------------------------------------------------------------------


def _headers(cookie: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", cookie.encode()),
    ]


async def _fragments_until(communicator, text: str, timeout: float = 3) -> str:
    """Every fragment heard up to and with the one that says ``text``."""
    heard = ""
    while text not in heard:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == "fragments":
            heard += message["html"]
    return heard


@pytest.mark.django_db(transaction=True)
async def test_the_console_hears_a_waiting_name_and_its_let_in_live(host):
    party = await sync_to_async(services.create_party)(host, name="Friday", expected_players=4)
    await sync_to_async(fill)(party, 4)
    client = Client()
    await sync_to_async(client.force_login)(host)
    console = WebsocketCommunicator(
        application,
        f"/ws/p/{party.code}/host/",
        headers=_headers(f"sessionid={client.cookies['sessionid'].value}"),
    )
    assert (await console.connect())[0]
    await console.send_json_to({"type": "hello", "since": 0})
    await console.receive_json_from()

    phone = Client()
    await sync_to_async(phone.post)(f"/p/{party.code}/join/", {"name": "Eve"})
    html = await _fragments_until(console, "1 phone waits for your OK to join")
    assert 'id="waiting"' in html and "Eve" in html
    assert "Eve waits for your OK to join." in html  # the night's log says it too

    waiting = await sync_to_async(lambda: party.join_requests.get())()
    await sync_to_async(services.let_in)(party.code, waiting.pk)
    html = await _fragments_until(console, 'id="waiting"')
    waiting_part = html[html.index('id="waiting"') :].split("</section>")[0]
    assert "waits for your OK" not in waiting_part
    assert "Eve was let in." in html
    assert 'id="players"' in html and "Eve" in html[html.index('id="players"') :]
    await console.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "waiting", "console"),
    [
        ("nl", "Wachten tot de gastheer je binnenlaat", "1 telefoon wacht op jouw akkoord"),
        ("de", "Warten, bis der Gastgeber dich hereinlässt", "1 Handy wartet auf dein OK"),
    ],
)
def test_the_waiting_page_and_the_console_speak_dutch_and_german(
    party, host, language, waiting, console
):
    fill(party, 4)
    phone = Client(headers={"accept-language": language})
    response = phone.post(f"/p/{party.code}/join/", {"name": "Eve"}, follow=True)
    assert waiting in response.content.decode()
    client = Client(headers={"accept-language": language})
    client.force_login(host)
    assert console in client.get(f"/p/{party.code}/host/").content.decode()
