"""A deadline's move speaks the product's default language, whatever a request left active."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.core import i18n, scheduler

pytestmark = pytest.mark.django_db


def test_a_deadline_fires_in_english_after_a_german_request_in_the_same_thread(monkeypatch):
    heard = []

    def fire(pk, scope, now):
        heard.append((translation.get_language(), i18n.current()))
        scheduler.claim(pk)
        return True

    monkeypatch.setitem(scheduler.HANDLERS, "lang-test", fire)
    scheduler.arm("lang-test:1", "k", 0, {})
    translation.activate("de")  # as LocaleMiddleware leaves a German phone's request
    assert scheduler.run_due() == 1
    assert heard == [("en", "en")]
    assert translation.get_language() == "de"  # the thread's own language is left as it was
