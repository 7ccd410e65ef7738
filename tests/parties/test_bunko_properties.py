"""Property tests: random nights and thousands of random single-table games."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from apps.parties.rules import IllegalAction, apply, legal_actions, setup
from apps.parties.rules.attendance import is_ghost
from apps.parties.rules.dice import shared_throw
from apps.parties.rules.rotation import partners, rotate, seat_first_round
from apps.parties.rules.simulator import simulate_night
from apps.parties.rules.state import share_logs, tail_after, with_tail
from apps.parties.rules.table import DONE, TableState, correct, recount
from apps.parties.rules.table import PLAYER_MOVES as MOVES

from .test_bunko_rotation import play_results, rotation_problems

TARGET = 21


def running_scores(table: dict) -> list[list[int]]:
    """The team scores after each roll, recounted from the log (wipeouts reset)."""
    scores = [0, 0]
    seats = table["seats"]
    after = []
    for entry in table["rolls"]:
        team = seats.index(entry["player"]) % 2
        if entry["kind"] == "wipeout":
            scores[team] = 0
        else:
            scores[team] += entry["points"]
        for grabber in entry.get("scramble", []):
            scores[seats.index(grabber) % 2] += 1
        after.append(list(scores))
    return after


def check_table(table: dict, stop_step: int, head: bool) -> None:
    seats = table["seats"]
    after = running_scores(table)
    assert after[-1] == table["score"], "the score is the recount of the rolls"
    assert [e["step"] for e in table["rolls"]] == list(range(1, len(after) + 1))
    for entry in table["rolls"]:
        assert len(entry.get("scramble", [])) in (0, 3)
    w = seats.index(table["winners"][0]) % 2
    assert table["winners"] == [seats[w], seats[w + 2]], "winners are partners across"
    assert table["losers"] == [seats[1 - w], seats[3 - w]]
    assert table["score"][w] > table["score"][1 - w]
    if head:
        reached = next(i for i, s in enumerate(after, start=1) if max(s) >= TARGET)
        assert stop_step == reached, "the head table stops on the roll that reaches 21"
    # After STOP a table plays on only while tied, and ends on the first roll that breaks it.
    ends = next(i for i, s in enumerate(after, start=1) if i >= stop_step and s[0] != s[1])
    assert len(after) == ends


def check_night(night: dict, rounds: int, attendance: str) -> None:
    players = night["players"]
    ghosts = set(night["ghosts"])
    for number, rnd in enumerate(night["rounds"], start=1):
        seated = [n for t in rnd["tables"] for n in t["seats"]]
        resting = rnd.get("sitouts", [])
        assert len(seated) == len(set(seated)), "every player sits once a round"
        assert sorted(seated + resting) == sorted(players + list(ghosts))
        assert len(resting) == (len(players) % 4 if attendance == "sitouts" else 0)
        for index, table in enumerate(rnd["tables"]):
            check_table(table, rnd["stop_step"], head=index == 0)
            seats = table["seats"]
            for team in ({seats[0], seats[2]}, {seats[1], seats[3]}):
                assert not team <= ghosts, "two ghosts are never partners"
        if number > 1:
            before = night["rounds"][number - 2]["tables"]
            old = [t["seats"] for t in before]
            new = [t["seats"] for t in rnd["tables"]]
            assert rotation_problems(old, before, new) == []
    for tally in night["tallies"].values():
        assert tally["wins"] + tally["losses"] == tally["played"]
        assert tally["played"] + tally["sat_out"] == rounds
    assert night["winner"] not in ghosts and not is_ghost(night["loser"])


nights = dict(
    rounds=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    attendance=st.sampled_from(["ghosts", "sitouts"]),
    classic=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(players=st.integers(8, 400), **nights)
@example(players=400, rounds=4, seed=1, attendance="ghosts", classic=False)
@example(players=399, rounds=3, seed=2, attendance="sitouts", classic=False)
@example(players=397, rounds=3, seed=3, attendance="ghosts", classic=True)
def test_random_nights_of_8_to_400_keep_every_rule(players, rounds, seed, attendance, classic):
    night = simulate_night(players, rounds, seed, attendance=attendance, classic=classic)
    check_night(night, rounds, attendance)


@settings(max_examples=150, deadline=None)
@given(players=st.integers(4, 40), **nights)
def test_random_small_nights_keep_every_rule(players, rounds, seed, attendance, classic):
    night = simulate_night(players, rounds + 2, seed, attendance=attendance, classic=classic)
    check_night(night, rounds + 2, attendance)


def random_move(state: TableState, rng: random.Random) -> tuple[int | None, dict]:
    """A random seat doing a random legal thing (STOP only now and then)."""
    while True:
        seat = rng.choice([None, 0, 1, 2, 3])
        if seat is None:  # STOP comes from the night, now and then
            if not state.stopped and rng.random() < 0.03:
                return None, {"type": "stop"}
            continue
        actions = legal_actions(state, seat)
        if actions and actions[0]["type"] == "roll" and rng.random() < 0.7:
            return seat, dict(actions[0])  # mostly real rolls, sometimes tapped reports
        if actions:
            return seat, dict(rng.choice(actions))


def table_options(rng: random.Random) -> dict:
    return {
        "head": rng.random() < 0.5,
        "classic": rng.random() < 0.3,
        "round": rng.randint(1, 9),
        "ghosts": rng.sample(range(4), rng.randint(0, 2)),
    }


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_thousands_of_random_legal_games_score_what_their_rolls_recount(seed) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        state = setup(["Ann", "Bea", "Cal", "Dee"], table_options(rng), rng)
        for _ in range(2000):
            if state.phase == DONE:
                break
            seat, action = random_move(state, rng)
            state = apply(state, seat, action, rng)
            assert state.scores == recount(state)
        assert state.version >= len(state.rolloffs) + len(state.rolls)


JUNK = [
    {"type": "roll"},
    {"type": "roll", "dice": [6, 6, 6]},
    {"type": "roll", "dice": [1, 9, 2]},
    {"type": "grab"},
    {"type": "rolloff"},
    {"type": "scramble", "split": [2, 1]},
    {"type": "scramble", "split": [2, 2]},
    {"type": "report", "kind": "sixes", "count": 4},
    {"type": "report", "kind": "wipeout"},
    {"type": "stop"},
    {"type": "nap"},
]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_apply_never_changes_its_input_and_states_round_trip_through_json(seed) -> None:
    rng = random.Random(seed)
    state = setup(["Ann", "Bea", "Cal", "Dee"], table_options(rng), rng)
    for _ in range(150):
        if state.phase == DONE:
            break
        before = copy.deepcopy(state)
        seat, action = (
            random_move(state, rng)
            if rng.random() < 0.7
            else (rng.choice([None, 0, 1, 2, 3, 7]), rng.choice(JUNK))
        )
        try:
            new = apply(state, seat, action, rng)
        except IllegalAction:
            new = state
        assert state == before, "apply never mutates its input"
        assert TableState.from_json(json.loads(json.dumps(new.to_json()))) == new
        state = new


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_versions_decoded_one_after_another_share_their_rolls_and_read_as_decoded_alone(seed):
    """Another server process decodes each version a table's change carries and holds the
    rolls it shares with the version before once, and each throw of dice as one list
    (share_logs): every version still reads
    exactly as decoded on its own, corrections and undos included, and a later move made
    on a sharing version changes none of them."""
    rng = random.Random(seed)
    state = setup(["Ann", "Bea", "Cal", "Dee"], table_options(rng), rng)
    kept: list[TableState] = []
    for _ in range(120):
        if state.phase == DONE:
            break
        correctable = [i for i, e in enumerate(state.entries) if e["action"]["type"] in MOVES]
        try:
            if correctable and rng.random() < 0.1:  # the host deletes an early entry
                state = correct(state, None, {"index": rng.choice(correctable)})
            else:
                state = apply(state, *random_move(state, rng), rng)
        except IllegalAction:
            continue
        wire = json.dumps(state.to_json())
        alone = TableState.from_json(json.loads(wire))
        shared = TableState.from_json(json.loads(wire))
        share_logs(shared, kept[-1] if kept else None)
        if kept:
            for name in ("rolls", "entries", "rolloffs"):
                old, new = getattr(kept[-1], name), getattr(shared, name)
                if new[: len(old)] == old:  # a move added to the log: held once
                    assert all(a is b for a, b in zip(new, old, strict=False))
        assert shared == alone
        throws = [r["dice"] for r in shared.rolls if r["dice"] is not None]
        throws += [e["action"]["dice"] for e in shared.entries if e["action"]["type"] == "roll"]
        assert all(dice is shared_throw(dice) for dice in throws), "one list a throw"
        kept.append(shared)
    frozen = copy.deepcopy(kept)
    if kept and kept[-1].phase != DONE:
        apply(kept[-1], *random_move(kept[-1], rng), rng)
    assert kept == frozen


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_version_made_from_the_tail_of_a_change_reads_as_the_whole_state(seed):
    """A change carries what a move changes of the version before (tail_after), and another
    server process makes the new version from its own copy of that one (with_tail): every
    version it makes so reads exactly as the whole state, corrections included, and a
    player's move sends the entries it adds, and the roll a grab rewrites, alone."""
    rng = random.Random(seed)
    state = setup(["Ann", "Bea", "Cal", "Dee"], table_options(rng), rng)
    theirs = TableState.from_json(json.loads(json.dumps(state.to_json())))
    for _ in range(120):
        if state.phase == DONE:
            break
        correctable = [i for i, e in enumerate(state.entries) if e["action"]["type"] in MOVES]
        corrected = bool(correctable) and rng.random() < 0.1
        try:
            if corrected:  # the host deletes an early entry
                new = correct(state, None, {"index": rng.choice(correctable)})
            else:
                new = apply(state, *random_move(state, rng), rng)
        except IllegalAction:
            continue
        tail = tail_after(new.to_json(), state)
        if not corrected:
            rewritten = len(state.rolls) - tail["kept"]["rolls"]
            assert rewritten <= 1 and tail["kept"]["entries"] == len(state.entries)
        theirs = with_tail(theirs, json.loads(json.dumps(tail)))
        assert theirs == new
        state = new


@settings(max_examples=100, deadline=None)
@given(count=st.integers(1, 150), seed=st.integers(0, 2**32))
def test_rotation_keeps_every_rule_for_any_number_of_tables_and_swaps(count, seed) -> None:
    """Ruling: winners up one, losers stay, head losers to the bottom, head winners stay
    partners, partners split everywhere else, whatever the stayers choose; and no swap
    makes two ghosts partners."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(4 * count)]
    tables = seat_first_round(players, rng)
    # Up to two ghosts (a night has at most three, and two at most at one table), never
    # partners in the first round: whatever the stayers choose, they never become partners.
    ghosts = {n for t in tables for n in t[:2]} if count > 1 else set()
    ghosts = set(rng.sample(sorted(ghosts), min(len(ghosts), rng.randint(0, 2))))
    for _ in range(3):
        results = play_results(tables, rng)
        new = rotate(tables, results, choose=lambda _n, _t: rng.random() < 0.5, ghosts=ghosts)
        assert rotation_problems(tables, results, new) == []
        assert sorted(n for t in new for n in t) == sorted(players)
        for table in new:
            assert not any(team <= ghosts for team in partners(table)), "two ghosts partnered"
        tables = new
