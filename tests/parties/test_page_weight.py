"""A phone on the party Wi-Fi loads little: the cold phone page (HTML, styles and scripts)
stays under 60 KB before compression; static files are served compressed and cached."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from apps.core.tokens import seat_cookie_name
from apps.parties import services

pytestmark = pytest.mark.django_db


def static_bytes(url: str) -> int:
    name = re.sub(r"^/static/", "", url)
    name = re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", name)  # a content-named copy
    path = finders.find(name)
    assert path, f"{url} is not a static file"
    with open(path, "rb") as file:
        return len(file.read())


def test_a_cold_phone_page_weighs_under_60_kb_and_loads_no_htmx(client, django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    client.cookies[seat_cookie_name(party.scope)] = tokens["Ann"]
    html = client.get(f"/p/{party.code}/").content
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+\.(?:css|js))"', html)
    assert not any(b"htmx" in a for a in assets)
    total = len(html) + sum(static_bytes(a.decode()) for a in assets)
    assert total < 60_000, f"{total} bytes: {assets}"
