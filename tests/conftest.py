from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fresh_caches():
    """Reads are cached in the process by row id and version; a test database rolled back
    reuses ids, so every test starts with empty caches."""
    clear_caches()
    yield


def clear_caches() -> None:
    from apps.parties.caches import FRAGMENTS, LOG_LINES, SHEET_PAST
    from apps.parties.selectors import NIGHTS, PAST, STATES, SUMMARIES

    for cache in (FRAGMENTS, LOG_LINES, NIGHTS, PAST, SHEET_PAST, STATES, SUMMARIES):
        cache.clear()


@pytest.fixture(autouse=True)
def english_to_start():
    """A request leaves its language active in its thread (as Django does): every test
    starts in English whatever the test before it asked for."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_limits():
    """Each test counts its own requests against the rate limits (the suite makes many
    from one address)."""
    import uuid

    from apps.core import limits

    limits.NAMESPACE = f"limit-test-{uuid.uuid4().hex[:12]}:"
    yield
