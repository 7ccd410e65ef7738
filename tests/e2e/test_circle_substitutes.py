"""A circle's month in Chromium, from the RSVPs to the substitutes to the night: the admin on
the laptop, the month's host on a phone (and later on the laptop), a member's phone and a
substitute's phone, against a real daphne whose scheduler passes over a substitute who does
not answer in time."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import LAPTOP, PHONE

ADMIN = ("circleadmin", "circle-admin-2121")
HAL = ("hal", "hal-hosts-2121")


@pytest.fixture(scope="module")
def circle_admin(server):
    server.manage(
        "createsuperuser",
        "--noinput",
        "--username",
        ADMIN[0],
        "--email",
        "admin@example.com",
        DJANGO_SUPERUSER_PASSWORD=ADMIN[1],
    )
    return ADMIN


def sign_in(page: Page, server, login, next_url: str) -> None:
    page.goto(f"{server.url}/signin/?next={next_url}")
    page.get_by_label("Username").fill(login[0])
    page.get_by_label("Password").fill(login[1])
    page.get_by_role("button", name="Sign in").click()


def on_this_server(server, link: str) -> str:
    path = "/" + link.split("//", 1)[1].split("/", 1)[1]
    return server.url + path


def join(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Your name").fill(name)
    page.get_by_label("E-mail (optional)").fill(f"{name.lower()}@example.com")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("heading", name="Welcome to Bunko Belles!")).to_be_visible()


def reload_until(page: Page, selector: str, text: str, tries: int = 40) -> None:
    """The scheduler fires within a second or so; the host's page also looks again every
    10 seconds by itself, but a test need not wait that long."""
    for _ in range(tries):
        if text in page.locator(selector).inner_text():
            return
        page.wait_for_timeout(250)
        page.reload()
    expect(page.locator(selector)).to_contain_text(text)


def test_a_short_table_is_filled_by_the_substitutes_in_order_and_the_night_starts_with_them(
    server, circle_admin, new_context
):
    # The circle lives where it is midday now, so tonight's night is hours ahead whenever the
    # test runs (a circle's times are in its own time zone).
    utc = datetime.now(UTC)
    offset = (12 - utc.hour + 12) % 24 - 12  # hours east of UTC, -12..11
    zone = f"Etc/GMT{-offset:+d}" if offset else "UTC"  # Etc/ names count westwards
    now = utc + timedelta(hours=offset)
    admin = new_context(LAPTOP, timeout=15_000).new_page()
    host_phone = new_context(PHONE, timeout=15_000).new_page()
    ann = new_context(PHONE, timeout=15_000).new_page()
    sue = new_context(PHONE, timeout=15_000).new_page()

    # The admin starts the circle on the laptop; its season starts this month.
    sign_in(admin, server, circle_admin, "/c/new/")
    admin.get_by_label("Name of the circle").fill("Bunko Belles")
    admin.get_by_label("First month of the season").fill(f"{now:%Y-%m}")
    admin.get_by_role("button", name="Start the circle").click()
    expect(admin.get_by_role("heading", name="Invite people")).to_be_visible()
    code = re.search(r"/c/(\w+)/members/", admin.url).group(1)
    # The links shown are on the address phones reach (the laptop's on the Wi-Fi); this
    # test's server listens on the loopback address only, so the phones follow the path.
    member_invite = on_this_server(server, admin.locator("#invite-member").input_value())
    substitute_invite = on_this_server(server, admin.locator("#invite-substitute").input_value())
    # Tia, a substitute without the app, first on the list; Sue joins from her phone after.
    add = admin.locator("#people form", has=admin.get_by_role("button", name="Add"))
    add.get_by_label("Name", exact=True).fill("Tia")
    add.get_by_label("Member or substitute").select_option("substitute")
    add.get_by_role("button", name="Add").click()
    # Said beside the list (htmx) or on top of the page (a press before htmx was ready).
    expect(admin.get_by_text("Tia is added.")).to_be_visible()

    join(host_phone, member_invite, "Hal")
    join(ann, member_invite, "Ann")
    join(sue, substitute_invite, "Sue")
    expect(sue.get_by_text("as a substitute")).to_be_visible()
    # Five more members who answered by mail long ago.
    server.python(
        "from apps.circles import services\n"
        "from apps.circles.models import Circle\n"
        f"circle = Circle.objects.get(code='{code}')\n"
        "for name in ['Bea', 'Cal', 'Dot', 'Eve', 'Fay']:\n"
        "    services.add_member(circle.pk, name=name)\n"
    )

    # This month's night is tonight (whatever the circle's usual night would have said).
    month_id = int(
        server.python(
            "import datetime\n"
            "from apps.circles.models import Circle, Month\n"
            f"Circle.objects.filter(code='{code}').update(timezone='{zone}')\n"
            f"month = Month.objects.filter(season__circle__code='{code}').get(index=0)\n"
            f"month.date = datetime.date({now.year}, {now.month}, {now.day})\n"
            "month.time = '23:59'\n"
            "month.save()\n"
            "print(month.pk)\n"
        )
    )
    month_url = f"{server.url}/c/{code}/months/{month_id}/"
    # The planner's one action; then the admin makes Hal tonight's host.
    admin.goto(f"{server.url}/c/{code}/")
    admin.get_by_role("button", name="Make the schedule").click()
    expect(admin.get_by_text("The schedule is made")).to_be_visible()
    admin.locator(".schedule .month-link").first.click()
    expect(admin).to_have_url(month_url)
    edit = admin.locator("#edit")
    for box in edit.locator("input[name=hosts]").all():
        box.uncheck()
    edit.get_by_label("Hal", exact=True).check()
    edit.get_by_role("button", name="Save").click()
    expect(admin.locator(".circle-head")).to_contain_text("Hosted by Hal")
    server.python(
        "from apps.circles import services\n"
        "from apps.circles.models import Member\n"
        f"for m in Member.objects.filter(circle__code='{code}',\n"
        "                                name__in=['Bea', 'Cal', 'Dot', 'Eve', 'Fay']):\n"
        f"    services.set_rsvp({month_id}, m.pk, 'yes')\n"
    )

    # Ann answers from her phone: with Hal and the five, seven are coming.
    ann.goto(f"{server.url}/c/{code}/")
    ann.get_by_role("button", name="Coming", exact=True).click()
    expect(ann.get_by_role("button", name="✓ Coming")).to_have_attribute("aria-pressed", "true")

    # Hal sees one seat short and asks the substitutes: Tia first.
    host_phone.goto(month_url)
    expect(host_phone.locator("#host")).to_contain_text("1 seat short of 2 full tables of 4")
    host_phone.get_by_role("button", name="Ask the substitutes (1 seat)").click()
    expect(host_phone.locator("#host")).to_contain_text("Asked Tia.")
    # Tia does not answer in time: the server's scheduler asks Sue, the next on the list.
    # Her answer's time first, then the deadline, at once: a deadline that fires while the
    # ask is still open later waits for that later time, as it should.
    server.python(
        "from django.db import transaction\n"
        "from django.utils import timezone\n"
        "from apps.circles.models import SubstituteAsk\n"
        "from apps.core.models import Deadline\n"
        "with transaction.atomic():\n"
        "    SubstituteAsk.objects.filter(member__name='Tia').update(due_at=timezone.now())\n"
        f"    Deadline.objects.filter(scope='circle:{month_id}').exclude(key='reminder')"
        ".update(due_at=timezone.now())\n"
    )
    reload_until(host_phone, "#host .subs", "no answer in time")
    expect(host_phone.locator("#host .subs li", has_text="Sue")).to_contain_text("asked")

    # Sue says yes on her phone.
    sue.goto(f"{server.url}/c/{code}/")
    sue.get_by_role("link", name="Answer").click()
    sue.get_by_role("button", name="Yes, I'll come").click()
    expect(sue.locator("#answer")).to_contain_text("See you there!")

    host_phone.reload()
    expect(host_phone.locator("#host")).to_contain_text("2 full tables of 4")
    expect(host_phone.locator(".checklist")).to_contain_text("Every table is full")

    # Hal makes a login on his phone, then runs the night on the laptop.
    host_phone.goto(f"{server.url}/c/{code}/me/")
    host_phone.get_by_label("Username").fill(HAL[0])
    host_phone.get_by_label("Password", exact=True).fill(HAL[1])
    host_phone.get_by_label("Password confirmation").fill(HAL[1])
    host_phone.get_by_role("button", name="Make my login").click()
    expect(host_phone.locator("#login")).to_contain_text("You sign in as hal")
    laptop = new_context(LAPTOP, timeout=15_000).new_page()
    sign_in(laptop, server, HAL, month_url.replace(server.url, ""))
    laptop.get_by_role("button", name="Start the night").click()
    expect(laptop).to_have_url(re.compile(r"/p/\w+/host/$"))
    players = laptop.locator("#players")
    expect(players).to_contain_text("Players (8)")
    for name in ["Hal", "Ann", "Bea", "Fay", "Sue"]:
        expect(players).to_contain_text(name)
    expect(players.locator("li", has_text="Sue")).to_contain_text("substitute")

    # Ann arrives: her phone becomes her player at the night, no name to pick.
    ann.goto(month_url)
    ann.get_by_role("button", name="join the night as Ann").click()
    expect(ann).to_have_url(re.compile(r"/p/\w+/$"))
    expect(ann.locator("#seat")).to_contain_text("You are Ann")

    # The admin sees the month playing and what happened on the way.
    admin.goto(f"{server.url}/c/{code}/")
    expect(admin.locator(".schedule .month-row").first).to_contain_text("playing now")
    activity = admin.locator(".activity")
    expect(activity).to_contain_text("Tia did not answer in time")
    expect(activity).to_contain_text("Sue fills a seat")
