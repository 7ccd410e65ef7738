"""The server half of live updates: a base consumer and the after-commit broadcast.

Services append to an event log and bump a version inside their transaction; after commit
they ``emit`` one ``Change`` (apps/core/changes.py) to the groups it concerns. Each consumer
in a group reads it back and renders what its own viewer may see at that version, and sends
it as HTML fragments. Only data crosses the channel layer: a party game's change carries
its room's version alone, so hidden cards never travel to a consumer that must not see them.

The browser speaks one envelope to every consumer:
    {"type": "hello", "since": N}
    {"type": "action", "id": "<client-made id>", "act": {"type": ..., ...}, "target": "..."}
and hears ``fragments``, ``ack``, ``error`` (with the action's id and a sentence) and
``event`` messages. Every refusal is a ``Refused`` with its sentence; nothing changes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from apps.core import limits, pace, presence
from apps.core.changes import Change, NotAChange
from apps.core.errors import Refused
from apps.core.language import language_of_scope, speak_from_now_on
from apps.fastpath.redis_layer import LayerAway

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 16_000
# The close code of a socket whose server process lost the channel layer (a server may not
# send 1011 itself): the page reconnects as after any other close.
LAYER_LOST = 4503
# No page of the product sends anything nested deeper than an action's move holding a list.
MAX_DEPTH = 6
# The close code of a socket that went on sending far beyond a page's pace (apps/core/pace.py),
# the code of too many open sockets too: the page tries again slowly.
FLOODING = 4429


async def _off_loop(function, *args):
    """A cache call (a Redis round trip on the scale-out stack) off the event loop."""
    return await sync_to_async(function, thread_sensitive=False)(*args)


def send_after_commit(groups: str | Iterable[str], message: dict) -> None:
    """After commit, send ``message`` to each group. A channel layer out of reach (Redis
    restarting) costs only the message: the change is committed, the tap or click that made it
    still gets its answer, and every socket catches up by version when it connects again."""
    names = [groups] if isinstance(groups, str) else list(groups)

    def send() -> None:
        loop = _calling_loop()
        if loop is not None:
            # Handed to the server's event loop without waiting: the database thread every
            # socket shares goes on to the next tap instead of idling until the loop gets to
            # this send. The loop's outbox keeps the messages in order.
            try:
                loop.call_soon_threadsafe(_post, names, message)
                return
            except RuntimeError:  # the loop closed meanwhile: send from here as before
                pass
        layer = get_channel_layer()
        for group in names:
            try:
                async_to_sync(layer.group_send)(group, message)
            except Exception:
                # One failure says the layer is away: a Redis that times out holds the
                # request up once, not once per group.
                log.warning("live: the channel layer is out of reach; %s will catch up", names)
                return

    transaction.on_commit(send)


def _calling_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop that called into this thread through sync_to_async (the
    server's, for a socket's tap or a page's request), or None (a command, a test calling a
    service directly)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


# Per event loop: the messages committed changes have handed to it, sent in order by one task.
_OUTBOX: dict[asyncio.AbstractEventLoop, collections.deque] = {}


def _post(names: list[str], message: dict) -> None:
    """On the loop: queue a committed change's message; start the sender if it is idle."""
    loop = asyncio.get_running_loop()
    queue = _OUTBOX.get(loop)
    if queue is None:
        queue = _OUTBOX[loop] = collections.deque()
        loop.create_task(_send_queued(loop, queue))
    queue.append((names, message))


async def _send_queued(loop: asyncio.AbstractEventLoop, queue: collections.deque) -> None:
    try:
        layer = get_channel_layer()
        while queue:
            names, message = queue.popleft()
            for group in names:
                try:
                    await layer.group_send(group, message)
                except Exception:
                    log.warning("live: the channel layer is out of reach; %s will catch up", names)
                    break
    finally:
        # Anything posted after the last send starts a new sender.
        if _OUTBOX.get(loop) is queue:
            del _OUTBOX[loop]
        if queue:
            _post_all(loop, queue)


