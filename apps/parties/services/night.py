"""The night's life: creating it, its players, starting rounds, pausing and ending."""

from __future__ import annotations

import random
import secrets
from collections import Counter

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core.dice import rng_for
from apps.core.errors import Refused
from apps.core.language import supported
from apps.core.links import rooms_of_night, round_started
from apps.core.names import clean_name, same_name
from apps.core.tokens import make_seat_token
from apps.parties.models import Party, Player, SitOut, Table
from apps.parties.rules import outcome
from apps.parties.rules import setup as setup_table
from apps.parties.rules.night import most
from apps.parties.rules.seating import SeatingProblem, plan_first_round, plan_next_round
from apps.parties.rules.table import DONE, TableState

from .log import LANGUAGE, PLAYERS, announce, record_night


def locked(code: str) -> Party:
    """The party row, locked until the transaction ends: one writer at a time per night."""
    try:
        return Party.objects.select_for_update().get(code=code)
    except Party.DoesNotExist:
        raise Refused(_("There is no party with the code {code}.").format(code=code)) from None


def _check_name_free(party: Party, name: str, exclude: int | None = None) -> None:
    # Compared in Python, not by the database: "Ann" and "Ａnn" are one name to the eye.
    others = {p.name: p for p in party.players.exclude(pk=exclude)}
    match = same_name(name, others)
    if match is None:
        return
    taken = others[match]
    if not taken.active:
        raise Refused(
            _(
                "{taken} is on tonight's list but has left. Ask the host to "
                "bring {taken} back, or add your name with an initial."
            ).format(taken=taken.name)
        )
    if taken.claimed:
        raise Refused(
            _(
                "{taken} has already joined on another phone. If that is you on "
                "a new phone, ask the host to free the name {taken}; if not, add "
                "your name with an initial (like Ann B)."
            ).format(taken=taken.name)
        )
    raise Refused(
        _("{taken} is already on the list: tap {taken} above to join.").format(taken=taken.name)
    )


def _player(party: Party, player_id: int) -> Player:
    try:
        return party.players.get(
            pk=player_id, kind__in=[Player.Kind.PLAYER, Player.Kind.SUBSTITUTE]
        )
    except (Player.DoesNotExist, ValueError, TypeError):
        raise Refused(_("That player is not on this night's list.")) from None


def _not_ended(party: Party) -> None:
    if party.status == Party.Status.ENDED:
        raise Refused(_("This night is over."))


@transaction.atomic
def create_party(
    host,
    *,
    name: str,
    rounds: int | None = 6,
    dice_mode: str = Party.DiceMode.VIRTUAL,
    attendance: str = Party.Attendance.GHOSTS,
    seating: str = Party.Seating.RANDOM,
    classic: bool = False,
    language: str = "en",
    expected_players: int | None = None,
) -> Party:
    for _attempt in range(10):
        try:
            with transaction.atomic():
                party = Party.objects.create(
                    name=name.strip() or "Bunko night",
                    host=host,
                    rounds=rounds,
                    dice_mode=dice_mode,
                    attendance=attendance,
                    seating=seating,
                    classic=classic,
                    language=supported(language) or "en",
                    expected_players=expected_players or None,
                )
            break
        except IntegrityError:
            continue  # a code collision: draw another
    else:  # pragma: no cover - 31^5 codes
        raise Refused(_("Could not find a free party code; try again."))
    party = locked(party.code)
    record_night(party, "created", name=party.name)
    return party


@transaction.atomic
def add_player(code: str, name: str, *, kind: str = Player.Kind.PLAYER) -> Player:
    """The host adds a player (or a late arrival adds themselves); they play from the next
    round that starts."""
    party = locked(code)
    _not_ended(party)
    name = clean_name(name)
    _check_name_free(party, name)
    player = Player.objects.create(
        party=party, name=name, kind=kind, joined_round=party.current_round + 1
    )
    record_night(
        party, "player_added", parts=(PLAYERS,), player=player, name=name, player_kind=kind
    )
    return player


@transaction.atomic
def join_party(
    code: str, *, player_id: int | None = None, new_name: str | None = None
) -> tuple[Player, str]:
    """A phone becomes a player: picks a name from the list or adds itself. Returns the
    player and the seat token the phone keeps."""
    party = locked(code)
    _not_ended(party)
    if new_name is not None:
        name = clean_name(new_name)
        _check_name_free(party, name)
        player = Player.objects.create(party=party, name=name, joined_round=party.current_round + 1)
    else:
        player = _player(party, player_id)
        if not player.active:
            raise Refused(
                _("{player} has left tonight's list. Ask the host to add you.").format(
                    player=player.name
                )
            )
        if player.claimed:
            raise Refused(
                _(
                    "{player} has already joined on another phone. If that was "
                    "you, ask the host to free the name."
                ).format(player=player.name)
            )
    player.claimed = True
    player.save(update_fields=["claimed"])
    record_night(party, "joined", parts=(PLAYERS,), player=player, name=player.name)
    return player, make_seat_token(party.scope, player.id, player.nonce)


