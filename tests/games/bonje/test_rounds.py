"""COMPLETE calls, the end of a round, stables won, the next deal, the end of the game."""

from __future__ import annotations

import pytest

from apps.core.protocol import DELAY, IllegalAction
from apps.games.bonje import rules
from apps.games.bonje.state import CALLS, OVER, PAUSE, ROUND_OVER
from tests.games.bonje import (
    BOARS,
    BULLS,
    COWS,
    HENS,
    MARES,
    RAMS,
    ROOSTERS,
    SOWS,
    STALLIONS,
    TRUCKS,
    play,
    position,
    rng,
    run_system,
)

COMPLETE = {"type": "complete"}


def full(offset: int = 0) -> list[list[int]]:
    """Three complete stables: 10 + 8 + 4 = 22 points (offset picks other cards of each name)."""
    return [
        [STALLIONS[offset], MARES[offset]],
        [BULLS[offset], COWS[offset]],
        [ROOSTERS[offset], HENS[offset]],
    ]


def test_complete_is_refused_naming_the_stable_that_is_not_complete_and_why():
    """Ruling: "if not, nothing happens (a toast says which stable is not complete)"."""
    stables = [[[STALLIONS[0], MARES[0]], [BULLS[0]], [HENS[0]]], [[], [], []]]
    state = position(stables, face_up=[SOWS[0], BOARS[0]], stacks=[[1], [2]])
    before = state.to_json()
    with pytest.raises(IllegalAction, match="^Your stable 2 is not complete: it needs a cow.$"):
        play(state, 0, COMPLETE)
    assert state.to_json() == before
    stables[0][1] = [BULLS[0], BULLS[1], COWS[0]]
    with pytest.raises(IllegalAction, match="stable 2 .* brawl: 2 bulls"):
        play(position(stables), 0, COMPLETE)


def test_complete_is_listed_only_when_every_stable_is_complete_but_may_always_be_pressed():
    state = position([full(), [[STALLIONS[1]], [], []]], face_up=[SOWS[0], BOARS[0]])
    assert COMPLETE in rules.legal_actions(state, 0)
    assert COMPLETE not in rules.legal_actions(state, 1)
    assert rules.view(state, 1)["can_call"] is True
    assert rules.view(state, None)["can_call"] is False


@pytest.mark.parametrize("moment", ["between turns", "before the reveal", "holding a card"])
def test_complete_may_be_called_at_any_moment_of_a_round(moment):
    """Ruling: "A player may press COMPLETE at any time; the server checks that moment." """
    if moment == "between turns":
        state = position([full(), [[], [], []]], stacks=[[1], [2]], phase=PAUSE)
    elif moment == "before the reveal":
        state = position([full(), [[], [], []]], face_up=[1, 2], revealed=False)
    else:
        state = position([full(), [[], [], []]], held=[RAMS[0], SOWS[0]])
    state = play(state, 0, COMPLETE)
    assert state.phase == CALLS and state.calls == [0]


def test_a_valid_call_opens_a_300_ms_window_as_a_timed_system_move():
    state = position([full(), full(1)], face_up=[SOWS[0], BOARS[0]], stacks=[[1], [2]])
    state = play(state, 0, COMPLETE)
    assert rules.legal_actions(state, None) == [{"type": "close_calls", "round": 1, DELAY: 300}]
    assert state.log[-1] == {"type": "complete", "seat": 0}


def test_play_stops_while_the_window_is_open():
    state = position([full(), [[], [], []]], face_up=[SOWS[0], BOARS[0]], stacks=[[1], [2]])
    state = play(state, 0, COMPLETE)
    assert rules.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="Ann called COMPLETE"):
        play(state, 1, {"type": "take", "from": 0})


