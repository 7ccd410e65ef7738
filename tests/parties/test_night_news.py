"""What a big night's changes tell, and to whom: a travelling prize changing hands is a moment
on the screens and a newest-only line on the phones; a table's change carries the table as
data, so a server process that did not make it draws it without reading the table back, and
nothing drawn travels between processes."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from types import SimpleNamespace

import pytest

from apps.core import groups, live
from apps.core.changes import Change, night_change
from apps.core.latest import LATEST
from apps.parties import console, consumers, fanout, render, selectors
from apps.parties.caches import FRAGMENTS
from apps.parties.models import Table
from apps.parties.rules.state import TableState, with_tail
from apps.parties.selectors import STATES, keep_sent_state, table_at, table_rows
from apps.parties.services import log
from apps.parties.services.tables import table_action
from tests.bench.late_night import phone_move
from tests.parties.test_night_at_scale import big_night, claim_at, queries_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


@pytest.fixture
def sent(monkeypatch) -> list[tuple[list[str], dict]]:
    """The messages the night's services send after commit, as (groups, message)."""
    messages: list[tuple[list[str], dict]] = []

    def send(groups, message):
        messages.append(([groups] if isinstance(groups, str) else list(groups), message))

    monkeypatch.setattr(live, "send_after_commit", send)
    monkeypatch.setattr(log, "send_after_commit", send)
    return messages


def table_changes(sent) -> list[Change]:
    """The tables' changes sent, as a receiving socket reads them."""
    return [Change.read(m) for _, m in sent if m["type"] == "live.table"]


def roll_a_bunko(party) -> int:
    """Table 1 finds its first roller and that roller reports a Bunko; the roller's id."""
    table_action(party.code, claim_at(party, 1, 0), "news-0001", {"type": "rolloff"})
    roller = Table.objects.get(party=party, round=1, number=1).state["roller"]
    claim = claim_at(party, 1, roller)
    table_action(party.code, claim, "news-0002", {"type": "report", "kind": "bunko"})
    return claim.seat_id


