"""A 30-character name without a break wraps: neither a phone nor the big screen is wider
than the phone it is shown on, in the lobby or at the tables."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, WIDER

LONG = "Wolfeschlegelsteinhausenberger"  # 30 letters, no break
OTHER = "Y" * 30
WIDTH = PHONE["viewport"]["width"]
# A mobile browser widens its layout viewport to fit what overflows: measure against the
# phone's own width, not innerWidth.
PAGE_WIDTH = "() => document.documentElement.scrollWidth"
# Through the CSSOM: the pages' Content-Security-Policy refuses an added <style>.
TEXT_AT_200 = "document.documentElement.style.setProperty('font-size', '200%', 'important')"

SETUP = """
import json
from django.contrib.auth import get_user_model
from apps.core.tokens import seat_cookie_name
from apps.parties import services
host, _ = get_user_model().objects.get_or_create(username="longnames")
party = services.create_party(host, name="Long names")
tokens = {}
for name in %s:
    tokens[name] = services.join_party(party.code, new_name=name)[1]
print(json.dumps({"code": party.code, "cookie": seat_cookie_name(party.scope), "tokens": tokens}))
"""
START = "from apps.parties import services; services.start_next_round(%r)"


def test_a_long_unbroken_name_makes_no_page_wider_than_a_phone(server, new_context):
    names = [LONG, OTHER, "Ann", "Bea", "Cal", "Dot", "Eve", "Fay"]
    night = json.loads(server.python(SETUP % json.dumps(names)).splitlines()[-1])
    context = new_context(PHONE)
    host = server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": night["cookie"], "value": night["tokens"][LONG], "domain": host, "path": "/"}]
    )
    phone = context.new_page()
    phone.goto(f"{server.url}/p/{night['code']}/")
    expect(phone.locator("#live-status")).to_have_text("Connected")
    screen = new_context(PHONE).new_page()
    screen.goto(f"{server.url}/p/{night['code']}/screen/")
    expect(screen.locator("body")).to_contain_text(OTHER)
    widths = {"phone, lobby": phone.evaluate(PAGE_WIDTH)}
    widths["big screen, lobby"] = screen.evaluate(PAGE_WIDTH)

    server.python(START % night["code"])  # another process: the pages are loaded again
    phone.reload()
    screen.reload()
    expect(phone.locator("#seat")).to_contain_text("Table")
    expect(screen.locator(".tv-table").first).to_be_visible()
    widths["phone, at the table"] = phone.evaluate(PAGE_WIDTH)
    widths["big screen, tables"] = screen.evaluate(PAGE_WIDTH)
    phone.evaluate(TEXT_AT_200)  # a phone set to large text
    widths["phone, at the table, 200% text"] = phone.evaluate(PAGE_WIDTH)
    wider = phone.evaluate(WIDER)
    assert all(width <= WIDTH for width in widths.values()), (widths, wider)
