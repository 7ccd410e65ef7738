"""The installable app: a manifest with real icons, a worker that keeps only the app's look,
and the page it shows when the laptop is out of reach."""

from __future__ import annotations

import json

from django.contrib.staticfiles import finders

from apps.core.app_shell import SHELL


def test_the_manifest_names_the_app_and_its_icons_exist(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Bunko Night" and data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in data["icons"])
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_every_page_links_the_manifest_and_an_icon_for_the_home_screen(client):
    page = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'rel="apple-touch-icon"' in page and 'name="theme-color"' in page


def test_the_worker_is_served_from_the_root_and_keeps_only_the_shell(client):
    response = client.get("/sw.js")
    assert response["Content-Type"] == "application/javascript"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    kept = json.loads(script.split("const SHELL = ", 1)[1].split(";", 1)[0])
    assert "/offline/" in kept
    assert all(p.startswith("/static/") or p == "/offline/" for p in kept)
    for path in SHELL:
        assert finders.find(path), path


def test_the_offline_page_says_the_phone_is_reconnecting(client):
    page = client.get("/offline/").content.decode()
    assert "Reconnecting" in page and "party's Wi-Fi" in page
