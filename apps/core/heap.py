"""The server's garbage collector, set for a long-running process with a busy night.

Python's cyclic collector walks every tracked object of the oldest generation now and then.
In a server holding a hundred tables' sockets, states and cached fragments that is a
quarter of a million objects: a 100-400 ms pause each time, during which no phone hears
anything (``make bench`` at a hundred tables counted 29 full collections, 4.8 s in all, in
30 seconds of play; with the settings below, 2). Objects loaded at start (Django, the
templates, the rules) never die, so they leave the collector's view; and the youngest
generation is collected after 50,000 allocations instead of 700, so the short-lived objects of
a render die by reference counting before they can be promoted and walked again. Cycles are
still collected, only less often.
"""

from __future__ import annotations

import gc

# Allocations before the youngest generation is collected, and how many of those collections
# (then of the middle generation's) before the next generation's.
THRESHOLDS = (50_000, 20, 100)


def settle() -> None:
    """Call once the server's code is loaded, before it serves."""
    gc.collect()
    gc.freeze()  # what exists now is never collected: don't walk it again
    gc.set_threshold(*THRESHOLDS)
