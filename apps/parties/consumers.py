"""One socket per screen of a night: a player's phone, the big screen, the host's console."""

from __future__ import annotations

from channels.db import database_sync_to_async

from apps.core.errors import Refused
from apps.core.live import LiveConsumer
from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.parties import render, services
from apps.parties.models import Party

VIEWS = {"phone", "screen", "host"}
# What a table's move may carry beside its type.
ACTION_FIELDS = {"type", "kind", "count", "team0", "team1", "table", "round", "at"}


@database_sync_to_async
def _party(code: str) -> Party | None:
    return Party.objects.filter(code=code).select_related("host").first()


class PartyConsumer(LiveConsumer):
    async def authenticate(self) -> bool:
        kwargs = self.scope["url_route"]["kwargs"]
        self.code, self.view = kwargs["code"], kwargs["view"]
        party = await _party(self.code)
        if party is None or self.view not in VIEWS:
            return False
        if self.view == "host":
            user = self.scope.get("user")
            if not (user and user.is_authenticated and user.pk == party.host_id):
                return False
        cookie = self.scope.get("cookies", {}).get(seat_cookie_name(party.scope))
        self.claim = read_seat_token(cookie, party.scope)
        self.table: int | None = None
        self.live_groups = [party.group]
        return True

    async def render(self) -> tuple[int, str]:
        if self.view == "phone":
            version, html, self.table = await database_sync_to_async(render.render_phone)(
                self.code, self.claim
            )
            return version, html
        if self.view == "host":
            return await database_sync_to_async(render.render_host)(self.code)
        return await database_sync_to_async(render.render_screen)(self.code)

    async def live_version(self, event: dict) -> None:
        # A tap that changed only another table leaves this phone's page as it is.
        changed = event.get("table")
        if self.view == "phone" and changed is not None and changed != self.table:
            return
        await super().live_version(event)

    async def perform(self, action_id: str, act: dict) -> None:
        if self.view != "phone":
            raise Refused("The big screen and the host's console don't roll dice.")
        action = {k: v for k, v in act.items() if k in ACTION_FIELDS}
        await database_sync_to_async(services.table_action)(
            self.code, self.claim, action_id, action
        )
