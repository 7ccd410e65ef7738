"""Playing a circle's party night quickly in tests: real dice reports tapped in on the
phones' behalf, through the parties app's own services."""

from __future__ import annotations

import itertools

from apps.core.tokens import read_seat_token
from apps.parties import services as parties
from apps.parties.models import Party, Player, Table

_ids = itertools.count(1)


def phones_for(party: Party, tokens: dict[int, str] | None = None) -> dict[int, object]:
    """A seat claim for every listed player (joining the unclaimed ones)."""
    claims = {pid: read_seat_token(t, party.scope) for pid, t in (tokens or {}).items()}
    for player in party.players.exclude(kind=Player.Kind.GHOST):
        if player.pk not in claims and not player.claimed:
            _, token = parties.join_party(party.code, player_id=player.pk)
            claims[player.pk] = read_seat_token(token, party.scope)
    return claims


def _tap(party: Party, claim, action: dict) -> None:
    parties.table_action(party.code, claim, f"test-{next(_ids)}", action)


def _step(party: Party, table: Table, claims: dict, step: int, bunkos: set, wipeouts: set):
    """One tap at a table: a Bunko (3-0 scramble) or a wipeout the first time a named player
    rolls, else two sixes and then a miss (so the dice go round the table)."""
    claim = next(claims[pid] for pid in table.seats if pid in claims)
    state = table.state
    if state["phase"] == "rolloff":
        _tap(party, claim, {"type": "rolloff"})
    elif state["phase"] == "scramble":
        _tap(party, claim, {"type": "scramble", "team0": 3, "team1": 0})
    else:
        roller = Player.objects.get(pk=table.seats[state["roller"]]).name
        if roller in bunkos:
            bunkos.discard(roller)
            _tap(party, claim, {"type": "report", "kind": "bunko"})
        elif roller in wipeouts:
            wipeouts.discard(roller)
            _tap(party, claim, {"type": "report", "kind": "wipeout"})
        elif step % 2:
            _tap(party, claim, {"type": "report", "kind": "miss"})
        else:
            _tap(party, claim, {"type": "report", "kind": "sixes", "count": 2})


def play_round(party: Party, claims: dict, bunkos=(), wipeouts=()) -> None:
    """Start the next round and tap at every table in turn until the round is over."""
    parties.start_next_round(party.code)
    party.refresh_from_db()
    pending = {
        pk: (set(bunkos), set(wipeouts))
        for pk in party.tables.filter(round=party.current_round).values_list("pk", flat=True)
    }
    for step in range(1000):
        busy = False
        for pk in sorted(pending):
            table = Table.objects.get(pk=pk)  # afresh: the head table's STOP ends others
            if table.state["phase"] != "done":
                busy = True
                _step(party, table, claims, step, *pending[pk])
        if not busy:
            return
    raise AssertionError("the round never finished")


def play_night(party: Party, rounds: int = 1, tokens=None, bunkos=(), wipeouts=()) -> Party:
    claims = phones_for(party, tokens)
    for _ in range(rounds):
        play_round(party, claims, bunkos, wipeouts)
    parties.end_night(party.code)
    party.refresh_from_db()
    return party
