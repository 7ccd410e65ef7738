"""Scoring at the tables: every tap of a phone at a table, the STOP, undo and corrections.

Every applied action is stored on its table with its dice resolved, so a table replays
exactly from its entries; undo and the host's corrections are replays with an entry changed.
"""

from __future__ import annotations

import random

from django.db import transaction

from apps.core.dice import rng_for
from apps.core.errors import Refused
from apps.core.protocol import IllegalAction
from apps.core.tokens import SeatClaim
from apps.parties.models import Event, Party, Player, Table
from apps.parties.rules import apply, ghost_action
from apps.parties.rules import setup as setup_table
from apps.parties.rules.dice import roll_dice, roll_die
from apps.parties.rules.rotation import swap_partners
from apps.parties.rules.table import BUNKO, DONE, PLAYING, ROLLOFF, WIPEOUT, TableState

from .log import announce, record
from .night import locked

PLAYER_ACTIONS = {"rolloff", "roll", "report", "grab", "scramble", "swap", "undo"}
REPORT_KINDS = {"miss", "sixes", "bunko", "wipeout", "mini"}


def seat_player(party: Party, claim: SeatClaim | None) -> Player:
    """The player a phone's token stands for, or a reason it stands for nobody."""
    if claim is None:
        raise Refused("This phone has not joined this party: join with the party's code.")
    player = party.players.filter(pk=claim.seat_id).first()
    if player is None or player.nonce != claim.nonce:
        raise Refused(
            "This phone's place is no longer valid: the host changed the list. Join again."
        )
    return player


def _check_playing(party: Party) -> None:
    if party.status == Party.Status.PAUSED:
        raise Refused("The host has paused the night: wait for the host to resume.")
    if party.status == Party.Status.ENDED:
        raise Refused("The night is over.")
    if party.current_round == 0:
        raise Refused("The first round has not started yet.")


def current_table(party: Party, player: Player) -> Table:
    # Only the seats are read to find the table; just that one table is loaded whole.
    seats = party.tables.filter(round=party.current_round).values_list("pk", "seats")
    for pk, table_seats in seats:
        if player.id in table_seats:
            return Table.objects.get(pk=pk)
    if party.sit_outs.filter(round=party.current_round, player=player).exists():
        raise Refused("You sit out this round: enjoy a party game!")
    raise Refused("You are not seated at a table this round.")


def _resolve(party: Party, state: TableState, seat: int, action: dict, rng) -> tuple[int, dict]:
    """The engine's action with its randomness resolved, and the seat it is applied for."""
    kind = action.get("type")
    virtual = party.dice_mode == Party.DiceMode.VIRTUAL
    if kind == "rolloff":
        # The app rolls the roll-off die for every seat still in it, in both dice modes.
        return seat, {"type": "rolloff", "dice": {str(s): roll_die(rng) for s in state.contenders}}
    if kind == "roll":
        if not virtual:
            raise Refused("Tonight is played with real dice: tap what was rolled.")
        return seat, {"type": "roll", "dice": roll_dice(rng)}
    if kind == "report":
        if virtual:
            raise Refused("Tonight the phones roll the dice: press ROLL.")
        report = {"type": "report", "kind": action.get("kind")}
        if report["kind"] not in REPORT_KINDS:
            raise Refused("Tap one of the buttons for what was rolled.")
        if report["kind"] == "sixes":
            report["count"] = _int(action.get("count"))
        # Any phone at the table may tap in the roller's dice.
        return (state.roller if state.phase == PLAYING else seat), report
    if kind == "grab":
        return seat, {"type": "grab"}
    if kind == "scramble":
        split = [_int(action.get("team0")), _int(action.get("team1"))]
        return seat, {"type": "scramble", "split": split}
    raise Refused("That is not something you can do at a Bunko table.")


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _run_ghosts(
    state: TableState, entries: list[dict], rng: random.Random, version: int = 0
) -> TableState:
    """The app rolls for ghost seats whenever the dice reach one."""
    while state.phase == PLAYING and state.roller in state.ghosts:
        action = ghost_action(state, state.roller, rng)
        entries.append(
            {"seat": state.roller, "action": action, "by": None, "ghost": True, "v": version}
        )
        state = apply(state, state.roller, action, rng)
    return state


def _replay(table: Table, entries: list[dict]) -> TableState:
    """The table's state from its seats and entries (dice are in the entries)."""
    names = list(table.state["players"])
    state = setup_table(names, table.state["options"], random.Random(0))
    rng = random.Random(0)  # never drawn from: every entry carries its dice
    for entry in entries:
        seat = entry["seat"]
        if entry["action"]["type"] in {"roll", "report"}:
            seat = state.roller  # an entry is the roller's roll, whoever tapped it in
        state = apply(state, seat, entry["action"], rng)
    return state


