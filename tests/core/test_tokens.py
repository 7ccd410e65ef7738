"""Seat tokens, join codes and the dice of live games."""

from __future__ import annotations

from apps.core.codes import ALPHABET, new_code, normalize_code
from apps.core.dice import rng_for
from apps.core.tokens import make_seat_token, read_seat_token


def test_a_seat_token_is_read_back_for_its_own_party():
    token = make_seat_token("party:ABCDE", 7, "n1")
    claim = read_seat_token(token, "party:ABCDE")
    assert (claim.seat_id, claim.nonce) == (7, "n1")


def test_a_seat_token_of_another_party_is_refused():
    token = make_seat_token("party:ABCDE", 7, "n1")
    assert read_seat_token(token, "party:ZZZZZ") is None


def test_a_forged_or_garbled_token_is_refused():
    token = make_seat_token("party:ABCDE", 7, "n1")
    assert read_seat_token(token[:-2] + "xx", "party:ABCDE") is None
    assert read_seat_token("not-a-token", "party:ABCDE") is None
    assert read_seat_token("", "party:ABCDE") is None
    assert read_seat_token("x" * 1000, "party:ABCDE") is None


def test_join_codes_avoid_look_alike_characters_and_typing_is_forgiving():
    code = new_code()
    assert len(code) == 5 and set(code) <= set(ALPHABET)
    assert not set("01OIL") & set(ALPHABET)
    assert normalize_code(" ab-c d2 ") == "ABCD2"


def test_the_dice_of_a_game_replay_from_its_seed_and_version():
    assert rng_for(42, 3).random() == rng_for(42, 3).random()
    assert rng_for(42, 3).random() != rng_for(42, 4).random()
