"""The foundation in a real browser: pages on a phone, and the live socket round trip."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect


def test_the_home_page_loads_on_a_phone_and_says_what_the_app_does(server, phone):
    page = phone()
    page.goto(server.url + "/")
    # Joining is the first thing a guest sees.
    expect(page.get_by_role("heading", level=1)).to_have_text("Join a party")
    expect(page.get_by_role("heading", level=2).first).to_contain_text("Bunko party")
    expect(page.get_by_role("link", name="Check my phone")).to_be_visible()
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_body_text_is_at_least_17px_and_buttons_are_at_least_48px_tall(server, phone):
    page = phone()
    page.goto(server.url + "/")
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 17
    for link in page.locator("a.button").all():
        assert link.bounding_box()["height"] >= 48


def test_the_static_files_are_served_by_the_app_itself(server, phone):
    page = phone()
    response = page.goto(server.url + "/static/core/live.js")
    assert response.status == 200
    assert "BunkoLive" in response.text()


def test_a_wave_from_one_phone_reaches_another_over_the_websocket(server, phone):
    ann, bea = phone(), phone()
    for page in (ann, bea):
        page.goto(server.url + "/check/")
        expect(page.locator("#check-status")).to_contain_text("Connected")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Wave to everyone").click()
    expect(bea.locator("#check-wave")).to_contain_text("Ann waved")
    expect(ann.locator("#check-wave")).to_contain_text("Ann waved")
    expect(ann.locator("#check-rtt")).to_contain_text("Round trip")


def test_a_wave_without_a_name_shows_the_reason_next_to_the_name_field(server, phone):
    page = phone()
    page.goto(server.url + "/check/")
    expect(page.locator("#check-status")).to_contain_text("Connected")
    page.get_by_role("button", name="Wave to everyone").click()
    expect(page.locator("#wave-name-error")).to_have_text("Type your name first, then wave.")


def test_a_dropped_socket_reconnects_by_itself(server, phone):
    page = phone()
    page.goto(server.url + "/check/")
    expect(page.locator("#live-status")).to_have_text("Connected")
    page.evaluate("window.BunkoLive.socket.close()")
    expect(page.locator("#live-status")).to_have_text("Connected", timeout=10_000)
    page.get_by_label("Your name").fill("Cal")
    page.get_by_role("button", name="Wave to everyone").click()
    expect(page.locator("#check-wave")).to_contain_text("Cal waved")


def test_a_lost_laptop_dims_the_page_holds_taps_and_sends_a_queued_one_once(server, phone):
    page = phone()
    page.goto(server.url + "/check/")
    expect(page.locator("#live-status")).to_have_text("Connected")
    expect(page.locator("#live-lost")).to_be_hidden()
    page.get_by_label("Your name").fill("Dot")
    server.stop()
    # Impossible to miss: the page dims, says so, and no new tap gets through.
    expect(page.locator("#live-lost")).to_be_visible()
    expect(page.locator("#live-lost")).to_contain_text("Reconnecting…")
    button = page.get_by_role("button", name="Wave to everyone")
    with pytest.raises(PlaywrightTimeout):
        button.click(timeout=1_000)
    # A tap made as the laptop went away is kept and sent once the socket is back.
    page.evaluate("window.BunkoLive.send({type: 'action', act: {type: 'wave', name: 'Dot'}})")
    server.start()
    expect(page.locator("#live-status")).to_have_text("Connected", timeout=20_000)
    expect(page.locator("#live-lost")).to_be_hidden()
    expect(page.locator("#check-wave")).to_contain_text("Dot waved")
    page.wait_for_timeout(500)
    assert page.locator("#check-wave").inner_text().count("Dot waved") == 1


def test_the_big_screen_layout_uses_larger_text_on_a_laptop(server, laptop):
    laptop.goto(server.url + "/")
    size = laptop.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 20


def test_static_files_are_served_compressed_and_kept_for_a_year(server):
    import re
    import urllib.request

    page = urllib.request.urlopen(server.url + "/").read().decode()
    css = re.search(r'href="(/static/core/site\.[0-9a-f]{12}\.css)"', page)
    assert css, "the stylesheet is named by its content"
    request = urllib.request.Request(server.url + css.group(1), headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert "max-age=315360000" in response.headers["Cache-Control"]
        assert "immutable" in response.headers["Cache-Control"]
