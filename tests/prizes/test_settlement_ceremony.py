"""The end-of-night awards ceremony as it runs: real dice and the roll timer, refusals, the
host's order and the outcome, replay and views, the whole ceremony at once, setup."""

from __future__ import annotations

import json
import random
import re

import pytest

from apps.core.protocol import DELAY, IllegalAction, without_delay
from apps.prizes.rules import settlement
from apps.prizes.rules.categories import (
    CONSOLATION,
    DEFAULT,
    HOST_CHOICE,
    MOST_BUNKOS,
    MOST_LOSSES,
    MOST_WINS,
)
from apps.prizes.rules.settlement import HOST, State
from tests.prizes.ceremonies import (
    ANN,
    BEA,
    CAL,
    DEE,
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

# --- physical dice and the roll timer ---------------------------------------------------------


def test_with_real_dice_the_host_enters_each_tied_players_die() -> None:
    tallies = {"Ann": tally(bunkos=2), "Bea": tally(bunkos=2), "Cal": tally(bunkos=2)}
    state = host_next(start(tallies, (MOST_BUNKOS,), dice="physical"))
    assert settlement.legal_actions(state, ANN) == []
    assert settlement.legal_actions(state, None) == []  # the host is there: no timer
    assert {"type": "dice", "dice": {"2": 6}} in settlement.legal_actions(state, HOST)
    with pytest.raises(IllegalAction, match="real dice: the host enters them"):
        roll(state, ANN, random.Random(0))
    state = settlement.apply(state, HOST, {"type": "dice", "dice": {"0": 4}}, None)
    assert settlement.view(state, None)["rolloff"]["contenders"][0]["die"] == 4
    with pytest.raises(IllegalAction, match="Ann has a die for this round already"):
        settlement.apply(state, HOST, {"type": "dice", "dice": {"0": 5}}, None)
    state = settlement.apply(state, HOST, {"type": "dice", "dice": {1: 4, "2": 2}}, None)
    assert state.task is not None and state.task["contenders"] == [ANN, BEA]
    state = settlement.apply(state, HOST, {"type": "dice", "dice": {"0": 1, "1": 3}}, None)
    assert award(state, "Most Bunkos")["dice"] == [
        {"Ann": 4, "Bea": 4, "Cal": 2},
        {"Ann": 1, "Bea": 3},
    ]


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ({"3": 4}, "Enter dice only for the players in the roll-off"),
        ({"0": 7}, "Each die shows a number from 1 to 6"),
        ({"0": True}, "Each die shows a number from 1 to 6"),
        ({}, "Enter a die for a player in the roll-off"),
        ([4, 4], "Enter a die for a player in the roll-off"),
        ({"x": 4}, "Enter dice only for the players in the roll-off"),
    ],
)
def test_dice_the_host_enters_wrongly_are_refused_and_change_nothing(dice, message) -> None:
    tallies = {"Ann": tally(bunkos=2), "Bea": tally(bunkos=2), "Cal": tally(), "Dee": tally()}
    state = host_next(start(tallies, (MOST_BUNKOS,), dice="physical"))
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction, match=message):
        settlement.apply(state, HOST, {"type": "dice", "dice": dice}, None)
    assert json.dumps(state.to_json()) == before


def test_the_app_rolls_for_a_tied_player_who_has_not_rolled_in_time() -> None:
    tallies = {"Ann": tally(wins=2), "Bea": tally(wins=2), "Cal": tally(wins=2)}
    state = host_next(start(tallies, (MOST_WINS,)))
    rng = Dice(6, 2, 3)
    state = roll(state, ANN, rng)
    timers = settlement.legal_actions(state, None)
    assert timers == [{"type": "roll_for", "stage": state.stage, DELAY: 20_000}]
    state = settlement.apply(state, None, without_delay(timers[0]), rng)
    assert award(state, "Most wins")["dice"] == [{"Ann": 6, "Bea": 2, "Cal": 3}]


