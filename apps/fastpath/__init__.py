"""The fast path: the parts of a tap and of its fan-out written against other packages' insides.

A big night's tap is hundreds a second, and the stock parts cost more than the work:

- ``tap_reads.py``, ``tap_writes.py``: a tap's reads and writes as the ORM's own statements,
  written out once (the ORM built them anew for every tap: a sixth of the server's work at a
  hundred tables);
- ``memory_layer.py``, ``redis_layer.py``: the channel layers of the two stacks, subclasses of
  Channels' and channels-redis's that override private methods (a sweep per message, a copy
  per socket, a queue per process in Redis; newest-only news; a process that lost Redis
  closing its sockets).

Each has a plain fallback, chosen by the ``FAST_PATH`` setting (environment ``FAST_PATH=off``):
the ORM (``apps/parties/services/tap_store.py`` chooses) and the stock layers
(``config/settings.py``). The tap's tests run both ways; ``tests/core/test_fast_path_versions.py``
pins the versions of Django, Channels and channels-redis this package was written for.
"""

from __future__ import annotations

from django.conf import settings


def enabled() -> bool:
    return getattr(settings, "FAST_PATH", True)
