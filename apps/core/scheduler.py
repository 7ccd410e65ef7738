"""Timed moves, kept in the database and fired from the server's own event loop.

A rules module asks for a system move at a deadline, a bot thinks before it moves, a player
whose phone is gone is replaced by a bot after a while: each is a ``Deadline`` row. Services
call ``sync`` inside their transaction to make a scope's deadlines match what its new state
wants; every server process runs ``Scheduler.run`` in its event loop, firing what is due
through the handler its app registered. Firing locks the scope's row and deletes the
deadline in one transaction, so two processes never fire the same move twice, and a restart
(or a killed process) leaves the rows for the next process to fire. No threads, no timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.core import presence
from apps.core.language import speak
from apps.core.models import Deadline
from apps.core.protocol import DELAY, without_delay

log = logging.getLogger(__name__)

# Scope prefix ("room") -> fire(deadline_id, scope, now): whether a move was made.
Fire = Callable[[int, str, datetime], bool]
HANDLERS: dict[str, Fire] = {}
# Checks run with every heartbeat (a player gone long enough is replaced by a bot).
SWEEPS: list[Callable[[datetime], Any]] = []


def register(prefix: str, fire: Fire) -> None:
    HANDLERS[prefix] = fire


def register_sweep(sweep: Callable[[datetime], Any]) -> None:
    if sweep not in SWEEPS:
        SWEEPS.append(sweep)


def action_key(prefix: str, action: Mapping[str, Any]) -> str:
    """A short, stable key for an action: the same action offered again keeps its time."""
    text = json.dumps(action, sort_keys=True, separators=(",", ":"))
    if len(prefix) + len(text) < 190:
        return f"{prefix}:{text}"
    return f"{prefix}:#{hashlib.sha1(text.encode()).hexdigest()}"


def system_moves(offers: list[dict], **payload: Any) -> dict[str, tuple[int, dict]]:
    """The timed moves the rules offer the system now (``legal_actions(state, None)``, each
    with its ``DELAY``), as the deadlines ``sync`` wants: key -> (delay in ms, payload with
    the move as ``action``). A move offered again keeps its key, and so its time."""
    wanted = {}
    for offer in offers:
        move = without_delay(offer)
        wanted[action_key("system", move)] = (int(offer.get(DELAY, 0)), {**payload, "action": move})
    return wanted


def still_offered(action: Any, offers: list[dict]) -> bool:
    """Whether a deadline's move is among the rules' offers now (the state may have moved on
    since it was armed: then it is not made)."""
    return action in [without_delay(offer) for offer in offers]


# -- inside a service's transaction -------------------------------------------------------------


def sync(
    scope: str,
    wanted: Mapping[str, tuple[int, dict]],
    now: datetime | None = None,
) -> None:
    """Make the scope's pending deadlines exactly ``wanted`` (key -> (delay_ms, payload)).

    A key already pending keeps its due time: the delay counts from the first state that
    asked for the move. Keys no longer wanted are dropped."""
    now = now or timezone.now()
    existing = dict(Deadline.objects.filter(scope=scope).values_list("key", "pk"))
    dropped = [pk for key, pk in existing.items() if key not in wanted]
    if dropped:
        Deadline.objects.filter(pk__in=dropped).delete()
    new = [
        Deadline(
            scope=scope,
            key=key,
            due_at=now + timedelta(milliseconds=max(0, int(delay_ms))),
            payload=payload,
        )
        for key, (delay_ms, payload) in wanted.items()
        if key not in existing
    ]
    if new:
        Deadline.objects.bulk_create(new)
        transaction.on_commit(wake)


def arm(scope: str, key: str, delay_ms: int, payload: dict, now: datetime | None = None) -> None:
    """One deadline, replacing a pending one of the same key."""
    now = now or timezone.now()
    Deadline.objects.update_or_create(
        scope=scope,
        key=key,
        defaults={"due_at": now + timedelta(milliseconds=max(0, delay_ms)), "payload": payload},
    )
    transaction.on_commit(wake)


def clear(scope: str) -> None:
    Deadline.objects.filter(scope=scope).delete()


def claim(deadline_id: int) -> Deadline | None:
    """Take a due deadline for firing, inside the handler's transaction (after it locked the
    scope's row): None when another process fired it first or a change dropped it."""
    deadline = Deadline.objects.filter(pk=deadline_id).first()
    if deadline is not None:
        Deadline.objects.filter(pk=deadline_id).delete()  # the instance keeps its pk
    return deadline