def test_the_roll_timer_restarts_with_each_round_and_can_be_switched_off() -> None:
    tallies = {"Ann": tally(wins=2), "Bea": tally(wins=2)}
    state = host_next(start(tallies, (MOST_WINS,), roll_ms=5_000))
    first = settlement.legal_actions(state, None)
    assert first[0][DELAY] == 5_000
    rng = Dice(4, 4)
    state = roll(roll(state, ANN, rng), BEA, rng)
    assert settlement.legal_actions(state, None) != first  # a new round, a new countdown
    with pytest.raises(IllegalAction, match="belongs to a step that is over"):
        settlement.apply(state, None, without_delay(first[0]), rng)
    off = host_next(start(tallies, (MOST_WINS,), roll_ms=0))
    assert settlement.legal_actions(off, None) == []


# --- refusals ---------------------------------------------------------------------------------


def in_a_roll_off() -> State:
    tallies = {"Ann": tally(bunkos=2), "Bea": tally(bunkos=2), "Cal": tally()}
    return host_next(start(tallies, (MOST_BUNKOS,)))


def at_a_pick() -> State:
    state = start({"Ann": tally(), "Bea": tally()}, (HOST_CHOICE,))
    return settlement.apply(state, HOST, {"type": "next"}, random.Random(0))


def all_settled() -> State:
    return host_next(start({"Ann": tally(wins=1)}, (MOST_WINS,)))


def ready() -> State:
    return start({"Ann": tally(wins=1), "Bea": tally()}, (MOST_WINS,))


REFUSALS = [
    (ready, ANN, {"type": "next"}, "Only the host moves the awards on"),
    (ready, None, {"type": "next"}, "Only the host moves the awards on"),
    (ready, HOST, {"type": "dance"}, "not something you can do at the awards"),
    (ready, HOST, "next", "not something you can do at the awards"),
    (ready, 7, {"type": "next"}, "That seat is not at the awards"),
    (ready, ANN, {"type": "roll"}, "There is no roll-off under way"),
    (ready, ANN, {"type": "keep", "category": 0}, "There is no prize to choose now"),
    (ready, HOST, {"type": "pick", "player": ANN}, "There is no prize to give by choice now"),
    (ready, None, {"type": "keep_first", "player": 0, "category": 0, "stage": 0}, "is over"),
    (two_prize_night, HOST, {"type": "next"}, "First Ann chooses which prize to keep"),
    (two_prize_night, BEA, {"type": "keep", "category": 1}, "Ann chooses which prize to keep"),
    (two_prize_night, ANN, {"type": "keep", "category": 5}, "Keep Most wins or Most Bunkos"),
    (two_prize_night, ANN, {"type": "keep", "category": True}, "Keep Most wins or Most"),
    (two_prize_night, ANN, {"type": "keep_first", "player": 0, "category": 0}, "timer does"),
    (in_a_roll_off, HOST, {"type": "next"}, "First the roll-off for Most Bunkos"),
    (in_a_roll_off, HOST, {"type": "dice", "dice": {"0": 3}}, "Tonight the phones roll"),
    (in_a_roll_off, BEA, {"type": "dice", "dice": {"0": 3}}, "The host enters the roll-off"),
    (in_a_roll_off, CAL, {"type": "roll"}, "Only Ann and Bea roll for Most Bunkos"),
    (in_a_roll_off, HOST, {"type": "roll"}, "Only Ann and Bea roll for Most Bunkos"),
    (at_a_pick, HOST, {"type": "next"}, "First choose who wins The host's choice"),
    (at_a_pick, ANN, {"type": "pick", "player": ANN}, "The host chooses who wins"),
    (at_a_pick, HOST, {"type": "pick", "player": 9}, "Choose one of the players offered"),
    (at_a_pick, HOST, {"type": "pick", "player": "Ann"}, "Choose one of the players offered"),
    (all_settled, HOST, {"type": "next"}, "Every prize has been settled"),
]


