"""Every page of the product under its Content-Security-Policy in Chromium: the public pages,
a player's phone during a round, the host's console, the big screen, a circle for its admin
and for a member, a room of each party game on a phone and on the big screen, the sign-in
page and the error pages. None may print to the console or break the policy, and the live
socket and htmx's swaps go on working under it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import LAPTOP, PHONE, TV
from tests.e2e.test_accessibility import ROOM
from tests.e2e.test_night_for_the_room import make_night
from tests.e2e.test_party_night import sign_in

# In every page and frame, before the page's own scripts: report each refusal.
REPORT = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.reportViolation(`${e.violatedDirective} refused ${e.blockedURI || "inline"} ` +
    `at ${e.sourceFile || location.pathname}:${e.lineNumber} (${e.sample})`);
});
"""
ERROR_STATUS = "Failed to load resource: the server responded with a status of"


class Watch:
    """What the pages of one browser context said: console messages, page errors and
    refusals by the Content-Security-Policy, each with the page it came from."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.policies: dict[str, str] = {}

    def attach(self, context: BrowserContext) -> BrowserContext:
        context.expose_binding(
            "reportViolation",
            lambda source, text: self.found.append(f"{source['frame'].url}: CSP {text}"),
        )
        context.add_init_script(REPORT)
        context.on("page", self.page)
        return context

    def page(self, page: Page) -> None:
        page.on("console", lambda m: self.console(page, m))
        page.on("pageerror", lambda e: self.found.append(f"{page.url}: error {e}"))
        page.on("response", self.response)

    def console(self, page: Page, message) -> None:
        # An error page's own status (a 404 the test asked for) is said on the console too;
        # only a part of a page that failed to load is a fault.
        if message.text.startswith(ERROR_STATUS) and message.location.get("url") in self.policies:
            return
        self.found.append(f"{page.url}: console {message.type}: {message.text}")

    def assert_clean(self) -> None:
        assert self.found == []
        # Every document the walk loaded carried the policy.
        assert self.policies
        assert [url for url, csp in self.policies.items() if "script-src 'self'" not in csp] == []

    def response(self, response) -> None:
        if response.request.resource_type == "document":
            self.policies[response.url] = response.headers.get("content-security-policy", "")


@pytest.fixture
def watch(new_context):
    watch = Watch()

    def make(kind: dict | None = None) -> Page:
        return watch.attach(new_context(kind or PHONE)).new_page()

    watch.new_page = make
    return watch


def visit(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


def settle(page: Page) -> None:
    """Deferred scripts ran and a socket, if the page has one, said hello."""
    page.wait_for_load_state("load")
    if page.locator("body[data-live-url]").count():
        expect(page.locator("#live-status")).to_have_text("Connected")


def test_the_public_pages_sign_in_and_error_pages_break_no_policy(server, watch, host_login):
    page = watch.new_page()
    for path in [
        "/",
        "/join/",
        "/games/",
        "/check/",
        "/how/bunko/",
        "/how/mbogo/",
        "/how/bonje/",
        "/how/dschungel/",
        "/offline/",
        "/signin/",
        "/c/",
    ]:
        visit(page, server.url + path)
        settle(page)
    # The phone check's wave goes over the socket and comes back as a fragment.
    page.goto(server.url + "/check/")
    settle(page)
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Wave to everyone").click()
    expect(page.locator("#check-wave")).to_contain_text("Ann waved.")
    # A code nobody has, a page nobody serves.
    assert page.goto(server.url + "/p/NOSUCH/").status == 404
    assert page.goto(server.url + "/no/such/page/").status == 404
    # A sign-in whose CSRF cookie went missing (a browser that dropped it).
    visit(page, server.url + "/signin/")
    page.context.clear_cookies()
    page.get_by_label("Username").fill(host_login[0])
    page.get_by_label("Password").fill(host_login[1])
    with page.expect_response(lambda r: r.request.method == "POST", timeout=30_000) as answer:
        page.get_by_role("button", name="Sign in").click()
    assert answer.value.status == 403
    expect(page.get_by_role("heading", name="Try that again")).to_be_visible()
    # A real sign-in, and the admin's first page.
    sign_in(page, server, host_login)
    visit(page, server.url + "/admin/")
    watch.assert_clean()


def test_a_night_on_the_phone_the_console_and_the_big_screen_breaks_no_policy(
    server, watch, host_login
):
    night = make_night(server, 8)
    phone = watch.new_page(PHONE)
    phone.context.add_cookies(
        [
            {
                "name": "seat_" + night["scope"].replace(":", "_"),
                "value": night["tokens"]["P000"],
                "url": server.url,
            }
        ]
    )
    visit(phone, f"{server.url}/p/{night['code']}/")
    settle(phone)
    # A tap during the round: the socket answers with the table drawn again.
    stamp = phone.locator("#table").get_attribute("data-v")
    button = phone.locator("#table form[data-live-action] button").first
    if button.count():
        button.click()
        phone.wait_for_function(f"() => document.getElementById('table').dataset.v !== '{stamp}'")
    for path in ["join/", "sheet/"]:
        visit(phone, f"{server.url}/p/{night['code']}/{path}")
        settle(phone)

    tv = watch.new_page(TV)
    visit(tv, f"{server.url}/p/{night['code']}/screen/")
    settle(tv)
    grid = tv.locator(".tv-grid")
    expect(grid).to_be_visible()
    # The grid's size came as data-vars and was set through the CSSOM.
    assert grid.evaluate("g => g.style.getPropertyValue('--cols')").strip() != ""

    console = watch.new_page(LAPTOP)
    sign_in(console, server, host_login)
    for path in [
        "p/",
        "p/new/",
        f"p/{night['code']}/host/prizes/",
        f"p/{night['code']}/host/blank-sheets/",
    ]:
        visit(console, f"{server.url}/{path}")
        settle(console)
    visit(console, f"{server.url}/p/{night['code']}/host/")
    settle(console)
    # htmx under the policy: the menu comes when opened, the rename is posted, and the
    # phone hears of it over its socket.
    visit(phone, f"{server.url}/p/{night['code']}/")
    settle(phone)
    console.get_by_label("Change P000").click()
    menu = console.locator(".player-menu[open] .menu-box")
    menu.get_by_label("New name").fill("Pat")
    menu.get_by_role("button", name="Rename").click()
    expect(console.locator("#host-message")).to_contain_text("Renamed to Pat")
    expect(phone.locator("#seat")).to_contain_text("Pat")
    watch.assert_clean()


CIRCLE = """
import json
from django.contrib.auth import get_user_model
from django.utils import timezone
from apps.circles import services
from apps.circles.dates import add_months
from apps.circles.tokens import make_invite, make_member_token
host = get_user_model().objects.get(username="nighthost")
circle = services.create_circle(host, name="Belles", start=add_months(timezone.localdate(), 1))
bea = services.add_member(circle.pk, name="Bea", email="", kind="member")
season = circle.seasons.get()
print(json.dumps({
    "code": circle.code,
    "bea": bea.pk,
    "month": season.months.order_by("index").first().pk,
    "link": make_member_token(circle.pk, bea.pk, bea.nonce),
    "invite": make_invite(circle.pk, circle.invite_nonce, "member"),
}))
"""


def test_a_circle_for_its_admin_and_for_a_member_breaks_no_policy(server, watch, host_login):
    circle = json.loads(server.python(CIRCLE).splitlines()[-1])
    code = circle["code"]
    admin = watch.new_page(LAPTOP)
    sign_in(admin, server, host_login)
    for path in [
        "c/new/",
        f"c/{code}/",
        f"c/{code}/members/",
        f"c/{code}/members/{circle['bea']}/",
        f"c/{code}/months/{circle['month']}/",
        f"c/{code}/settings/",
        f"c/{code}/standings/",
        f"c/{code}/standings/{circle['bea']}/",
    ]:
        visit(admin, f"{server.url}/{path}")
        settle(admin)
    # htmx under the policy: a member added beside the list.
    visit(admin, f"{server.url}/c/{code}/members/")
    add = admin.locator("#people form", has=admin.get_by_role("button", name="Add"))
    add.get_by_label("Name", exact=True).fill("Tia")
    add.get_by_role("button", name="Add").click()
    expect(admin.get_by_text("Tia is added.")).to_be_visible()
    # Taking a member off asks first (data-confirm, no inline handler); saying no keeps her.
    visit(admin, f"{server.url}/c/{code}/members/{circle['bea']}/")
    asked = []
    admin.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    admin.get_by_role("button", name="Take Bea off the circle").click()
    assert asked and "Take Bea off the circle?" in asked[0]
    expect(admin.get_by_role("button", name="Take Bea off the circle")).to_be_visible()

    member = watch.new_page(PHONE)
    visit(member, f"{server.url}/c/{code}/m/{circle['link']}/")
    settle(member)
    visit(member, f"{server.url}/c/{code}/me/")
    settle(member)
    newcomer = watch.new_page(PHONE)
    visit(newcomer, f"{server.url}/c/{code}/join/{circle['invite']}/")
    settle(newcomer)
    watch.assert_clean()


@pytest.mark.parametrize(("game", "bots"), [("mbogo", 2), ("bonje", 1), ("dschungel", 1)])
def test_a_room_of_each_party_game_breaks_no_policy(server, watch, game, bots):
    room = json.loads(server.python(ROOM.format(game=game, bots=bots)).splitlines()[-1])
    phone = watch.new_page(PHONE)
    phone.context.add_cookies(
        [
            {
                "name": "seat_" + room["scope"].replace(":", "_"),
                "value": room["token"],
                "url": server.url,
            }
        ]
    )
    visit(phone, f"{server.url}/rooms/{room['code']}/")
    settle(phone)
    tv = watch.new_page(TV)
    visit(tv, f"{server.url}/rooms/{room['code']}/screen/")
    settle(tv)
    # The bots play on: their moves come over the socket, swapped in under the policy.
    phone.wait_for_timeout(1500)
    if game == "dschungel":
        # A field's place on the drawing came as data-vars: every tap button is placed.
        taps = phone.locator(".dj-tap")
        for i in range(taps.count()):
            assert taps.nth(i).evaluate("b => b.style.getPropertyValue('--left')").strip() != ""
    watch.assert_clean()
