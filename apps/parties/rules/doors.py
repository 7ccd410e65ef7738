"""How many players a night expects: a new name beyond it waits for the host's OK.

A phone can add any name it likes, and a fresh browser per join adds as many as the address
limit allows; a host reading the list of waiting names is the one judge of who is real.
"""

from __future__ import annotations

# "Most commonly, it is played with 12 people" (three tables): a night the host said nothing
# about takes that many new names without asking.
RECOMMENDED_PLAYERS = 12
# Late arrivals after the first round: up to as many again as the round seated.
LATE_FACTOR = 2
# The host can expect up to this many (a hundred tables of four, and then some).
MOST_EXPECTED = 1000


def expected_players(set_by_host: int | None, seated: int) -> int:
    """The host's own number when set; else the larger of the recommended party and twice
    the players the round that is on seated (its tables and its sit-outs). Counting the
    round's players, not everyone so far, keeps the bound from growing with the very joins
    it holds back."""
    if set_by_host:
        return set_by_host
    return max(RECOMMENDED_PLAYERS, LATE_FACTOR * seated)


def must_wait(players: int, expected: int) -> bool:
    """A new name waits once the night has as many players as the host expects."""
    return players >= expected