@pytest.mark.parametrize(("make", "seat", "action", "message"), REFUSALS)
def test_a_move_that_is_not_allowed_is_refused_with_a_sentence_and_changes_nothing(
    make, seat, action, message
) -> None:
    state = make()
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction, match=re.escape(message)) as refusal:
        settlement.apply(state, seat, action, random.Random(0))
    assert str(refusal.value).endswith(".")
    assert json.dumps(state.to_json()) == before


def test_a_player_who_rolled_waits_for_the_others() -> None:
    state = roll(in_a_roll_off(), ANN, Dice(3))
    with pytest.raises(IllegalAction, match="You have rolled: waiting for Bea."):
        roll(state, ANN, Dice(3))


# --- the host's order and the outcome ---------------------------------------------------------


def test_prizes_are_settled_in_the_hosts_order_with_the_hosts_names_and_prizes() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(wins=1)}
    kinds = [
        {"kind": CONSOLATION, "name": "Lucky dip", "prize": "chocolates"},
        {"kind": MOST_WINS, "name": "Champion", "prize": "a candle"},
    ]
    state = settlement.setup(["Ann", "Bea"], {"categories": kinds, "tallies": tallies}, None)
    assert settlement.view(state, HOST)["next"]["name"] == "Lucky dip"
    state = host_next(state, Dice(2, 5))
    state = roll(roll(state, ANN, Dice(2)), BEA, Dice(5))
    assert winners(state) == {"Lucky dip": "Bea"}
    assert settlement.view(state, HOST)["next"]["name"] == "Champion"
    state = host_next(state)
    result = settlement.outcome(state)
    assert [(a["category"], a["prize"], a["player"]) for a in result["awards"]] == [
        ("Lucky dip", "chocolates", "Bea"),
        ("Champion", "a candle", "Ann"),
    ]


def test_the_outcome_ranks_prize_winners_in_settlement_order_then_everyone_else() -> None:
    tallies = {"Ann": tally(losses=2), "Bea": tally(wins=2), "Cal": tally(), "Dee": tally()}
    state = host_next(host_next(start(tallies, (MOST_WINS, MOST_LOSSES))))
    result = settlement.outcome(state)
    assert result["ranking"] == [[BEA], [ANN], [CAL, DEE]]
    assert result["scores"] == {ANN: 1, BEA: 1, CAL: 0, DEE: 0}
    assert result["unawarded"] == []


def test_the_outcome_is_none_until_every_category_is_settled() -> None:
    state = two_prize_night()
    assert settlement.outcome(state) is None
    assert settlement.outcome(keep(state, ANN, 0)) is not None
    nothing = settlement.setup(["Ann"], {"categories": []}, None)
    assert settlement.outcome(nothing) == {
        "ranking": [[0]],
        "scores": {0: 0},
        "awards": [],
        "unawarded": [],
    }


# --- state, replay and views ------------------------------------------------------------------


def test_a_state_survives_a_trip_through_json_at_every_step() -> None:
    tallies = {"Ann": tally(wins=2, bunkos=1), "Bea": tally(wins=2), "Cal": tally()}
    state = start(tallies, (MOST_WINS, MOST_BUNKOS, CONSOLATION))
    rng = Dice(6, 2)
    steps = [
        (HOST, {"type": "next"}),
        (ANN, {"type": "roll"}),
        (BEA, {"type": "roll"}),
        (HOST, {"type": "next"}),
        (ANN, {"type": "keep", "category": 1}),
        (HOST, {"type": "next"}),
    ]
    for seat, action in steps:
        text = json.dumps(state.to_json())
        again = State.from_json(json.loads(text))
        assert again == state and json.dumps(again.to_json()) == text
        state = settlement.apply(again, seat, action, rng)
    assert winners(state) == {"Most wins": "Bea", "Most Bunkos": "Ann", "Consolation prize": "Cal"}


