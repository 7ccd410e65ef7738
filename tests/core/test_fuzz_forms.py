"""Every page that takes a form, fed what no form sends: never a server error, never a logged
traceback, and where the input is bad (a NUL byte in every field) nothing changes.

The pages are found by walking the URLconf, so a new page is fuzzed without being listed
here; only the buttons that take no input at all (posting anything does their one thing)
are listed, and a test keeps that list true."""

from __future__ import annotations

import logging
from urllib.parse import quote

import pytest
from django import forms
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.core.tokens import seat_cookie_name
from apps.parties.views.host import HOST_ACTIONS, TABLE_PARTS
from tests.core.fuzzkit import (
    ErrorLog,
    browser_posts,
    changed_tables,
    fingerprint,
    make_world,
    malformed_for,
    odd_text,
    with_nul,
)

pytestmark = pytest.mark.django_db

# Buttons with no input: whatever is posted, they do their one thing (or refuse for a reason
# that is not the input). Named as "url name" or "url name/host action".
NO_INPUT = {
    "logout",
    "party_act/start-round",
    "party_act/pause",
    "party_act/resume",
    "party_act/end",
    "party_act/reopen",
    "circles:new_feed",
    "circles:new_invites",
    "circles:reset_link",
    "circles:forget",
    "circles:start",
    "circles:plan",
    "circles:new_season",
}
FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def url_names() -> list[tuple[str, str]]:
    """(name, route) of every page but Django's admin."""

    def walk(patterns, prefix: str, namespace: str):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue
                inner = f"{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                yield namespace + pattern.name, prefix + str(pattern.pattern)

    return list(walk(get_resolver().url_patterns, "", ""))


def form_fields() -> list[str]:
    """The field names of every form of the product: a new form's fields are fuzzed too."""
    return sorted(field_kinds())


def field_kinds() -> dict[str, set[str]]:
    """Per field name in the product's forms, the kinds of form field it is ("DateField")."""
    import apps.circles.forms
    import apps.games.forms
    import apps.parties.forms
    import apps.prizes.forms  # noqa: F401

    kinds: dict[str, set[str]] = {}
    stack = [forms.Form, forms.ModelForm]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("apps."):
            for name, field in cls.base_fields.items():
                kinds.setdefault(name, set()).update(k.__name__ for k in type(field).__mro__)
    return kinds


def pages(world) -> list[tuple[str, str]]:
    """(label, path) of every page, its codes and ids those of the world's objects."""
    table = world.party.tables.first()
    month = world.circle.seasons.first().months.first()
    by_key = {
        "player_id": world.party.players.first().pk,
        "table_id": table.pk,
        "member_id": world.member.pk,
        "month_id": month.pk,
        "season_id": month.season_id,
        "game": "bunko",
    }
    tokens = {
        "circles:join": world.links["invite"],
        "circles:member_link": world.links["member"],
        "circles:calendar": world.links["feed"],
        "party_results": world.links["results"],
    }
    result = []
    for name, route in url_names():
        kwargs = {}
        for key in ("code", *by_key, "token"):
            if f":{key}>" not in route:
                continue
            if key == "code":
                kwargs[key] = (
                    world.room.code
                    if route.startswith("rooms/")
                    else world.circle.code
                    if route.startswith("c/")
                    else world.party.code
                )
            elif key == "token":
                kwargs[key] = tokens.get(name, "not-a-token")
            else:
                kwargs[key] = by_key[key]
        if ":action>" in route:
            for action in HOST_ACTIONS:
                result.append(
                    (f"{name}/{action}", reverse(name, kwargs={**kwargs, "action": action}))
                )
        elif ":part>" in route:
            for part in TABLE_PARTS:
                result.append((name, reverse(name, kwargs={**kwargs, "part": part})))
        else:
            result.append((name, reverse(name, kwargs=kwargs)))
    return result


@pytest.fixture
def world(django_user_model):
    return make_world(django_user_model)


@pytest.fixture
def clients(world):
    """The host (who also runs the circle, and is its member Ann) and a phone at the night."""
    host = Client()
    host.force_login(world.host)
    host.cookies[world.circle.cookie_name] = world.links["member"]
    phone = Client()
    phone.cookies[seat_cookie_name(world.party.scope)] = world.party and world.tokens["Ann"]
    return [host, phone]


def test_the_no_input_list_names_only_pages_that_exist(world):
    labels = {label for label, _ in pages(world)}
    assert labels >= NO_INPUT, NO_INPUT - labels


def test_the_fuzz_reaches_every_form_field():
    fields = form_fields()
    assert {"name", "code", "player", "slot", "replacement", "type"} <= set(fields)


def check(client, method: str, path: str, data: dict, log: ErrorLog) -> int:
    send = client.post if method == "POST" else client.get
    response = send(path, data)
    assert response.status_code < 500, (method, path, response.status_code)
    assert not log.records, log.text()
    return response.status_code


