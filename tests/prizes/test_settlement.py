"""The end-of-night awards ceremony, who takes which prize, case by case, as the rulings'
'Prizes' part reads (how the ceremony runs: test_settlement_ceremony.py)."""

from __future__ import annotations

import random

import pytest

from apps.core.protocol import DELAY, IllegalAction, without_delay
from apps.prizes.rules import settlement
from apps.prizes.rules.categories import (
    CONSOLATION,
    HOST_CHOICE,
    MOST_BUNKOS,
    MOST_LOSSES,
    MOST_WINS,
    MOST_WIPEOUTS,
    TRAVELLING_BUNKO,
    TRAVELLING_WIPEOUT,
)
from apps.prizes.rules.settlement import HOST
from tests.prizes.ceremonies import (
    ANN,
    BEA,
    CAL,
    DEE,
    EVE,
    Dice,
    award,
    host_next,
    keep,
    roll,
    start,
    tally,
    two_prize_night,
    winners,
)

# --- most -------------------------------------------------------------------------------------


def test_a_most_category_goes_to_the_player_with_the_best_count() -> None:
    state = start({"Ann": tally(wins=5), "Bea": tally(wins=4), "Cal": tally()}, (MOST_WINS,))
    state = host_next(state)
    assert winners(state) == {"Most wins": "Ann"}
    assert award(state, "Most wins") == {
        "category": "Most wins",
        "kind": MOST_WINS,
        "prize": "",
        "player": "Ann",
        "runner_up_of": None,
        "rolloff": [],
        "dice": [],
    }
    assert settlement.outcome(state) is not None


def test_a_tie_for_a_prize_is_broken_by_a_roll_off_where_the_tied_highest_roll_again() -> None:
    tallies = {
        "Ann": tally(bunkos=2),
        "Bea": tally(bunkos=2),
        "Cal": tally(bunkos=2),
        "Dee": tally(bunkos=1),
    }
    state = host_next(start(tallies, (MOST_BUNKOS,)))
    assert state.phase == "rolloff"
    rng = Dice(5, 5, 2, 3, 6)
    assert settlement.legal_actions(state, DEE) == []
    state = roll(state, ANN, rng)
    assert settlement.legal_actions(state, ANN) == []  # one die a round
    assert settlement.legal_actions(state, BEA) == [{"type": "roll"}]
    state = roll(roll(state, BEA, rng), CAL, rng)
    # Ann and Bea both rolled 5: only they roll a second round.
    assert state.task is not None and state.task["contenders"] == [ANN, BEA]
    assert settlement.legal_actions(state, CAL) == []
    state = roll(roll(state, ANN, rng), BEA, rng)
    assert award(state, "Most Bunkos") == {
        "category": "Most Bunkos",
        "kind": MOST_BUNKOS,
        "prize": "",
        "player": "Bea",
        "runner_up_of": None,
        "rolloff": [["Ann", "Bea", "Cal"], ["Ann", "Bea"]],
        "dice": [{"Ann": 5, "Bea": 5, "Cal": 2}, {"Ann": 3, "Bea": 6}],
    }


def test_nobody_qualifies_for_a_most_category_when_the_best_count_is_zero() -> None:
    state = start({"Ann": tally(wins=1), "Bea": tally()}, (MOST_WIPEOUTS, MOST_WINS))
    state = host_next(state)
    assert state.unawarded == [0] and state.phase == "ready"
    assert settlement.view(state, None)["categories"][0]["status"] == "unawarded"
    state = host_next(state)
    assert settlement.outcome(state)["unawarded"] == ["Most wipeouts"]


# --- nobody takes two prizes ------------------------------------------------------------------


def test_a_player_who_would_win_a_second_prize_chooses_which_to_keep() -> None:
    state = two_prize_night()
    assert settlement.legal_actions(state, ANN) == [
        {"type": "keep", "category": 0},
        {"type": "keep", "category": 1},
    ]
    assert settlement.legal_actions(state, BEA) == []
    assert settlement.legal_actions(state, HOST) == []
    choice = settlement.view(state, None)["choice"]
    assert choice["player"] == "Ann" and choice["timeout_ms"] == 30_000
    assert (choice["held"]["name"], choice["new"]["name"]) == ("Most wins", "Most Bunkos")


