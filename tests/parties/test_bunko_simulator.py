"""The night simulator and its command."""

from __future__ import annotations

import io
import json
from pathlib import Path

from apps.parties.rules.simulator import format_night, player_names, simulate_night

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
