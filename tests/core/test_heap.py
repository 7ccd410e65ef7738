"""The server's collector leaves what it loaded at start alone and collects rarely."""

from __future__ import annotations

import gc

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
