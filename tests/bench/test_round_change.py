"""A round change at a big night: the host starts the next round and every phone of the night
draws its whole page again at once (400 phones at 100 tables), on the server thread that
every tap waits for. How long do those seconds last?

Two identical nights (same players, same dice) go through the same round changes in one
process. One night's phones are drawn the way a page load or a reconnect draws a phone: each
reads the night's row and the party games that keep seats for its player on its own. The
other's are drawn as the sockets draw them for a night-wide change: one read of each for all
the night's phones (``render.render_phone`` with the change's version). The nights take
turns at going first. Each night's caches are as its own last round left them.

    BENCH_ROUND_TABLES=100 BENCH_ROUND_CHANGES=4 make bench

Prints the seconds each way takes for the whole night and per phone, and the queries per
phone; asserts the shared way reads less and is not slower.
"""

from __future__ import annotations

import os
import random
import statistics
import time

import pytest
from django.db import connection

from apps.core.tokens import SeatClaim
from apps.games import services as games
from apps.parties import render, services
from apps.parties.models import Party, Player
from tests.bench.late_night import ROUND_MS, age_night, play_round

TABLES = int(os.environ.get("BENCH_ROUND_TABLES", "100"))
CHANGES = int(os.environ.get("BENCH_ROUND_CHANGES", "4"))

pytestmark = pytest.mark.django_db


def big_night(host, name: str) -> str:
    party = services.create_party(host, name=name, rounds=None)
    Player.objects.bulk_create(
        Player(party=party, name=f"Player {i:03d}", claimed=True) for i in range(TABLES * 4)
    )
    age_night(party.code, 2)
    # A party game going on beside the tables, keeping a seat for one of the night's players.
    games.create_room("mbogo", {}, "Player 000", prelisted=["Player 001"], party_code=party.code)
    return party.code


def claims_of(code: str) -> list[SeatClaim]:
    party = Party.objects.get(code=code)
    players = party.players.filter(kind=Player.Kind.PLAYER).order_by("name")
    return [SeatClaim(party.scope, p.pk, p.nonce) for p in players]


class Queries:
    """Counts the queries run while it is open."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def draw_every_phone(code: str, claims: list[SeatClaim], shared: bool) -> tuple[list[float], int]:
    """Each phone's page drawn as the round changed: seconds per phone, and the queries."""
    version = Party.objects.get(code=code).version if shared else None
    seconds = []
    counter = Queries()
    with connection.execute_wrapper(counter):
        for claim in claims:
            started = time.perf_counter()
            html, phone = render.render_phone(code, claim, version, shared)
            seconds.append(time.perf_counter() - started)
            assert phone.player is not None and "Table" in html
    return seconds, counter.count


def test_a_round_change_draws_every_phone_of_a_big_night_sharing_the_nights_reads(
    django_user_model,
):
    host = django_user_model.objects.create_user("benchhost", password="x")
    nights = {"alone": big_night(host, "Alone"), "shared": big_night(host, "Shared")}
    claims = {way: claims_of(code) for way, code in nights.items()}
    # Round 2's pages, drawn once as the night would have them before the change.
    for way, code in nights.items():
        draw_every_phone(code, claims[way], way == "shared")
    totals: dict[str, list[float]] = {"alone": [], "shared": []}
    per_phone: dict[str, list[float]] = {"alone": [], "shared": []}
    queries: dict[str, list[int]] = {"alone": [], "shared": []}
    rng = random.Random(11)
    for change in range(CHANGES):
        order = ["alone", "shared"] if change % 2 == 0 else ["shared", "alone"]
        seed = rng.random()  # the same dice at both nights
        for way in order:
            code = nights[way]
            play_round(code, int(time.time() * 1000) - ROUND_MS, random.Random(seed))
            services.start_next_round(code)
            seconds, count = draw_every_phone(code, claims[way], way == "shared")
            totals[way].append(sum(seconds))
            per_phone[way].extend(seconds)
            queries[way].append(count)

    phones = len(claims["alone"])
    print(f"\nround change at {TABLES} tables ({phones} phones), {CHANGES} round changes each way")
    heads = ("whole night s", "per phone ms", "p99 ms", "queries/phone")
    print(f"{'way':<8} {heads[0]:>14} {heads[1]:>13} {heads[2]:>8} {heads[3]:>14}")
    for way in ("alone", "shared"):
        ms = sorted(s * 1000 for s in per_phone[way])
        print(
            f"{way:<8} {statistics.median(totals[way]):>14.2f} {statistics.median(ms):>13.2f}"
            f" {ms[int(len(ms) * 0.99) - 1]:>8.2f} {statistics.mean(queries[way]) / phones:>14.2f}"
        )
    gain = 1 - statistics.median(totals["shared"]) / statistics.median(totals["alone"])
    print(f"shared against alone: {gain:+.0%} of the round change's time saved")
    assert statistics.mean(queries["shared"]) < statistics.mean(queries["alone"])
    assert statistics.median(totals["shared"]) <= statistics.median(totals["alone"]) * 1.05
