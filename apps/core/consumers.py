"""The phone check: a page every guest can open to see their phone reaches the laptop."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from apps.core.errors import Refused
from apps.core.live import LiveConsumer

CHECK_GROUP = "phone-check"


class PhoneCheckConsumer(LiveConsumer):
    async def authenticate(self) -> bool:
        self.live_groups = [CHECK_GROUP]
        return True

    async def render(self) -> tuple[int, str]:
        return 0, render_to_string("core/check.html#status", {"connected": True})

    async def catch_up(self, since: object) -> None:
        # The status is about this very socket, so its hello gets it, whatever the version.
        version, html = await self.render()
        await self.send_json({"type": "fragments", "version": version, "html": html})

    async def perform(self, action_id: str, act: dict) -> None:
        name = str(act.get("name", "")).strip()[:30]
        if not name:
            raise Refused(_("Type your name first, then wave."))
        await self.channel_layer.group_send(CHECK_GROUP, {"type": "check.wave", "name": name})

    async def check_wave(self, event: dict) -> None:
        html = render_to_string("core/check.html#wave", {"name": event["name"]})
        await self.send_json({"type": "fragments", "html": html})