def _moments(party: Party, table: Table, before: int, state: TableState) -> bool:
    """Travelling prizes move and the table celebrates, for each Bunko or wipeout rolled.
    Says whether there was any."""
    players = {p.id: p for p in party.players.filter(pk__in=table.seats)}
    happened = False
    for entry in state.rolls[before:]:
        happened = happened or entry["kind"] in (BUNKO, WIPEOUT)
        player = players[table.seats[entry["seat"]]]
        if entry["kind"] == BUNKO:
            if not player.is_ghost:
                party.travelling_bunko = player
            announce(party, "bunko", table=table.number, name=player.name)
        elif entry["kind"] == WIPEOUT:
            if not player.is_ghost:
                party.travelling_wipeout = player
            announce(party, "wipeout", table=table.number, name=player.name)
    if happened:
        party.save(update_fields=["travelling_bunko", "travelling_wipeout"])
    return happened


def recount_travelling(party: Party) -> bool:
    """After an undo or a correction: the travelling prizes go back to whoever rolled the
    latest Bunko and wipeout still on the tables. Says whether a holder changed."""
    latest: dict[str, tuple[int, int]] = {}
    for table in party.tables.all():
        state = TableState.from_json(table.state)
        rolled = [e for e in table.actions if e["action"]["type"] in {"roll", "report"}]
        for entry, roll in zip(rolled, state.rolls, strict=True):
            if roll["kind"] in (BUNKO, WIPEOUT) and not entry.get("ghost"):
                moment = (entry.get("v", 0), table.seats[roll["seat"]])
                latest[roll["kind"]] = max(latest.get(roll["kind"], moment), moment)
    bunko = latest.get(BUNKO, (0, None))[1]
    wipeout = latest.get(WIPEOUT, (0, None))[1]
    changed = (party.travelling_bunko_id, party.travelling_wipeout_id) != (bunko, wipeout)
    party.travelling_bunko_id, party.travelling_wipeout_id = bunko, wipeout
    party.save(update_fields=["travelling_bunko", "travelling_wipeout"])
    return changed


def _call_stop(party: Party, head: Table) -> None:
    """Ruling: 'At that moment the head table calls STOP and every table stops at once.'"""
    rng = rng_for(party.seed, party.version)
    for table in party.tables.filter(round=party.current_round).exclude(pk=head.pk):
        state = TableState.from_json(table.state)
        if state.stopped or state.phase == DONE:
            continue
        entries = list(table.actions)
        entries.append({"seat": None, "action": {"type": "stop"}, "by": None})
        state = _run_ghosts(apply(state, None, {"type": "stop"}, rng), entries, rng)
        table.state, table.actions = state.to_json(), entries
        table.save(update_fields=["state", "actions"])
    announce(party, "stop", table=head.number, round=party.current_round)


def _cancel_stop(party: Party, head: Table) -> None:
    """The head table's STOP roll was undone: the other tables play on as before it."""
    for table in party.tables.filter(round=party.current_round).exclude(pk=head.pk):
        entries = [e for e in table.actions if e["action"]["type"] != "stop"]
        if len(entries) != len(table.actions):
            table.state, table.actions = _replay(table, entries).to_json(), entries
            table.save(update_fields=["state", "actions"])


def _swap(party: Party, table: Table, player: Player) -> TableState:
    """Ruling: 'Which stayer partners which arriver is the stayers' choice (the app proposes
    one, the table may swap before the first roll).'"""
    state = TableState.from_json(table.state)
    if table.round == 1 or table.number == 1:
        raise Refused("Partners can only be swapped by the stayers at a table after a move.")
    if state.rolloffs or state.phase != ROLLOFF:
        raise Refused("The table has started rolling: partners are set for this round.")
    if player.id not in table.seats[:2]:
        raise Refused("The two players who stayed at this table choose the partners.")
    table.seats = swap_partners(table.seats)
    names = swap_partners(state.players)
    options = dict(state.options)
    seats = party.players.in_bulk(table.seats)
    options["ghosts"] = [s for s, pid in enumerate(table.seats) if seats[pid].is_ghost]
    return setup_table(names, options, random.Random(0))


