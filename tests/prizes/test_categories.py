"""A night's prize categories: the default seven, or the host's (or the circle's) own."""

from __future__ import annotations

import pytest

from apps.core.errors import Refused
from apps.parties import services as night
from apps.prizes import services
from apps.prizes.rules.categories import CONSOLATION, DEFAULT, HOST_CHOICE, MOST_WINS, Category
from apps.prizes.selectors import categories_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(django_user_model):
    host = django_user_model.objects.create_user("host", password="x")
    return night.create_party(host, name="Friday")


def test_a_night_has_the_seven_default_categories_until_others_are_chosen(party):
    assert [c.name for c in categories_of(party)] == [
        "Most wins",
        "Most losses",
        "Most Bunkos",
        "Most wipeouts",
        "Travelling Bunko",
        "Travelling wipeout",
        "Consolation prize",
    ]
    assert categories_of(party) == DEFAULT


def test_the_host_renames_reorders_drops_and_adds_categories_with_their_prizes(party):
    services.set_categories(
        party.code,
        [
            Category(CONSOLATION, "Lucky dip", "box of chocolates"),
            Category(MOST_WINS, "  Bunko   champion ", "scented candle"),
            Category(HOST_CHOICE, "Best hat", "a hat"),
        ],
    )
    assert categories_of(party) == [
        Category(CONSOLATION, "Lucky dip", "box of chocolates"),
        Category(MOST_WINS, "Bunko champion", "scented candle"),
        Category(HOST_CHOICE, "Best hat", "a hat"),
    ]


def test_a_category_listed_twice_is_refused_and_nothing_changes(party):
    with pytest.raises(Refused, match="Most wins is listed twice"):
        services.set_categories(party.code, [Category(MOST_WINS, "A"), Category(MOST_WINS, "B")])
    assert categories_of(party) == DEFAULT