def test_a_travelling_prize_changing_hands_is_a_moment_for_the_screens_only(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    holder = roll_a_bunko(party)
    party.refresh_from_db()
    assert party.travelling_bunko_id == holder
    moments = [groups for groups, m in sent if m.get("event") == "travelling"]
    # The phones draw no pop-up for it: telling a thousand of them cost the night its pace.
    assert moments == [[party.screens_group]]


def test_the_phones_hear_who_holds_the_prizes_as_newest_only_news(
    host, sent, django_capture_on_commit_callbacks
):
    party = big_night(host, 8, dice_mode="physical")
    with django_capture_on_commit_callbacks(execute=True):
        holder = roll_a_bunko(party)
    news = [
        (g, m)
        for g, m in sent
        if m.get("type") == "live.night" and "travelling" in m["payload"]["parts"]
    ]
    night = night_change(party.code, news[0][1]["version"], ["travelling"]).message()
    assert news == [
        ([party.group], {**night, LATEST: "travelling"}),
        # The one who takes the prize hears it at once: the news is theirs to act on.
        ([groups.seat(party.scope, holder)], night),
    ]
    others = [m for _, m in sent if m.get("type") == "live.night" and m is not news[0][1]]
    assert all(LATEST not in m for m in others)


def test_another_server_process_draws_a_changed_table_without_reading_it(host, sent):
    party = big_night(host, 8)
    # Another process drew a phone of table 2: it knows the night and the table as it was.
    html, phone = render.render_phone(party.code, claim_at(party, 2, 1))
    table_action(party.code, claim_at(party, 2, 0), "news-0003", {"type": "rolloff"})
    change = table_changes(sent)[0]
    row = next(r for r in table_rows(party) if r.pk == change.payload["table"])
    STATES.items.pop((row.pk, row.version), None)  # the change was made elsewhere
    keep_sent_state(change)
    assert queries_of(lambda: render.phone_table(phone, row)) == 0


def test_another_server_process_holds_the_entries_two_versions_share_once(host, sent):
    party = big_night(host, 8)
    table_action(party.code, claim_at(party, 2, 0), "news-0004", {"type": "rolloff"})
    roller = Table.objects.get(party=party, round=1, number=2).state["roller"]
    table_action(party.code, claim_at(party, 2, roller), "news-0005", {"type": "roll"})
    first, second = table_changes(sent)[:2]
    for change in (first, second):  # both changes were made elsewhere
        STATES.items.pop((change.payload["table"], change.version), None)
    older, newer = keep_sent_state(first), keep_sent_state(second)
    assert len(newer.entries) == len(older.entries) + 1
    assert all(a is b for a, b in zip(newer.entries, older.entries, strict=False))
    assert newer == TableState.from_json(Table.objects.get(pk=second.payload["table"]).state)


def test_a_tables_change_carries_what_it_adds_to_the_version_before_not_the_whole_game(host, sent):
    party = big_night(host, 8)
    table_action(party.code, claim_at(party, 2, 0), "news-0006", {"type": "rolloff"})
    rng = random.Random(6)
    for n in range(7, 17):
        # What the table's phones offer next: a roll, or after a Bunko a grab of the dice.
        state = TableState.from_json(Table.objects.get(party=party, round=1, number=2).state)
        picked = phone_move(state, rng)
        if picked is None:  # the table's game is over
            break
        table_action(party.code, claim_at(party, 2, picked[0]), f"news-{n:04d}", picked[1])
    last = table_changes(sent)[-1]
    saved = Table.objects.get(pk=last.payload["table"])
    whole = json.dumps(saved.state, separators=(",", ":"))
    assert "state" not in last.payload and last.payload["base"] == last.version - 1
    assert len(last.payload["tail"]) < len(whole) / 2
    # Another process that holds the version before makes this one from the tail.
    STATES.items.pop((saved.pk, last.version), None)
    assert keep_sent_state(last) == TableState.from_json(saved.state)


def test_a_process_without_the_version_before_reads_the_changed_table_back(host, sent):
    party = big_night(host, 8)
    html, phone = render.render_phone(party.code, claim_at(party, 2, 1))
    table_action(party.code, claim_at(party, 2, 0), "news-0017", {"type": "rolloff"})
    roller = Table.objects.get(party=party, round=1, number=2).state["roller"]
    table_action(party.code, claim_at(party, 2, roller), "news-0018", {"type": "roll"})
    change = table_changes(sent)[-1]
    assert "tail" in change.payload
    for version in (change.payload["base"], change.version):  # this process heard neither
        STATES.items.pop((change.payload["table"], version), None)
    assert keep_sent_state(change) is None
    row = next(r for r in table_rows(party) if r.pk == change.payload["table"])
    drawn = render.phone_table(phone, row)
    assert STATES.peek((row.pk, row.version)) == TableState.from_json(
        Table.objects.get(pk=row.pk).state
    )
    assert drawn


@pytest.mark.django_db(transaction=True)
async def test_a_drawing_from_the_caches_is_made_on_the_loop_and_one_that_reads_on_the_thread():
    made_on: list[str] = []

    def from_the_caches() -> str:
        made_on.append(threading.current_thread().name)
        return "<section id='table'></section>"

    def reading() -> str:
        made_on.append(threading.current_thread().name)
        return str(Table.objects.count())  # refused on the loop: made again on the thread

    loop_thread = threading.current_thread().name
    assert await fanout.drawn_here(from_the_caches) == "<section id='table'></section>"
    assert made_on == [loop_thread]
    made_on.clear()
    assert await fanout.drawn_here(reading) == "0"
    assert made_on[0] == loop_thread and made_on[1] != loop_thread and len(made_on) == 2


@pytest.mark.parametrize("view, reads", [("screen", 0), ("host", 2)])
def test_a_screens_redraw_reads_no_table_it_heard_about(host, sent, view, reads):
    party = big_night(host, 400)
    screen = consumers.PartyConsumer()
    screen.view, screen.night = view, render.night_at(party)
    FRAGMENTS.clear()
    for number in (3, 4, 5):
        claim = claim_at(party, number, 0)
        table_action(party.code, claim, f"news-1{number:03d}", {"type": "rolloff"})
    changes = table_changes(sent)
    for change in changes:  # made in another process: only the messages bring the tables
        STATES.items.pop((change.payload["table"], change.version), None)
    # As if each had scored (a Bunko): the big screen redraws its standings too. The console
    # reads only its log (the newest entries, then the ones it has not said yet): the changes
    # say when each table moved; the big screen nothing: not the tables, not the round's
    # other 97 tables for its standings.
    with_log = view == "host"
    assert queries_of(lambda: screen._screen_tables(changes, True, with_log)) == reads


def test_a_change_crosses_to_another_process_as_data_and_is_drawn_there_from_it(
    host, sent, django_capture_on_commit_callbacks
):
    party = big_night(host, 8)
    html, phone = render.render_phone(party.code, claim_at(party, 2, 1))
    with django_capture_on_commit_callbacks(execute=True):
        table_action(party.code, claim_at(party, 2, 0), "news-2001", {"type": "rolloff"})
    # As Redis brings it to another process: plain data, and nothing drawn in it.
    message = json.loads(json.dumps(next(m for _, m in sent if m["type"] == "live.table")))
    assert "<" not in json.dumps(message)
    change = Change.read(message)
    FRAGMENTS.clear()  # another process: nothing of this change drawn there
    STATES.items.pop((change.payload["table"], change.version), None)
    pages: list[str] = []
    assert queries_of(lambda: pages.append(fanout.phone_table(phone, change))) == 0
    assert "Scores at table 2" in pages[0]


def test_a_group_message_that_is_not_a_change_is_ignored_by_a_nights_socket(host, sent):
    party = big_night(host, 8)
    _html, phone = render.render_phone(party.code, claim_at(party, 2, 1))
    socket = consumers.PartyConsumer()
    socket.view, socket.phone = "phone", phone
    sent_to_it: list[dict] = []

    async def send_json(content):
        sent_to_it.append(content)

    socket.send_json = send_json
    forged = {"type": "live.table", "scope": party.code, "round": 1, "version": 9,
              "payload": {"table": "2", "parts": {"top": "<script>x</script>"}}}  # fmt: skip
    asyncio.run(socket.live_table(forged))
    asyncio.run(socket.live_night({"type": "live.night", "version": 1}))
    assert sent_to_it == []


def test_the_process_that_made_a_change_keeps_the_state_it_saved_as_the_others_decode_it(
    host, sent, django_capture_on_commit_callbacks, monkeypatch
):
    party = big_night(host, 8)
    start = tables_now(party)
    decoded: list[str] = []
    monkeypatch.setattr(selectors.tables, "json", SimpleNamespace(loads=decoded.append))
    with django_capture_on_commit_callbacks(execute=True):
        table_action(party.code, claim_at(party, 2, 0), "news-3001", {"type": "rolloff"})
        roller = Table.objects.get(party=party, round=1, number=2).state["roller"]
        table_action(party.code, claim_at(party, 2, roller), "news-3002", {"type": "roll"})
    changes = [m for _, m in sent if m["type"] == "live.table"]
    assert len(changes) == 2
    assert decoded == []  # drawing the changes here decoded none of the messages' copies
    monkeypatch.undo()
    assert_kept_as_sent([Change.read(m) for m in changes], start)


def tables_now(party) -> dict[tuple[int, int], TableState]:
    """The night's tables as a process that read them now holds them, by (id, version)."""
    return {(t.pk, t.version): TableState.from_json(t.state) for t in party.tables.all()}


def as_sent(changes: list[Change], start: dict) -> dict[tuple[int, int], TableState]:
    """Each change's state as a process that held the tables at the ``start`` and then
    heard every change in order makes it: from the state the change carries, or from its
    tail and the version before."""
    made = dict(start)
    for change in changes:
        pk, payload = change.payload["table"], change.payload
        if "tail" in payload:
            made[pk, change.version] = with_tail(
                made[pk, payload["base"]], json.loads(payload["tail"])
            )
        else:
            made[pk, change.version] = TableState.from_json(json.loads(payload["state"]))
    return made


def assert_kept_as_sent(changes: list[Change], start: dict) -> None:
    """Only a table's newest versions stay kept (caches.py); each of those is the one sent."""
    sent = as_sent(changes, start)
    for change in changes[-3:]:
        key = (change.payload["table"], change.version)
        assert STATES.peek(key) == sent[key]
    for change in changes[:-3]:
        key = (change.payload["table"], change.version)
        assert STATES.peek(key) in (None, sent[key])


@pytest.mark.parametrize("dice_mode", ["app", "physical"])
def test_every_state_kept_as_saved_equals_the_one_decoded_from_its_message(
    host, sent, django_capture_on_commit_callbacks, dice_mode
):
    party = big_night(host, 8, dice_mode=dice_mode)
    start = tables_now(party)
    pick = random.Random(dice_mode)
    for step in range(60):
        offers = []
        for seat in range(4):
            _html, phone = render.render_phone(party.code, claim_at(party, 1, seat))
            row, _state = table_at(phone.row)
            panel = render._phone_table_context(phone, row)["me"]
            offers += [(seat, move, panel["at"]) for move in panel["moves"]]
        if not offers:
            break
        seat, move, at = pick.choice(offers)
        act = {**move["fields"], "at": at, "table": 1, "round": 1}
        with django_capture_on_commit_callbacks(execute=True):
            table_action(party.code, claim_at(party, 1, seat), f"kept-{step:03d}", act)
    changes = table_changes(sent)
    assert len(changes) > 20
    assert_kept_as_sent(changes, start)


def test_the_consoles_card_drawn_from_a_change_is_the_card_a_fresh_page_draws(host, sent):
    party = big_night(host, 8, dice_mode="physical")
    desk = consumers.PartyConsumer()
    desk.view, desk.night = "host", render.night_at(party)
    table_action(party.code, claim_at(party, 1, 0), "news-2001", {"type": "rolloff"})
    changes = table_changes(sent)
    FRAGMENTS.clear()
    drawn = desk._screen_tables(changes, False, False)
    row = next(r for r in table_rows(party) if r.number == 1)
    fresh = console.host_card(desk.night, row)
    assert 'data-changed-ms="' in fresh and fresh in drawn
