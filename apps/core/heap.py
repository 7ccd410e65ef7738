"""The server's memory, set for a long-running process with a busy night.

Python's cyclic collector walks every tracked object of the oldest generation now and then.
In a server holding a hundred tables' sockets, states and cached fragments that is a
quarter of a million objects: a 100-400 ms pause each time, during which no phone hears
anything (``make bench`` at a hundred tables counted 29 full collections, 4.8 s in all, in
30 seconds of play; with the settings below, 2). Objects loaded at start (Django, the
templates, the rules) never die, so they leave the collector's view; and the youngest
generation is collected after 50,000 allocations instead of 700, so the short-lived objects of
a render die by reference counting before they can be promoted and walked again. Cycles are
still collected, only less often: the young ones by those thresholds, the old ones by a full
collection every ten minutes. Left to the thresholds alone, the oldest generation would be
collected after a hundred middle collections, some eleven hours at a hundred tables, and what
became garbage there (a socket's last drawing, a past version's state, anything in a cycle)
would pile up for the whole night.

The C allocator under Python (glibc's, on Linux) keeps what Python frees for the next
allocation instead of giving it back, and gives each thread that allocates at once an arena
of its own, up to eight per core. Daphne runs every view and every database call in a pool
of threads, so a busy minute (a new round: every table's states and drawings made anew)
leaves its high-water mark in several arenas, and the process's resident memory steps up by
megabytes each round although the objects alive stay flat. So the server keeps two arenas,
and gives back what is free every minute (``give_back``, a scheduler sweep).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
import time

# Allocations before the youngest generation is collected, and how many of those collections
# (then of the middle generation's) before the next generation's.
THRESHOLDS = (50_000, 20, 100)

ARENAS = 2
GIVE_BACK_EVERY = 60.0  # seconds
COLLECT_ALL_EVERY = 600.0  # seconds between full collections
M_ARENA_MAX = -8  # glibc's malloc.h

_last_given_back = 0.0
_last_collected = time.monotonic()


def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc (it alone has mallopt and malloc_trim), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # only glibc has it (musl does not)  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _glibc()


def settle() -> None:
    """Call once the server's code is loaded, before it serves."""
    if _LIBC is not None:
        # Before the thread pool makes its threads: arenas are made as threads first allocate.
        _LIBC.mallopt(M_ARENA_MAX, ARENAS)
    gc.collect()
    gc.freeze()  # what exists now is never collected: don't walk it again
    gc.set_threshold(*THRESHOLDS)


def give_back(now=None, *, every: float = GIVE_BACK_EVERY) -> bool:
    """Collect the oldest generation when its turn has come (``collect_old``), then return
    the allocator's free pages to the system, at most once per ``every`` seconds; whether it
    returned them (only glibc's allocator can be asked)."""
    global _last_given_back
    collect_old()
    if _LIBC is None or time.monotonic() - _last_given_back < every:
        return False
    _last_given_back = time.monotonic()
    _LIBC.malloc_trim(0)
    return True


def collect_old(*, every: float = COLLECT_ALL_EVERY) -> bool:
    """A full collection, at most once per ``every`` seconds; whether it ran. What was loaded
    at start is frozen, so this walks only what the night made: tens of milliseconds."""
    global _last_collected
    if time.monotonic() - _last_collected < every:
        return False
    _last_collected = time.monotonic()
    gc.collect()
    return True