@transaction.atomic
def rename_player(code: str, player_id: int, name: str) -> Player:
    party = locked(code)
    player = _player(party, player_id)
    name = clean_name(name)
    _check_name_free(party, name, exclude=player.id)
    old = player.name
    player.name = name
    player.save(update_fields=["name"])
    record_night(party, "player_renamed", player=player, old=old, name=name)
    return player


def _change_player(code: str, player_id: int, kind: str, **fields: object) -> Player:
    party = locked(code)
    player = _player(party, player_id)
    for field, value in fields.items():
        setattr(player, field, value)
    player.save(update_fields=list(fields))
    record_night(party, kind, parts=(PLAYERS,), player=player, name=player.name)
    return player


@transaction.atomic
def remove_player(code: str, player_id: int) -> Player:
    """An early leaver: off the list from the next round. Their phone still plays out the
    round they are in and can read the score sheet."""
    return _change_player(code, player_id, "player_removed", active=False)


@transaction.atomic
def return_player(code: str, player_id: int) -> Player:
    return _change_player(code, player_id, "player_returned", active=True)


@transaction.atomic
def free_player(code: str, player_id: int) -> Player:
    """The host frees a name whose phone was lost or swapped: the next phone may take it,
    and the old phone's token goes stale."""
    return _change_player(
        code, player_id, "player_freed", claimed=False, nonce=secrets.token_urlsafe(8)
    )


# --- rounds -----------------------------------------------------------------------------------


def key_of(player: Player) -> str:
    """How the seating rules know a player: ghosts by their ghost name, others by id."""
    return player.name if player.is_ghost else str(player.id)


def _results(tables: list[Table], keys: dict[int, str]) -> list[dict]:
    results = []
    for table in tables:
        result = outcome(TableState.from_json(table.state))
        seat_keys = [keys[pid] for pid in table.seats]
        results.append(
            {
                "winners": [seat_keys[s] for s in result["winners"]],
                "losers": [seat_keys[s] for s in result["losers"]],
            }
        )
    return results


def _plan(party: Party, rng: random.Random):
    everyone = list(party.players.all())
    keys = {p.id: key_of(p) for p in everyone}
    playing = [
        keys[p.id]
        for p in everyone
        if p.active and not p.is_ghost and p.joined_round <= party.current_round + 1
    ]
    if party.current_round == 0:
        return plan_first_round(playing, party.attendance, rng, party.seating), everyone
    last = list(party.tables.filter(round=party.current_round))
    last_sitouts = [str(s.player_id) for s in party.sit_outs.filter(round=party.current_round)]
    counts = Counter(str(pid) for pid in party.sit_outs.values_list("player_id", flat=True))
    seating = plan_next_round(
        [[keys[pid] for pid in t.seats] for t in last],
        _results(last, keys),
        playing,
        party.attendance,
        rng,
        sitout_counts=counts,
        last_sitouts=last_sitouts,
    )
    return seating, everyone


def _check_round_over(party: Party) -> None:
    if party.current_round == 0:
        return
    for table in party.tables.filter(round=party.current_round):
        if TableState.from_json(table.state).phase != DONE:
            raise Refused(
                _("Table {number} is still playing this round.").format(number=table.number)
            )


@transaction.atomic
def start_next_round(code: str) -> int:
    """Seat the next round: round 1 by the night's seating, later rounds by the rotation."""
    party = locked(code)
    _not_ended(party)
    if party.status == Party.Status.PAUSED:
        raise Refused(_("The night is paused: resume it first."))
    _check_round_over(party)
    if party.rounds and party.current_round >= party.rounds:
        raise Refused(
            _("All {rounds} rounds are played: finish the night.").format(rounds=party.rounds)
        )
    rng = rng_for(party.seed, party.version)
    try:
        seating, everyone = _plan(party, rng)
    except SeatingProblem as problem:
        raise Refused(str(problem)) from None
    by_key = {key_of(p): p for p in everyone}
    number = party.current_round + 1
    # Where each player sat last round: who stayed at a table.
    previous = {
        pid: table_number
        for table_number, seats in party.tables.filter(round=party.current_round).values_list(
            "number", "seats"
        )
        for pid in seats
    }
    for ghost in seating.ghosts:
        if ghost not in by_key:
            by_key[ghost] = Player.objects.create(
                party=party, name=ghost, kind=Player.Kind.GHOST, joined_round=number
            )
    for index, keys in enumerate(seating.tables, start=1):
        seats = [by_key[k] for k in keys]
        state = setup_table(
            [p.name for p in seats],
            {
                "head": index == 1,
                "classic": party.classic,
                "round": number,
                "ghosts": [s for s, p in enumerate(seats) if p.is_ghost],
                "dice": party.dice_mode,
                # After a rotation the two who stayed choose the partners (not at the head);
                # a player back from a rest in a stayer's seat did not stay.
                "swap": number > 1 and index > 1,
                "stayers": [s for s in (0, 1) if previous.get(seats[s].id) == index],
            },
            rng,
        )
        Table.objects.create(
            party=party,
            round=number,
            number=index,
            seats=[p.id for p in seats],
            state=state.to_json(),
        )
    for key in seating.sitouts:
        SitOut.objects.create(party=party, round=number, player=by_key[key])
    party.current_round = number
    party.status = Party.Status.PLAYING
    party.save(update_fields=["current_round", "status"])
    record_night(party, "round_started", round=number, tables=len(seating.tables))
    seated = [by_key[k].name for table in seating.tables for k in table]
    transaction.on_commit(lambda: round_started(party.code, seated))
    return number


