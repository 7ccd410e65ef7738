"""Fixtures for whole flows in Debian's headless Chromium against a real daphne server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.servers import DaphneServer, fresh_database_url

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
LAPTOP = {"viewport": {"width": 1440, "height": 900}}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> DaphneServer:
    env = {"BUNKO_FIXED_SEED": "4242", "GAME_BOT_DELAY": "0"}  # game rooms: replayable, quick bots
    if url := fresh_database_url("e2e"):
        env["DATABASE_URL"] = url
    daphne = DaphneServer(tmp_path_factory.mktemp("server"), env=env)
    daphne.migrate()
    daphne.start()
    yield daphne
    daphne.stop()


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
def phone(browser):
    """A fresh phone-sized browser context (its own cookies: its own player)."""
    contexts = []

    def make():
        context = browser.new_context(**PHONE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def laptop(browser):
    context = browser.new_context(**LAPTOP)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()
