"""Fixtures for whole flows in Debian's headless Chromium against a real daphne server.

Every browser test has a time limit, every browser context is closed however the test ends,
and no test writes into the work tree: screenshots for the docs are taken only when
BUNKO_SCREENSHOTS names a folder (``make screenshots``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.servers import DaphneServer, fresh_database_url

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# What sticks out past the phone's edge (the innermost elements), to name in a failure.
WIDER = """() => Array.from(document.querySelectorAll('body *'))
  .filter((e) => e.getBoundingClientRect().right > 391
    && !Array.from(e.children).some((c) => c.getBoundingClientRect().right > 391))
  .slice(0, 6).map((e) => `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 40)}`)"""
LAPTOP = {"viewport": {"width": 1440, "height": 900}}
TV = {"viewport": {"width": 1920, "height": 1080}}
TIME_LIMIT = 240  # seconds for any one browser test


def seated_phone(new_context, server, room: dict, seat: int, locale: str = "en-GB") -> Page:
    """A phone holding the seat cookie of ``seat`` in a game room, its live socket open."""
    context = new_context({**PHONE, "locale": locale})
    cookie = {"name": "seat_" + room["scope"].replace(":", "_"), "value": room["tokens"][seat]}
    context.add_cookies([{**cookie, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/rooms/{room['code']}/")
    expect(page.locator("body")).to_have_attribute("data-live-state", "open")
    return page


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(TIME_LIMIT))


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> DaphneServer:
    # Game rooms: replayable (fixed seed) and quick bots.
    env = {"BUNKO_FIXED_SEED": "4242", "GAME_BOT_PACE": "0.05"}
    if url := fresh_database_url("e2e"):
        env["DATABASE_URL"] = url
    daphne = DaphneServer(tmp_path_factory.mktemp("server"), env=env)
    daphne.migrate()
    daphne.start()
    yield daphne
    daphne.stop()


@pytest.fixture(scope="session")
def host_login(server) -> tuple[str, str]:
    """A host's login on the test server (made once)."""
    server.python(
        "from django.contrib.auth import get_user_model\n"
        "User = get_user_model()\n"
        "if not User.objects.filter(username='nighthost').exists():\n"
        "    User.objects.create_superuser('nighthost', password='bunko-night-21')\n"
    )
    return ("nighthost", "bunko-night-21")


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"The browser tests need Chromium at {CHROMIUM} (Debian package 'chromium').")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser):
    """Make browser contexts (``new_context(PHONE)``); all are closed when the test ends,
    passed or failed."""
    contexts = []

    def make(kind: dict | None = None, timeout: int = 10_000):
        context = browser.new_context(**(kind or PHONE))
        context.set_default_timeout(timeout)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(new_context):
    """A fresh phone-sized page in a context of its own (its own cookies: its own player)."""
    return lambda: new_context(PHONE).new_page()


@pytest.fixture
def laptop(new_context):
    return new_context(LAPTOP).new_page()


@pytest.fixture
def docs_shot(tmp_path):
    """Screenshot a page for the docs: into BUNKO_SCREENSHOTS when set, else a temporary
    folder (a test run never changes the work tree)."""
    folder = Path(os.environ.get("BUNKO_SCREENSHOTS") or tmp_path)

    def shoot(page: Page, name: str, full_page: bool = True) -> Path:
        path = folder / name
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return shoot