# --- pause and end ----------------------------------------------------------------------------


def _switch(code: str, expected: str, status: str, kind: str, refusal: str) -> None:
    party = locked(code)
    if party.status != expected:
        raise Refused(refusal)
    party.status = status
    party.save(update_fields=["status"])
    record_night(party, kind)


@transaction.atomic
def pause_night(code: str) -> None:
    """Every table holds its dice until the host resumes."""
    _switch(
        code,
        Party.Status.PLAYING,
        Party.Status.PAUSED,
        "paused",
        "Only a night that is playing can be paused.",
    )


@transaction.atomic
def resume_night(code: str) -> None:
    _switch(code, Party.Status.PAUSED, Party.Status.PLAYING, "resumed", "The night is not paused.")


@transaction.atomic
def end_night(code: str) -> dict:
    """'The overall winner is decided by the number of wins and the overall loser is
    determined by the number of losses. Ties are broken by dice roll.' Nobody has the most
    wins when nobody won a game (a night ended before its first round was played)."""
    from apps.parties.selectors import tallies

    party = locked(code)
    _not_ended(party)
    rng = rng_for(party.seed, party.version)
    sheet = tallies(party)
    by_name = {row.player.name: row for row in sheet if not row.player.is_ghost}
    counts = {name: {"wins": r.wins, "losses": r.losses} for name, r in by_name.items()}
    result: dict = {"winner": None, "loser": None, "rolloffs": []}
    for key, label in (("wins", "winner"), ("losses", "loser")):
        if any(c[key] for c in counts.values()):
            result[label], rolls = most(counts, key, rng, label)
            result["rolloffs"] += rolls
    result["status_before"] = party.status
    party.result = result
    party.status = Party.Status.ENDED
    party.save(update_fields=["result", "status"])
    record_night(party, "ended", **result)
    announce([party.group], "ended", winner=result["winner"], loser=result["loser"])
    return party.result


@transaction.atomic
def set_screen_language(code: str, language: str) -> str:
    """The host chooses the big screen's language (it follows at once)."""
    party = locked(code)
    chosen = supported(language)
    if chosen is None:
        raise Refused(_("Choose English, Nederlands or Deutsch."))
    party.language = chosen
    party.save(update_fields=["language"])
    record_night(party, "screen_language", parts=(LANGUAGE,), language=chosen)
    return chosen


def set_player_language(player_id: int, language: str) -> str:
    """A seated phone chose its language: it stays with the seat. Nothing else changes (no
    screen shows it), so no night version."""
    chosen = supported(language)
    if chosen is None:
        raise Refused(_("Choose English, Nederlands or Deutsch."))
    Player.objects.filter(pk=player_id).exclude(language=chosen).update(language=chosen)
    return chosen


@transaction.atomic
def reopen_night(code: str) -> None:
    """The host takes back "End the night": play goes on where it stopped (the results of
    the end are dropped; they are drawn again when the night ends)."""
    party = locked(code)
    if party.status != Party.Status.ENDED:
        raise Refused(_("The night has not ended."))
    # The awards (apps.prizes) rest on the night's final figures: once begun, it stays ended.
    if party.awards.exists() or hasattr(party, "ceremony"):
        raise Refused(_("The awards have begun: the night can no longer be reopened."))
    before = party.result.get("status_before") or Party.Status.PLAYING
    party.status = Party.Status.PAUSED if before == Party.Status.PAUSED else before
    party.result = {}
    party.save(update_fields=["result", "status"])
    record_night(party, "reopened")


def player_seen(player_id: int) -> None:
    """A phone's socket opened or closed: the player was there just now."""
    Player.objects.filter(pk=player_id).update(seen_at=timezone.now())


@transaction.atomic
def show_room(code: str, room_code: str) -> None:
    """The host puts one of the night's party games on the big screen (or the tables back,
    with an empty code)."""
    party = locked(code)
    room_code = "".join(ch for ch in str(room_code).upper() if ch.isalnum())[:12]
    if room_code and room_code not in {r.code for r in rooms_of_night(party.code)}:
        raise Refused(_("That party game is not one of tonight's."))
    party.screen_room = room_code
    party.save(update_fields=["screen_room"])
    what = "a party game" if room_code else "the tables"
    record_night(party, "screen_room", what=what, room=room_code)
