"""Taps at the tables and the host's corrections.

A tap locks only its own table: the tables of a big night never wait for each other. Only
the rare night-wide moments also lock the night's row, always after the table (a STOP locks
the other tables first, in table order), so two writers never wait on each other in a
circle: a Bunko or a wipeout moving a travelling prize, the head table's STOP, and the last
table of a round finishing.

Bunko's rules decide everything at the table (whose roll a report is, the roll-off's
re-rolls, the stayers' swap, undo, ghosts' rolls); this module only finds the table, applies
the rules' move, logs it and tells the screens.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils.translation import gettext as _

from apps.core.dice import rng_for
from apps.core.errors import Refused, refused_by_rules
from apps.core.tokens import SeatClaim
from apps.parties.models import Party, Player, Table
from apps.parties.rules.rotation import swap_partners
from apps.parties.rules.table import (
    BUNKO,
    DONE,
    MOVES_OF_A_MOMENT,
    SEAT_MOVES,
    WIPEOUT,
    TableState,
    apply,
    legal_actions,
    replay,
    stalled_move,
)
from apps.parties.selectors import (
    STATES,
    decoded_state,
    latest_prizes,
    table_rows,
    table_states,
)

from .log import TRAVELLING, announce, now_ms, record_night, record_table
from .tap_store import locked_table, night_of_tap, player_of, tap_rows


def seat_player(party: Party, claim: SeatClaim | None, player: Player | None = None) -> Player:
    """The player a phone's token stands for (``player``: read with the night already),
    or a reason it stands for nobody."""
    if claim is None:
        raise Refused(_("This phone has not joined this party: join with the party's code."))
    if player is None:
        player = player_of(party, claim.seat_id)
    if player is None or player.nonce != claim.nonce:
        raise Refused(
            _("This phone's place is no longer valid: the host changed the list. Join again.")
        )
    return player


def _check_playing(party: Party) -> None:
    if party.status == Party.Status.PAUSED:
        raise Refused(_("The host has paused the night: wait for the host to resume."))
    if party.status == Party.Status.ENDED:
        raise Refused(_("The night is over."))
    if party.current_round == 0:
        raise Refused(_("The first round has not started yet."))


def locked_table_of(party: Party, player: Player, hint: int | None = None) -> Table:
    """The player's table this round, locked. ``hint`` (the table the phone showed) makes
    this one row; without it only the round's seats are read to find it."""
    if hint is not None:
        table = locked_table(party, hint)
        if table is not None and player.id in table.seats:
            return table
    for pk, seats in Table.objects.filter(party=party, round=party.current_round).values_list(
        "pk", "seats"
    ):
        if player.id in seats:
            return locked_table(party, pk)
    if party.sit_outs.filter(round=party.current_round, player=player).exists():
        raise Refused(_("You sit out this round: enjoy a party game!"))
    raise Refused(_("You are not seated at a table this round."))


def locked_state(table: Table) -> TableState:
    """The state of a table just read and locked: from the state cache at its version (a
    committed version: nobody has written since the lock), else decoded from its row. The
    row's state is read (a query and a decode as long as the round's log) only then: the
    locked row leaves it out."""
    kept = STATES.peek((table.pk, table.version))
    if kept is not None:
        return kept
    return decoded_state(table.pk, table.version, table.state)


def keep_state(table: Table, state: TableState) -> None:
    """Cache the state a change saved under its new version once the change is committed
    (the phones' renders then need not decode it); a rolled-back version is never kept."""
    key = (table.pk, table.version)
    transaction.on_commit(lambda: STATES.put(key, state))


