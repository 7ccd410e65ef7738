"""What the fuzz tests share: a small world with one of everything (a night at its tables, a
game room in play, a circle with its season), a fingerprint of every row, and bad values."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date

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