def test_the_ceremony_replays_from_its_action_log_to_the_same_state() -> None:
    tallies = {
        "Ann": tally(wins=3, losses=1, bunkos=2, wipeouts=1),
        "Bea": tally(wins=3, losses=2, bunkos=2, wipeouts=1),
        "Cal": tally(wins=1, losses=3, bunkos=0, wipeouts=1),
        "Dee": tally(wins=1, losses=3, bunkos=1, wipeouts=0),
    }
    travelling = {"bunko": ["Bea", "Ann"], "wipeout": ["Cal", "Ann"]}
    options = {"categories": [c.to_json() for c in DEFAULT], "tallies": tallies}
    options["travelling"] = travelling
    rng, chooser = random.Random(11), random.Random(12)
    state = settlement.setup(list(tallies), options, rng)
    log = []
    while settlement.outcome(state) is None:
        offered = {
            s: settlement.legal_actions(state, s) for s in (HOST, None, *range(len(tallies)))
        }
        seat, actions = chooser.choice([(s, a) for s, a in offered.items() if a])
        action = without_delay(chooser.choice(actions))
        log.append((seat, action))
        state = settlement.apply(state, seat, action, rng)
    rng = random.Random(11)
    again = settlement.setup(list(tallies), options, rng)
    for seat, action in log:
        again = settlement.apply(again, seat, action, rng)
    assert again == state and settlement.outcome(again) == settlement.outcome(state)


def test_the_big_screen_sees_every_step_of_a_roll_off_and_a_choice() -> None:
    tallies = {"Ann": tally(wins=5, bunkos=2), "Bea": tally(wins=1, bunkos=2), "Cal": tally()}
    state = host_next(host_next(start(tallies, (MOST_WINS, MOST_BUNKOS))))
    screen = settlement.view(state, None)
    assert set(screen) == {
        "players",
        "ghosts",
        "you",
        "host",
        "phase",
        "dice_mode",
        "categories",
        "next",
        "current",
        "rolloff",
        "choice",
        "pick",
        "awards",
        "unawarded",
        "history",
        "timers",
        "legal_actions",
        "outcome",
    }
    assert screen["phase"] == "rolloff" and screen["legal_actions"] == []
    assert screen["current"]["name"] == "Most Bunkos"
    assert screen["current"]["candidates"] == [
        {"seat": ANN, "player": "Ann", "count": 2, "holds": "Most wins"},
        {"seat": BEA, "player": "Bea", "count": 2, "holds": None},
        {"seat": CAL, "player": "Cal", "count": 0, "holds": None},
    ]
    assert [c["status"] for c in screen["categories"]] == ["awarded", "settling"]
    state = roll(state, BEA, Dice(2))
    rolloff = settlement.view(state, None)["rolloff"]
    assert rolloff["round"] == 1 and rolloff["rounds"] == []
    assert [(c["player"], c["die"]) for c in rolloff["contenders"]] == [("Ann", None), ("Bea", 2)]
    state = roll(state, ANN, Dice(6))
    phone = settlement.view(state, ANN)
    assert phone["choice"]["held"]["name"] == "Most wins" and phone["you"] == ANN
    assert phone["legal_actions"] == settlement.legal_actions(state, ANN)
    assert [e["event"] for e in phone["history"]][-3:] == ["rolloff", "won", "choice"]
    assert phone["history"][-3]["dice"] == {"Ann": 6, "Bea": 2}
    host = settlement.view(state, HOST)
    assert host["host"] is True and host["legal_actions"] == []
    json.dumps(host)


# --- the whole ceremony at once ---------------------------------------------------------------


def test_settling_automatically_plays_the_whole_ceremony_and_keeps_first_prizes() -> None:
    tallies = {
        "Ann": tally(wins=6, losses=6, bunkos=4, wipeouts=3),
        "Bea": tally(wins=5, losses=1, bunkos=1, wipeouts=0),
        "Cal": tally(wins=1, losses=5, bunkos=0, wipeouts=2),
        "Dee": tally(wins=2, losses=2, bunkos=3, wipeouts=1),
        "Eve": tally(wins=2, losses=2, bunkos=1, wipeouts=1),
    }
    options = {"tallies": tallies, "travelling": {"bunko": ["Ann", "Dee", "Bea"]}}
    options["dice"] = "physical"  # the app rolls all the same
    result = settlement.settle_automatically(list(tallies), options, random.Random(3))
    got = {a["category"]: a["player"] for a in result["awards"]}
    assert got["Most wins"] == "Ann" and got["Travelling Bunko"] == "Bea"
    assert len(set(got.values())) == len(got)
    assert settlement.settle_automatically(list(tallies), options, random.Random(3)) == result