def _seat_move(state: TableState, seat: int, move: dict, rng) -> TableState:
    """The table after a seat's move. The rules say why a move is refused; one they would
    carry out but do not offer this seat now is refused too: the rules' list of legal moves
    is what every phone draws its buttons from."""
    with refused_by_rules():
        new = apply(state, seat, move, rng)
    if not any(offer["type"] == move["type"] for offer in legal_actions(state, seat)):
        raise Refused(_("That is not a move you can make now; nothing changed."))
    return new


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _move(action: dict) -> dict:
    """The rules' action for a phone's tap: only what a phone may say, with a time stamp."""
    move = {"type": action["type"], "t": now_ms()}
    if action["type"] == "report":
        move["kind"] = action.get("kind")
        if action.get("kind") == "sixes":
            move["count"] = _int(action.get("count"))
    elif action["type"] == "scramble":
        move["split"] = [_int(action.get("team0")), _int(action.get("team1"))]
    return move


@transaction.atomic
def table_action(
    code: str, claim: SeatClaim | None, action_id: str, action: dict, table_hint: int | None = None
) -> int | None:
    """A tap at a table. Returns the table's new stamp, or None when this action id was
    applied before (a retry: acknowledged, not applied again)."""
    # Every query of a tap is a round trip to PostgreSQL on the scale-out stack: when the
    # phone knows its table, the night, whether this tap was applied before, the player and
    # the table (locked) come in one; else the night and the retry in one, then the others.
    found = None
    if claim is not None and table_hint is not None:
        found = tap_rows(code, action_id, claim.seat_id, table_hint)
    party, player, table = found or (night_of_tap(code, action_id), None, None)
    if party is None:
        raise Refused(_("There is no party with the code {code}.").format(code=code))
    if party.retried:
        return None
    player = seat_player(party, claim, player)
    _check_playing(party)
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in SEAT_MOVES:
        raise Refused(_("That is not something you can do at a Bunko table."))
    if table is None or player.id not in table.seats:
        table = locked_table_of(party, player, table_hint if table is None else None)
    if "table" in action and _int(action["table"]) != table.number:
        raise Refused(
            _("That button is for another table: you are at table {number}.").format(
                number=table.number
            )
        )
    if "round" in action and _int(action["round"]) != table.round:
        raise Refused(_("That round is over: here is your table now."))
    state = locked_state(table)
    if kind in MOVES_OF_A_MOMENT and "at" in action and _int(action["at"]) != state.version:
        # The button was drawn for an earlier moment of the table: a double tap, or a tap
        # that crossed another phone's. Applying it would roll for the wrong moment.
        raise Refused(_("The table moved on before that tap arrived; nothing changed."))
    seat = table.seats.index(player.id)
    rng = rng_for(party.seed, table.pk * 1_000_003 + table.version)
    new = _seat_move(state, seat, _move(action), rng)
    if kind == "swap":
        table.seats = swap_partners(table.seats)
    table.state = new.to_json()
    moments = _moments(state, new)
    record_table(
        party,
        table,
        kind,
        action_id=action_id,
        player=player,
        seat=seat,
        tallies=bool(moments) or new.phase == DONE or kind == "undo",
        action=action,
        told=told(state, new, player.name),
    )
    keep_state(table, new)
    _after_change(party, table, state, new, moments, undone=kind == "undo")
    if kind == "swap":
        # Seats changed: every screen learns who now sits where (a night-wide change, rare).
        party = Party.objects.select_for_update().get(pk=party.pk)
        record_night(party, "partners_swapped", table=table.number, player=player)
    return table.stamp


def told(before: TableState, after: TableState, who: str) -> list[dict]:
    """What a change did, as data for the night's log (presenter.tell says it in the
    reader's language: "Gus rolled 6 6 2: 2 points")."""
    names = list(after.players)
    lines: list[dict] = [
        {"roll": roll, "names": names} for roll in after.rolls[len(before.rolls) :]
    ]
    if before.phase == "rolloff" and after.phase != "rolloff" and after.first_roller is not None:
        lines.insert(0, {"rolloff": names[after.first_roller]})
    if len(after.rolls) < len(before.rolls) or (
        len(after.rolls) == len(before.rolls) and after.scores != before.scores
    ):
        lines.append({"undo": who})
    if before.phase == "scramble" and after.rolls and "split" in after.rolls[-1]:
        lines.append({"split": list(after.rolls[-1]["split"])})
    return lines


