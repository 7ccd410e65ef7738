"""The circle's signed links: short, tamper-proof, and each good for one purpose only."""

from __future__ import annotations

from apps.circles import tokens


def test_each_link_reads_back_what_it_was_made_with():
    assert tokens.read_invite(tokens.make_invite(7, "n0nce", "substitute")) == tokens.Invite(
        7, "n0nce", "substitute"
    )
    assert tokens.read_member_token(tokens.make_member_token(7, 42, "abc-_9")) == (
        tokens.MemberClaim(7, 42, "abc-_9")
    )
    assert tokens.read_ask_token(tokens.make_ask_token(5, "x")) == (5, "x")
    assert tokens.read_feed_token(tokens.make_feed_token(7, "y")) == (7, "y")


def test_a_link_stays_short_enough_for_a_qr_code():
    assert len(tokens.make_member_token(123, 4567, "Abcdefghijk")) < 70


def test_a_tampered_or_misused_link_reads_as_nothing():
    member = tokens.make_member_token(7, 42, "abc")
    assert tokens.read_member_token(member.replace("42", "43", 1)) is None
    assert tokens.read_invite(member) is None  # a member link is no invitation
    assert tokens.read_feed_token(tokens.make_ask_token(5, "x")) is None
    for junk in (None, "", "nonsense", "a" * 400, "7.42:signature"):
        assert tokens.read_member_token(junk) is None
