"""Thousands of random legal games of Bonje in de Stal, checked at every step: moves from
every seat and the system interleaved at random, as the server's commit order may have them."""

from __future__ import annotations

import contextlib
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.core.protocol import IllegalAction
from apps.games.bonje import rules
from apps.games.bonje.cards import FEMALE_OF, MALE_OF, NAME_OF, NUMBER, deck_for
from apps.games.bonje.state import CALLS, RACE, BonjeState
from tests.games.bonje import NAMES, random_game

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=4)
short_options = st.fixed_dictionaries(
    {"length": st.just("short"), "bonus": st.booleans(), "reveal_ms": st.sampled_from([0, 1200])}
)
any_options = st.fixed_dictionaries(
    {"length": st.sampled_from(["short", "full"]), "bonus": st.booleans()}
)

# --- an independent reading of the rule text, for the recounts -------------------------------

POINTS = {"stallion": 4, "mare": 4, "bull": 3, "cow": 3, "boar": 2, "sow": 2, "ram": 2}
POINTS |= {"ewe": 2, "rooster": 1, "hen": 1, "elephant": 0}
KIND_OF = {name: kind for kind, name in MALE_OF.items()} | {
    name: kind for kind, name in FEMALE_OF.items()
}
MALES = set(MALE_OF.values())


def recount(names: list[str], special: str | None) -> int:
    """ "Brawl in the stable: no points ... Per couple (extra): 2 points extra (1 male and
    1 female of the same kind in 1 stable without a brawl)"; a special stable counts only the
    animals of its kind."""
    if special is not None:
        names = [n for n in names if KIND_OF.get(n) == special]
    males = [n for n in names if n in MALES]
    if len(males) > 1:
        return 0
    points = sum(POINTS[n] for n in names)
    if males and any(KIND_OF.get(n) == KIND_OF[males[0]] and n not in MALES for n in names):
        points += 2
    return points


def recount_values(state: BonjeState) -> list[int]:
    return [
        sum(recount([NAME_OF[c] for c in s.cards], s.special) for s in row) for row in state.stables
    ]


def complete_by_the_text(state: BonjeState, seat: int) -> bool:
    """ "A complete stable contains 1 male animal and at least 1 female animal of the same
    kind"; never with an elephant; a special stable only with its own kind."""
    for stable in state.stables[seat]:
        names = [NAME_OF[c] for c in stable.cards]
        kinds = {KIND_OF.get(n) for n in names}
        if len(kinds) != 1 or None in kinds:
            return False
        if stable.special is not None and kinds != {stable.special}:
            return False
        if sum(1 for n in names if n in MALES) != 1 or len(names) < 2:
            return False
    return True


def check_stables(state: BonjeState) -> None:
    """ "Only animals of 1 kind may be in a stable"; an elephant fills its stable alone."""
    for row in state.stables:
        for stable in row:
            names = [NAME_OF[c] for c in stable.cards]
            if "elephant" in names:
                assert names == ["elephant"]
            else:
                assert len({KIND_OF[n] for n in names}) <= 1
                assert all(n in KIND_OF for n in names)


HELPERS = {  # what could give a card with no target one: an independent reading
    "animal": {"mad_cow", "mad_stallion", "truck"},
    "elephant": {"mad_cow", "mad_stallion", "truck"},
    "mad_cow": {"truck", "bull", "cow"},
    "mad_stallion": {"truck", "stallion", "mare"},
    "truck": set(KIND_OF) | {"elephant"},
}
PLAYS = {"placed", "elephant", "mad", "truck", "removed"}


def check_cards_with_no_target(state: BonjeState) -> None:
    """ "If one or more players want to wait with playing in order to let others go first":
    a card with no target yet is kept, with WAIT its one move, only while a card still to be
    played (face up, held without WAIT, or waiting ahead of it) could make it one."""
    if state.phase != RACE:
        return
    for seat, card in enumerate(state.held):
        if card is None or state.waiting[seat]:
            continue
        legal = [a for a in rules.legal_actions(state, seat) if a["type"] != "complete"]
        if legal != [{"type": "wait"}]:
            continue
        name = NAME_OF[card]
        helpers = HELPERS["animal" if name in KIND_OF else name]
        later = [NAME_OF[c] for c in state.face_up if c is not None] + [
            NAME_OF[c]
            for other, c in enumerate(state.held)
            if other != seat and c is not None and not state.waiting[other]
        ]

        def place(s: int) -> tuple[int, int]:  # ruling: "lowest first ... by take order"
            return NUMBER[state.held[s]] or 0, state.take_order.index(s)

        waiting_ahead = [
            NAME_OF[c]
            for other, c in enumerate(state.held)
            if other != seat
            and c is not None
            and state.waiting[other]
            and place(other) < place(seat)
        ]
        assert set(later + waiting_ahead) & helpers, (name, later, waiting_ahead)