def _post_all(loop: asyncio.AbstractEventLoop, queue: collections.deque) -> None:
    while queue:
        _post(*queue.popleft())


def emit(groups: str | Iterable[str], change: Change, **delivery: Any) -> None:
    """Tell every consumer in ``groups`` of a change, once it is committed. ``delivery``
    holds hints for the channel layer (apps/core/latest.py), not part of the change."""
    send_after_commit(groups, change.message(**delivery))


def read_change(message: dict) -> Change | None:
    """The change a group message carries, or None (said in the log) when it is not one:
    whatever reaches a socket through the channel layer is checked before it is drawn."""
    try:
        return Change.read(message)
    except NotAChange as error:
        log.warning("live: a group message was not a change (%s); ignored", error)
        return None


def socket_url(name: str, **kwargs: Any) -> str:
    """The path of a page's socket, reversed from the socket routes by name."""
    return reverse(name, urlconf="config.routing", kwargs=kwargs)


def check_values(value: Any, depth: int = 0) -> None:
    """Refuse what no page sends and nothing downstream should see: deep nesting, NUL bytes
    (PostgreSQL cannot store them) and lone surrogates (not text at all)."""
    if depth > MAX_DEPTH:
        raise Refused(_("That message is nested too deeply; nothing changed."))
    if isinstance(value, str):
        if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
            raise Refused(_("That message holds characters that are not text; nothing changed."))
    elif isinstance(value, dict):
        for key, item in value.items():
            check_values(key, depth + 1)
            check_values(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            check_values(item, depth + 1)


class LiveConsumer(AsyncWebsocketConsumer):
    """Base for every page's socket: hello/catch-up, actions with ids, clear errors.

    Subclasses set ``self.live_groups`` in ``authenticate`` and implement ``render`` and,
    where the page acts, ``perform``. A subclass that tracks presence sets ``presence`` to
    ``(kind, pk)`` before the socket is accepted; it is released however the socket ends.
    """

    presence: tuple[str, int] | None = None
    language: str | None = None
    speaking: str | None = None  # the language set for the socket's task (dispatch)
    unknown_code = False  # set by authenticate when the socket names no night or room

    live_groups: list[str]
    version: int = -1
    answered: int | None = None  # the version this socket's last hello was answered at
    flooded = False  # closed for sending beyond the pace

    async def authenticate(self) -> bool:
        """Decide whether this socket may open; set self.live_groups."""
        raise NotImplementedError

    async def render(self) -> tuple[int, str]:
        """The current version and the HTML fragments this viewer should see."""
        raise NotImplementedError

    async def perform(self, action_id: str, act: dict) -> Any:
        """Apply an action; raise Refused with the reason when it is not carried out. What it
        returns (a version) goes back with the acknowledgement as ``v``."""
        raise Refused(_("This page does not take actions."))

    async def arrived(self) -> None:
        """The socket was accepted (presence is counted): a hook for subclasses."""

    async def left(self) -> None:
        """The socket ended, cleanly or not: a hook for subclasses."""

    # -- connection ---------------------------------------------------------------------

    async def dispatch(self, message: dict) -> None:
        # Every message this socket handles (a hello, a tap, a group's news) is answered in
        # its viewer's language (their cookie or browser's, unless a subclass sets
        # ``language``: the night's big screen speaks the host's); the setting follows into
        # database_sync_to_async's thread.
        # The socket's task handles its messages and nothing else, so the language is set
        # for that task when it first differs, not around each message.
        language = self.language or self.viewer_language
        if language != self.speaking:
            speak_from_now_on(language)
            self.speaking = language
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        # Channels' own dispatch first hops to the database thread to close old
        # connections, for every message: at a hundred tables that queue of hops is most
        # of the delay. Every database call here goes through database_sync_to_async,
        # which closes them before and after in that thread anyway.
        await handler(message)

    @cached_property
    def viewer_language(self) -> str:
        """The language of the socket's viewer (their cookie or browser's)."""
        return language_of_scope(self.scope)

    async def connect(self) -> None:
        self.live_groups = []
        client = limits.scope_client(self.scope)
        try:
            # Counted before any work: a client over its share costs no query.
            self.limit_keys = await _off_loop(limits.socket_opening, *client)
        except limits.Limited as error:
            await self.accept()
            await self.send_json({"type": "error", "message": str(error)})
            await self.close(code=4429)
            return
        if not await self.authenticate():
            if self.unknown_code:  # a guess, as on a page (a refused host console is none)
                await _off_loop(limits.wrong_socket, *client)
            await self.close(code=4403)
            return
        try:
            for group in self.live_groups:
                await self.channel_layer.group_add(group, self.channel_name)
        except Exception as error:  # Redis went away since the socket's channel was made
            log.warning("live: a socket was refused; Redis is out of reach (%s)", error)
            await self.close(code=LAYER_LOST)
            return
        await self.accept()
        if self.presence is not None:
            presence.opened(*self.presence)
            self.counted = True
        await self.arrived()

    async def disconnect(self, code: int) -> None:
        await self.leave_groups()

    async def leave_groups(self) -> None:
        groups, self.live_groups = getattr(self, "live_groups", []), []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # Redis away: the process forgets the socket all the same
                log.warning("live: could not leave %s; the channel layer is out of reach", group)

    async def layer_lost(self, message: dict) -> None:
        """This process lost the channel layer (Redis): close, so the page reconnects and
        catches up by version once it is back (apps/fastpath/redis_layer.py)."""
        await self.close(code=LAYER_LOST)

    async def ended(self) -> None:
        """The consumer stopped, however it ended: a hook to stop what it started."""

    async def __call__(self, scope, receive, send) -> None:
        # Whatever ends the consumer (a close, a crash, a dropped channel layer), the socket
        # stops counting as open, so presence is right after any failure, and nothing it
        # started or joined outlives it.
        try:
            await super().__call__(scope, receive, send)
        except LayerAway as error:
            if hasattr(self, "channel_name"):
                raise
            # No channel for the socket (Redis is away): refused at the handshake, before
            # anything is counted or read. The page tries again as after any drop, and its
            # wait grows while the outage lasts (an accepted socket would reset it).
            log.warning("live: a socket was refused; Redis is out of reach (%s)", error)
            await receive()  # its websocket.connect
            await send({"type": "websocket.close", "code": LAYER_LOST})
        finally:
            if keys := getattr(self, "limit_keys", None):
                self.limit_keys = []
                await _off_loop(limits.close_socket, keys)
            try:
                await self.ended()
            except Exception:
                log.exception("live: stopping a closed socket's work failed")
            if getattr(self, "counted", False) and self.presence is not None:
                self.counted = False
                presence.closed(*self.presence)
                try:
                    await self.left()
                except Exception:
                    log.exception("live: cleaning up a closed socket failed")
            # Without a disconnect (a crash) its groups would keep it for a day.
            with contextlib.suppress(Exception):
                await self.leave_groups()

    # -- browser to server --------------------------------------------------------------

    @cached_property
    def pace(self) -> pace.Pace:
        return pace.Pace()

    async def websocket_receive(self, message: dict) -> None:
        # Paced before it is read: a flood costs a clock reading a message, not a parse.
        verdict = self.pace.take()
        if verdict == pace.OK:
            await super().websocket_receive(message)
        elif verdict == pace.SLOW:
            await self.send_json(
                {
                    "type": "error",
                    "message": _(
                        "This page sent too many messages at once; slow down. "
                        "The last ones were not read."
                    ),
                }
            )
        elif verdict == pace.STOP and not self.flooded:
            self.flooded = True
            log.warning("live: a socket went on sending beyond its pace; closed")
            await self.close(code=FLOODING)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        try:
            message = self.parse(text_data)
        except Refused as error:
            await self.send_json({"type": "error", "message": str(error)})
            return
        kind = message.get("type")
        if kind == "hello":
            await self.hello(message.get("since"))
        elif kind == "ping":
            await self.send_json({"type": "pong", "sent": message.get("sent")})
        elif kind == "action":
            await self.run_action(message)
        else:
            await self.send_json(
                {
                    "type": "error",
                    "message": _("Unknown message type {kind}; nothing changed.").format(
                        kind=repr(kind)
                    ),
                }
            )

    def parse(self, text_data: str | None) -> dict:
        if text_data is None:
            raise Refused(_("Messages must be JSON text; nothing changed."))
        if len(text_data) > MAX_MESSAGE_BYTES:
            raise Refused(_("That message is too long; nothing changed."))
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            raise Refused(_("That message was not valid JSON; nothing changed.")) from None
        if not isinstance(message, dict):
            raise Refused(_("A message must be a JSON object; nothing changed."))
        check_values(message)
        return message

    async def run_action(self, message: dict) -> None:
        action_id = message.get("id")
        if not isinstance(action_id, str) or not 8 <= len(action_id) <= 64:
            await self.send_json(
                {"type": "error", "message": _("An action needs an id; nothing changed.")}
            )
            return
        target = message.get("target") if isinstance(message.get("target"), str) else None
        try:
            result = await self.perform(action_id, self.read_act(message.get("act")))
        except Refused as error:
            await self.send_json(
                {"type": "error", "id": action_id, "message": str(error), "target": target}
            )
            return
        except Exception:
            # A bug, not the phone's fault: the phone still hears that nothing happened
            # (every write is one transaction) and the socket stays open.
            log.exception("live: an action failed")
            await self.send_json(
                {
                    "type": "error",
                    "id": action_id,
                    "message": _("That did not work; nothing changed. Try again."),
                    "target": target,
                }
            )
            return
        ack = {"type": "ack", "id": action_id}
        if isinstance(result, int):
            ack["v"] = result
        await self.send_json(ack)

    @staticmethod
    def read_act(act: Any) -> dict:
        """The move inside an action: a JSON object (or its text) with a "type"."""
        if isinstance(act, str):
            try:
                act = json.loads(act)
            except (ValueError, RecursionError):
                raise Refused(_("That move could not be read; nothing changed.")) from None
            check_values(act)
        if not isinstance(act, dict) or not isinstance(act.get("type"), str):
            raise Refused(_("That is not a move anyone can make here; nothing changed."))
        return act

    async def hello(self, since: Any) -> None:
        # A page says hello once a connection and hears every change after it, so a hello
        # again with no new version since is answered already: a script repeating it gets
        # nothing drawn or sent (a big screen's page is large).
        if self.answered is not None and self.answered == self.version:
            return
        await self.catch_up(since)
        self.answered = self.version

    async def catch_up(self, since: Any) -> None:
        version, html = await self.render()
        already_seen = isinstance(since, int) and since >= version
        self.version = version
        if already_seen:
            return
        await self.send_json({"type": "fragments", "version": version, "html": html})

    # -- group to browser ---------------------------------------------------------------

    async def live_room(self, event: dict) -> None:
        change = read_change(event)
        if change is None or change.version is None or change.version <= self.version:
            return  # already sent (a catch-up raced the change's message)
        version, html = await self.render()
        if version <= self.version:
            return
        self.version = version
        await self.send_json({"type": "fragments", "version": version, "html": html})

    async def live_event(self, event: dict) -> None:
        # The event's name and its data travel apart: data may hold a "name" of its own.
        await self.send_json({"type": "event", "name": event["event"], "data": event["data"]})

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=json.dumps(content))