def test_keeping_the_new_prize_passes_the_first_one_to_its_runner_up() -> None:
    state = keep(two_prize_night(), ANN, 1)
    assert winners(state) == {"Most wins": "Bea", "Most Bunkos": "Ann"}
    assert award(state, "Most wins")["runner_up_of"] == "Ann"
    assert award(state, "Most Bunkos")["runner_up_of"] is None
    result = settlement.outcome(state)
    # The awards keep the host's order: a prize passed on keeps its place.
    assert [a["category"] for a in result["awards"]] == ["Most wins", "Most Bunkos"]


def test_keeping_the_first_prize_passes_the_new_one_to_its_runner_up() -> None:
    state = keep(two_prize_night(), ANN, 0)
    assert winners(state) == {"Most wins": "Ann", "Most Bunkos": "Cal"}
    assert award(state, "Most Bunkos")["runner_up_of"] == "Ann"


def test_a_choice_not_made_in_time_keeps_the_first_prize() -> None:
    state = two_prize_night()
    timers = settlement.legal_actions(state, None)
    assert timers == [
        {"type": "keep_first", "player": ANN, "category": 0, "stage": state.stage, DELAY: 30_000}
    ]
    state = settlement.apply(state, None, without_delay(timers[0]), random.Random(0))
    assert winners(state) == {"Most wins": "Ann", "Most Bunkos": "Cal"}
    assert state.history[-4]["event"] == "kept" and state.history[-4]["by"] == "timeout"


def test_the_choice_timeout_is_a_room_option() -> None:
    tallies = {"Ann": tally(wins=5, bunkos=3), "Bea": tally(wins=4, bunkos=1)}
    state = start(tallies, (MOST_WINS, MOST_BUNKOS), choice_ms=45_000)
    state = host_next(host_next(state))
    assert settlement.legal_actions(state, None)[0][DELAY] == 45_000


def test_the_runner_up_of_a_most_category_is_the_next_best_count_and_a_tie_there_rolls_off():
    tallies = {
        "Ann": tally(wins=5, bunkos=3),
        "Bea": tally(wins=1, bunkos=2),
        "Cal": tally(wins=1, bunkos=2),
        "Dee": tally(bunkos=1),
    }
    state = host_next(host_next(start(tallies, (MOST_WINS, MOST_BUNKOS))))
    state = keep(state, ANN, 0)
    assert state.task is not None and state.task["contenders"] == [BEA, CAL]
    assert settlement.legal_actions(state, ANN) == []  # Ann holds a prize: not in it
    rng = Dice(4, 1)
    state = roll(roll(state, BEA, rng), CAL, rng)
    assert award(state, "Most Bunkos") == {
        "category": "Most Bunkos",
        "kind": MOST_BUNKOS,
        "prize": "",
        "player": "Bea",
        "runner_up_of": "Ann",
        "rolloff": [["Bea", "Cal"]],
        "dice": [{"Bea": 4, "Cal": 1}],
    }


def test_a_prize_given_up_is_not_awarded_when_no_runner_up_has_any_count() -> None:
    tallies = {"Ann": tally(wins=5, bunkos=3), "Bea": tally(wins=1), "Cal": tally()}
    state = keep(host_next(host_next(start(tallies, (MOST_WINS, MOST_BUNKOS)))), ANN, 0)
    assert winners(state) == {"Most wins": "Ann"}
    assert settlement.outcome(state)["unawarded"] == ["Most Bunkos"]


def test_a_roll_off_winner_who_already_holds_a_prize_chooses_too() -> None:
    tallies = {
        "Ann": tally(wins=5, bunkos=2),
        "Bea": tally(wins=1, bunkos=2),
        "Cal": tally(bunkos=1),
    }
    state = host_next(host_next(start(tallies, (MOST_WINS, MOST_BUNKOS))))
    assert state.task is not None and state.task["contenders"] == [ANN, BEA]
    rng = Dice(6, 2)
    state = roll(roll(state, ANN, rng), BEA, rng)
    assert state.phase == "choice"
    state = keep(state, ANN, 0)
    assert winners(state) == {"Most wins": "Ann", "Most Bunkos": "Bea"}
    assert award(state, "Most Bunkos")["runner_up_of"] == "Ann"