def check_every_taken_card_was_played_or_removed_visibly(state: BonjeState) -> None:
    """Ruling: removed "automatically and visibly": when a turn is over, the log has a play
    or a removal for every card taken in it, and "waited" only on a card that waited."""
    if state.phase != "pause" or state.turn == 0:
        return
    turn: list[dict] = []
    for entry in reversed(state.log):
        if entry["type"] == "flip":
            break
        turn.append(entry)
    if len(turn) == len(state.log):
        return  # the log kept no longer reaches back to the flip
    waited = {e["seat"] for e in turn if e["type"] == "wait"}
    for taker, came_from in enumerate(state.took_from):
        if came_from is None:
            continue
        done = [e for e in turn if e["type"] in PLAYS and e.get("seat") == taker]
        assert len(done) == 1, (taker, turn)
        if done[0].get("waited"):
            assert done[0]["type"] == "removed" and taker in waited


# --- the properties ----------------------------------------------------------------------------


def play_and_check(seed: int, players: int, options: dict) -> BonjeState:
    deck = sorted(deck_for(players))
    rounds_seen = 0
    for state, seat, action in random_game(seed, players, options):
        assert sorted(state.every_card()) == deck
        check_stables(state)
        check_cards_with_no_target(state)
        check_every_taken_card_was_played_or_removed_visibly(state)
        assert len({len(stack) for stack in state.stacks}) == 1  # all stacks run out together
        if len(state.rounds) > rounds_seen:
            rounds_seen = len(state.rounds)
            assert state.rounds[-1]["values"] == recount_values(state)
            winners = state.rounds[-1]["winners"]
            among = state.rounds[-1]["callers"] or list(range(players))
            best = max(state.rounds[-1]["values"][s] for s in among)
            assert winners and all(state.rounds[-1]["values"][s] == best for s in winners)
        if action.get("type") == "complete":
            assert complete_by_the_text(state, seat)
    assert rules.outcome(state) is not None
    return state


@settings(max_examples=1500, deadline=None)
@given(seed=seeds, players=player_counts, options=short_options)
def test_random_short_games_keep_every_card_end_and_value_stables_as_recounted(
    seed, players, options
):
    """Every card id exactly once across stacks, face-up cards, held cards, stables and the
    removed pile; no stable of two kinds; values as the scoring table says; every round ends."""
    state = play_and_check(seed, players, options)
    assert len(state.rounds) == 1


@settings(max_examples=80, deadline=None)
@given(seed=seeds, players=player_counts, bonus=st.booleans())
def test_random_full_games_end_with_a_player_winning_a_round_with_five_stables(
    seed, players, bonus
):
    """ "The player who first wins a round with 5 stables wins the game." """
    state = play_and_check(seed, players, {"length": "full", "bonus": bonus})
    result = rules.outcome(state)
    assert result["winners"] == state.rounds[-1]["winners"] or set(result["winners"]) < set(
        state.rounds[-1]["winners"]
    )
    assert all(result["stables"][s] == 5 for s in result["winners"])
    assert all(n <= 5 for n in result["stables"].values())
    assert sum(result["stables"].values()) - (2 if bonus else 0) <= 20
    specials = [s.special for row in state.stables for s in row if s.special]
    assert len(specials) == len(set(specials)) and (bonus or not specials)
    for earlier in state.rounds[:-1]:
        assert earlier["winners"]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=player_counts, options=any_options)
