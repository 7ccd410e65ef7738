"""Thousands of random legal games of Dschungelparty, checked at every step."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.core.protocol import IllegalAction, without_delay
from apps.games.dschungel import rules
from apps.games.dschungel.areas import Sheet
from apps.games.dschungel.dice import taken_dice
from apps.games.dschungel.play import Play, fresh
from apps.games.dschungel.sheet import (
    BUTTERFLIES,
    COCONUT_REWARDS,
    CRATE_REWARDS,
    CRATES,
    DICE,
    FACES,
    FLOWERS,
    FOUNTAIN_COLUMNS,
    FOUNTAIN_REWARDS,
    FOUNTAIN_ROW_REWARDS,
    GREEN_REWARDS,
    JOKER,
)
from apps.games.dschungel.turn import can_use, dice_marks
from tests.games.dschungel import NAMES

MAX_ACTIONS = 6000  # a game takes a few hundred; anything near this would be a loop

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=1, max_value=4)

# How often a random player picks each kind of action: undo and pass now and then, so games
# also go back and forth, but mostly forward so they end.
WEIGHTS = {"undo": 0.05, "pass": 0.2, "skip_bonus": 0.2, "confirm": 0.25}
TIMEOUT_CHANCE = 0.03

Step = tuple[rules.State, int | None, dict]


def pick(actions: list[dict], chooser: random.Random) -> dict:
    weights = [WEIGHTS.get(a["type"], 1.0) for a in actions]
    return chooser.choices(actions, weights)[0]


def random_game(seed: int, players: int) -> Iterator[Step]:
    """Play one game with random legal actions, all seats interleaved and the countdown
    applied now and then when offered; yields (state, seat, action) before each action, then
    the final state with an empty action."""
    rng = random.Random(seed)  # the dice
    chooser = random.Random(~seed)  # the players' choices, kept apart from the dice
    state = rules.setup(NAMES[:players], {}, rng)
    for _ in range(MAX_ACTIONS):
        if rules.outcome(state) is not None:
            yield state, None, {}
            return
        system = rules.legal_actions(state, None)
        if system and chooser.random() < TIMEOUT_CHANCE:
            seat, action = None, without_delay(system[0])
        else:
            offers = [(s, rules.legal_actions(state, s)) for s in range(players)]
            acting = [(s, actions) for s, actions in offers if actions]
            assert acting, f"nobody can act in phase {state.phase}"
            seat, actions = chooser.choice(acting)
            action = pick(actions, chooser)
        yield state, seat, action
        state = rules.apply(state, seat, action, rng)
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


# --- an independent count, written from the sheet data and the rule text ------------------


def recount(sheet: Sheet) -> int:
    """Rainbow stars: rewards between two marked flowers, above full crates, on marked
    fountain fields, for the two bottom rows, on marked coconuts, plus one per Extra Star
    (12 flowers, 5 crates, the third fountain row, 13 coconuts)."""
    total = 0
    for r, name in enumerate(BUTTERFLIES):
        for gap in range(len(FLOWERS) - 1):
            if sheet.green[r][gap] and sheet.green[r][gap + 1]:
                total += GREEN_REWARDS[name][gap].stars
    full = [c for c in range(len(CRATES)) if all(sheet.purple[c])]
    total += sum(CRATE_REWARDS[c].stars for c in full)
    for c, name in enumerate(FOUNTAIN_COLUMNS):
        for row, reward in enumerate(FOUNTAIN_REWARDS[name]):
            if reward and sheet.blue[c][row]:
                total += reward.stars
    for row, reward in enumerate(FOUNTAIN_ROW_REWARDS):
        if reward and all(column[row] for column in sheet.blue):
            total += reward.stars
    total += sum(r.stars for k, r in enumerate(COCONUT_REWARDS) if r and sheet.pink[k])
    total += sum(sum(row) for row in sheet.green) == 12
    total += len(full) >= 5
    total += all(column[2] for column in sheet.blue)
    total += all(sheet.pink)
    return total


def bonus_circles(sheet: Sheet) -> Counter:
    """Bonus circles a sheet has won, by area (purple counted in bananas)."""
    won: Counter = Counter()

    def add(reward) -> None:
        if reward and reward.bonus:
            won[reward.bonus] += reward.bananas or 1

    for r, name in enumerate(BUTTERFLIES):
        for gap in range(len(FLOWERS) - 1):
            if sheet.green[r][gap] and sheet.green[r][gap + 1]:
                add(GREEN_REWARDS[name][gap])
    for c in range(len(CRATES)):
        if all(sheet.purple[c]):
            add(CRATE_REWARDS[c])
    for c, name in enumerate(FOUNTAIN_COLUMNS):
        for row, reward in enumerate(FOUNTAIN_REWARDS[name]):
            if sheet.blue[c][row]:
                add(reward)
    for k, reward in enumerate(COCONUT_REWARDS):
        if sheet.pink[k]:
            add(reward)
    return won


def assert_in_order(sheet: Sheet) -> None:
    """ "Crosses must be placed in each column from bottom to top"; coconuts "in row order.
    You may not skip a coconut." """
    for column in sheet.blue:
        assert column == sorted(column, reverse=True), column
    assert sheet.pink == sorted(sheet.pink, reverse=True), sheet.pink