def _moments(before: TableState, after: TableState) -> list[dict]:
    """The Bunkos and wipeouts this change rolled (a ghost's too: it celebrates, but a ghost
    never holds a travelling prize)."""
    return [r for r in after.rolls[len(before.rolls) :] if r["kind"] in (BUNKO, WIPEOUT)]


def _after_change(
    party: Party,
    table: Table,
    before: TableState,
    after: TableState,
    moments: list[dict],
    undone: bool = False,
) -> None:
    """What a table's change means for the night: travelling prizes, STOP, the round's end."""
    names = after.players
    for roll in moments:
        announce(
            [table.group, party.screens_group],
            roll["kind"],
            table=table.number,
            player=names[roll["seat"]],
        )
    stop_changed = table.number == 1 and before.stopped != after.stopped
    if stop_changed:
        _stop_changed(party, table, after.stopped)
    night_moment = bool(moments) or undone or stop_changed or after.phase == DONE
    if not night_moment:
        return
    party = Party.objects.select_for_update().get(pk=party.pk)
    if moments or undone:
        _recount_travelling(party, table.round)
    if after.phase == DONE and before.phase != DONE and _round_done(party):
        record_night(party, "round_over", round=party.current_round)
        announce([party.group], "round_over", round=party.current_round)


def _stop_changed(party: Party, head: Table, stopped: bool) -> None:
    """Ruling: 'At that moment the head table calls STOP and every table stops at once.' An
    undone or corrected STOP roll lets the other tables play on as before it."""
    others = Table.objects.select_for_update().filter(party=party, round=head.round)
    for table in others.exclude(pk=head.pk).order_by("number"):
        state = TableState.from_json(table.state)
        if stopped:
            if state.stopped or state.phase == DONE:
                continue
            new = apply(state, None, {"type": "stop"}, random.Random(0))
        else:
            entries = [e for e in state.entries if e["action"]["type"] != "stop"]
            if len(entries) == len(state.entries):
                continue
            new = replay(state.players, state.options, entries)
            new.version = state.version + 1
        table.state = new.to_json()
        record_table(party, table, "stop" if stopped else "stop_undone", tallies=True)
    party = Party.objects.select_for_update().get(pk=party.pk)
    record_night(party, "stop" if stopped else "stop_undone", round=head.round)
    if stopped:
        announce([party.group], "stop", table=head.number, round=head.round)


def _round_done(party: Party) -> bool:
    states = table_states(table_rows(party), keep=False)
    return bool(states) and all(state.phase == DONE for state in states)


def _recount_travelling(party: Party, round_number: int) -> None:
    """The travelling prizes go to whoever rolled the latest Bunko and the latest wipeout
    still on the tables (ghosts hold no prize); a night event when a holder changes."""
    # The past rounds come from this process's copy (read once a round) unless this change
    # is a correction of one of them, which only this transaction sees yet.
    latest = latest_prizes(party, fresh=round_number < party.current_round)
    bunko, wipeout = latest[BUNKO], latest[WIPEOUT]
    if (party.travelling_bunko_id, party.travelling_wipeout_id) == (bunko, wipeout):
        return
    names = dict(party.players.values_list("pk", "name"))
    concerned = set()
    for kind, was, now in (
        ("bunko", party.travelling_bunko_id, bunko),
        ("wipeout", party.travelling_wipeout_id, wipeout),
    ):
        if was != now:
            concerned |= {was, now} - {None}
            # "When you roll a Bunko, you immediately go and take prize from the person
            # currently holding it": every screen says who takes it from whom.
            # The big screen's moment; the phones redraw who holds it (record_night).
            announce(
                [party.screens_group],
                "travelling",
                prize=kind,
                to=names.get(now, ""),
                came_from=names.get(was, ""),
            )
    party.travelling_bunko_id, party.travelling_wipeout_id = bunko, wipeout
    party.save(update_fields=["travelling_bunko", "travelling_wipeout"])
    # The phones of those who take a prize and give one up hear it at once: they are the
    # ones to walk over with it.
    record_night(
        party,
        "travelling",
        parts=(TRAVELLING,),
        concerns=tuple(sorted(concerned)),
        bunko=bunko,
        wipeout=wipeout,
    )


