"""The server's collector leaves what it loaded at start alone and collects rarely."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref

from apps.core import heap


def test_settling_freezes_what_is_loaded_and_raises_the_thresholds():
    before = gc.get_threshold()
    try:
        heap.settle()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == heap.THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_what_is_freed_goes_back_to_the_system_at_most_once_a_minute(monkeypatch):
    if heap._LIBC is None:
        assert heap.give_back(every=0) is False  # another C library: nothing to ask
        return
    trims: list[int] = []
    monkeypatch.setattr(heap, "_LIBC", type("C", (), {"malloc_trim": trims.append})())
    monkeypatch.setattr(heap, "_last_given_back", 0.0)
    assert heap.give_back() is True
    assert heap.give_back() is False  # the next minute's turn
    assert trims == [0]


def test_the_oldest_generation_is_collected_every_ten_minutes(monkeypatch):
    monkeypatch.setattr(heap, "_last_collected", 0.0)
    collections = gc.get_stats()[2]["collections"]
    assert heap.collect_old() is True
    assert gc.get_stats()[2]["collections"] == collections + 1
    assert heap.collect_old() is False  # ten minutes later


def test_a_cycle_that_died_old_is_collected_by_the_full_collection(monkeypatch):
    class Node:
        pass

    before = gc.get_threshold()
    gc.set_threshold(*heap.THRESHOLDS)
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gc.collect()  # both survive into the oldest generation
        assert any(o is a for o in gc.get_objects(generation=2))
        ref = weakref.ref(a)
        del a, b
        assert ref() is not None  # reference counting alone never frees a cycle
        monkeypatch.setattr(heap, "_last_collected", 0.0)
        heap.collect_old()
        assert ref() is None
    finally:
        gc.set_threshold(*before)


def test_the_server_gives_back_after_the_caches_let_go():
    # In a process of its own: loading the server's application settles that process.
    code = (
        "import config.asgi\n"
        "from apps.core import heap, scheduler\n"
        "from apps.parties import caches\n"
        "print(scheduler.SWEEPS.index(heap.give_back) > scheduler.SWEEPS.index(caches.sweep_idle))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.strip() == "True"