def cells(sheet: Sheet) -> list[bool]:
    return [m for grid in (sheet.green, sheet.purple, sheet.blue) for row in grid for m in row] + [
        *sheet.pink
    ]


def assert_only_added(before: Sheet, after: Sheet) -> None:
    """A confirmed turn adds crosses and never removes one."""
    assert all(a or not b for b, a in zip(cells(before), cells(after), strict=True))


def assert_dice_used_by_the_rules(play: Play, base: Sheet) -> None:
    """Each cross's dice, checked against the faces they showed: a flower die (and the row's
    butterfly when it opened the row), n bananas for a bunch of n, one die of the column's
    colour, two matching halves or a joker; no die used beyond what it shows; bonus marks
    only as many as the bonus circles won this turn."""
    face = dict(zip(play.dice, play.faces, strict=True))
    uses: Counter = Counter()
    columns = set()
    open_rows: set[str] = set()
    for mark in play.marks:
        area, dice = mark["area"], mark["dice"]
        uses.update(dice)
        if mark["bonus"]:
            assert dice == []
            continue
        assert area == play.colour
        shown = [face[d] for d in dice]
        if area == "green":
            _, row, bloom = mark["field"].split("-")
            assert shown[-1] in (f"green-flower-{bloom}", JOKER)
            if len(dice) == 2:
                assert row not in open_rows and shown[0] in (f"green-butterfly-{row}", JOKER)
                open_rows.add(row)
            else:
                assert row in open_rows and len(dice) == 1
        elif area == "purple":
            _, crate, index = mark["field"].split("-")
            assert len(set(dice)) == len(dice) == CRATES[int(crate)][int(index)]
            assert all(f in ("purple-banana", JOKER) for f in shown)
        elif area == "blue":
            column = mark["field"].split("-")[1]
            columns.add(column)
            assert len(dice) == 1 and (shown[0] == JOKER or FACES[shown[0]].colour == column)
        else:
            reals = [f for f in shown if f != JOKER]
            assert len(dice) in (1, 2)
            assert (len(dice) == 1 and shown == [JOKER]) or len(set(reals)) <= 1
    assert len(columns) <= 1
    for d, count in uses.items():
        assert count <= (2 if face[d] == JOKER and play.colour == "pink" else 1)
    won = bonus_circles(play.sheet) - bonus_circles(base)
    taken: Counter = Counter()
    for mark in play.marks:
        if mark["bonus"]:
            area = mark["area"]
            if area == "purple":
                _, crate, index = mark["field"].split("-")
                taken[area] += CRATES[int(crate)][int(index)]
            else:
                taken[area] += 1
    assert all(taken[a] <= won[a] for a in taken), (taken, won)


