"""A change made on a circle's page shows everywhere on that page at once, on a 390 px
phone: an answer moves the night's count and the schedule's row and keeps the keyboard on
the answer; the schedule made by the admin fills the next night's host and the latest
changes."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.e2e.conftest import PHONE

SETUP = """
import json, uuid
from django.contrib.auth import get_user_model
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from importlib import import_module
from django.conf import settings
from django.utils import timezone
from apps.circles import services
from apps.circles.dates import add_months
from apps.circles.models import Month
from apps.circles.tokens import make_member_token
admin = get_user_model().objects.create_user(f"follow{uuid.uuid4().hex[:8]}", password="x")
circle = services.create_circle(
    admin, name="Bunko Belles", start=add_months(timezone.localdate(), 1), tz="UTC"
)
bea = services.add_member(circle.pk, name="Bea")
for name in ("Ann", "Cal", "Dot"):
    services.add_member(circle.pk, name=name)
month = Month.objects.filter(season__circle=circle).order_by("index").first()
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(admin.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = admin.get_session_auth_hash()
session.create()
print(json.dumps({
    "code": circle.code, "cookie": circle.cookie_name, "month": month.pk,
    "token": make_member_token(circle.pk, bea.pk, bea.nonce), "session": session.session_key,
}))
"""
ANN_HOSTS = """
from apps.circles.models import Member, Month
month = Month.objects.get(pk=%d)
month.hostings.all().delete()
month.hostings.create(member=Member.objects.get(circle=month.season.circle, name="Ann"), position=0)
"""
FOCUSED = "() => document.activeElement && document.activeElement.id"


def test_an_answer_and_the_schedule_show_everywhere_on_the_page_at_once(
    server, new_context, docs_shot
):
    circle = json.loads(server.python(SETUP).splitlines()[-1])
    host = server.url.split("//", 1)[1].split(":")[0]
    page_url = f"{server.url}/c/{circle['code']}/"

    # The admin makes the schedule: the next night names its host, the news says so.
    admin = new_context(PHONE)
    admin.add_cookies([{"name": "sessionid", "value": circle["session"], "domain": host,
                        "path": "/"}])  # fmt: skip
    laptop = admin.new_page()
    laptop.goto(page_url)
    expect(laptop.locator("#next-night-facts")).to_contain_text("No host yet")
    laptop.get_by_role("button", name="Make the schedule").click()
    expect(laptop.locator("#next-night-facts")).not_to_contain_text("No host yet")
    expect(laptop.locator("#next-night-facts")).to_contain_text("Hosted by")
    expect(laptop.locator("#latest-changes")).to_contain_text("schedule")

    # Bea answers on her phone (Ann hosts that night): the count and her row follow, and
    # the keyboard stays on her answer.
    server.python(ANN_HOSTS % circle["month"])
    phone = new_context(PHONE)
    phone.add_cookies([{"name": circle["cookie"], "value": circle["token"], "domain": host,
                        "path": "/"}])  # fmt: skip
    bea = phone.new_page()
    bea.goto(page_url)
    facts = bea.locator("#next-night-facts")
    row = bea.locator("#schedule-list .month-row").first
    coming_before = facts.inner_text()
    expect(row).to_contain_text("you: no answer")
    yes = bea.locator(f"#rsvp-{circle['month']}-yes")
    yes.focus()
    bea.keyboard.press("Enter")
    expect(yes).to_have_attribute("aria-pressed", "true")
    expect(row).to_contain_text("you: coming")
    expect(facts).not_to_have_text(coming_before)
    assert bea.evaluate(FOCUSED) == f"rsvp-{circle['month']}-yes"
    docs_shot(bea, "circle-phone-answered.png")


def test_a_dead_end_on_a_phone_reads_in_its_language_with_a_way_on(server, new_context, docs_shot):
    phone = new_context({**PHONE, "locale": "de-DE"}).new_page()
    response = phone.goto(f"{server.url}/c/NOPE9/")
    assert response.status == 404
    expect(phone.get_by_role("heading", name="Hier ist nichts")).to_be_visible()
    expect(phone.get_by_role("link", name="Zur Startseite")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    docs_shot(phone, "error-phone-not-found-de.png", full_page=False)