def _undo(party: Party, table: Table) -> tuple[TableState, list[dict]]:
    if party.dice_mode == Party.DiceMode.VIRTUAL:
        raise Refused("The app's dice can't be taken back: ask the host to correct it.")
    entries = list(table.actions)
    last = max((i for i, e in enumerate(entries) if e.get("by")), default=None)
    if last is None or entries[last]["action"]["type"] == "rolloff":
        raise Refused("There is no entry to undo at this table yet.")
    kept = entries[:last] + [e for e in entries[last + 1 :] if e["action"]["type"] == "stop"]
    return _replay(table, kept), kept


@transaction.atomic
def table_action(code: str, claim: SeatClaim | None, action_id: str, action: dict) -> bool:
    """A tap at a table. Returns False when this action id was applied before (a retry)."""
    party = locked(code)
    if Event.objects.filter(party=party, action_id=action_id).exists():
        return False
    player = seat_player(party, claim)
    _check_playing(party)
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in PLAYER_ACTIONS:
        raise Refused("That is not something you can do at a Bunko table.")
    table = current_table(party, player)
    if "table" in action and _int(action["table"]) != table.number:
        raise Refused(f"That button is for another table: you are at table {table.number}.")
    if "round" in action and _int(action["round"]) != table.round:
        raise Refused("That round is over: here is your table now.")
    seat = table.seats.index(player.id)
    state = TableState.from_json(table.state)
    if kind != "grab" and "at" in action and _int(action["at"]) != state.version:
        # The button was drawn for an earlier moment of the table: a double tap, or a tap
        # that crossed another phone's. Applying it would roll for the wrong moment.
        raise Refused("The table moved on before that tap arrived; nothing changed.")
    before = len(state.rolls)
    rng = rng_for(party.seed, party.version)
    version = party.version + 1  # the version this tap's event will get
    entries = list(table.actions)
    try:
        if kind == "swap":
            state = _swap(party, table, player)
        elif kind == "undo":
            state, entries = _undo(party, table)
            before = len(state.rolls)
        else:
            acting, resolved = _resolve(party, state, seat, action, rng)
            state = apply(state, acting, resolved, rng)
            entries.append({"seat": acting, "action": resolved, "by": player.id, "v": version})
            while state.phase == ROLLOFF:  # tied highest roll again, in the same tap
                acting, resolved = _resolve(party, state, seat, action, rng)
                state = apply(state, acting, resolved, rng)
                entries.append({"seat": acting, "action": resolved, "by": player.id, "v": version})
            state = _run_ghosts(state, entries, rng, version)
    except IllegalAction as error:
        raise Refused(str(error)) from None
    was_stopped = table.state.get("stopped")
    table.state, table.actions = state.to_json(), entries
    table.save(update_fields=["state", "actions", "seats"])
    moments = _moments(party, table, before, state)
    if kind == "undo":
        moments = recount_travelling(party) or moments
    stop_changed = table.number == 1 and bool(was_stopped) != state.stopped
    if stop_changed and state.stopped:
        _call_stop(party, table)
    elif stop_changed:
        _cancel_stop(party, table)
    # Most taps change one table only; a STOP, a travelling prize or the end of the round
    # shows on every phone in the room.
    local = not (moments or stop_changed or (state.phase == DONE and _round_done(party)))
    record(
        party,
        kind,
        action_id=action_id,
        table=table,
        player=player,
        action=action,
        only_table=local,
    )
    return True


def _round_done(party: Party) -> bool:
    tables = party.tables.filter(round=party.current_round)
    return all(t.state["phase"] == DONE for t in tables)


@transaction.atomic
def correct_entry(
    code: str, table_id: int, index: int, replacement: dict | None, reason: str
) -> None:
    """The host changes (or deletes) one entry of a table; the table replays from there."""
    party = locked(code)
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise Refused("Say why the entry is corrected: the reason is kept in the log.")
    table = party.tables.filter(pk=table_id).first()
    if table is None:
        raise Refused("That table is not part of this night.")
    entries = list(table.actions)
    if not 0 <= index < len(entries) or entries[index]["action"]["type"] in {"stop", "rolloff"}:
        raise Refused("Only a roll or a scramble can be corrected.")
    before = entries[index]
    if replacement is None:
        entries.pop(index)
    else:
        entries[index] = {**before, "action": replacement, "corrected": True}
    try:
        state = _replay(table, entries)
    except IllegalAction as error:
        raise Refused(f"That correction doesn't fit the entries after it: {error}") from None
    table.state, table.actions = state.to_json(), entries
    table.save(update_fields=["state", "actions"])
    recount_travelling(party)
    record(
        party,
        "corrected",
        table=table,
        reason=reason,
        index=index,
        before=before["action"],
        after=replacement,
    )