def assert_dice_kept_by_the_rules(before: rules.State, seat: int, action: dict, after) -> None:
    """Blue: "roll again all dice that show an elephant", ruling: "a joker taken with them is
    no elephant die and is not rerolled". When the active player confirms or passes, the five
    dice are each used, gone or left, and only elephants rolled again can be gone."""
    kind = action.get("type")
    if kind == "choose" and action["colour"] == "blue":
        play = after.plays[seat]
        shown = dict(rules.available_dice(before, seat))
        for d, face in zip(play.dice, play.faces, strict=True):
            if shown[d] == JOKER:
                assert face == JOKER and d not in play.rolled
            else:
                assert shown[d] == "blue-elephant" and d in play.rolled
    ends_active = before.phase == "active" and kind in ("confirm", "pass")
    if ends_active and after.phase == "others" and after.turn == before.turn:
        used, gone, left = set(after.used), set(after.gone), set(after.left)
        assert len(used) + len(gone) + len(left) == len(DICE)
        assert used | gone | left == set(range(len(DICE)))
        assert gone <= set(after.elephants)
        for d in left:
            if d not in after.elephants:
                assert after.dice[d] == before.dice[d]


# --- the properties ------------------------------------------------------------------------


@settings(max_examples=1600, deadline=None)
@given(seed=seeds, players=player_counts)
def test_random_games_end_with_stars_as_recounted_and_crosses_made_by_the_rules(seed, players):
    """Every game ends with an Extra Star; stars are the rainbow stars the sheet shows;
    crosses only ever add up, in the order the areas demand, with the dice the rules allow;
    every die is used, gone or left, and a joker taken with the elephants is never rolled."""
    before = None
    for state, seat, action in random_game(seed, players):
        if before is not None and before[1] is not None:
            assert_dice_kept_by_the_rules(*before, state)
        before = (state, seat, action)
        if action.get("type") == "confirm":
            play = state.plays[seat]
            assert_only_added(state.sheets[seat], play.sheet)
            assert_dice_used_by_the_rules(play, state.sheets[seat])
    result = rules.outcome(state)
    assert result["scores"] == {s: recount(sheet) for s, sheet in enumerate(state.sheets)}
    assert result["stars"] == result["scores"]
    assert any(result["extra_stars"].values())
    assert set(result["winners"]) == set(result["ranking"][0])
    assert max(result["scores"].values()) == result["scores"][result["winners"][0]]
    for sheet in state.sheets:
        assert_in_order(sheet)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts)
def test_states_round_trip_through_json_and_apply_never_mutates_its_input(seed, players):
    """Protocol: states "round-trip through JSON"; ``apply`` never changes the state it is
    given, and accepts every action ``legal_actions`` lists. Every cross, bonus mark or skip
    is taken back exactly by ``undo``."""
    for n, (state, _seat, _action) in enumerate(random_game(seed, players)):
        text = json.dumps(state.to_json())
        again = rules.State.from_json(json.loads(text))
        assert again == state and json.dumps(again.to_json()) == text
        if n % 4 == 0:
            for seat in rules.to_act(state):
                for action in rules.legal_actions(state, seat):
                    after = rules.apply(state, seat, action, random.Random(n))
                    if action["type"] in ("mark", "bonus", "skip_bonus"):
                        undone = rules.apply(after, seat, {"type": "undo"}, random.Random(n))
                        assert undone.plays[seat] == state.plays[seat]
            for action in rules.legal_actions(state, None):
                rules.apply(state, None, without_delay(action), random.Random(n))
            assert json.dumps(state.to_json()) == text


@settings(max_examples=150, deadline=None)
@given(seed=seeds, players=player_counts)
def test_replaying_the_recorded_actions_from_the_same_seed_gives_the_same_game(seed, players):
    """Design: "any game replays from its seed and its action list"."""
    record = [(seat, action) for _state, seat, action in random_game(seed, players)]
    final_seat, final_action = record.pop()
    assert (final_seat, final_action) == (None, {})
    played = list(random_game(seed, players))[-1][0]
    rng = random.Random(seed)
    state = rules.setup(NAMES[:players], {}, rng)
    for seat, action in record:
        state = rules.apply(state, seat, action, rng)
    assert state == played and rules.outcome(state) == rules.outcome(played)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts)
def test_views_are_json_and_offer_each_seat_exactly_its_legal_actions(seed, players):
    for n, (state, _seat, _action) in enumerate(random_game(seed, players)):
        if n % 3:
            continue
        screen = rules.view(state, None)
        json.dumps(screen)
        assert screen["legal_actions"] == [] and screen["to_act"] == rules.to_act(state)
        for seat in range(players):
            seen = rules.view(state, seat)
            assert seen["legal_actions"] == rules.legal_actions(state, seat)
        if state.phase == "others":
            assert screen["countdown"]["turn"] == state.turn