def test_calls_in_the_window_join_and_the_most_valuable_stables_win():
    """ "If several players call at the same time, the winner is the player with the most
    valuable stable." Ruling: "Calls that arrive within 300 ms of the first valid call count
    as simultaneous: among those callers the most valuable stables win." """
    richer = full(1)
    richer[2] = [ROOSTERS[1], HENS[1], HENS[2]]  # one hen more: 23 points against 22
    state = position([full(), richer, [[], [], []]], face_up=[SOWS[0], BOARS[0], RAMS[0]])
    state = play(state, 0, COMPLETE)
    offered = rules.legal_actions(state, None)
    assert rules.legal_actions(state, 1) == [COMPLETE]
    state = play(state, 1, COMPLETE)
    assert rules.legal_actions(state, None) == offered  # a joining call keeps the countdown
    with pytest.raises(IllegalAction, match="already called"):
        play(state, 1, COMPLETE)
    with pytest.raises(IllegalAction, match="stable 1 is not complete"):
        play(state, 2, COMPLETE)
    state = run_system(state)
    assert state.rounds[-1] == {
        "round": 1,
        "winners": [1],
        "values": [22, 23, 0],
        "ended_by": "complete",
        "callers": [0, 1],
    }
    assert state.phase == ROUND_OVER


def test_callers_with_equally_valuable_stables_share_the_round():
    state = position([full(), full(1)], face_up=[SOWS[0], BOARS[0]])
    state = run_system(play(play(state, 1, COMPLETE), 0, COMPLETE))
    assert state.rounds[-1]["winners"] == [1, 0]
    assert state.wins == [1, 1]
    assert [len(row) for row in state.stables] == [4, 4]


def test_the_first_valid_caller_wins_over_richer_players_who_did_not_call():
    """ "The player who calls first and whose stables are all complete wins the round." """
    rich = [[STALLIONS[1], MARES[1], MARES[2], MARES[3]], [], []]
    state = position([full(), rich], face_up=[SOWS[0], BOARS[0]])
    state = run_system(play(state, 0, COMPLETE))
    assert state.rounds[-1]["winners"] == [0]


def test_a_call_after_the_window_closed_is_refused():
    state = run_system(play(position([full(), full(1)], face_up=[SOWS[0], BOARS[0]]), 0, COMPLETE))
    with pytest.raises(IllegalAction, match="round is over"):
        play(state, 1, COMPLETE)


def test_a_player_whose_stable_was_trucked_away_before_the_call_is_too_late():
    """ "A player wins a round only when their stables are complete at the moment they call. If
    another player removes a card from that player's stables with a transport truck before they
    call, the player is too late and does not (yet) win." """
    state = position([[[], [], []], full()], held=[TRUCKS[0], SOWS[0]], stacks=[[1], [2]])
    state = play(
        state,
        0,
        {
            "type": "truck",
            "from_seat": 1,
            "from_stable": 0,
            "animal": "mare",
            "to_seat": None,
            "to_stable": None,
        },
    )
    with pytest.raises(IllegalAction, match="stable 1 is not complete: it needs a mare"):
        play(state, 1, COMPLETE)


def test_when_the_stacks_are_used_up_the_most_valuable_stables_win():
    """ "If, at the end of a round, none of the players has complete stables, the player with
    the most valuable stables wins the round." Ruling: "The round also ends when all stacks are
    turned and played"."""
    state = position([[[STALLIONS[0]], [], []], [[HENS[0]], [], []]], held=[MARES[0], HENS[1]])
    state = play(state, 0, {"type": "place", "stable": 0})
    state = play(state, 1, {"type": "place", "stable": 0})
    assert state.phase == PAUSE
    assert rules.legal_actions(state, None) == [{"type": "count", "round": 1, DELAY: rules.FLIP_MS}]
    state = run_system(state)
    assert state.rounds[-1] == {
        "round": 1,
        "winners": [0],
        "values": [10, 2],
        "ended_by": "stacks",
        "callers": [],
    }


def test_equal_values_share_the_round_when_the_stacks_are_used_up():
    state = position([[[SOWS[0]], [], []], [[RAMS[0]], [], []]], phase=PAUSE)
    state = run_system(state)
    assert state.rounds[-1]["winners"] == [0, 1]
    assert state.wins == [1, 1]


def test_a_call_in_the_pause_after_the_last_turn_still_counts():
    state = position([full(), [[SOWS[0]], [], []]], phase=PAUSE)
    state = run_system(play(state, 0, COMPLETE))
    assert state.rounds[-1]["ended_by"] == "complete"