@transaction.atomic
def correct_entry(
    code: str, table_id: int, index: int, replacement: dict | None, reason: str
) -> dict | None:
    """The host changes (or deletes) one entry of a table; the table replays from there, and
    STOP, the travelling prizes and the round's end follow. Returns the entry's action
    before the correction (to take it back)."""
    party = Party.objects.filter(code=code).first()
    if party is None:
        raise Refused(_("There is no party with the code {code}.").format(code=code))
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise Refused(_("Say why the entry is corrected: the reason is kept in the log."))
    table = Table.objects.select_for_update().filter(party=party, pk=table_id).first()
    if table is None:
        raise Refused(_("That table is not part of this night."))
    state = TableState.from_json(table.state)
    before = state.entries[index]["action"] if 0 <= index < len(state.entries) else None
    correction = {"type": "correct", "index": index, "replacement": replacement}
    with refused_by_rules():
        new = apply(state, None, correction, random.Random(0))
    table.state = new.to_json()
    record_table(
        party,
        table,
        "corrected",
        tallies=True,
        reason=reason,
        index=index,
        before=before,
        after=replacement,
    )
    _after_change(party, table, state, new, [], undone=True)
    party = Party.objects.select_for_update().get(pk=party.pk)
    party.corrections += 1
    party.save(update_fields=["corrections"])
    record_night(
        party,
        "corrected",
        table=table.number,
        reason=reason,
        index=index,
        before=before,
        after=replacement,
    )
    return before


HOST_MOVES = {"play", "autoplay", "end"}


@transaction.atomic
def host_move(code: str, table_id: int, move: dict) -> int:
    """The host's way out of a stalled table: make the move a seat whose phone is gone
    should make (virtual dice), let the app play for a seat, or end the game as it stands.
    Returns the table's new stamp."""
    party = Party.objects.filter(code=code).first()
    if party is None:
        raise Refused(_("There is no party with the code {code}.").format(code=code))
    _check_playing(party)
    kind = move.get("type")
    if kind not in HOST_MOVES:
        raise Refused(_("That is not something the host can do at a table."))
    table = Table.objects.select_for_update().filter(party=party, pk=table_id).first()
    if table is None or table.round != party.current_round:
        raise Refused(_("That table is not playing this round."))
    state = TableState.from_json(table.state)
    seat, action = _host_action(party, state, move)
    rng = rng_for(party.seed, table.pk * 1_000_003 + table.version)
    with refused_by_rules():
        new = apply(state, seat, action, rng)
    table.state = new.to_json()
    moments = _moments(state, new)
    # What the move did goes into the log: whom the app plays for now, the rolls it made.
    about = {"name": new.players[action["seat"]]} if kind == "autoplay" else {}
    lines = told(state, new, "")
    record_table(
        party, table, f"host_{kind}", seat=seat, tallies=True, action=action, told=lines, **about
    )
    _after_change(party, table, state, new, moments)
    return table.stamp


def _host_action(party: Party, state: TableState, move: dict) -> tuple[int | None, dict]:
    kind = move["type"]
    if kind == "autoplay":
        return None, {
            "type": "autoplay",
            "seat": _int(move.get("seat")),
            "on": bool(move.get("on", True)),
        }
    if kind == "end":
        winner = _int(move.get("winner"))
        return None, {"type": "end", **({"winner": winner} if winner is not None else {})}
    # "play": the stalled seat's own move, with the app's dice.
    with refused_by_rules():
        real_dice = party.dice_mode == Party.DiceMode.PHYSICAL
        seat, action = stalled_move(state, _int(move.get("seat")), real_dice)
    return seat, ({**action, "t": now_ms()} if action["type"] == "roll" else action)
