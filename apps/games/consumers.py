"""One socket consumer for every game room: /ws/rooms/<code>/ (add ?screen for the big screen).

Thin, as the design asks: it knows which seat the phone is (the seat cookie), hands actions to
the services, and renders each viewer's own view when a new version is broadcast.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from apps.core.codes import normalize_code
from apps.core.live import BadMessage, LiveConsumer
from apps.core.tokens import SeatClaim, read_seat_token, seat_cookie_name
from apps.games import services
from apps.games.selectors import render_for_viewer, room_by_code, seat_for_token


class RoomConsumer(LiveConsumer):
    code: str = ""
    claim: SeatClaim | None = None
    seat_id: int | None = None
    nonce: str = ""
    screen: bool = False
    base_url: str = ""
    present: bool = False  # counted in the seat's open sockets

    async def authenticate(self) -> bool:
        self.code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        query = parse_qs(self.scope.get("query_string", b"").decode(), keep_blank_values=True)
        # The big screen is public whatever cookie the laptop holds: it never shows a hand.
        self.screen = "screen" in query
        host = dict(self.scope.get("headers", [])).get(b"host", b"").decode()
        self.base_url = f"http://{host}" if host else ""
        token = self.scope.get("cookies", {}).get(seat_cookie_name(f"room:{self.code}"))
        if not await database_sync_to_async(self._identify)(token):
            return False
        self.live_groups = [f"room-{self.code}"]
        return True

    def _identify(self, token: str | None) -> bool:
        room = room_by_code(self.code)
        if room is None:
            return False
        if not self.screen and (seat := seat_for_token(room, token)) is not None:
            self.claim = read_seat_token(token, room.scope)
            self.seat_id, self.nonce = seat.id, seat.nonce
        return True

    async def connect(self) -> None:
        await super().connect()
        if self.live_groups and self.seat_id is not None:
            await database_sync_to_async(services.seat_connected)(self.code, self.seat_id)
            self.present = True

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.present and self.seat_id is not None:
            self.present = False
            await database_sync_to_async(services.seat_disconnected)(self.code, self.seat_id)

    async def render(self) -> tuple[int, str]:
        return await database_sync_to_async(render_for_viewer)(
            self.code, self.seat_id, self.nonce, self.base_url, self.screen
        )

    async def perform(self, message: dict) -> None:
        try:
            await database_sync_to_async(self._perform)(message)
        except services.RoomError as error:
            raise BadMessage(str(error)) from None

    def _perform(self, message: dict) -> None:
        op = message.get("op", "act")
        if op == "act":
            raw = message.get("act")
            try:
                action = json.loads(raw) if isinstance(raw, str) else raw
            except ValueError:
                raise BadMessage("That move could not be read; nothing changed.") from None
            services.perform_action(
                self.code, self.claim, message["id"], action, _int(message.get("version"))
            )
        elif op in ("bot", "unbot"):
            slot = _int(message.get("slot"))
            if slot is None:
                raise BadMessage("Which seat? Nothing changed.")
            services.set_seat_bot(self.code, self.claim, slot, op == "bot")
        elif op == "start":
            services.start_room(self.code, self.claim)
        else:
            raise BadMessage("This table does not know that request; nothing changed.")


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None
