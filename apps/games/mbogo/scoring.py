"""Scoring a finished hand of Mbogo."""

from __future__ import annotations

from .cards import ALL_OF_A_KIND, ANIMAL_KINDS, KIND_OF, OVER, HandState

SOLE_KIND_POINTS = 3
ALL_SEVEN_POINTS = 10


def score_hand(caged: dict[int, dict[str, int]]) -> tuple[dict[int, int], dict[int, dict]]:
    """Score every seat from the animals in its own cages.

    "1 point for each animal the player has in a cage; 3 points for each type of animal that
    only that player has; 10 points (instead of 3) for each type of animal that the player has
    captured all seven of." Cards in hand score nothing.

    Returns (scores, breakdown); a breakdown lists the kinds worth 3 under "sole_kinds" and the
    kinds worth 10 under "all_seven", so points = animals + 3 * sole + 10 * all seven.
    """
    scores: dict[int, int] = {}
    breakdown: dict[int, dict] = {}
    for seat, counts in caged.items():
        animals = sum(counts.values())
        sole: list[str] = []
        all_seven: list[str] = []
        for card_kind in ANIMAL_KINDS:
            if counts.get(card_kind, 0) == 0:
                continue
            if any(other.get(card_kind, 0) for s, other in caged.items() if s != seat):
                continue
            if counts[card_kind] >= ALL_OF_A_KIND:
                all_seven.append(card_kind)
            else:
                sole.append(card_kind)
        scores[seat] = animals + SOLE_KIND_POINTS * len(sole) + ALL_SEVEN_POINTS * len(all_seven)
        breakdown[seat] = {"animals": animals, "sole_kinds": sole, "all_seven": all_seven}
    return scores, breakdown


def add_hand(totals: list[int], scores: dict[int, int]) -> list[int]:
    """ "Adding points cumulatively": the match totals after one more hand."""
    return [total + scores.get(seat, 0) for seat, total in enumerate(totals)]


def leaders(totals: list[int]) -> list[int]:
    """ "Whoever has the most points wins"; ruling: "ties share"."""
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def caged_counts(state: HandState) -> dict[int, dict[str, int]]:
    caged: dict[int, dict[str, int]] = {}
    for seat, cages in enumerate(state.cages):
        counts: dict[str, int] = {}
        for cage in cages:
            for animal in cage.animals:
                counts[KIND_OF[animal]] = counts.get(KIND_OF[animal], 0) + 1
        caged[seat] = counts
    return caged


def hand_outcome(state: HandState) -> dict | None:
    """None while the hand is on; then the hand's scores, caged counts and breakdown."""
    if state.phase != OVER:
        return None
    caged = caged_counts(state)
    scores, breakdown = score_hand(caged)
    return {
        "scores": scores,
        "caged": caged,
        "breakdown": breakdown,
        "ended_by": state.ended_by,
    }
