"""One socket per screen of a night: a player's phone, the big screen, the host's console.

A phone listens to its table (``live.table``: redraw the table), the night (``live.night``:
the night-wide parts) and its own seat. The big screen and the console listen to the night
and to every table (the screens group), and redraw only the table that changed.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from apps.core import groups
from apps.core.changes import Change
from apps.core.errors import Refused
from apps.core.language import speak
from apps.core.live import LiveConsumer, read_change
from apps.core.network import public_base_for
from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.parties import awards, big_screen, console, fanout, render, services
from apps.parties.models import Party, Player
from apps.parties.selectors import TableRow
from apps.parties.services.log import (
    ALL,
    AWARDS,
    INVITATIONS,
    LANGUAGE,
    PLAYERS,
    TRAVELLING,
    WAITING,
)

VIEWS = {"phone", "screen", "host"}
# The big screen and the console draw the tables that changed at once, then at most this
# often (seconds): quicker than the eye at a party, and a hundred busy tables cost twenty
# drawings a second. Measured at 100 tables, the big screen's p99: 0.1 s made it 139-171 ms
# (a change waited up to 0.1 s for its turn), 0.05 s 104-120 ms for 0.1-0.7 ms more CPU per
# tap; when a tap cost three times what it does now, 0.05 s was the slower. A card redrawn
# while the host's button inside it waits for its answer is swapped in once the answer has
# come (see live.js).
SCREENS_REDRAW_AFTER = 0.05
# The console is the host's desk, not the room's screen: a change there waits up to a quarter
# of a second, and each of its redraws (the changed tables, the round's status, the log read
# from the database) serves five times as many taps at a big night.
CONSOLE_REDRAW_AFTER = 0.25
# The console's log of what happened is read and drawn at most this often (seconds): at a
# big night it scrolls faster than anyone reads, and it was most of a console redraw's work.
CONSOLE_LOG_EVERY = 1.0
PHONES_EVERY = 10  # seconds between the console's phone-dot updates
# What a table's move may carry beside its type.
ACTION_FIELDS = {"type", "kind", "count", "team0", "team1", "table", "round", "at"}


@database_sync_to_async
def _party(code: str) -> Party | None:
    return Party.objects.filter(code=code).first()


@database_sync_to_async
def _seat_language(player_id: int) -> str:
    return Player.objects.filter(pk=player_id).values_list("language", flat=True).first() or ""


class PartyConsumer(LiveConsumer):
    phone: render.Phone | None = None
    night: render.Night | None = None
    table_group: str | None = None
    redraw: asyncio.TimerHandle | None = None  # the screens' next redraw of changed tables
    drawn_at = float("-inf")  # when the screens' last redraw started (the loop's clock)
    drawing = False
    phones_watch: asyncio.Future | None = None  # the console's phone dots
    log_at = float("-inf")  # when the console's log was last drawn (the loop's clock)
    log_pending = False  # a change since then is not in the console's log yet
    log_redraw: asyncio.TimerHandle | None = None  # the console's next log-only redraw

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.changed: dict[int, Change] = {}  # table id -> its latest change not yet drawn
        self.tallies_moved = False  # one of those changes moved the score sheets
        self.heard: dict[int, int] = {}  # the screens: table id -> newest version heard

    async def authenticate(self) -> bool:
        kwargs = self.scope["url_route"]["kwargs"]
        self.code, self.view = kwargs["code"], kwargs["view"]
        party = await _party(self.code)
        if party is None or self.view not in VIEWS:
            self.unknown_code = True
            return False
        if self.view == "host":
            user = self.scope.get("user")
            if not (user and user.is_authenticated and user.pk == party.host_id):
                return False
        host = dict(self.scope.get("headers", [])).get(b"host", b"").decode("latin1")
        self.base = public_base_for(host)
        cookie = self.scope.get("cookies", {}).get(seat_cookie_name(party.scope))
        self.claim = read_seat_token(cookie, party.scope)
        self.live_groups = [party.group]
        if self.view == "phone" and self.claim is not None:
            self.live_groups.append(groups.seat(party.scope, self.claim.seat_id))
            self.presence = ("player", self.claim.seat_id)
            # The seat's language first: the phone's cookie may be gone, its seat remembers.
            self.language = await _seat_language(self.claim.seat_id) or None
        elif self.view != "phone":
            self.live_groups.append(party.screens_group)
        if self.view == "screen":
            self.language = party.language  # the room reads the host's language
        return True

    async def arrived(self) -> None:
        if self.presence is not None:
            await database_sync_to_async(services.player_seen)(self.presence[1])
        if self.view == "host":
            self.phones_watch = asyncio.ensure_future(self._watch_phones())

    async def _watch_phones(self) -> None:
        """The console's dots (is each player's phone here?) follow the phones' heartbeats:
        one small event every few seconds, not a redraw of the list per phone."""
        while True:
            await asyncio.sleep(PHONES_EVERY)
            states = await database_sync_to_async(console.phone_states)(self.code)
            await self.send_json({"type": "event", "name": "phones", "data": states})

    async def left(self) -> None:
        await self.arrived()  # the takeover clock and "has a phone" count from the last sight

    async def ended(self) -> None:
        # However the socket ended (a crash too): no redraw or phone-dot loop outlives it.
        if self.redraw is not None:
            self.redraw.cancel()
        if self.log_redraw is not None:
            self.log_redraw.cancel()
        if self.phones_watch is not None:
            self.phones_watch.cancel()

    async def leave_groups(self) -> None:
        if self.table_group:
            self.live_groups.append(self.table_group)
            self.table_group = None
        await super().leave_groups()

    # -- whole pages (a hello, a night-wide change) -------------------------------------------

    async def render(self, version: int | None = None) -> tuple[int, str]:
        """The whole page; ``version``: the night-wide change it is redrawn for (a phone
        shares the reads of the night at that version with the night's other phones)."""
        if self.view == "phone":
            shared = version is not None
            # The table's group is joined before the table is read: a change made between
            # the read and the join would reach neither the page nor the socket, and a table
            # waiting for this phone's roll (a round's first, just after a round change of
            # 400 pages) would wait for ever.
            version, row = await database_sync_to_async(render.phone_seat)(
                self.code, self.claim, version
            )
            await self._follow_table(row)
            html, self.phone = await database_sync_to_async(render.render_phone)(
                self.code, self.claim, version, shared
            )
            await self._follow_table(self.phone.row)
            return self.phone.night.party.version, html
        if self.view == "host":
            html, self.night = await database_sync_to_async(console.render_host)(self.code)
        else:
            html, self.night = await database_sync_to_async(big_screen.render_screen)(
                self.code, self.base
            )
        return self.night.party.version, html

    async def _follow_table(self, row: TableRow | None) -> None:
        """A phone listens to the table it sits at this round, and only to that one."""
        wanted = groups.night_table(self.code, row.round, row.number) if row is not None else None
        if wanted == self.table_group:
            return
        if self.table_group:
            await self.channel_layer.group_discard(self.table_group, self.channel_name)
        if wanted:
            await self.channel_layer.group_add(wanted, self.channel_name)
        self.table_group = wanted

    async def catch_up(self, since) -> None:
        # Fragments are cached by version, so a whole page costs little: a reconnecting
        # phone always gets every part, each with the version it shows (data-v).
        version, html = await self.render()
        self.version = version
        await self.send_json({"type": "fragments", "version": version, "html": html})

    async def live_night(self, event: dict) -> None:
        change = read_change(event)
        if change is None:
            return
        parts = set(change.payload["parts"] or [ALL])
        if LANGUAGE in parts and self.view == "screen":
            party = await _party(self.code)
            self.language = party.language if party else self.language
            with speak(self.language):
                await self.catch_up(None)
            return
        if INVITATIONS in parts:
            if self.view == "phone" and self.phone is not None:
                html = await database_sync_to_async(render.phone_invitations)(self.phone)
                await self.send_json({"type": "fragments", "html": html})
            return
        if ALL not in parts:
            await self._night_parts(parts, change.version)
            return
        version, html = await self.render(change.version)
        self.version = version
        await self.send_json({"type": "fragments", "version": version, "html": html})

    async def _night_parts(self, parts: set[str], version: int) -> None:
        """Redraw the parts a night-wide change touched, each as this socket shows it."""
        if AWARDS in parts:
            html = await database_sync_to_async(self._awards)(version)
            await self.send_json({"type": "fragments", "html": html})
        if TRAVELLING in parts and self.view != "host":
            html = render.travelling_drawn(self.code, version, self.view)
            if html is None:  # the first of this process's sockets to hear it
                kind = "phone" if self.view == "phone" else "tv"
                key = ("travelling", self.code, version, kind, get_language())
                html = await fanout.drawn_once(key, lambda: self._travelling(version))
            await self.send_json({"type": "fragments", "html": html})
        if PLAYERS in parts and self.view != "phone":
            html = await database_sync_to_async(self._players)(version)
            await self.send_json({"type": "fragments", "html": html})
        if WAITING in parts and self.view == "host":
            html = await database_sync_to_async(self._waiting)(version)
            await self.send_json({"type": "fragments", "html": html})

    def _awards(self, version: int) -> str:
        # A travelling prize the awards settle shows its new holder beside the ceremony.
        night = render.night_of(self.code, version)
        if self.view == "phone":
            if self.phone is None:
                return ""
            return render.phone_awards(self.phone) + render.phone_travelling(night)
        if self.view == "host":
            return console.host_awards(night) + console.host_log(night)
        tables = big_screen.screen_night(night, self.base, parts=("tables",))
        return tables + big_screen.screen_travelling(night)

    def _travelling(self, version: int) -> str:
        night = render.night_of(self.code, version)
        if self.view == "phone":
            return render.phone_travelling(night)
        return big_screen.screen_travelling(night)

    def _players(self, version: int) -> str:
        night = render.night_of(self.code, version)
        if self.view == "host":
            return console.host_players(night)
        return big_screen.screen_lobby(night, self.base) if not night.party.current_round else ""

    def _waiting(self, version: int) -> str:
        # A join waiting, let in or turned away is rare enough to say in the log at once.
        night = render.night_of(self.code, version)
        return console.host_waiting(night) + console.host_log(night)

    # -- one table changed ---------------------------------------------------------------------

    async def live_table(self, event: dict) -> None:
        change = read_change(event)
        if change is None:
            return
        if self.view == "phone":
            html = await fanout.drawn_here(fanout.phone_table, self.phone, change)
            if html:
                await self.send_json({"type": "fragments", "html": html})
            return
        # The big screen and the console hear every table of the night: at a hundred tables
        # that is more taps a second than one render each could keep up with, so changes
        # wait a moment and every table that changed is drawn in one go.
        table = change.payload["table"]
        known = self.changed.get(table)
        if known is None or change.stamp > known.stamp:
            self.changed[table] = change
        self.tallies_moved = self.tallies_moved or change.payload["tallies"]
        self._plan_redraw()

    def _plan_redraw(self) -> None:
        """Draw at once when the last drawing is long enough ago (the changes of the same
        moment still go together), else when it will be; never two drawings at a time."""
        if self.redraw is not None or self.drawing:
            return
        loop = asyncio.get_running_loop()
        pause = SCREENS_REDRAW_AFTER if self.view == "screen" else CONSOLE_REDRAW_AFTER
        wait = max(0.0, self.drawn_at + pause - loop.time())
        self.redraw = loop.call_later(wait, lambda: asyncio.ensure_future(self._redraw_tables()))

    async def _redraw_tables(self) -> None:
        changes, self.changed, self.redraw = list(self.changed.values()), {}, None
        tallies, self.tallies_moved = self.tallies_moved, False
        now = asyncio.get_running_loop().time()
        self.drawing, self.drawn_at = True, now
        with_log = False
        if self.view == "host":
            with_log = now >= self.log_at + CONSOLE_LOG_EVERY
            if with_log:
                self.log_at, self.log_pending = now, False
            else:
                self.log_pending = self.log_pending or bool(changes)
        try:
            html = await fanout.on_screens_thread(self._screen_tables)(changes, tallies, with_log)
            if html:
                await self.send_json({"type": "fragments", "html": html})
        finally:
            self.drawing = False
        if self.changed:  # changes that came while this drawing was made
            self._plan_redraw()
        if self.log_pending:
            self._plan_log()

    def _plan_log(self) -> None:
        """The console's log, drawn by itself once it is due, unless a redraw of changed
        tables draws it first."""
        if self.log_redraw is not None:
            return
        loop = asyncio.get_running_loop()
        wait = max(0.0, self.log_at + CONSOLE_LOG_EVERY - loop.time())
        self.log_redraw = loop.call_later(wait, self._log_due)

    def _log_due(self) -> None:
        self.log_redraw = None
        # A drawing under way plans the log again when it ends; a planned one draws it.
        if self.log_pending and not self.drawing and self.redraw is None:
            asyncio.ensure_future(self._redraw_tables())

    def _screen_tables(self, changes: list[Change], tallies: bool, with_log: bool) -> str:
        if self.night is None:
            return ""
        return fanout.screen_tables(
            self.view,
            self.night,
            changes,
            lambda: fanout.rows_heard(self.night, self.heard),
            self.heard,
            tallies=tallies,
            with_log=with_log,
        )

    # -- a phone's tap ------------------------------------------------------------------------

    async def perform(self, action_id: str, act: dict) -> int | None:
        """A tap; the answer carries the table's new version (data-v of its fragments)."""
        if self.view != "phone":
            raise Refused(_("The big screen and the host's console don't roll dice."))
        if str(act.get("type", "")).startswith(awards.PREFIX):
            provider = awards.provider()
            if provider is None:
                raise Refused(_("There are no awards tonight."))
            await database_sync_to_async(provider.step)(self.code, self.claim, act, action_id)
            return None
        action = {k: v for k, v in act.items() if k in ACTION_FIELDS}
        hint = self.phone.row.pk if self.phone and self.phone.row else None
        return await database_sync_to_async(services.table_action)(
            self.code, self.claim, action_id, action, hint
        )