@settings(max_examples=80, deadline=None)
@given(seed=seeds, players=st.integers(min_value=2, max_value=4))
def test_actions_not_offered_to_a_seat_are_refused_with_a_sentence(seed, players):
    """ "A move is stale only when it is no longer legal": anything else a seat sends, such as
    another seat's move or one from an earlier state, is refused and changes nothing."""
    chooser = random.Random(seed)
    earlier: list[dict] = []
    for state, _seat, _action in random_game(seed, players):
        text = json.dumps(state.to_json())
        seat = chooser.randrange(players)
        legal = rules.legal_actions(state, seat)
        candidates = [a for s in range(players) for a in rules.legal_actions(state, s)]
        candidates += chooser.sample(earlier, min(4, len(earlier)))
        for action in candidates:
            if action not in legal:
                with pytest.raises(IllegalAction) as refused:
                    rules.apply(state, seat, action, random.Random(0))
                assert str(refused.value)[:1].isupper() and str(refused.value).endswith(".")
        earlier.extend(candidates[:3])
        earlier = earlier[-40:]
        assert json.dumps(state.to_json()) == text


def left_for_others(play: Play) -> list[str]:
    """The taken dice a play leaves the others, as faces: unused, and not rolled again."""
    return sorted(
        f
        for p, (d, f) in enumerate(zip(play.dice, play.faces, strict=True))
        if not play.spent[p] and d not in play.rolled
    )


@settings(max_examples=150, deadline=None)
@given(seed=seeds, players=player_counts)
def test_a_choice_of_dice_is_offered_to_the_active_player_only_where_it_changes_what_is_left(
    seed, players
):
    """ "You can decide which dice you want to take": a cross naming its dice makes the same
    cross as a tap on the field, with dice the rules allow, and leaves the others different
    dice than the tap and than every other choice offered for that field."""
    for state, _seat, _action in random_game(seed, players):
        for seat in rules.to_act(state):
            play = state.plays[seat]
            legal = rules.legal_actions(state, seat)
            chosen = [a for a in legal if "dice" in a]
            if seat != state.active or play is None:
                assert chosen == []
                continue
            lefts: dict[str, list] = {}
            for action in [a for a in legal if a["type"] == "mark"]:
                plain = {k: v for k, v in action.items() if k != "dice"}
                assert plain in legal
                after = rules.apply(state, seat, action, random.Random(0)).plays[seat]
                assert (
                    after.sheet
                    == rules.apply(state, seat, plain, random.Random(0)).plays[seat].sheet
                )
                assert after.marks[-1]["dice"] == action.get("dice", after.marks[-1]["dice"])
                assert_dice_used_by_the_rules(after, state.sheets[seat])
                left = left_for_others(after)
                assert left not in lefts.setdefault(action["field"], []), action
                lefts[action["field"]].append(left)


faces_rolled = st.tuples(*(st.sampled_from(die) for die in DICE))
sheets = st.builds(
    lambda green, purple, blue, pink: Sheet(green, purple, blue, pink),
    st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=3, max_size=3),
    st.lists(st.lists(st.booleans(), min_size=2, max_size=2), min_size=6, max_size=6),
    st.lists(st.integers(0, 3).map(lambda h: [r < h for r in range(3)]), min_size=4, max_size=4),
    st.integers(0, 13).map(lambda k: [i < k for i in range(13)]),
)


@settings(max_examples=400, deadline=None)
@given(dice=faces_rolled, sheet=sheets)
def test_a_colour_is_offered_exactly_when_its_dice_allow_a_cross(dice, sheet):
    """The colours offered are those whose dice (with the jokers) give at least one cross;
    blue while a fountain column has room, as its elephants are rolled again."""
    available = list(enumerate(dice))
    for colour in ("green", "purple", "pink"):
        taken, faces = taken_dice(colour, available)
        crosses = dice_marks(fresh(colour, taken, faces, False, sheet)) if taken else []
        assert can_use(colour, available, sheet) == bool(crosses)
    blue = any(f == JOKER or FACES[f].colour == "blue" for f in dice)
    room = not all(all(column) for column in sheet.blue)
    assert can_use("blue", available, sheet) == (blue and room)
