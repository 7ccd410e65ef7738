"""The night simulator and its command."""

from __future__ import annotations

import io
import json
from pathlib import Path

from apps.parties.rules.attendance import is_ghost
from apps.parties.rules.simulator import (
    format_night,
    player_names,
    simulate_night,
    travelling_holders,
)
from apps.prizes.rules.categories import DEFAULT

ROOT = Path(__file__).resolve().parents[2]


def test_a_simulated_night_has_the_documented_shape() -> None:
    night = simulate_night(12, 6, seed=7)
    assert night["seed"] == 7 and len(night["players"]) == 12
    assert len(night["rounds"]) == 6
    for number, rnd in enumerate(night["rounds"], start=1):
        assert rnd["number"] == number and isinstance(rnd["stop_step"], int)
        for index, table in enumerate(rnd["tables"], start=1):
            assert table["table"] == index and len(table["seats"]) == 4
            assert table["first_roller"] in table["seats"]
            assert set(table["winners"]) | set(table["losers"]) == set(table["seats"])
            for entry in table["rolls"]:
                assert {"step", "player", "dice", "points", "kind"} <= set(entry)
                assert entry["kind"] in ("score", "miss", "bunko", "wipeout")
                if entry["kind"] == "bunko":
                    assert len(entry["scramble"]) == 3
    assert set(night["tallies"]) == set(night["players"])
    assert {"wins", "losses", "bunkos", "wipeouts"} <= set(night["tallies"]["Ann"])
    assert night["winner"] in night["players"] and night["loser"] in night["players"]
    for rolloff in night["rolloffs"]:
        assert rolloff["for"] in ("winner", "loser") and len(rolloff["rolls"]) >= 2
    json.dumps(night)


def test_the_same_seed_gives_the_same_night() -> None:
    assert simulate_night(16, 3, seed=42) == simulate_night(16, 3, seed=42)
    assert simulate_night(16, 3, seed=42) != simulate_night(16, 3, seed=43)


def test_given_names_are_used_and_generated_names_are_distinct() -> None:
    assert len(set(player_names(400))) == 400
    night = simulate_night(["W", "X", "Y", "Z"], 1, seed=1)
    assert night["rounds"][0]["tables"][0]["seats"] != []
    assert set(night["players"]) == {"W", "X", "Y", "Z"}


def test_the_readable_night_shows_rounds_stop_tallies_winner_and_roll_offs() -> None:
    night = simulate_night(12, 2, seed=7)
    text = format_night(night)
    assert "Round 1: STOP at step" in text and "Round 2" in text
    assert "head table:" in text and "first roller" in text
    assert f"Overall winner: {night['winner']}" in text
    assert f"Overall loser: {night['loser']}" in text
    for rolloff in night["rolloffs"]:
        assert f"Roll-off for {rolloff['for']}" in text


def test_a_classic_night_simulates_too() -> None:
    night = simulate_night(8, 7, seed=2, classic=True)
    assert night["classic"] is True
    for rnd in night["rounds"]:
        assert all(e["kind"] != "wipeout" for t in rnd["tables"] for e in t["rolls"])


def test_the_simulate_night_command_prints_the_night_as_json_or_text() -> None:
    from django.core.management import call_command

    out = io.StringIO()
    call_command("simulate_night", players=12, rounds=2, seed=7, json=True, stdout=out)
    assert json.loads(out.getvalue()) == simulate_night(12, 2, seed=7)
    out = io.StringIO()
    call_command("simulate_night", players=10, rounds=2, seed=7, sitouts=True, stdout=out)
    assert "sitting out" in out.getvalue()


PRIZE_KEYS = {"category", "player", "runner_up_of", "rolloff"}


def check_prizes(night: dict) -> None:
    """The shape of a night's prizes, and nobody with two."""
    defaults = [category.name for category in DEFAULT]
    prizes = night["prizes"]
    named = [prize["category"] for prize in prizes]
    assert named == [name for name in defaults if name in named]  # the host's order
    assert len({prize["player"] for prize in prizes}) == len(prizes)
    for prize in prizes:
        assert set(prize) == PRIZE_KEYS
        assert prize["player"] in night["players"] and not is_ghost(prize["player"])
        assert prize["runner_up_of"] in (None, *night["players"])
        assert prize["runner_up_of"] != prize["player"]
        for contenders in prize["rolloff"]:
            assert len(contenders) >= 2 and set(contenders) <= set(night["players"])


def test_a_simulated_night_settles_the_seven_default_prizes() -> None:
    for seed in range(6):
        for attendance in ("ghosts", "sitouts"):
            night = simulate_night(13, 5, seed=seed, attendance=attendance)
            check_prizes(night)
            first = night["prizes"][0]
            # The overall winner's roll-off decides the same tie for the most wins.
            assert first["category"] == "Most wins"
            if first["runner_up_of"] is None:
                assert first["player"] == night["winner"]


def test_the_travelling_prizes_follow_the_order_the_rolls_were_made() -> None:
    def roll(step: int, player: str, kind: str) -> dict:
        return {"step": step, "player": player, "kind": kind}

    rounds = [
        {"tables": [{"table": 1, "rolls": [roll(3, "Ann", "bunko"), roll(9, "Bea", "wipeout")]}]},
        {
            "tables": [
                {"table": 1, "rolls": [roll(4, "Cal", "bunko"), roll(5, "Dee", "miss")]},
                {"table": 2, "rolls": [roll(2, "Eve", "bunko"), roll(4, "Fay", "bunko")]},
            ]
        },
    ]
    assert travelling_holders(rounds) == {
        "bunko": ["Fay", "Cal", "Eve", "Ann"],
        "wipeout": ["Bea"],
    }
    night = simulate_night(12, 4, seed=3)
    holders = travelling_holders(night["rounds"])
    prizes = {prize["category"]: prize for prize in night["prizes"]}
    bunko = prizes.get("Travelling Bunko")
    if bunko and bunko["runner_up_of"] is None:
        assert bunko["player"] == next(n for n in holders["bunko"] if not is_ghost(n))


def test_simulate_night_json_with_default_prizes_lists_them_and_none_lists_none() -> None:
    from django.core.management import call_command

    out = io.StringIO()
    call_command("simulate_night", players=12, rounds=3, seed=5, json=True, stdout=out)
    night = json.loads(out.getvalue())
    assert night == simulate_night(12, 3, seed=5, prizes="default")
    assert night["prizes"] and {p["category"] for p in night["prizes"]} >= {"Most wins"}
    check_prizes(night)
    out = io.StringIO()
    call_command("simulate_night", seed=5, json=True, prizes="none", stdout=out)
    assert json.loads(out.getvalue())["prizes"] == []
    out = io.StringIO()
    call_command("simulate_night", players=12, rounds=3, seed=5, stdout=out)
    assert f"  Most wins: {night['prizes'][0]['player']}" in out.getvalue()
