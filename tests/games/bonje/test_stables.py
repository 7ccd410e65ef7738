"""Complete stables, brawls, and the value table."""

from __future__ import annotations

import pytest

from apps.games.bonje import rules
from apps.games.bonje.cards import with_article
from apps.games.bonje.scoring import seat_value, stable_value
from apps.games.bonje.stables import Stable, is_complete, needs, stable_status
from tests.games.bonje import (
    BOARS,
    BULLS,
    COWS,
    ELEPHANTS,
    EWES,
    HENS,
    MARES,
    RAMS,
    ROOSTERS,
    SOWS,
    STALLIONS,
    position,
)

KINDS = [
    ("horse", STALLIONS, MARES, 4),
    ("cow", BULLS, COWS, 3),
    ("pig", BOARS, SOWS, 2),
    ("sheep", RAMS, EWES, 2),
    ("chicken", ROOSTERS, HENS, 1),
]


@pytest.mark.parametrize(("kind", "males", "females", "points"), KINDS)
def test_a_stable_is_complete_with_one_male_and_at_least_one_female_of_its_kind(
    kind, males, females, points
):
    """ "A complete stable contains 1 male animal and at least 1 female animal of the same
    kind." """
    assert is_complete(Stable([males[0], females[0]]))
    assert is_complete(Stable([females[0], males[0], females[1], females[2]]))
    assert not is_complete(Stable([males[0]]))
    assert not is_complete(Stable([females[0], females[1]]))
    assert not is_complete(Stable([]))


@pytest.mark.parametrize(("kind", "males", "females", "points"), KINDS)
def test_two_males_make_a_brawl_that_is_not_complete_and_scores_nothing(
    kind, males, females, points
):
    """ "If a stable holds two or more male animals, a brawl (bonje) breaks out in that stable.
    ... A stable with a brawl does not count as a complete stable, and the animals in it do not
    score points." """
    stable = Stable([males[0], females[0], males[1], females[1]])
    assert stable.brawl and stable_status(stable) == "brawl"
    assert not is_complete(stable)
    assert stable_value(stable) == 0


@pytest.mark.parametrize(("kind", "males", "females", "points"), KINDS)
def test_each_animal_scores_the_tables_points_and_a_couple_two_more(kind, males, females, points):
    """ "Per stallion/mare 4 points, per bull/cow 3, per boar/sow 2, per ram/ewe 2, per
    rooster/hen 1 ... Per couple (extra): 2 points extra (1 male and 1 female of the same kind in
    1 stable without a brawl)." Ruling: "+2 per stable with a couple (1 male and 1+ females,
    no brawl)"."""
    assert stable_value(Stable([males[0]])) == points
    assert stable_value(Stable([females[0], females[1]])) == 2 * points
    assert stable_value(Stable([males[0], females[0]])) == 2 * points + 2
    assert stable_value(Stable([males[0], females[0], females[1]])) == 3 * points + 2


def test_an_elephant_is_worth_nothing_and_values_add_up_over_a_players_stables():
    """ "Per elephant 0 points"; "the player with the most valuable stables"."""
    assert stable_value(Stable([ELEPHANTS[0]])) == 0
    row = [Stable([STALLIONS[0], MARES[0]]), Stable([ELEPHANTS[1]]), Stable([HENS[0]])]
    assert seat_value(row) == 10 + 0 + 1


def test_what_a_stable_still_needs_is_said_in_words():
    assert needs(Stable([STALLIONS[0]])) == "it needs a mare"
    assert needs(Stable([EWES[0]])) == "it needs a ram"
    assert needs(Stable([])) == "it is empty: it needs a male and a female of one kind"
    assert needs(Stable([BULLS[0], BULLS[1], COWS[0]])) == "there is a brawl: 2 bulls fight in it"
    assert "only a transport truck" in needs(Stable([ELEPHANTS[0]]))
    assert needs(Stable([BOARS[0], SOWS[0]])) == ""
    assert needs(Stable([], "cow")) == "it is empty: it needs a bull and a cow"


def test_every_view_shows_each_stable_with_what_it_still_needs():
    state = position([[[STALLIONS[0]], [BULLS[0], COWS[0]], []], [[ELEPHANTS[0]], [], []]])
    for seat in (None, 0, 1):
        stables = rules.view(state, seat)["players"][0]["stables"]
        assert [s["status"] for s in stables] == ["needs_female", "complete", "empty"]
        assert stables[0]["needs"] == "it needs a mare"
        assert stables[1] | {"cards": None} == {
            "index": 1,
            "label": "stable 2",
            "special": None,
            "cards": None,
            "kind": "cow",
            "elephant": False,
            "brawl": False,
            "status": "complete",
            "complete": True,
            "needs": "",
            "needs_line": "",
            "value": 8,
        }
    other = rules.view(state, 0)["players"][1]
    assert other["stables"][0]["elephant"] is True
    assert (other["value"], other["complete"]) == (0, False)


def test_a_special_stable_is_complete_only_with_the_animals_of_its_kind():
    """Bonus variant: "This special stable is complete only when the animals in it are of the
    kind shown in its illustration." """
    assert is_complete(Stable([STALLIONS[0], MARES[0]], "horse"))
    assert not is_complete(Stable([BULLS[0], COWS[0]], "horse"))
    assert stable_status(Stable([BULLS[0], COWS[0]], "horse")) == "wrong_kind"
    assert "only stallions and mares" in needs(Stable([BULLS[0], COWS[0]], "horse"))


def test_only_the_animals_of_its_kind_count_for_a_special_stables_value():
    """ "When determining the value of this stable, only animals of the kind concerned count." """
    assert stable_value(Stable([BULLS[0], COWS[0], COWS[1]], "cow")) == 3 * 3 + 2
    assert stable_value(Stable([STALLIONS[0], MARES[0]], "cow")) == 0


def test_the_words_for_cards_take_the_article_they_are_said_with():
    assert [with_article(n) for n in ("elephant", "ewe", "mare", "mad_cow")] == [
        "an elephant",
        "a ewe",
        "a mare",
        "a mad cow",
    ]
