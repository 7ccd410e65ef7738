"""The lobby: making a room, taking seats, bots on seats, and the start of the game."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.core.changes import room_change
from apps.core.dice import rng_for
from apps.core.errors import Refused, refused_by_rules
from apps.core.links import tell_night
from apps.core.live import emit
from apps.core.names import same_name
from apps.core.protocol import IllegalAction, clean_options
from apps.core.tokens import SeatClaim
from apps.games.models import Room, RoomEvent, Seat
from apps.games.registry import get_game

from .common import (
    changed,
    clean_name,
    locked_room,
    new_nonce,
    room_seed,
    seat_for_claim,
    unique_code,
)
from .seats import expect_phone

BOT_NAMES = ("Bot Kiki", "Bot Juma", "Bot Zuri", "Bot Tumo", "Bot Nia")


def create_room(
    game: str,
    options: dict | None,
    creator_name: str,
    prelisted: list[str] | None = None,
    party_code: str = "",
) -> tuple[Room, Seat]:
    """A new room in its lobby, with the creator seated and any pre-listed names kept. The
    options are the game's declared ones, each checked (unknown names are dropped)."""
    entry = get_game(game)
    creator = clean_name(creator_name)
    names: list[str] = []
    for raw in prelisted or []:
        try:
            name = clean_name(raw)
        except Refused:
            continue  # a pre-listed name comes from the night's list: a bad one is left out
        if same_name(name, names) is None:
            names.append(name)
    if (listed := same_name(creator, names)) is not None:
        creator = listed  # the creator is one of the invited: their seat is the listed one
    else:
        names.insert(0, creator)
    if len(names) > entry.max_players:
        raise Refused(
            _("{name} seats at most {count} players.").format(
                name=entry.name, count=entry.max_players
            )
        )
    given = dict(options or {})
    seed = room_seed(given)
    with refused_by_rules():
        opts = clean_options(entry.options, given)
    with transaction.atomic():
        room = Room.objects.create(
            code=unique_code(), game=entry.slug, options=opts, seed=seed, party_code=party_code
        )
        creator_seat = None
        for slot in range(entry.max_players):
            name = names[slot] if slot < len(names) else ""
            is_creator = name == creator
            seat = Seat.objects.create(
                room=room,
                slot=slot,
                name=name,
                prelisted=bool(name) and not is_creator,
                is_creator=is_creator,
                claimed=is_creator,
                nonce=new_nonce() if is_creator else "",
            )
            if is_creator:
                creator_seat = seat
        assert creator_seat is not None
        emit(room.group, room_change(room.code, room.version))
        if party_code and len(names) > 1:
            tell_night(party_code, "invitations")  # the invited phones show their seat
    return room, creator_seat


def take_seat(code: str, slot: int, name: str = "") -> Seat:
    """Sit on an empty seat (lobby only) or claim a pre-listed name (also mid-game, when a bot
    has been playing for that name). A seat a phone holds is never taken here: its holder
    hands it over, or the room's creator gives it to a new phone (``release_seat``)."""
    with transaction.atomic():
        room = locked_room(code)
        seat = room.seats.filter(slot=slot).first()
        if seat is None:
            raise Refused(_("There is no such seat at this table."))
        if seat.claimed:
            raise Refused(_("{name} already sits there; pick another seat.").format(name=seat.name))
        if seat.is_bot:
            raise Refused(_("A bot sits there; pick another seat."))
        if not seat.prelisted:
            if room.status != Room.Status.LOBBY:
                raise Refused(_("The game has started; you can watch it from here."))
            seat.name = clean_name(name)
            others = [s.name for s in room.seats.all() if s.name and s.id != seat.id]
            if (taken := same_name(seat.name, others)) is not None:
                raise Refused(
                    _("Someone here is already called {name}; add an initial.").format(name=taken)
                )
        _claim(room, seat)
    return seat


