"""A night's sockets: phones at tables, the big screen, the host's console."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.games import services as games
from apps.parties import consumers, fanout, render, services
from apps.parties.models import Table
from apps.parties.services.tables import table_action
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]


def headers(cookie: str = "") -> list[tuple[bytes, bytes]]:
    result = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        result.append((b"cookie", cookie.encode()))
    return result


@sync_to_async
def night(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in NAMES:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    party.refresh_from_db()
    tables = {
        t.number: [party.players.get(pk=pid).name for pid in t.seats]
        for t in Table.objects.filter(party=party)
    }
    return party, tokens, tables


async def phone(party, token) -> WebsocketCommunicator:
    cookie = f"{seat_cookie_name(party.scope)}={token}"
    communicator = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/phone/", headers=headers(cookie)
    )
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "hello", "since": 0})
    first = await communicator.receive_json_from()
    assert first["type"] == "fragments"
    communicator.first = first
    return communicator


async def screen(party) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/screen/", headers=headers()
    )
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"type": "hello", "since": 0})
    await communicator.receive_json_from()
    return communicator


async def host_console(party) -> WebsocketCommunicator:
    client = Client()
    user = await sync_to_async(lambda: party.host)()
    await sync_to_async(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    communicator = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/host/", headers=headers(cookie)
    )
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"type": "hello", "since": 0})
    await communicator.receive_json_from()
    return communicator


async def next_of_type(communicator, kind, timeout=3):
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def test_a_phone_is_told_its_table_seat_and_partner_on_connect(django_user_model):
    party, tokens, tables = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])
    number = next(n for n, names in tables.items() if "Ann" in names)
    assert f"Table {number}" in ann.first["html"]
    assert "Your partner is" in ann.first["html"]
    await ann.disconnect()


async def test_a_rolloff_tap_is_acknowledged_and_every_screen_at_the_table_updates(
    django_user_model,
):
    party, tokens, tables = await night(django_user_model)
    phones = [await phone(party, tokens[n]) for n in tables[1]]
    big = await screen(party)
    await phones[0].send_json_to(
        {
            "type": "action",
            "id": "roll-off-01",
            "act": {"type": "rolloff", "table": "1", "round": "1"},
        }
    )
    assert (await next_of_type(phones[0], "ack"))["id"] == "roll-off-01"
    for communicator in [*phones[1:], big]:
        update = await next_of_type(communicator, "fragments")
        html = update["html"]
        assert "is rolling" in html or "Your turn to roll" in html or " rolls" in html
    for communicator in [*phones, big]:
        await communicator.disconnect()


async def test_a_double_tap_is_applied_once(django_user_model):
    party, tokens, tables = await night(django_user_model)
    ann = await phone(party, tokens[tables[1][0]])
    message = {"type": "action", "id": "double-tap-1", "act": {"type": "rolloff", "table": "1"}}
    await ann.send_json_to(message)
    first = await next_of_type(ann, "ack")
    await ann.send_json_to(message)
    again = await next_of_type(ann, "ack")
    table = await sync_to_async(lambda: Table.objects.get(party=party, round=1, number=1))()
    assert table.version == 1 and first["v"] == table.stamp
    assert "v" not in again  # acknowledged again, not applied again


async def test_a_tap_from_a_phone_at_another_table_is_refused(django_user_model):
    party, tokens, tables = await night(django_user_model)
    eve = await phone(party, tokens[tables[2][0]])
    await eve.send_json_to(
        {
            "type": "action",
            "id": "wrong-table",
            "act": {"type": "rolloff", "table": "1"},
            "target": "table",
        }
    )
    error = await next_of_type(eve, "error")
    assert error["message"] == "That button is for another table: you are at table 2."
    assert error["target"] == "table"


async def test_a_forged_seat_token_acts_for_nobody(django_user_model):
    party, tokens, tables = await night(django_user_model)
    forged = tokens["Ann"][:-3] + "abc"
    intruder = await phone(party, forged)
    assert "Join" in intruder.first["html"] or "join" in intruder.first["html"]
    await intruder.send_json_to({"type": "action", "id": "forged-001", "act": {"type": "rolloff"}})
    error = await next_of_type(intruder, "error")
    assert "has not joined this party" in error["message"]


async def test_a_message_that_is_not_json_changes_nothing(django_user_model):
    party, tokens, tables = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])
    await ann.send_to(text_data="roll!")
    error = await next_of_type(ann, "error")
    assert error["message"] == "That message was not valid JSON; nothing changed."


async def test_a_stale_tap_after_the_table_moved_on_is_refused(django_user_model):
    party, tokens, tables = await night(django_user_model)
    ann = await phone(party, tokens[tables[1][0]])
    await ann.send_json_to(
        {"type": "action", "id": "first-tap", "act": {"type": "rolloff", "at": "0"}}
    )
    await next_of_type(ann, "ack")
    await ann.send_json_to(
        {"type": "action", "id": "late-tap1", "act": {"type": "roll", "at": "0"}}
    )
    error = await next_of_type(ann, "error")
    assert error["message"] == "The table moved on before that tap arrived; nothing changed."


async def test_the_host_console_socket_needs_the_hosts_login(django_user_model):
    party, tokens, tables = await night(django_user_model)
    communicator = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/host/", headers=headers()
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_the_stop_reaches_the_other_tables_phones_with_the_bell(django_user_model):
    party, tokens, tables = await night(django_user_model)
    head = [await phone(party, tokens[n]) for n in tables[1]]
    bottom = await phone(party, tokens[tables[2][0]])
    for count in range(1, 400):
        state = await sync_to_async(lambda: Table.objects.get(party=party, number=1).state)()
        if state["stopped"]:
            break
        if state["phase"] == "rolloff":
            who, move = 0, "rolloff"
        elif state["phase"] == "scramble":
            who, move = 0, "grab"
        else:
            who, move = state["roller"], "roll"
        await head[who].send_json_to(
            {"type": "action", "id": f"h-{count:06d}", "act": {"type": move}}
        )
        await next_of_type(head[who], "ack")
    event = await next_of_type(bottom, "event", timeout=5)
    while event["name"] != "stop":
        event = await next_of_type(bottom, "event", timeout=5)
    assert event["data"]["table"] == 1
    for communicator in [*head, bottom]:
        await communicator.disconnect()


async def test_the_console_hears_whose_phone_is_here_every_few_seconds(
    django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "PHONES_EVERY", 0.05)
    party, tokens, _tables = await night(django_user_model)
    ann = await phone(party, tokens["Ann"])
    client = Client()
    user = await sync_to_async(lambda: party.host)()
    await sync_to_async(client.force_login)(user)
    session = client.cookies["sessionid"].value
    console = WebsocketCommunicator(
        application, f"/ws/p/{party.code}/host/", headers=headers(f"sessionid={session}")
    )
    assert (await console.connect())[0]
    await console.send_json_to({"type": "hello", "since": 0})
    event = await next_of_type(console, "event")
    assert event["name"] == "phones"
    ann_id = await sync_to_async(lambda: party.players.get(name="Ann").pk)()
    assert ann_id in event["data"]["here"]
    await console.disconnect()
    await ann.disconnect()


async def test_the_big_screen_draws_a_lone_change_at_once_and_the_next_after_a_pause(
    django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "SCREENS_REDRAW_AFTER", 4.0)
    party, tokens, tables = await night(django_user_model)
    roller = await phone(party, tokens[tables[1][0]])
    other = await phone(party, tokens[tables[2][0]])
    big = await screen(party)
    await roller.send_json_to({"type": "action", "id": "lone-tap-01", "act": {"type": "rolloff"}})
    first = await next_of_type(big, "fragments", timeout=2)  # not after the 4 s pause
    assert 'id="t-1-1"' in first["html"]
    await other.send_json_to({"type": "action", "id": "lone-tap-02", "act": {"type": "rolloff"}})
    assert (await next_of_type(other, "ack"))["id"] == "lone-tap-02"
    assert await big.receive_nothing(timeout=1.5)  # within the pause: held back
    second = await next_of_type(big, "fragments", timeout=5)
    assert 'id="t-1-2"' in second["html"]
    for communicator in [roller, other, big]:
        await communicator.disconnect()


async def test_the_console_draws_a_lone_change_at_once_and_the_next_after_its_longer_pause(
    django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "CONSOLE_REDRAW_AFTER", 4.0)
    monkeypatch.setattr(consumers, "SCREENS_REDRAW_AFTER", 0.01)  # the big screen's only
    party, tokens, tables = await night(django_user_model)
    roller = await phone(party, tokens[tables[1][0]])
    other = await phone(party, tokens[tables[2][0]])
    console = await host_console(party)
    await roller.send_json_to({"type": "action", "id": "desk-tap-01", "act": {"type": "rolloff"}})
    first = await next_of_type(console, "fragments", timeout=2)
    assert 'id="h-1-1"' in first["html"]
    await other.send_json_to({"type": "action", "id": "desk-tap-02", "act": {"type": "rolloff"}})
    assert (await next_of_type(other, "ack"))["id"] == "desk-tap-02"
    assert await console.receive_nothing(timeout=1.5)  # within the console's pause
    second = await next_of_type(console, "fragments", timeout=5)
    assert 'id="h-1-2"' in second["html"]
    for communicator in [roller, other, console]:
        await communicator.disconnect()


async def test_the_consoles_log_follows_the_changes_at_most_once_a_second_and_never_misses_one(
    django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "CONSOLE_REDRAW_AFTER", 0.01)
    monkeypatch.setattr(consumers, "CONSOLE_LOG_EVERY", 2.0)
    party, tokens, tables = await night(django_user_model)
    roller = await phone(party, tokens[tables[1][0]])
    other = await phone(party, tokens[tables[2][0]])
    console = await host_console(party)
    await roller.send_json_to({"type": "action", "id": "logs-tap-01", "act": {"type": "rolloff"}})
    first = await next_of_type(console, "fragments", timeout=2)
    assert 'id="h-1-1"' in first["html"] and 'id="log"' in first["html"]
    await other.send_json_to({"type": "action", "id": "logs-tap-02", "act": {"type": "rolloff"}})
    second = await next_of_type(console, "fragments", timeout=2)
    assert 'id="h-1-2"' in second["html"] and 'id="log"' not in second["html"]
    # Nothing else changes: the log comes by itself once it is due, with table 2's roll-off.
    log = await next_of_type(console, "fragments", timeout=4)
    assert log["html"].lstrip().startswith('<section id="log"')
    assert log["html"].count("<li>Table 2: ") == 1
    for communicator in [roller, other, console]:
        await communicator.disconnect()


async def test_sockets_that_need_the_same_fragment_at_once_wait_for_one_drawing():
    drawn = []

    def draw():
        drawn.append(1)
        return "<section id='travelling'></section>"

    key = ("travelling", "ABCDE", 7, "phone", "en")
    pages = await asyncio.gather(*(fanout.drawn_once(key, draw) for _ in range(50)))
    assert len(drawn) == 1 and set(pages) == {"<section id='travelling'></section>"}
    assert key not in fanout._DRAWING  # the next version draws anew


async def test_a_seat_a_party_game_keeps_stays_on_the_phone_through_every_redraw_after(
    django_user_model,
):
    """Phones redrawn together share one read of the night's rooms; a seat kept after that
    read reaches the phone at once and is still there at the next redraw of every phone."""
    party, tokens, _tables = await night(django_user_model)
    ann, dot = await phone(party, tokens["Ann"]), await phone(party, tokens["Dot"])

    @sync_to_async
    def rename(new_name):
        hal = party.players.get(name__in=["Hal", "Hank", "Harry"])
        services.rename_player(party.code, hal.pk, new_name)

    await rename("Hank")  # a night-wide change: every phone draws its whole page again
    page = await next_of_type(dot, "fragments")
    assert 'name="invite"' not in page["html"]
    await sync_to_async(games.create_room)(
        "mbogo", {}, "Ann", prelisted=["Dot"], party_code=party.code
    )
    news = await next_of_type(dot, "fragments")
    assert 'name="invite"' in news["html"]
    await rename("Harry")
    page = await next_of_type(dot, "fragments")
    assert "version" in page and 'name="invite"' in page["html"]
    for communicator in (ann, dot):
        await communicator.disconnect()


async def test_a_roll_made_while_a_phone_draws_its_page_still_reaches_that_phone(
    django_user_model, monkeypatch
):
    """Between reading its table and listening to it, a phone must not miss a change: at a
    round change of a big night the first roll at a table often comes while the other
    phones there are still being drawn, and a phone that missed it would never roll."""
    party, tokens, tables = await night(django_user_model)
    first, other = tables[1][0], tables[1][1]
    first_claim = await sync_to_async(lambda: read_seat_token(tokens[first], party.scope))()
    real = render.render_phone
    rolled = []

    def draw_then_roll(*args, **kwargs):
        drawn = real(*args, **kwargs)
        if not rolled:  # the first phone at the table rolls off just after this page's read
            rolled.append(table_action(party.code, first_claim, "race-01", {"type": "rolloff"}))
        return drawn

    monkeypatch.setattr(render, "render_phone", draw_then_roll)
    listener = await phone(party, tokens[other])
    assert rolled and rolled[0] is not None
    assert 'data-v="1"' not in listener.first["html"].split('id="table"')[1][:400]
    update = await next_of_type(listener, "fragments")
    assert "is rolling" in update["html"] or "Your turn to roll" in update["html"]
    await listener.disconnect()


@sync_to_async
def physical_night_at_stop(django_user_model):
    """A night of two tables with real dice: both roll off, then the head table reports
    Bunkos until STOP, while the other table is still 0-0 (tied)."""
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday", dice_mode="physical")
    tokens = {name: services.join_party(party.code, new_name=name)[1] for name in NAMES}
    services.start_next_round(party.code)
    party.refresh_from_db()
    tables = {t.number: t for t in Table.objects.filter(party=party)}

    def claim(number: int, seat: int):
        player = party.players.get(pk=tables[number].seats[seat])
        return read_seat_token(tokens[player.name], party.scope)

    for number in (1, 2):
        for tap in range(20):
            if Table.objects.get(pk=tables[number].pk).state["phase"] != "rolloff":
                break
            table_action(party.code, claim(number, 0), f"off-{number}-{tap}", {"type": "rolloff"})
    return party, tokens, tables, claim


async def test_a_tied_tables_phones_stop_saying_so_once_the_tie_is_broken(django_user_model):
    party, tokens, tables, claim = await physical_night_at_stop(django_user_model)
    bottom = tables[2]
    names = await sync_to_async(lambda: [party.players.get(pk=p).name for p in bottom.seats])()
    phones = [await phone(party, tokens[name]) for name in names]

    @sync_to_async
    def bunkos_until_stop():
        for tap in range(40):
            state = Table.objects.get(pk=tables[1].pk).state
            if state["stopped"]:
                return
            if state["phase"] == "scramble":
                act = {"type": "scramble", "team0": 3, "team1": 0}
            else:
                act = {"type": "report", "kind": "bunko"}
            table_action(party.code, claim(1, 0), f"head-{tap:03d}", act)

    await bunkos_until_stop()
    tied = "Your table is tied"
    for communicator in phones:
        while tied not in (await next_of_type(communicator, "fragments"))["html"]:
            pass
    roller = (await sync_to_async(lambda: Table.objects.get(pk=bottom.pk).state)())["roller"]
    sixes = {"type": "report", "kind": "sixes", "count": 1}
    await phones[roller].send_json_to({"type": "action", "id": "tie-break-1", "act": sixes})
    assert (await next_of_type(phones[roller], "ack"))["id"] == "tie-break-1"
    for communicator in phones:
        html = (await next_of_type(communicator, "fragments"))["html"]
        assert 'id="banner"' in html and "STOP!" in html and tied not in html
        await communicator.disconnect()