def test_settling_automatically_draws_the_hosts_choice_by_lot_or_asks() -> None:
    players = ["Ann", "Bea", "Cal"]
    options = {"categories": [{"kind": HOST_CHOICE, "name": "Best hat"}]}
    drawn = settlement.settle_automatically(players, options, random.Random(1))
    assert drawn["awards"][0]["player"] in players
    asked = settlement.settle_automatically(
        players, options, random.Random(1), pick=lambda _state, choices: choices[-1]
    )
    assert asked["awards"][0]["player"] == "Cal"


# --- a tie the night already rolled off -------------------------------------------------------


def test_a_tie_the_night_already_rolled_off_is_decided_by_the_same_dice() -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(wins=3), "Cal": tally(wins=1)}
    rolloffs = {MOST_WINS: [{"Ann": 3, "Bea": 3}, {"Bea": 5, "Ann": 2}]}
    state = host_next(start(tallies, (MOST_WINS,), rolloffs=rolloffs))
    assert award(state, "Most wins") == {
        "category": "Most wins",
        "kind": MOST_WINS,
        "prize": "",
        "player": "Bea",
        "runner_up_of": None,
        "rolloff": [["Ann", "Bea"], ["Ann", "Bea"]],
        "dice": [{"Ann": 3, "Bea": 3}, {"Ann": 2, "Bea": 5}],
    }


@pytest.mark.parametrize(
    ("rolloffs", "message"),
    [
        ({MOST_WINS: [{"Ann": 3, "Cal": 2}]}, "not among the players tied for it"),
        ({MOST_WINS: [{"Ann": 3, "Bea": 3}]}, "not among the players tied for it"),
        ({MOST_WINS: [{"Ann": 3, "Zed": 2}]}, "names someone not here"),
        ({MOST_WINS: [{"Ann": 9, "Bea": 2}]}, "Each die shows a number from 1 to 6"),
        ({MOST_LOSSES: [{"Ann": 3, "Bea": 2}]}, "not among the players tied for it"),
        ({CONSOLATION: [{"Ann": 3, "Bea": 2}]}, "Only a 'most' category"),
    ],
)
def test_a_roll_off_that_does_not_settle_the_tie_is_refused(rolloffs, message) -> None:
    tallies = {"Ann": tally(wins=3), "Bea": tally(wins=3), "Cal": tally(wins=1, losses=1)}
    with pytest.raises(IllegalAction, match=message):
        start(tallies, (MOST_WINS, MOST_LOSSES), rolloffs=rolloffs)


# --- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (["Ann", "Ann"], {}, "Every player needs a different name"),
        (["Ann"], {"categories": [{"kind": "best_dressed"}]}, "one of the known kinds"),
        (["Ann"], {"categories": [{"kind": MOST_WINS}] * 2}, "Most wins is listed twice"),
        (["Ann"], {"categories": "most wins"}, "The prize categories are a list"),
        (["Ann"], {"tallies": {"Ann": {"wins": -1}}}, "Ann's tallies are whole numbers"),
        (["Ann"], {"dice": "loaded"}, "Roll-off dice: choose one of the offered settings"),
        (["Ann"], {"choice_ms": 10}, "at least 5000"),
    ],
)
def test_setup_refuses_what_does_not_make_a_ceremony(players, options, message) -> None:
    with pytest.raises(IllegalAction, match=message):
        settlement.setup(players, options, None)


def test_without_categories_the_ceremony_has_the_seven_defaults() -> None:
    state = settlement.setup(["Ann"], None, None)
    assert [c["name"] for c in state.categories] == [c.name for c in DEFAULT]
    assert state.options == {"dice": "virtual", "choice_ms": 30_000, "roll_ms": 20_000}
