"""Redis stops for ten seconds in the middle of a round on the scale-out stack: the phone says
it is reconnecting, comes back by itself within seconds of Redis, without a reload, and its
next tap lands."""

from __future__ import annotations

import json
import os
import time

import pytest
from playwright.sync_api import expect

from tests.servers import DaphneServer, RedisServer

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the scale-out stack of .ci/run)"
)

NIGHT = """
import json
from django.contrib.auth import get_user_model
from apps.core.tokens import seat_cookie_name
from apps.parties import services
host = get_user_model().objects.get_or_create(username="outage")[0]
party = services.create_party(host, name="Outage", rounds=1, dice_mode="physical")
tokens = [services.join_party(party.code, new_name=n)[1] for n in ("Ann", "Bea", "Cal", "Dot")]
services.start_next_round(party.code)
print(json.dumps([party.code, seat_cookie_name(party.scope), tokens[0]]))
"""


def test_a_phone_rides_out_ten_seconds_without_redis_and_its_next_tap_lands(server, phone):
    redis = RedisServer().start()
    # A second process on the suite's database, whose channel layer is a Redis of its own.
    own = DaphneServer(server.data_dir, env={**server.env, "REDIS_URL": redis.url}).start()
    try:
        code, cookie, token = json.loads(own.python(NIGHT))
        page = phone()
        page.context.add_cookies([{"name": cookie, "value": token, "url": own.url}])
        page.goto(f"{own.url}/p/{code}/")
        expect(page.locator("#live-status")).to_have_text("Connected")
        page.locator("#table").get_by_role("button", name="Roll for the first roller").click()

        redis.stop()
        expect(page.locator("#live-lost")).to_be_visible()
        expect(page.locator("#live-lost")).to_contain_text("Reconnecting…")
        time.sleep(10)
        redis.start()

        # Back within seconds of Redis, whatever the phone's backoff had grown to.
        expect(page.locator("#live-status")).to_have_text("Connected", timeout=8_000)
        expect(page.locator("#live-lost")).to_be_hidden()
        page.locator("#table").get_by_role("button", name="Two 6s").click()
        expect(page.locator("#table .roll-log li")).to_have_count(1)
    finally:
        own.kill()
        redis.stop()
