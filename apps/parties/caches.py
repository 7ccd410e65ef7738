"""The process's caches of a night's reads and drawings, bounded three ways.

A busy night is read and drawn far more often than it changes, so what a version shows is
kept in memory under that version (selectors/, render.py). A version never changes
meaning, so nothing kept goes stale; but a night of thousands of taps makes thousands of
versions, and only the newest few are ever asked for again. So each cache keeps:

- at most ``size`` entries (the least recently used go first);
- of each thing that has versions (a table, a night: its *slot*), only the newest ``keep``
  versions: a newer version of a table makes its older drawings garbage at once, instead of
  when eight thousand other drawings have pushed them out;
- nothing that went unused for ``IDLE_SECONDS``: a night that ended, or a night served by
  another process now, lets go of its memory here without anyone asking (``sweep_idle``,
  run by the scheduler's heartbeat in every server process).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from django.utils import translation

IDLE_SECONDS = 10 * 60

# key -> (its slot, its version), or None for a key kept by size and use alone.
Slot = Callable[[Any], tuple[Hashable, Any] | None]

_caches: weakref.WeakSet[Cache] = weakref.WeakSet()


class Cache:
    """A small thread-safe LRU of values keyed by what makes them true (versions)."""

    def __init__(self, size: int, slot: Slot | None = None, keep: int = 2) -> None:
        self.size = size
        self.slot = slot
        self.keep = keep
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.used: dict[Any, float] = {}  # key -> when last asked for (time.monotonic)
        # slot -> version -> the keys kept of that version (several: a table's four seats)
        self.versions: dict[Hashable, dict[Any, set]] = {}
        self.lock = threading.Lock()
        _caches.add(self)

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                self.used[key] = time.monotonic()
                return self.items[key]
        value = make()
        with self.lock:
            self._store(key, value)
        return value

    def peek(self, key: Any, touch: bool = False) -> Any | None:
        """The value kept, or None; ``touch`` counts the look as a use (for values looked
        up many at a time, where ``get`` would make one each)."""
        with self.lock:
            value = self.items.get(key)
            if touch and value is not None:
                self.items.move_to_end(key)
                self.used[key] = time.monotonic()
            return value

    def newest_before(self, slot: Hashable, version: Any) -> Any | None:
        """The value kept of ``slot``'s newest version older than ``version``, or None."""
        with self.lock:
            older = [v for v in self.versions.get(slot, {}) if v < version]
            if not older:
                return None
            key = next(iter(self.versions[slot][max(older)]))
            return self.items.get(key)

    def put(self, key: Any, value: Any) -> Any:
        with self.lock:
            self._store(key, value)
        return value

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.used.clear()
            self.versions.clear()

    def let_go(self, slots) -> None:
        """Drop every version kept of these slots (things no page will ask for again)."""
        with self.lock:
            for slot in slots:
                for keys in self.versions.pop(slot, {}).values():
                    for key in keys:
                        self._forget(key)

    def let_go_owned(self, owners: set) -> None:
        """Drop every version kept of the slots these owners have: a slot is its owner (a
        table's id), or a tuple that ends with it (a drawing's language, kind and table)."""
        with self.lock:
            slots = [s for s in self.versions if (s[-1] if type(s) is tuple else s) in owners]
        self.let_go(slots)

    def sweep(self, idle: float = IDLE_SECONDS) -> int:
        """Let go of what went unused for ``idle`` seconds; how many entries went."""
        cutoff = time.monotonic() - idle
        gone = 0
        with self.lock:
            # The least recently used come first, so the sweep stops at the first one in use.
            while self.items:
                key = next(iter(self.items))
                if self.used.get(key, 0.0) >= cutoff:
                    break
                self._drop(key)
                gone += 1
            if not self.items:
                self.used.clear()  # keys taken out from outside (tests) leave nothing behind
        return gone

    # -- under the lock -----------------------------------------------------------------------

    def _store(self, key: Any, value: Any) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        self.used[key] = time.monotonic()
        slotted = self.slot(key) if self.slot else None
        if slotted is not None:
            slot, version = slotted
            kept = self.versions.setdefault(slot, {})
            kept.setdefault(version, set()).add(key)
            while len(kept) > self.keep:
                for old in kept.pop(min(kept)):
                    self._forget(old)
        while len(self.items) > self.size:
            self._drop(next(iter(self.items)))

    def _drop(self, key: Any) -> None:
        slotted = self.slot(key) if self.slot else None
        if slotted is not None:
            slot, version = slotted
            kept = self.versions.get(slot, {})
            keys = kept.get(version)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del kept[version]
            if not kept:
                self.versions.pop(slot, None)
        self._forget(key)

    def _forget(self, key: Any) -> None:
        self.items.pop(key, None)
        self.used.pop(key, None)


class TextCache(Cache):
    """A cache of what is shown in words: each language keeps its own copy."""

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        return super().get((translation.get_language(), key), make)

    def peek(self, key: Any) -> Any | None:
        return super().peek((translation.get_language(), key))

    def put_in(self, language: str, key: Any, value: Any) -> Any:
        """Keep a value drawn in ``language`` (elsewhere: another server process)."""
        return super().put((language, key), value)


def by_version(key: Any) -> tuple[Hashable, Any] | None:
    """A key ``(owner, version)``: a table's id or a night's code, then its version."""
    owner, version = key
    return owner, version


def sweep_idle(now: Any = None) -> int:
    """Every cache lets go of what went unused for ``IDLE_SECONDS`` (a scheduler sweep)."""
    return sum(cache.sweep() for cache in list(_caches))


def cached_entries() -> int:
    return sum(len(cache.items) for cache in list(_caches))


# The night's drawings that follow every table (the round's flags, the standings, the whole
# big screen): where their key holds the versions of the round's tables. Versions only grow,
# so their sum says which of two drawings at one night version is newer.
ROWS_AT = {"flags": 3, "side": 3, "screen": 4}


def fragment_slot(key: tuple) -> tuple[tuple, Any] | None:
    """A drawing's slot and version: every key of the form (kind, owner, version, ...) is
    a table's or a night's drawing at that version (a card, a seat's panel, the standings, the
    whole big screen); a key with no version of its own has none, and is kept by size and use
    alone."""
    language, inner = key
    if len(inner) < 3 or type(inner[2]) is not int:
        return None
    kind, owner, version = inner[:3]
    if kind in ROWS_AT:
        return (language, kind, owner), (version, sum(inner[ROWS_AT[kind]]))
    return (language, kind, owner), version


FRAGMENTS = TextCache(8192, slot=fragment_slot, keep=2)
# The console's log lines, each said once per language: a night makes one a tap, and only
# its newest few are shown, so they are kept apart, by use alone, in a small cache (among the
# drawings they would push the round's tables out in minutes).
LOG_LINES = TextCache(512)


def let_go_tables(pks: Iterable[int]) -> None:
    """Drop every drawing kept of these tables: a past round's, which no screen shows again
    once the night is in the next round (a correction or a score sheet draws what it needs
    anew). Their states go by ``STATES.let_go``; the night keeps their summaries."""
    owners = set(pks)
    if owners:
        FRAGMENTS.let_go_owned(owners)


def _sheet_slot(key: tuple) -> tuple[tuple, Any]:
    language, ((code, player), version) = key
    return (language, code, player), version


# A player's score sheet's rows of the past rounds, drawn (by language, (night, player),
# (round, corrections, partners' names)): only the newest of each player's is kept, and the
# next round's sheet is drawn onto it (render.SheetPast).
SHEET_PAST = TextCache(2048, slot=_sheet_slot, keep=1)
