"""Every page answers with a Content-Security-Policy that allows the laptop's own scripts,
styles and sockets and nothing else, and no page needs what the policy refuses: no inline
script, no inline style, no event-handler attribute. What Chromium makes of it, page by page,
is tests/e2e/test_csp.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.db import transaction
from django.test import Client

from tests.core.test_permission_matrix import ROLES, URLS, world  # noqa: F401

pytestmark = pytest.mark.django_db


HTMX_CONFIG = re.compile(r'<meta name="htmx-config" content=\'([^\']*)\'>')


def directives(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy", "")
    found = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            found[words[0]] = words[1:]
    return found


class Inline(HTMLParser):
    """What a page holds that a strict policy would refuse."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for name in names:
            if name == "style" or name.startswith("on"):
                self.refused.append(f"<{tag} {name}=...>")
        for name in ("href", "src", "action", "formaction"):
            if (names.get(name) or "").strip().lower().startswith("javascript:"):
                self.refused.append(f"<{tag} {name}=javascript:...>")
        if tag == "style":
            self.refused.append("<style>")
        # A script with a src, or a data block (JSON), is no inline script.
        self._in_script = tag == "script" and not names.get("src")
        if self._in_script and (names.get("type") or "").endswith("json"):
            self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.refused.append("<script>" + data.strip()[:40])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False


def inline_parts(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.refused


def test_the_policy_allows_the_laptops_own_scripts_styles_and_sockets_only(client, settings):
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    response = client.get("/", HTTP_HOST="192.168.1.20:8000")
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    # The live client's socket goes to the host that served the page, on any scheme the
    # page itself used; no other host.
    assert policy["connect-src"] == ["'self'", "ws://192.168.1.20:8000", "wss://192.168.1.20:8000"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]
    # The big screen shows a game room inside itself: framed by the laptop's own pages only.
    assert policy["frame-ancestors"] == ["'self'"]
    assert policy["worker-src"] == ["'self'"]
    assert policy["manifest-src"] == ["'self'"]
    assert "upgrade-insecure-requests" not in policy
    header = response.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in header and "unsafe-eval" not in header


def test_behind_the_https_proxy_the_socket_is_wss_and_requests_are_upgraded(settings):
    settings.ALLOWED_HOSTS = ["bunko.example.org"]
    settings.HTTPS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    response = client.get("/", HTTP_HOST="bunko.example.org")
    policy = directives(response)
    assert policy["connect-src"] == ["'self'", "wss://bunko.example.org"]
    assert "upgrade-insecure-requests" in policy


def test_every_page_for_every_role_carries_the_policy_and_needs_nothing_it_refuses(world):  # noqa: F811
    clients, values = world
    cookies = {role: {k: m.value for k, m in c.cookies.items()} for role, c in clients.items()}
    missing, inline, pages = [], [], 0
    for route, (method, path, _expected, *data) in URLS.items():
        form = {k: v.format(**values) for k, v in (data[0] if data else {}).items()}
        for role in ROLES:
            client = Client()
            for name, value in cookies[role].items():
                client.cookies[name] = value
            with transaction.atomic():
                response = getattr(client, method)(path.format(**values), form, follow=True)
                transaction.set_rollback(True)
            if "html" not in response.get("Content-Type", ""):
                continue
            pages += 1
            if "script-src" not in directives(response):
                missing.append(f"{route} {role}: {response.status_code}")
            html = response.content.decode()
            found = inline_parts(html)
            if "django_htmx/htmx" in html:
                # htmx adds an indicator <style> unless its (first and only) config says no.
                configs = HTMX_CONFIG.findall(html)
                if len(configs) != 1 or '"includeIndicatorStyles":false' not in configs[0]:
                    found.append(f"htmx-config {configs}")
            if found:
                inline.append(f"{route} {role}: {sorted(set(found))}")
    assert pages > 100
    assert missing == []
    assert inline == []


def test_the_error_pages_carry_the_policy_and_need_nothing_it_refuses(settings):
    settings.RATE_LIMITS_ON = False
    answers = {
        "not found": Client().get("/p/NOSUCH/"),
        "a form without its CSRF token": Client(enforce_csrf_checks=True).post(
            "/signin/", {"username": "x", "password": "y"}
        ),
        "a host nobody serves": Client().get("/", HTTP_HOST="evil.example"),
    }
    for what, response in answers.items():
        assert response.status_code >= 400, what
        assert "script-src" in directives(response), what
        assert inline_parts(response.content.decode()) == [], what


def test_the_too_many_page_carries_the_policy_and_needs_nothing_it_refuses(rf):
    from apps.core import limits
    from apps.core.csp import ContentSecurityPolicyMiddleware

    request = rf.get("/join/")
    page = ContentSecurityPolicyMiddleware(lambda r: limits.too_many(r, limits.rate("join")))
    response = page(request)
    assert response.status_code == 429
    assert "script-src" in directives(response)
    assert inline_parts(response.content.decode()) == []


def test_htmx_is_told_not_to_add_its_indicator_style_on_the_console_and_circle_pages(
    client, django_user_model
):
    host = django_user_model.objects.create_user("host", password="x")
    client.force_login(host)
    from apps.parties import services as nights

    party = nights.create_party(host, name="Friday")
    from apps.circles import services as circles
    from tests.core.test_permission_matrix import _next_month

    circle = circles.create_circle(host, name="Belles", start=_next_month())
    for path in (f"/p/{party.code}/host/", f"/c/{circle.code}/members/"):
        html = client.get(path).content.decode()
        assert "django_htmx/htmx" in html
        # The one config htmx reads: the circles' own answers to refusals stay in it.
        [config] = HTMX_CONFIG.findall(html)
        assert '"includeIndicatorStyles":false' in config