def test_each_round_winner_gains_a_stable_from_the_box():
    """ "The winner of a round receives an extra stable from the box. If there are several
    winners, each of them receives a stable." """
    state = position([[[SOWS[0]], [], []], [[RAMS[0]], [], []], [[], [], []]], phase=PAUSE)
    box = state.box
    state = run_system(state)
    assert [len(row) for row in state.stables] == [4, 4, 3]
    assert state.box == box - 2
    assert rules.view(state, None)["box"]["stables"] == box - 2


def test_no_stable_is_gained_from_an_empty_box():
    """Ruling: "Each round winner gains a stable (up to 20 in the box)." """
    state = position([[[SOWS[0]], [], []], [[], [], []]], phase=PAUSE)
    state.box = 0
    state = run_system(state)
    assert [len(row) for row in state.stables] == [3, 3]
    assert state.log[-1] == {"type": "box_empty", "seat": 0}


def test_the_next_deal_comes_after_the_result_and_deals_every_card_again():
    """Ruling: "All animals go back into the deck, which is shuffled and dealt again; players
    keep their number of stables." """
    state = rules.setup(["Ann", "Bea", "Cal"], {}, rng(3))
    state = run_system(run_system(state))  # the first flip and the reveal
    state = play(state, 0, {"type": "take", "from": 1})
    state = play(state, 0, rules.legal_actions(state, 0)[0])  # Ann plays her card somewhere
    # Fast forward: the stacks are used up, their cards out of the game.
    state.removed.extend(c for stack in state.stacks for c in stack)
    state.removed.extend(c for c in [*state.face_up, *state.held] if c is not None)
    state.stacks = [[], [], []]
    state.face_up, state.held = [None, None, None], [None, None, None]
    state.phase = PAUSE
    state = run_system(state)  # the count
    assert state.phase == ROUND_OVER
    (offer,) = rules.legal_actions(state, None)
    assert offer == {"type": "next_round", "round": 1, DELAY: rules.RESULT_MS}
    counts = [len(row) for row in state.stables]
    cards = sorted(state.every_card())
    state = run_system(state)
    assert (state.phase, state.round, state.turn) == (PAUSE, 2, 0)
    assert [len(row) for row in state.stables] == counts
    assert all(not s.cards for row in state.stables for s in row)
    assert sorted(c for stack in state.stacks for c in stack) == cards
    assert len({len(stack) for stack in state.stacks}) == 1
    assert rules.legal_actions(state, None)[0]["type"] == "flip"


def test_plays_are_refused_once_the_round_is_over():
    state = run_system(position([[[SOWS[0]], [], []], [[], [], []]], phase=PAUSE))
    with pytest.raises(IllegalAction, match="round is over"):
        play(state, 0, {"type": "take", "from": 0})
    assert all(rules.legal_actions(state, seat) == [] for seat in (0, 1))


def test_the_game_ends_when_a_player_wins_a_round_with_five_stables():
    """ "The player who first wins a round with 5 stables wins the game." """
    five = [*full(), [BOARS[0], SOWS[0]], [RAMS[0], RAMS[1]]]
    state = position([five, [[HENS[3]], [], []]], phase=PAUSE)
    state.wins = [2, 0]
    assert rules.outcome(state) is None
    state = run_system(state)
    assert state.phase == OVER
    assert rules.legal_actions(state, None) == []
    result = rules.outcome(state)
    assert result == {
        "ranking": [[0], [1]],
        "scores": {0: 3, 1: 0},
        "rounds": [
            {
                "round": 1,
                "winners": [0],
                "values": {0: 28, 1: 1},
                "ended_by": "stacks",
                "callers": [],
            }
        ],
        "stables": {0: 5, 1: 3},
        "winners": [0],
        "winner": 0,
    }
    assert rules.view(state, 1)["outcome"] == result


def test_winning_a_round_with_four_stables_does_not_end_the_game():
    four = [*full(), [BOARS[0], SOWS[0]]]
    state = run_system(position([four, [[HENS[3]], [], []]], phase=PAUSE))
    assert state.phase == ROUND_OVER
    assert rules.outcome(state) is None
    assert len(state.stables[0]) == 5


