"""The fast path (apps/fastpath) leans on other packages' insides: the tap's SQL is the ORM's
own statements written out once (tap_reads.py, tap_writes.py), and the channel layers
override private methods of Channels' and channels-redis's (memory_layer.py,
redis_layer.py). They were written for, and tested against, these versions: an
upgrade of any of them fails here first, so whoever upgrades reads those modules again and
runs the tap and layer tests before moving the pins."""

from __future__ import annotations

from importlib.metadata import version

import pytest

WRITTEN_FOR = {
    "Django": "5.2.",  # the ORM's statements, field adaptation, the connection pool
    "channels": "4.3.",  # InMemoryChannelLayer's queues and expiry
    "channels-redis": "4.3.",  # RedisPubSubChannelLayer's shards and receive loop
}


@pytest.mark.parametrize(("package", "series"), WRITTEN_FOR.items())
def test_the_fast_path_runs_on_the_versions_it_was_written_for(package, series):
    assert version(package).startswith(series), (
        f"{package} {version(package)}: the fast path was written for {series}x; read "
        "apps/fastpath/ again before moving this pin"
    )