def test_a_nul_byte_in_every_field_of_every_form_is_refused_and_changes_nothing(world, clients):
    fields = form_fields()
    fuzzed = [(label, path) for label, path in pages(world) if label not in NO_INPUT]
    bad = {name: "x\x00" for name in fields}

    @FUZZ
    @given(
        page=st.sampled_from(fuzzed),
        who=st.sampled_from([0, 1]),
        values=st.fixed_dictionaries({}, optional={n: with_nul for n in fields}),
        many=st.lists(with_nul, min_size=2, max_size=3),
    )
    def post(page, who, values, many):
        data = {**bad, **values, fields[len(many) % len(fields)]: many}
        before = fingerprint()
        with ErrorLog() as log:
            check(clients[who], "POST", page[1], data, log)
        assert not changed_tables(before, fingerprint()), page

    # Every page once as the host (who may do the most), then the random mix.
    changed = []
    before = fingerprint()
    for page in fuzzed:
        with ErrorLog() as log:
            check(clients[0], "POST", page[1], bad, log)
        after = fingerprint()
        if tables := changed_tables(before, after):
            changed.append((page[0], tables))
        before = after
    assert not changed
    post()


def test_odd_values_in_forms_and_query_strings_never_make_a_server_error(world, clients):
    fields = form_fields()
    fuzzed = [(label, path) for label, path in pages(world) if label not in NO_INPUT]

    @FUZZ
    @given(
        page=st.sampled_from(fuzzed),
        who=st.sampled_from([0, 1]),
        method=st.sampled_from(["GET", "POST"]),
        data=st.dictionaries(st.sampled_from([*fields, "back", "part", "for", "season"]), odd_text),
        tail=st.one_of(st.just(""), odd_text),
    )
    def send(page, who, method, data, tail):
        # Odd characters after the page's code too ("/p/CODE%00/screen/")
        # ... and after a signed link's token.
        codes = (world.party.code, world.room.code, world.circle.code, *world.links.values())
        path = page[1]
        for code in codes:
            path = path.replace(f"/{code}", f"/{code}{quote(tail[:50])}", 1)
        with ErrorLog() as log:
            check(clients[who], method, path, data, log)

    send()


MISSING = object()


def test_every_form_a_page_shows_posted_with_each_field_malformed_never_makes_a_server_error(
    world, clients, settings
):
    """What a browser would post from each form of every page, one field at a time made what
    no browser sends (too long, a NUL byte, a list, not a number, a date out of range, an
    unknown choice, missing). Each post is rolled back, so every one meets the same night."""
    from tests.conftest import clear_caches

    settings.RATE_LIMITS_ON = False
    kinds = field_kinds()
    paths = [path for _, path in pages(world)]
    failures, sent = [], 0
    for client in clients:
        for action, posts in browser_posts(client, paths).items():
            for post in posts:
                for name in post:
                    for value in [*malformed_for(kinds.get(name, set())), MISSING]:
                        data = {**post, name: value}
                        if value is MISSING:
                            del data[name]
                        with transaction.atomic():
                            status, logged = send(client, "POST", action, data)
                            transaction.set_rollback(True)
                        clear_caches()
                        sent += 1
                        if status >= 500 or logged:
                            shown = value if value is MISSING or len(value) < 40 else "long"
                            failures.append((action, name, shown, status, logged))
    assert sent > 500
    assert not failures, "\n".join(map(str, failures))


def query_names_read(client, path: str) -> set[str]:
    """The names of the query string a page reads (asked for without any)."""
    from django.utils.datastructures import MultiValueDict

    read: set[str] = set()
    methods = {name: getattr(MultiValueDict, name) for name in ("get", "__getitem__", "getlist")}

    def spy(method):
        def reading(self, key, *args, **kwargs):
            read.add(key)
            return method(self, key, *args, **kwargs)

        return reading

    def contains(self, key):
        read.add(key)
        return dict.__contains__(self, key)

    try:
        for name, method in methods.items():
            setattr(MultiValueDict, name, spy(method))
        MultiValueDict.__contains__ = contains
        client.get(path)
    finally:
        for name, method in methods.items():
            setattr(MultiValueDict, name, method)
        del MultiValueDict.__contains__
    return read


def send(client, method: str, path: str, data: dict) -> tuple[int, str]:
    """The answer's status and what was logged as an error (a crash is a 500)."""
    with ErrorLog() as log:
        try:
            status = (client.post if method == "POST" else client.get)(path, data).status_code
        except Exception as error:  # the test client raises what a server answers 500
            status, log.records = 500, [*log.records, logging.makeLogRecord({"msg": repr(error)})]
    return status, log.text()[:300]


def test_every_page_asked_with_a_malformed_query_never_makes_a_server_error(world, clients):
    """Each name of the query string a page reads, given what no link carries."""
    values = ["²", "٣", "9" * 30, "9" * 5000, "x\x00y", ["1", "2"], "not-a-choice", ""]
    failures, asked = [], 0
    for client in clients[:1]:  # the host, who sees every page
        for _, path in pages(world):
            for name in query_names_read(client, path) - {"csrfmiddlewaretoken"}:
                for value in values:
                    asked += 1
                    status, logged = send(client, "GET", path, {name: value})
                    if status >= 500 or logged:
                        shown = value if len(value) < 40 else "long"
                        failures.append((path, name, shown, status, logged))
    assert asked > 50
    assert not failures, "\n".join(map(str, failures))


@pytest.mark.parametrize("season", ["²", "٣", "9" * 30, "9" * 5000])
def test_a_season_asked_for_by_a_number_no_database_holds_shows_the_current_one(
    world, clients, season
):
    code = world.circle.code
    for page in (f"/c/{code}/", f"/c/{code}/standings/"):
        response = clients[0].get(page, {"season": season})
        assert response.status_code == 200, page