def test_a_shared_final_win_has_every_sharer_among_the_winners_and_no_single_winner():
    five = [[SOWS[0]], [], [], [], []]
    state = position([five, [[SOWS[1]], [], [], [], []], [[HENS[0]], [], []]], phase=PAUSE)
    state = run_system(state)
    result = rules.outcome(state)
    assert result["winners"] == [0, 1] and result["winner"] is None
    assert result["ranking"] == [[0, 1], [2]]


def test_the_short_game_is_one_round():
    """ "It is also possible to play the game in a single round." """
    state = position([[[SOWS[0]], [], []], [[], [], []]], phase=PAUSE, options={"length": "short"})
    state = run_system(state)
    assert state.phase == OVER
    result = rules.outcome(state)
    assert (result["winner"], result["scores"], result["stables"]) == (
        0,
        {0: 1, 1: 0},
        {0: 3, 1: 3},
    )


# --- the bonus variant -----------------------------------------------------------------------


def bonus_round(rows):
    return position(rows, phase=PAUSE, options={"bonus": True})


def test_the_first_player_to_earn_a_fifth_stable_chooses_a_special_stable():
    """ "The first player who earns a 5th stable chooses a special stable (instead of an ordinary
    one)." Ruling: "the two special stables show horses and cows"."""
    state = bonus_round([[[SOWS[0]], [], [], []], [[], [], []]])
    box = state.box
    state = run_system(state)
    assert state.choosing == 0
    assert rules.view(state, None)["choosing_special"] == 0
    assert rules.legal_actions(state, 0) == [
        {"type": "choose_special", "kind": "horse"},
        {"type": "choose_special", "kind": "cow"},
    ]
    assert rules.legal_actions(state, None) == []  # the next deal waits for the choice
    with pytest.raises(IllegalAction, match="Ann chooses"):
        play(state, 1, {"type": "choose_special", "kind": "cow"})
    with pytest.raises(IllegalAction, match="special horse stable or special cow stable"):
        play(state, 0, {"type": "choose_special", "kind": "pig"})
    state = play(state, 0, {"type": "choose_special", "kind": "cow"})
    assert [s.special for s in state.stables[0]] == [None, None, None, None, "cow"]
    assert state.box == box
    assert state.special_box == ["horse"]
    assert rules.legal_actions(state, None)[0]["type"] == "next_round"


def test_the_second_player_to_earn_a_fifth_stable_gets_the_other_special_stable():
    """ "The same applies to the second player, but they automatically receive the other special
    stable." """
    state = bonus_round([[[SOWS[0]], [], [], []], [[], [], []]])
    state.special_box = ["horse"]
    state = run_system(state)
    assert state.choosing is None
    assert state.stables[0][4].special == "horse"
    assert state.special_box == []


def test_players_earning_a_fifth_stable_together_get_the_special_stables_in_call_order():
    rows = [[*full(), [BOARS[0], SOWS[0]]], [*full(1), [BOARS[1], SOWS[1]]], [[], [], []]]
    state = position(rows, face_up=[1, 2, 3], options={"bonus": True})
    state = run_system(play(play(state, 1, COMPLETE), 0, COMPLETE))
    assert state.rounds[-1]["winners"] == [1, 0]
    assert state.choosing == 1 and state.special_queue == [0]
    state = play(state, 1, {"type": "choose_special", "kind": "horse"})
    assert state.stables[1][4].special == "horse"
    assert state.stables[0][4].special == "cow"


def test_without_the_bonus_variant_a_fifth_stable_is_an_ordinary_one():
    state = run_system(position([[[SOWS[0]], [], [], []], [[], [], []]], phase=PAUSE))
    assert state.choosing is None
    assert state.stables[0][4].special is None


def test_a_special_stable_is_named_so_in_a_refused_call():
    rows = [[*full(), [BULLS[1], COWS[1]], [STALLIONS[2], MARES[2]]], [[], [], []]]
    state = position(rows, face_up=[1, 2], specials={(0, 4): "cow"}, options={"bonus": True})
    with pytest.raises(IllegalAction, match="special cow stable is not complete"):
        play(state, 0, COMPLETE)