def test_one_player_best_at_everything_takes_one_prize_and_the_rest_go_to_runners_up() -> None:
    tallies = {
        "Ann": tally(wins=6, losses=6, bunkos=4, wipeouts=3),
        "Bea": tally(wins=5, losses=1, bunkos=1, wipeouts=0),
        "Cal": tally(wins=1, losses=5, bunkos=0, wipeouts=2),
        "Dee": tally(wins=2, losses=2, bunkos=3, wipeouts=1),
    }
    kinds = (MOST_WINS, MOST_LOSSES, MOST_BUNKOS, MOST_WIPEOUTS)
    state = start(tallies, kinds)
    for _ in kinds:
        state = host_next(state)
        if state.phase == "choice":
            state = keep(state, ANN, 0)
    assert winners(state) == {"Most wins": "Ann", "Most losses": "Cal", "Most Bunkos": "Dee"}
    # Most wipeouts: Ann kept her first; Cal and Dee hold prizes; Bea has none: not awarded.
    assert settlement.outcome(state)["unawarded"] == ["Most wipeouts"]


# --- travelling prizes ------------------------------------------------------------------------


def test_a_travelling_prize_goes_to_its_holder_at_the_end() -> None:
    tallies = {"Ann": tally(bunkos=1), "Bea": tally(bunkos=2), "Cal": tally()}
    travelling = {"bunko": ["Ann", "Bea"], "wipeout": []}
    state = host_next(start(tallies, (TRAVELLING_BUNKO,), travelling=travelling))
    assert winners(state) == {"Travelling Bunko": "Ann"}  # the latest Bunko, not the most


def test_the_runner_up_of_a_travelling_prize_is_the_holder_before() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(wins=1), "Cal": tally()}
    travelling = {"bunko": ["Ann", "Ann", "Bea", "Cal"], "wipeout": []}
    state = start(tallies, (MOST_WINS, TRAVELLING_BUNKO), travelling=travelling)
    state = keep(host_next(host_next(state)), ANN, 0)
    assert winners(state) == {"Most wins": "Ann", "Travelling Bunko": "Bea"}
    assert award(state, "Travelling Bunko")["runner_up_of"] == "Ann"


def test_a_holder_before_who_already_holds_a_prize_is_passed_over() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(losses=2), "Cal": tally()}
    travelling = {"bunko": ["Ann", "Bea", "Cal", "Bea"], "wipeout": []}
    kinds = (MOST_WINS, MOST_LOSSES, TRAVELLING_BUNKO)
    state = host_next(host_next(start(tallies, kinds, travelling=travelling)))
    state = keep(host_next(state), ANN, 0)
    assert winners(state)["Travelling Bunko"] == "Cal"


def test_a_travelling_prize_nobody_held_is_not_awarded() -> None:
    tallies = {"Ann": tally(), "Bea": tally()}
    travelling = {"bunko": ["Ann"], "wipeout": []}
    state = start(tallies, (TRAVELLING_WIPEOUT, TRAVELLING_BUNKO), travelling=travelling)
    state = host_next(host_next(state))
    result = settlement.outcome(state)
    assert result["unawarded"] == ["Travelling wipeout"]
    assert [a["player"] for a in result["awards"]] == ["Ann"]


# --- ghosts -----------------------------------------------------------------------------------


def test_ghosts_win_nothing_but_their_tallies_are_kept() -> None:
    tallies = {
        "Ann": tally(wins=3, bunkos=1),
        "Ghost 1": tally(wins=9, bunkos=4),
        "Bea": tally(wins=2),
        "Spare": tally(wipeouts=5),
        "Cal": tally(wipeouts=1),
    }
    travelling = {"bunko": ["Ghost 1", "Bea", "Ann"], "wipeout": ["Spare"]}
    kinds = (MOST_WINS, MOST_WIPEOUTS, TRAVELLING_BUNKO, TRAVELLING_WIPEOUT, CONSOLATION)
    state = start(tallies, kinds, travelling=travelling, ghosts=["Spare"])
    state = host_next(state)
    screen = settlement.view(state, None)
    assert [c["player"] for c in screen["current"]["candidates"]] == ["Ann", "Bea", "Cal"]
    assert screen["ghosts"] == [1, 3]
    for _ in range(4):
        state = host_next(state)
    assert winners(state) == {
        "Most wins": "Ann",
        "Most wipeouts": "Cal",
        # A ghost's Bunko leaves the prize with the holder before it.
        "Travelling Bunko": "Bea",
    }
    assert settlement.outcome(state)["unawarded"] == ["Travelling wipeout", "Consolation prize"]
    assert state.tallies["Ghost 1"] == tally(wins=9, bunkos=4)
    assert settlement.outcome(state)["scores"][1] == 0