def take_invited_seat(code: str, seat_id: int, name: str) -> Seat:
    """Claim the seat an invitation from the night names, in one tap: refused when the
    invitation no longer matches the room (the seat held by a phone, given another name,
    or the game over)."""
    with transaction.atomic():
        room = locked_room(code)
        seat = room.seats.filter(id=seat_id).first()
        if room.status == Room.Status.FINISHED:
            raise Refused(_("This game is over."))
        if seat is None or not seat.prelisted or same_name(name, [seat.name]) is None:
            raise Refused(_("This room no longer keeps a seat for {name}.").format(name=name))
        if seat.claimed:
            raise Refused(
                _(
                    "Another phone already holds {name}'s seat. If that phone is not yours, "
                    "ask {creator} to give your seat to a new phone."
                ).format(name=seat.name, creator=room.seats.get(is_creator=True).name)
            )
        _claim(room, seat)
    return seat


def _claim(room: Room, seat: Seat) -> None:
    """Inside the room's transaction: this phone holds the seat now (a new nonce, so any
    older token for it goes stale)."""
    seat.claimed = True
    seat.nonce = new_nonce()
    seat.taken_over = False
    seat.seen_at = timezone.now()
    seat.save()
    changed(room)
    expect_phone(room, seat)
    if room.party_code and seat.prelisted:
        tell_night(room.party_code, "invitations")


def set_seat_bot(code: str, claim: SeatClaim | None, slot: int, bot: bool, level: str = "") -> Seat:
    """The creator puts a bot on an empty seat (at a level the game offers), changes a bot's
    level, or frees a bot's seat (lobby only)."""
    with transaction.atomic():
        room = locked_room(code)
        me = seat_for_claim(room, claim)
        if not me.is_creator:
            raise Refused(_("Only the player who made the room can add bots."))
        if room.status != Room.Status.LOBBY:
            raise Refused(_("The game has started; seats are fixed now."))
        seat = room.seats.filter(slot=slot).first()
        if seat is None:
            raise Refused(_("There is no such seat at this table."))
        entry = get_game(room.game)
        if bot:
            if not (seat.is_empty or seat.is_bot):
                raise Refused(_("Only an empty seat can take a bot."))
            level = level or seat.bot_level or entry.default_bot_level
            if level not in entry.bot_levels:
                raise Refused(_("{name} has no bot of that kind.").format(name=entry.name))
            if not seat.is_bot:
                used = {s.name for s in room.seats.all()}
                seat.name = next(n for n in BOT_NAMES if n not in used)
            seat.bot_level = level
        else:
            if not seat.is_bot:
                raise Refused(_("There is no bot on that seat."))
            seat.name, seat.bot_level = "", ""
        seat.is_bot = bot
        seat.save()
        changed(room)
    return seat


def start_room(code: str, claim: SeatClaim | None) -> Room:
    """Deal: the seated players, bots and pre-listed names (a bot plays for a pre-listed name
    until its player claims it) become the game's seats, in lobby order."""
    with transaction.atomic():
        room = locked_room(code)
        me = seat_for_claim(room, claim)
        if not me.is_creator:
            raise Refused(_("Only the player who made the room can start it."))
        if room.status != Room.Status.LOBBY:
            raise Refused(_("The game has already started."))
        entry = get_game(room.game)
        playing = [s for s in room.seats.all() if not s.is_empty]
        count = len(playing)
        if count < entry.min_players:
            raise Refused(
                ngettext(
                    "{name} needs at least {least} players and {count} sits so far: wait, or "
                    "put a bot on a seat.",
                    "{name} needs at least {least} players and {count} sit so far: wait, or "
                    "put a bot on a seat.",
                    count,
                ).format(name=entry.name, least=entry.min_players, count=count)
            )
        if count > entry.max_players:
            raise Refused(
                _("{name} takes at most {count} players.").format(
                    name=entry.name, count=entry.max_players
                )
            )
        now = timezone.now()
        for player, seat in enumerate(playing):
            seat.player = player
            if seat.claimed and seat.seen_at is None:
                seat.seen_at = now  # never connected: the takeover clock starts now
            seat.save()
        names = [s.name for s in playing]
        options = dict(room.options)
        try:
            state = entry.rules.setup(names, options, rng_for(room.seed, room.version))
        except (IllegalAction, ValueError) as error:
            raise Refused(str(error)) from None
        RoomEvent.objects.create(
            room=room,
            version=room.version,
            action_id=f"start:{room.code}",
            kind=RoomEvent.START,
            data={"players": names, "options": options},
        )
        room.state = state.to_json()
        room.status = Room.Status.PLAYING
        changed(room, "state", "status", state=state)
    return room