def pending(scope: str) -> list[Deadline]:
    return list(Deadline.objects.filter(scope=scope).order_by("due_at", "pk"))


# -- firing ---------------------------------------------------------------------------------------


def run_due(now: datetime | None = None, limit: int = 200) -> int:
    """Fire every deadline due at ``now``, earliest first; how many made a move."""
    now = now or timezone.now()
    due = list(
        Deadline.objects.filter(due_at__lte=now)
        .order_by("due_at", "pk")
        .values_list("pk", "scope")[:limit]
    )
    fired = 0
    for pk, scope in due:
        with speak(settings.LANGUAGE_CODE):
            fired += _fire(pk, scope, now)
    return fired


def _fire(pk: int, scope: str, now: datetime) -> int:
    """One deadline's move, in the product's default language rather than whatever the last
    request left active in this thread (a mail it sends reaches people who chose nothing
    here); 1 when it made a move."""
    fire = HANDLERS.get(scope.split(":", 1)[0])
    if fire is None:
        Deadline.objects.filter(pk=pk).delete()
        return 0
    try:
        return int(bool(fire(pk, scope, now)))
    except Exception:
        # A broken move must not stop every other room's: try it again a little later.
        log.exception("scheduler: firing %s of %s failed", pk, scope)
        Deadline.objects.filter(pk=pk).update(due_at=now + timedelta(seconds=5))
        return 0


def run_until_quiet(limit: int = 10_000, now: datetime | None = None) -> int:
    """Fire due deadlines again and again until none is due (tests and tools)."""
    total = 0
    for _ in range(limit):
        fired = run_due(now)
        if not fired and not Deadline.objects.filter(due_at__lte=now or timezone.now()).exists():
            return total
        total += fired
    return total


def next_due() -> datetime | None:
    return Deadline.objects.order_by("due_at").values_list("due_at", flat=True).first()


def heartbeat(now: datetime | None = None) -> None:
    """Tell the database which seats this process still has open sockets for, then run the
    sweeps that act on presence."""
    now = now or timezone.now()
    presence.heartbeat(now)
    for sweep in SWEEPS:
        try:
            sweep(now)
        except Exception:
            log.exception("scheduler: sweep %s failed", getattr(sweep, "__name__", sweep))


# -- the loop in each server process ------------------------------------------------------------


class Scheduler:
    """The loop that fires deadlines in this process. It sleeps until the next deadline (at
    most ``SCHEDULER_POLL`` seconds, to see deadlines other processes armed) and is woken at
    once when this process arms an earlier one."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event: asyncio.Event | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        """Start on the running event loop (once per process)."""
        if self.task is not None:
            return
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()
        self.task = self.loop.create_task(self.run())

    def wake(self) -> None:
        """From any thread: look at the deadlines again now."""
        loop, event = self.loop, self.event
        if loop is None or event is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(event.set)

    async def run(self) -> None:
        from channels.db import database_sync_to_async

        assert self.event is not None
        poll = float(getattr(settings, "SCHEDULER_POLL", 1.0))
        beat_every = float(getattr(settings, "PRESENCE_HEARTBEAT", 5.0))
        last_beat = 0.0
        while True:
            self.event.clear()
            wait = poll
            try:
                if time.monotonic() - last_beat >= beat_every:
                    last_beat = time.monotonic()
                    await database_sync_to_async(heartbeat)()
                await database_sync_to_async(run_due)()
                due = await database_sync_to_async(next_due)()
                if due is not None:
                    wait = min(poll, max(0.0, (due - timezone.now()).total_seconds()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler: a pass failed; trying again")
            wait = min(wait, max(0.0, beat_every - (time.monotonic() - last_beat)))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.event.wait(), timeout=wait)


SCHEDULER = Scheduler()


def wake() -> None:
    SCHEDULER.wake()


def start_with_server() -> None:
    """Under daphne, start the loop as soon as the server runs, so a restarted server fires
    what was due before any phone reconnects."""
    import sys

    if "daphne.server" not in sys.modules or not getattr(settings, "SCHEDULER_AUTOSTART", True):
        return
    from twisted.internet import reactor

    # callLater runs inside the asyncio loop that twisted drives (startup triggers run before).
    reactor.callWhenRunning(lambda: reactor.callLater(0, SCHEDULER.start))