def test_the_host_cannot_pick_a_ghost() -> None:
    tallies = {"Ann": tally(), "Ghost 1": tally()}
    state = host_next(start(tallies, (HOST_CHOICE,)))
    assert settlement.legal_actions(state, HOST) == [{"type": "pick", "player": ANN}]
    with pytest.raises(IllegalAction, match="Ghosts win no prizes"):
        settlement.apply(state, HOST, {"type": "pick", "player": 1}, random.Random(0))


# --- the consolation --------------------------------------------------------------------------


def test_the_consolation_is_rolled_for_only_by_the_players_without_a_prize() -> None:
    tallies = {
        "Ann": tally(wins=3),
        "Bea": tally(losses=3),
        "Cal": tally(),
        "Dee": tally(),
        "Eve": tally(),
    }
    state = host_next(host_next(host_next(start(tallies, (MOST_WINS, MOST_LOSSES, CONSOLATION)))))
    assert state.task is not None and state.task["contenders"] == [CAL, DEE, EVE]
    with pytest.raises(IllegalAction, match="Only Cal, Dee and Eve roll for Consolation prize"):
        roll(state, ANN, random.Random(0))
    rng = Dice(3, 6, 1)
    for seat in (CAL, DEE, EVE):
        state = roll(state, seat, rng)
    assert winners(state)["Consolation prize"] == "Dee"
    assert award(state, "Consolation prize")["dice"] == [{"Cal": 3, "Dee": 6, "Eve": 1}]


def test_the_only_player_without_a_prize_takes_the_consolation_without_rolling() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally()}
    state = host_next(host_next(start(tallies, (MOST_WINS, CONSOLATION))))
    assert winners(state) == {"Most wins": "Ann", "Consolation prize": "Bea"}
    assert award(state, "Consolation prize")["rolloff"] == []


def test_a_consolation_given_up_is_rolled_for_again_among_those_without_a_prize() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(wins=1), "Cal": tally()}
    state = host_next(start(tallies, (CONSOLATION, MOST_WINS)))
    rng = Dice(6, 1, 2, 5, 4)
    for seat in (ANN, BEA, CAL):
        state = roll(state, seat, rng)
    assert winners(state) == {"Consolation prize": "Ann"}
    state = keep(host_next(state), ANN, 1)
    assert state.task is not None and state.task["contenders"] == [BEA, CAL]
    state = roll(roll(state, BEA, rng), CAL, rng)
    assert winners(state) == {"Consolation prize": "Bea", "Most wins": "Ann"}
    assert award(state, "Consolation prize")["runner_up_of"] == "Ann"


# --- the host's choice ------------------------------------------------------------------------


def test_the_host_picks_the_winner_of_an_added_category_and_picks_again_when_given_up() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(), "Cal": tally()}
    kinds = [{"kind": MOST_WINS, "name": "Champion"}, {"kind": HOST_CHOICE, "name": "Best hat"}]
    state = settlement.setup(
        list(tallies), {"categories": kinds, "tallies": tallies}, random.Random(0)
    )
    state = host_next(host_next(state))
    assert state.phase == "pick"
    assert settlement.legal_actions(state, HOST) == [
        {"type": "pick", "player": seat} for seat in (ANN, BEA, CAL)
    ]
    state = settlement.apply(state, HOST, {"type": "pick", "player": ANN}, random.Random(0))
    state = keep(state, ANN, 0)
    assert state.phase == "pick"
    assert settlement.view(state, HOST)["pick"]["runner_up_of"] == "Ann"
    with pytest.raises(IllegalAction, match="Ann already holds a prize"):
        settlement.apply(state, HOST, {"type": "pick", "player": ANN}, random.Random(0))
    state = settlement.apply(state, HOST, {"type": "pick", "player": CAL}, random.Random(0))
    assert winners(state) == {"Champion": "Ann", "Best hat": "Cal"}
    assert award(state, "Best hat")["runner_up_of"] == "Ann"
