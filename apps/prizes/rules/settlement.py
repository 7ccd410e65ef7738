"""The end-of-night awards ceremony: a pure rules module following apps.core.protocol.

The seats are the indexes of ``players``; the host acts as seat ``HOST`` (-1) and the system
as seat None, as in the protocol. The host moves the ceremony on one category at a time, in
the host's order; the big screen (``view(state, None)``) shows each step.

Host actions (``legal_actions(state, HOST)``):
- {"type": "next"}: settle the next category (when nothing else is under way)
- {"type": "pick", "player": seat}: the winner of a host's-choice category (again, among the
  players without a prize, when its winner gave it up)
- {"type": "dice", "dice": {seat: die, ...}}: physical dice, the roll-off dice of some or all
  contenders who have none yet this round (seats as ints or as digit strings)

Player actions (``legal_actions(state, seat)``):
- {"type": "roll"}: virtual dice, a contender rolls their roll-off die (the rng rolls it)
- {"type": "keep", "category": i}: a player who won a second prize keeps category i (the one
  they hold or the new one); the other goes to its runner-up

System actions (``legal_actions(state, None)``, applied as seat None once due):
- {"type": "keep_first", "player", "category", "stage"}: after ``choice_ms``, the player who
  has not chosen keeps the prize they held first
- {"type": "roll_for", "stage"}: virtual dice, after ``roll_ms`` (0: never), the app rolls
  for every contender who has not rolled this round

Setup options: ``categories`` ([{"kind", "name", "prize"}] in the host's order; the default
seven when absent), ``tallies`` ({name: {"wins", "losses", "bunkos", "wipeouts"}}),
``travelling`` ({"bunko": [names, latest first], "wipeout": [...]}), ``ghosts`` (names),
``rolloffs`` ({kind: [{name: die}, ...]}: a tie the night already rolled off, such as the
overall winner's for most wins, decides that category's tie without new dice), and
the room options in ``OPTIONS``: ``dice``, ``choice_ms``, ``roll_ms``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from apps.core.i18n import _
from apps.core.protocol import (
    DELAY,
    Action,
    IllegalAction,
    Option,
    clean_options,
    without_delay,
)
from apps.parties.rules.dice import check_die, roll_die
from apps.prizes.presenter import awards_json, build_view
from apps.prizes.rules import steps
from apps.prizes.rules.categories import COUNTS, DEFAULT, KINDS, Category, check
from apps.prizes.rules.steps import (
    CHOICE,
    DONE,
    HOST,
    PHYSICAL,
    PICK,
    READY,
    ROLLOFF,
    TALLY_KEYS,
    VIRTUAL,
    State,
    fork,
    name_of,
    shown_name_of,
    waiting,
)

__all__ = [
    "HOST",
    "OPTIONS",
    "IllegalAction",
    "State",
    "apply",
    "legal_actions",
    "outcome",
    "settle_automatically",
    "setup",
    "view",
]

DEFAULT_CHOICE_MS = 30_000
DEFAULT_ROLL_MS = 20_000

OPTIONS: tuple[Option, ...] = (
    Option(
        "dice",
        "Roll-off dice",
        VIRTUAL,
        choices=(
            (VIRTUAL, "Tied players roll on their phones"),
            (PHYSICAL, "Tied players roll real dice; the host enters them"),
        ),
    ),
    Option(
        "choice_ms",
        "Time to choose between two prizes (ms)",
        DEFAULT_CHOICE_MS,
        minimum=5_000,
        maximum=300_000,
        help="A player who does not choose in time keeps the prize they won first.",
    ),
    Option(
        "roll_ms",
        "The app rolls for a tied player who has not rolled after (ms; 0: never)",
        DEFAULT_ROLL_MS,
        minimum=0,
        maximum=300_000,
        help="Only with dice on the phones, so a phone gone to sleep does not hold up the prizes.",
    ),
)


# --- setup ------------------------------------------------------------------------------------


def _categories(given: Any) -> list[dict]:
    if given is None:
        return [c.to_json() for c in DEFAULT]
    if not isinstance(given, list) or not all(isinstance(c, dict) for c in given):
        raise IllegalAction(_("The prize categories are a list."))
    if not all(c.get("kind") in KINDS for c in given):
        raise IllegalAction(_("Each prize category is one of the known kinds."))
    try:
        checked = check([Category.from_json(c) for c in given])
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    return [c.to_json() for c in checked]


def _tallies(given: Any) -> dict[str, dict]:
    tallies: dict[str, dict] = {}
    for name, tally in dict(given or {}).items():
        if not isinstance(tally, dict):
            raise IllegalAction(
                _("{name}'s tallies are wins, losses, Bunkos and wipeouts.").format(name=name)
            )
        counts = {key: tally.get(key, 0) for key in TALLY_KEYS}
        if not all(type(v) is int and v >= 0 for v in counts.values()):
            raise IllegalAction(_("{name}'s tallies are whole numbers.").format(name=name))
        tallies[str(name)] = counts
    return tallies


def _rolloffs(state: State, given: Any) -> dict[str, list]:
    """Ties the night already rolled off ({kind: [{name: die}, ...]}, the overall winner's for
    most wins, the loser's for most losses): each must be a whole roll-off among the players
    tied for that category."""
    seats = {name: s for s, name in enumerate(state.players)}
    kinds = [c["kind"] for c in state.categories]
    checked: dict[str, list] = {}
    for kind, rounds in dict(given or {}).items():
        label = KINDS.get(kind, kind)
        if kind not in COUNTS or not isinstance(rounds, list):
            raise IllegalAction(
                _("Only a 'most' category can come with its roll-off ({label}).").format(
                    label=label
                )
            )
        try:
            dice = [sorted([seats[n], check_die(die)] for n, die in r.items()) for r in rounds]
        except (AttributeError, KeyError):
            raise IllegalAction(
                _("The roll-off for {label} names someone not here.").format(label=label)
            ) from None
        if kind not in kinds:
            continue
        people = steps.eligible(state, kind, runner_up=False)
        tied = steps.candidates(state, kind, people)[1]
        if len(tied) < 2 or not steps.settles(dice, tied):
            raise IllegalAction(
                _("The roll-off for {label} is not among the players tied for it.").format(
                    label=label
                )
            )
        checked[kind] = dice
    return checked


def setup(players: list[str], options: dict | None, rng: random.Random) -> State:
    """The ceremony before its first prize; ``rng`` is not used (the dice roll in ``apply``)."""
    options = options or {}
    if len(set(players)) != len(players):
        raise IllegalAction(_("Every player needs a different name."))
    categories = _categories(options.get("categories"))
    given = options.get("travelling") or {}
    travelling = {key: [str(name) for name in given.get(key) or []] for key in ("bunko", "wipeout")}
    state = State(
        players=list(players),
        categories=categories,
        tallies=_tallies(options.get("tallies")),
        travelling=travelling,
        ghosts=sorted(str(n) for n in options.get("ghosts") or []),
        options=clean_options(OPTIONS, options),
        awards=[None] * len(categories),
    )
    state.rolloffs = _rolloffs(state, options.get("rolloffs"))
    return state


# --- legal actions ----------------------------------------------------------------------------


def system_actions(state: State) -> list[Action]:
    """The timed moves due now, each with its delay."""
    task = state.task
    if state.phase == CHOICE:
        assert task is not None
        first = {"type": "keep_first", "player": task["player"], "category": task["held"]}
        return [{**first, "stage": state.stage, DELAY: state.options["choice_ms"]}]
    roll_ms = state.options["roll_ms"]
    if state.phase == ROLLOFF and state.options["dice"] == VIRTUAL and roll_ms > 0:
        return [{"type": "roll_for", "stage": state.stage, DELAY: roll_ms}]
    return []


def legal_actions(state: State, seat: int | None) -> list[Action]:
    """What ``seat`` may do now: the host's seat is ``HOST``, the system's None."""
    if seat is None:
        return system_actions(state)
    task = state.task
    phase = state.phase
    if seat == HOST:
        if phase == READY:
            return [{"type": "next"}]
        if phase == PICK:
            assert task is not None
            return [{"type": "pick", "player": s} for s in task["choices"]]
        if phase == ROLLOFF and state.options["dice"] == PHYSICAL:
            assert task is not None
            return [
                {"type": "dice", "dice": {str(s): die}}
                for s in waiting(task)
                for die in range(1, 7)
            ]
        return []
    if phase == ROLLOFF and state.options["dice"] == VIRTUAL:
        assert task is not None
        return [{"type": "roll"}] if seat in waiting(task) else []
    if phase == CHOICE:
        assert task is not None
        if seat == task["player"]:
            return [
                {"type": "keep", "category": task["held"]},
                {"type": "keep", "category": task["category"]},
            ]
    return []


# --- applying ---------------------------------------------------------------------------------


def _names(state: State, seats: list[int]) -> str:
    names = [state.players[s] for s in seats]
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _busy(state: State) -> str:
    """Why the host cannot move on yet."""
    task = state.task
    assert task is not None
    if task["step"] == ROLLOFF:
        return _("First the roll-off for {category}.").format(
            category=shown_name_of(state, task["category"])
        )
    if task["step"] == CHOICE:
        return _("First {name} chooses which prize to keep.").format(
            name=state.players[task["player"]]
        )
    return _("First choose who wins {category}.").format(
        category=shown_name_of(state, task["category"])
    )


def _check_seat(state: State, seat: Any) -> None:
    if seat is None or seat == HOST:
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction(_("That seat is not at the awards."))


def _rolloff_task(state: State) -> dict:
    if state.phase != ROLLOFF:
        raise IllegalAction(_("There is no roll-off under way."))
    assert state.task is not None
    return state.task


def _roll(state: State, seat: int | None, rng: random.Random) -> State:
    task = _rolloff_task(state)
    if state.options["dice"] == PHYSICAL:
        raise IllegalAction(
            _("Tonight the roll-off is rolled with real dice: the host enters them.")
        )
    left = waiting(task)
    if seat not in task["contenders"]:
        who = _names(state, task["contenders"])
        raise IllegalAction(
            _("Only {who} roll for {name}.").format(
                who=who, name=shown_name_of(state, task["category"])
            )
        )
    if seat not in left:
        raise IllegalAction(
            _("You have rolled: waiting for {name}.").format(name=_names(state, left))
        )
    new = fork(state)
    steps.add_dice(new, [(seat, roll_die(rng))])
    return new


def _entered_dice(state: State, given: Any) -> list[tuple[int, int]]:
    """The host's dice for contenders who have none this round, in seat order."""
    task = _rolloff_task(state)
    if not isinstance(given, dict) or not given:
        raise IllegalAction(_("Enter a die for a player in the roll-off."))
    left = waiting(task)
    dice: dict[int, int] = {}
    for key, die in given.items():
        seat = int(key) if isinstance(key, int | str) and str(key).isdigit() else None
        if seat is None or seat not in task["contenders"]:
            raise IllegalAction(_("Enter dice only for the players in the roll-off."))
        if seat not in left:
            raise IllegalAction(
                _("{name} has a die for this round already.").format(name=state.players[seat])
            )
        dice[seat] = check_die(die)
    return sorted(dice.items())


def _dice(state: State, seat: int | None, action: Action) -> State:
    if seat != HOST:
        raise IllegalAction(_("The host enters the roll-off dice."))
    if state.options["dice"] == VIRTUAL:
        _rolloff_task(state)
        raise IllegalAction(_("Tonight the phones roll the roll-off dice."))
    dice = _entered_dice(state, action.get("dice"))
    new = fork(state)
    steps.add_dice(new, dice)
    return new


def _keep(state: State, seat: int | None, action: Action) -> State:
    if state.phase != CHOICE:
        raise IllegalAction(_("There is no prize to choose now."))
    task = state.task
    assert task is not None
    if seat != task["player"]:
        raise IllegalAction(
            _("{name} chooses which prize to keep.").format(name=state.players[task["player"]])
        )
    options = (task["held"], task["category"])
    index = action.get("category")
    if isinstance(index, bool) or index not in options:
        held, new = (shown_name_of(state, i) for i in options)
        raise IllegalAction(_("Keep {held} or {new}.").format(held=held, new=new))
    state = fork(state)
    steps.keep(state, index, by="player")
    return state


def _pick(state: State, seat: int | None, action: Action) -> State:
    if seat != HOST:
        raise IllegalAction(_("The host chooses who wins this prize."))
    if state.phase != PICK:
        raise IllegalAction(_("There is no prize to give by choice now."))
    task = state.task
    assert task is not None
    player = action.get("player")
    if isinstance(player, bool) or player not in task["choices"]:
        if isinstance(player, int) and 0 <= player < len(state.players):
            if steps.is_ghost_seat(state, player):
                raise IllegalAction(_("Ghosts win no prizes."))
            name = state.players[player]
            raise IllegalAction(
                _("{name} already holds a prize: choose someone without one.").format(name=name)
            )
        raise IllegalAction(_("Choose one of the players offered."))
    state = fork(state)
    steps.pick(state, player)
    return state


def _timer(state: State, seat: int | None, action: Action, rng: random.Random) -> State:
    if seat is not None:
        raise IllegalAction(_("Only the ceremony's timer does that."))
    offered = [without_delay(a) for a in system_actions(state)]
    if without_delay(action) not in offered:
        raise IllegalAction(_("That timer belongs to a step that is over."))
    new = fork(state)
    if action["type"] == "keep_first":
        steps.keep(new, action["category"], by="timeout")
    else:
        task = state.task
        assert task is not None
        steps.add_dice(new, [(s, roll_die(rng)) for s in waiting(task)])
    return new


def _next(state: State, seat: int | None) -> State:
    if seat != HOST:
        raise IllegalAction(_("Only the host moves the awards on."))
    if state.phase != READY:
        raise IllegalAction(_busy(state))
    new = fork(state)
    steps.next_category(new)
    return new


def apply(state: State, seat: int | None, action: Action, rng: random.Random) -> State:
    """Apply one action; never changes ``state``; IllegalAction with a sentence otherwise."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in ("next", "roll", "dice", "keep", "pick", "keep_first", "roll_for"):
        raise IllegalAction(_("That is not something you can do at the awards."))
    _check_seat(state, seat)
    if state.phase == DONE:
        raise IllegalAction(_("Every prize has been settled."))
    if kind == "next":
        return _next(state, seat)
    if kind == "roll":
        return _roll(state, seat, rng)
    if kind == "dice":
        return _dice(state, seat, action)
    if kind == "keep":
        return _keep(state, seat, action)
    if kind == "pick":
        return _pick(state, seat, action)
    return _timer(state, seat, action, rng)


# --- reading the state ------------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict:
    """Everything is public (prizes are public); a seat's view adds its legal moves. Keys:
    see ``presenter.build_view``."""
    _check_seat(state, seat)
    # The big screen only watches: the system's timed moves are its ``timers``.
    legal = [] if seat is None else legal_actions(state, seat)
    return build_view(state, seat, legal, system_actions(state), outcome(state))


def outcome(state: State) -> dict | None:
    """None until every category is settled. The awards in the order they were settled,
    which is the host's order ('Prizes are settled in the host's order'); a prize passed to a
    runner-up keeps its place."""
    if state.phase != DONE:
        return None
    order = [a["player"] for a in state.awards if a is not None]
    others = [s for s in range(len(state.players)) if s not in order]
    return {
        "ranking": [[s] for s in order] + ([others] if others else []),
        "scores": {s: int(s in order) for s in range(len(state.players))},
        "awards": awards_json(state),
        "unawarded": [name_of(state, i) for i in sorted(state.unawarded)],
    }


# --- the whole ceremony at once ---------------------------------------------------------------


def settle_automatically(
    players: list[str],
    options: dict | None,
    rng: random.Random,
    pick: Callable[[State, list[int]], int] | None = None,
) -> dict:
    """The whole ceremony with the rng: roll-offs rolled by the app (whatever ``dice`` says),
    every choice keeping the first prize, a host's choice drawn by lot among those offered
    (or ``pick(state, choices)``). Returns the outcome."""
    state = setup(players, {**(options or {}), "dice": VIRTUAL}, rng)
    while (phase := state.phase) != DONE:
        task = state.task
        if phase == READY:
            state = apply(state, HOST, {"type": "next"}, rng)
        elif phase == ROLLOFF:
            assert task is not None
            for seat in waiting(task):
                state = apply(state, seat, {"type": "roll"}, rng)
        elif phase == CHOICE:
            state = apply(state, None, without_delay(system_actions(state)[0]), rng)
        else:
            assert task is not None
            choices = task["choices"]
            chosen = pick(state, choices) if pick else choices[int(rng.random() * len(choices))]
            state = apply(state, HOST, {"type": "pick", "player": chosen}, rng)
    result = outcome(state)
    assert result is not None
    return result