def test_states_round_trip_through_json_and_apply_never_mutates_its_input(seed, players, options):
    """Protocol: states round-trip through JSON; apply never changes the state it is given; every
    listed action is accepted; anything else is refused with IllegalAction only."""
    fuzz = random.Random(seed)
    for step, (state, seat, action) in enumerate(random_game(seed, players, options)):
        text = json.dumps(state.to_json())
        assert BonjeState.from_json(text).to_json() == state.to_json()
        assert BonjeState.from_json(json.loads(text)) == state
        if seat is None and not action:
            break
        rules.apply(state, seat, action, random.Random(step))
        if step % 7 == 0:
            for other in range(players):
                for offered in rules.legal_actions(state, other):
                    rules.apply(state, other, offered, random.Random(step))
            junk = dict(fuzz.choice(rules.legal_actions(state, seat) or [{"type": "take"}]))
            junk[fuzz.choice(list(junk))] = fuzz.choice([None, -1, 99, "x", True, [1]])
            with contextlib.suppress(IllegalAction):
                rules.apply(state, fuzz.choice([None, *range(players)]), junk, random.Random(0))
        assert json.dumps(state.to_json()) == text


@settings(max_examples=60, deadline=None)
@given(seed=seeds, players=player_counts, options=any_options)
def test_a_replay_of_the_recorded_moves_from_the_same_seed_gives_the_same_game(
    seed, players, options
):
    """Protocol: "a replay of the log gives the same game"."""
    moves = []
    for step in random_game(seed, players, options):
        state, seat, action = step
        if seat is not None or action:
            moves.append((seat, json.loads(json.dumps(action))))
    engine = random.Random(seed)
    replayed = rules.setup(NAMES[:players], options, engine)
    for seat, action in moves:
        replayed = rules.apply(replayed, seat, action, engine)
    assert replayed.to_json() == state.to_json()
    assert rules.outcome(replayed) == rules.outcome(state)


def card_ids_in(node: object, key: str | None = None) -> set[int]:
    """Every card id a view carries (cards are dicts with an "id")."""
    found: set[int] = set()
    if isinstance(node, dict):
        for k, v in node.items():
            found |= card_ids_in(v, k)
    elif isinstance(node, list):
        for item in node:
            found |= card_ids_in(item, key)
    elif key == "id" and isinstance(node, int):
        found.add(node)
    return found


def hidden_from(state: BonjeState, viewer: int | None) -> set[int]:
    hidden = {c for stack in state.stacks for c in stack}
    own = state.face_up[viewer] if viewer is not None and state.face_up else None
    if own is not None and not state.revealed and state.phase in (RACE, CALLS):
        hidden.add(own)
    return hidden


def swap_hidden(state: BonjeState, viewer: int | None, rng: random.Random) -> BonjeState | None:
    """The same position with two cards hidden from ``viewer`` exchanged (None if too few)."""
    places = [("stack", s, i) for s, stack in enumerate(state.stacks) for i in range(len(stack))]
    if viewer is not None and state.face_up[viewer] in hidden_from(state, viewer):
        places.append(("face_up", viewer, 0))
    if len(places) < 2:
        return None
    other = BonjeState.from_json(state.to_json())
    a, b = rng.sample(places, 2)

    def get(place):
        where, s, i = place
        return other.stacks[s][i] if where == "stack" else other.face_up[s]

    def put(place, card):
        where, s, i = place
        if where == "stack":
            other.stacks[s][i] = card
        else:
            other.face_up[s] = card

    first, second = get(a), get(b)
    put(a, second)
    put(b, first)
    return other


@settings(max_examples=60, deadline=None)
@given(seed=seeds, players=player_counts, options=short_options)
def test_no_view_ever_shows_a_face_down_card_or_a_players_own_card_before_its_reveal(
    seed, players, options
):
    """ "Hidden cards never leave the server in another seat's view"; ruling: "A player's own
    card is shown to them last"."""
    rng = random.Random(seed)
    for state, _seat, _action in random_game(seed, players, options):
        for viewer in (None, *range(players)):
            seen = rules.view(state, viewer)
            assert not card_ids_in(seen) & hidden_from(state, viewer)
            # The view cannot depend on hidden cards at all: exchange two, see the same thing.
            if rng.random() < 0.05:
                other = swap_hidden(state, viewer, rng)
                if other is not None:
                    assert rules.view(other, viewer) == seen


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts, options=any_options)
def test_while_the_game_runs_some_seat_or_the_system_always_has_a_move(seed, players, options):
    """Protocol: "A game is over when, and only when, outcome says so." """
    for state, _seat, _action in random_game(seed, players, options | {"length": "short"}):
        anyone = any(rules.legal_actions(state, s) for s in (None, *range(players)))
        assert anyone == (rules.outcome(state) is None)
