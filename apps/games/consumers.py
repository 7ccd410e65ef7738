"""One socket consumer for every game room: ``room_socket`` for a phone, ``room_screen_socket``
for the big screen.

Thin, as the design asks: it knows which seat the phone is (the seat cookie), hands actions to
the services, and renders each viewer's own view when a new version is broadcast.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from apps.core import groups
from apps.core.codes import normalize_code
from apps.core.errors import Refused
from apps.core.links import night_for_phone
from apps.core.live import LiveConsumer, read_change
from apps.core.network import public_base_for
from apps.core.tokens import SeatClaim, read_seat_token, seat_cookie_name
from apps.games import services
from apps.games.selectors import render_for_viewer, room_by_code, seat_for_token

# Seat and lobby requests travel in the same envelope as moves; their types can't clash with a
# game's.
LOBBY_ACTS = {"room.bot", "room.unbot", "room.start", "room.release"}


class RoomConsumer(LiveConsumer):
    code: str = ""
    claim: SeatClaim | None = None
    seat_id: int | None = None
    nonce: str = ""
    screen: bool = False
    base_url: str = ""
    party_code: str = ""

    async def authenticate(self) -> bool:
        kwargs = self.scope["url_route"]["kwargs"]
        self.code = normalize_code(kwargs["code"])
        # The big screen is public whatever cookie the laptop holds: it never shows a hand.
        self.screen = bool(kwargs.get("screen"))
        host = dict(self.scope.get("headers", [])).get(b"host", b"").decode("latin1")
        self.base_url = public_base_for(host)
        token = self.scope.get("cookies", {}).get(seat_cookie_name(f"room:{self.code}"))
        if not await database_sync_to_async(self._identify)(token):
            return False
        if self.seat_id is not None:
            self.presence = ("seat", self.seat_id)
        return True

    def _identify(self, token: str | None) -> bool:
        room = room_by_code(self.code)
        if room is None:
            self.unknown_code = True
            return False
        self.live_groups = [room.group]
        self.party_code = room.party_code
        if room.party_code and not self.screen:
            # A player of the night hears when the next round starts, wherever they are.
            self.live_groups.append(groups.night(room.party_code))
        if not self.screen and (seat := seat_for_token(room, token)) is not None:
            self.claim = read_seat_token(token, room.scope)
            self.seat_id, self.nonce = seat.id, seat.nonce
        return True

    async def arrived(self) -> None:
        if self.seat_id is not None:
            await database_sync_to_async(services.seat_connected)(self.code, self.seat_id)

    async def left(self) -> None:
        if self.seat_id is not None:
            await database_sync_to_async(services.seat_left)(self.seat_id)

    async def live_night(self, event: dict) -> None:
        """The night moved on (a round started, the night ended): say what it wants of this
        phone above the game ("Round 2 has started: go to table 3")."""
        change = read_change(event)
        if change is None or "all" not in change.payload["parts"]:
            return
        html = await database_sync_to_async(self._night_call)()
        await self.send_json({"type": "fragments", "html": html})

    def _night_call(self) -> str:
        cookies = self.scope.get("cookies", {})
        night = night_for_phone(self.party_code, cookies, self.scope.get("user"))
        return render_to_string("games/partials/night_call.html", {"night": night})

    async def render(self) -> tuple[int, str]:
        return await database_sync_to_async(render_for_viewer)(
            self.code, self.seat_id, self.nonce, self.base_url, self.screen
        )

    async def perform(self, action_id: str, act: dict) -> None:
        await database_sync_to_async(self._perform)(action_id, act)

    def _perform(self, action_id: str, act: dict) -> None:
        kind = act["type"]
        if kind not in LOBBY_ACTS:
            services.perform_action(self.code, self.claim, action_id, act)
        elif kind == "room.start":
            services.start_room(self.code, self.claim)
        else:
            slot = _int(act.get("slot"))
            if slot is None:
                raise Refused(_("Which seat? Nothing changed."))
            if kind == "room.release":
                services.release_seat(self.code, self.claim, slot)
                return
            level = act.get("level") if isinstance(act.get("level"), str) else ""
            services.set_seat_bot(self.code, self.claim, slot, kind == "room.bot", level)


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 6:
        return int(value)
    return None
