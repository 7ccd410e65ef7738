"""Who is connected: the sockets open in this process, told to the database by heartbeat.

A consumer says ``opened`` when its socket is accepted and ``closed`` when it ends, however
it ends (a crash included: ``LiveConsumer`` does it in a ``finally``). Every few seconds the
scheduler's heartbeat stamps ``seen_at`` on the rows of what is open here. A process that is
killed simply stops stamping, so after any failure a seat counts as gone once its stamp is
older than the heartbeat allows: no counter to leak.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime

# kind ("seat") -> stamp(ids, now): record that these rows have an open socket at ``now``.
Stamp = Callable[[Iterable[int], datetime], None]
STAMPS: dict[str, Stamp] = {}

_open: Counter[tuple[str, int]] = Counter()
_lock = threading.Lock()


def register(kind: str, stamp: Stamp) -> None:
    STAMPS[kind] = stamp


def opened(kind: str, pk: int) -> None:
    with _lock:
        _open[(kind, pk)] += 1


def closed(kind: str, pk: int) -> None:
    with _lock:
        _open[(kind, pk)] -= 1
        if _open[(kind, pk)] <= 0:
            del _open[(kind, pk)]


def open_here(kind: str) -> list[int]:
    with _lock:
        return [pk for (k, pk) in _open if k == kind]


def is_open_here(kind: str, pk: int) -> bool:
    with _lock:
        return _open.get((kind, pk), 0) > 0


def heartbeat(now: datetime) -> None:
    for kind, stamp in STAMPS.items():
        ids = open_here(kind)
        if ids:
            stamp(ids, now)
