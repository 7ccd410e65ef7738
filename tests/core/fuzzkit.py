"""What the fuzz tests share: a small world with one of everything (a night at its tables, a
game room in play, a circle with its season), a fingerprint of every row, and bad values."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.apps import apps
from hypothesis import strategies as st

from apps.circles import services as circles
from apps.circles.tokens import make_feed_token, make_invite, make_member_token
from apps.games.models import Room
from apps.parties import services
from apps.parties.models import Party
from apps.parties.views.sheets import results_token
from tests.games.roomkit import started_room

NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]
OUR_APPS = {"core", "parties", "games", "circles", "prizes"}
# Not a change of state: presence (a socket or a page says "this phone is here") and the
# address the circle's admin last used (where the mails' links point).
VOLATILE = {"seen_at", "last_login", "site_url"}


@dataclass
class World:
    host: object
    party: Party
    tokens: dict[str, str]
    room: Room
    claims: dict
    circle: object
    member: object
    links: dict[str, str] = field(default_factory=dict)


def make_world(user_model) -> World:
    host = user_model.objects.create_user("host", password="host-pass-21")
    party = services.create_party(host, name="Friday")
    tokens = {name: services.join_party(party.code, new_name=name)[1] for name in NAMES}
    services.start_next_round(party.code)
    party.refresh_from_db()
    room, claims = started_room()
    circle = circles.create_circle(host, name="Belles", start=date(2030, 1, 1), tz="UTC")
    member = circles.add_member(circle.pk, name="Ann", email="ann@example.com")
    for name in NAMES[1:4]:
        circles.add_member(circle.pk, name=name)
    links = {
        "invite": make_invite(circle.pk, circle.invite_nonce, "member"),
        "member": make_member_token(circle.pk, member.pk, member.nonce),
        "feed": make_feed_token(circle.pk, circle.feed_nonce),
        "results": results_token(party),
    }
    return World(host, party, tokens, room, claims, circle, member, links)


def fingerprint(labels: set[str] = OUR_APPS) -> dict[str, list[dict]]:
    """Every row of the product's tables (of the apps named), as values (presence left out)."""
    rows = {}
    for model in apps.get_models():
        if model._meta.app_label in labels or model._meta.label == "auth.User":
            values = model.objects.order_by("pk").values()
            rows[model._meta.label] = [
                {k: v for k, v in row.items() if k not in VOLATILE} for row in values
            ]
    return rows


def changed_tables(before: dict, after: dict) -> list[str]:
    return [label for label in before if before[label] != after[label]]


class ErrorLog(logging.Handler):
    """Collects every error (and every traceback) logged anywhere while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        # Django's own report of a suspicious request it answered with a 400 (a redirect to
        # the sign-in page longer than any browser sends) is that refusal, not a failure.
        if not record.name.startswith("django.security."):
            self.records.append(record)

    def __enter__(self) -> ErrorLog:
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        logging.getLogger().removeHandler(self)

    def text(self) -> str:
        return "\n".join(f"{r.name}: {r.getMessage()}" for r in self.records)


# -- values no page sends ---------------------------------------------------------------------

# Text a form can carry (the test client writes UTF-8: no lone surrogates).
plain = st.text(st.characters(blacklist_categories=("Cs",)), max_size=24)
# NUL bytes: no form field accepts them, PostgreSQL can't store them.
with_nul = st.builds(lambda a, b: f"{a}\x00{b}", plain, plain)
odd_text = st.one_of(
    with_nul,
    st.sampled_from(
        ["", " ", "\u200b", "\u202eAnn", "Ghost 1", "\u200bGhost 1", "Ann\u200b", "-1", "1e9"]
    ),
    st.just("9" * 5000),
    st.just("[" * 5000),
    plain,
)
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    odd_text,
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


# -- what a browser posts, and each field's malformed values ------------------------------------


class _Forms(HTMLParser):
    """The POST forms of a page: their action and the fields a browser sends unchanged."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page, self.forms, self.form, self.select = page, [], None, None

    def handle_starttag(self, tag: str, attrs) -> None:
        attrs = {k: v or "" for k, v in attrs}
        if tag == "form" and attrs.get("method", "get").lower() == "post":
            action = attrs.get("action") or attrs.get("hx-post") or self.page
            self.form = (urljoin(self.page, action).split("#")[0], {})
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "option" and self.select:
            self.form[1].setdefault(self.select, attrs.get("value", ""))
        elif "name" not in attrs:
            return
        elif tag == "input":
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.form[1].setdefault(
                attrs["name"], attrs.get("value", "on" if kind in ("checkbox", "radio") else "")
            )
        elif tag in ("button", "textarea"):
            self.form[1].setdefault(attrs["name"], attrs.get("value", ""))
        elif tag == "select":
            self.select = attrs["name"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


def browser_posts(client, paths: list[str]) -> dict[str, list[dict[str, str]]]:
    """Per form action, the distinct posts a browser makes from the pages at ``paths``."""
    posts: dict[str, list[dict[str, str]]] = {}
    for path in paths:
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = _Forms(path)
        parser.feed(response.content.decode())
        for action, fields in parser.forms:
            known = posts.setdefault(urlsplit(action).path, [])
            if fields not in known and len(known) < 4:
                known.append(fields)
    return posts


LONG = "x" * 100_000
NOT_TEXT = "x\x00y"
# Per kind of form field, values no page sends (and the generic ones for every field).
MALFORMED: dict[str, list] = {
    "any": [LONG, NOT_TEXT, ["1", "2"], "", " "],
    "IntegerField": ["abc", "1.5", "1e3", "²", "٣", "9" * 30, "-" + "9" * 30, "NaN", "-1"],
    "DateField": ["0001-01-01", "9999-12-31", "10000-01-01", "2030-02-30", "0000-00", "9999-12"],
    "TimeField": ["24:00", "23:59:60", "99:99", "-1:00"],
    "ChoiceField": ["not-a-choice", "-1", "9" * 30],
    "MultipleChoiceField": ["not-a-choice", "9" * 30, [str(n) for n in range(200)]],
    "BooleanField": ["maybe", "0"],
    "EmailField": ["a@" + "b" * 300 + ".example", "not-an-address"],
}


def malformed_for(kinds: set[str]) -> list:
    """The malformed values for a field that is (in some form) each of ``kinds``."""
    values = list(MALFORMED["any"])
    for kind in kinds:
        for base, more in MALFORMED.items():
            if base != "any" and base in kind:  # TypedChoiceField is a ChoiceField too
                values += [v for v in more if v not in values]
    return values
