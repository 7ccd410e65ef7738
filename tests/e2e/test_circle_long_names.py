"""The longest names a circle allows, without a space to break at, on a 390 px phone: no
circle page is wider than the phone, at 100% and at 200% text, and the product's name in the
header never breaks inside a word."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import PHONE, WIDER

# A circle's name may be 60 characters, a member's 30: the longest, with nowhere to break.
CIRCLE = ("Donnerstagswürfelrunde" * 3)[:60]
LONG = "Wolfeschlegelsteinhausenberger"
WIDTH = PHONE["viewport"]["width"]
PAGE_WIDTH = "() => document.documentElement.scrollWidth"
TEXT_AT_200 = "document.documentElement.style.setProperty('font-size', '200%', 'important')"
# The brand's words: one line each, never a letter a line.
BRAND_LINES = """() => { const b = document.querySelector('.brand-name');
  if (!b) return 0;
  const style = getComputedStyle(b);
  const line = style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.2
    : parseFloat(style.lineHeight);
  return Math.round(b.getBoundingClientRect().height / line); }"""

SETUP = """
import json
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from apps.circles import services
from apps.circles.dates import add_months
from apps.circles.models import Month
from apps.circles.tokens import make_member_token
import uuid
admin = get_user_model().objects.create_user(f"long{uuid.uuid4().hex[:8]}", password="x")
circle = services.create_circle(
    admin, name=%(circle)r, start=add_months(timezone.localdate(), 1), tz="UTC"
)
me = services.add_member(circle.pk, name=%(long)r, email="long@example.com")
other = services.add_member(circle.pk, name=%(long)r[:-1] + "X", email="x@example.com")
for name in ("Ann", "Bea", "Cal", "Dot", "Eve", "Fay"):
    services.add_member(circle.pk, name=name)
month = Month.objects.filter(season__circle=circle).order_by("index").first()
month.hostings.create(member=me, position=0)
services.set_rsvp(month.pk, other.pk, "yes")
print(json.dumps({
    "code": circle.code, "cookie": circle.cookie_name, "month": month.pk,
    "token": make_member_token(circle.pk, me.pk, me.nonce),
}))
"""


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_the_longest_names_make_no_circle_page_wider_than_a_phone(
    server, new_context, text, docs_shot
):
    circle = json.loads(server.python(SETUP % {"circle": CIRCLE, "long": LONG}).splitlines()[-1])
    context = new_context(PHONE)
    host = server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": circle["cookie"], "value": circle["token"], "domain": host, "path": "/"}]
    )
    phone = context.new_page()
    pages = {
        "season": f"/c/{circle['code']}/",
        "month": f"/c/{circle['code']}/months/{circle['month']}/",
        "me": f"/c/{circle['code']}/me/",
        "standings": f"/c/{circle['code']}/standings/",
        "circles": "/c/",
    }
    widths, brand, offenders = {}, {}, {}
    for name, path in pages.items():
        phone.goto(server.url + path)
        if text == "200%":
            phone.evaluate(TEXT_AT_200)
        widths[name] = phone.evaluate(PAGE_WIDTH)
        if name == "season":
            docs_shot(phone, f"circle-phone-long-names-{text[:-1]}.png", full_page=False)
        offenders[name] = phone.evaluate(WIDER)
        brand[name] = phone.evaluate(BRAND_LINES)
    assert all(width <= WIDTH for width in widths.values()), (widths, offenders)
    assert all(lines <= 2 for lines in brand.values()), brand  # "Bunko" / "Night" at most
