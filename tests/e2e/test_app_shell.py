"""The installable app in Chromium: the worker registers, keeps only the app's look, shows
"Reconnecting" while the laptop is out of reach, and never shows a stale score."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.test_night_for_the_room import as_player, make_night

KEPT = """async () => {
  const urls = [];
  for (const name of await caches.keys())
    for (const request of await (await caches.open(name)).keys())
      urls.push(new URL(request.url).pathname);
  return urls;
}"""


def wait_until_the_worker_controls(page):
    """The worker claims the open page when it activates, so no reload is needed; a reload
    from inside a polled check raced the next check and destroyed the page under it."""
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=15_000)
    page.wait_for_load_state("load")


def test_the_worker_registers_and_an_offline_phone_comes_back_to_the_live_score(
    server, new_context, host_login
):
    night = make_night(server, 4, dice="physical")
    page = as_player(new_context, server, night, "P000")
    wait_until_the_worker_controls(page)
    kept = page.evaluate(KEPT)
    assert "/offline/" in kept
    assert all(path.startswith("/static/") or path == "/offline/" for path in kept)

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Reconnecting…")).to_be_visible()
    # Meanwhile the table plays on: a player's phone back online sees the new score.
    server.python(
        "from apps.parties import services\n"
        "from apps.parties.models import Party\n"
        f"party = Party.objects.get(code='{night['code']}')\n"
        "table = party.tables.get(round=1)\n"
        "services.host_move(party.code, table.pk, {'type': 'end', 'winner': 0})\n"
    )
    page.context.set_offline(False)
    expect(page.locator("#live-status")).to_have_text("Connected", timeout=15_000)
    expect(page.locator("#table")).to_contain_text("won", ignore_case=True)


def test_a_phone_reloaded_while_the_laptop_restarts_comes_back_by_itself(
    server, new_context, host_login
):
    """The phone's Wi-Fi never dropped, so no "online" event comes: the offline page's own
    check of the laptop must bring it back."""
    night = make_night(server, 4, dice="physical")
    page = as_player(new_context, server, night, "P001")
    wait_until_the_worker_controls(page)
    server.stop()
    page.reload()
    expect(page.get_by_role("heading", name="Reconnecting…")).to_be_visible()
    server.start()
    expect(page.locator("#live-status")).to_have_text("Connected", timeout=15_000)
