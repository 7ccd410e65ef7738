"""One table's Bunko game, in the common rules protocol (state in ``state.py``, what each
move does in ``moves.py``).

``apply`` takes what a phone sends ("roll", "report", "grab", ...), resolves its dice with
the rng, applies it, keeps the resolved action in ``state.entries`` and rolls for ghost
seats whenever the dice reach one. The entries replay the table without an rng: undo and the
host's corrections are replays with an entry taken out or changed. Options:

- ``head`` (the head table calls STOP at 21), ``classic``, ``round``, ``target``, ``ghosts``;
- ``dice``: "virtual" (the roller's phone rolls), "physical" (any phone at the table taps in
  what the roller's real dice show; the scramble's split is entered; the last entry can be
  undone), or None (both, for the simulator and tools);
- ``swap``: the two players who stayed at this table may swap partners before the first
  roll (every table but the head, after a rotation).
"""

from __future__ import annotations

import random
from typing import Any

from apps.core.i18n import _
from apps.core.protocol import Action, IllegalAction

from .dice import BUNKO, WIPEOUT, roll_dice, roll_die
from .moves import HANDLERS, check_seat
from .rotation import swap_pairs_ghosts
from .state import (
    DONE,
    PLAYING,
    ROLLOFF,
    SCRAMBLE,
    SEATS,
    SPLITS,
    TARGET,
    TableState,
    partner_of,
    recount,
    replace,
    target_number,
    team_of,
)

__all__ = [
    "BUNKO",
    "DONE",
    "PLAYING",
    "ROLLOFF",
    "SCRAMBLE",
    "WIPEOUT",
    "TableState",
    "apply",
    "ghost_action",
    "legal_actions",
    "outcome",
    "partner_of",
    "recount",
    "replay",
    "setup",
    "team_of",
    "view",
]

VIRTUAL, PHYSICAL = "virtual", "physical"
# Entries a person made: what undo and the host's corrections may take back.
PLAYER_MOVES = ("roll", "report", "scramble")
STAYERS = (0, 1)
# The night's and the host's entries stay when a player's entry is undone.
KEPT_BY_UNDO = (
    "stop",
    "autoplay",
    "end",
)  # after a rotation the stayers sit in seats 1 and 2, the arrivers in 3 and 4


def setup(players: list[str], options: dict, rng: random.Random) -> TableState:
    """Four players in seat order."""
    if len(players) != SEATS:
        raise ValueError("A Bunko table seats exactly 4 players.")
    ghosts = sorted({int(s) for s in options.get("ghosts", [])})
    if any(not 0 <= s < SEATS for s in ghosts):
        raise ValueError("Ghost seats are 0 to 3.")
    dice = options.get("dice")
    opts = {
        "head": bool(options.get("head", False)),
        "classic": bool(options.get("classic", False)),
        "round": int(options.get("round", 1)),
        "target": int(options.get("target", TARGET)),
        "ghosts": ghosts,
        "dice": dice if dice in (VIRTUAL, PHYSICAL) else None,
        "swap": bool(options.get("swap", False)),
        # The seats (of 0 and 1) whose players stayed at this table: they choose the partners.
        "stayers": [int(s) for s in options.get("stayers", STAYERS) if int(s) in STAYERS],
    }
    tallies = [{"bunkos": 0, "wipeouts": 0} for _ in range(SEATS)]
    return TableState(players=list(players), options=opts, ghosts=ghosts, tallies=tallies)


# --- applying -----------------------------------------------------------------------------------


def _step(state: TableState, seat: int | None, resolved: Action) -> TableState:
    """Apply one resolved action and keep it in the entries."""
    new = HANDLERS[resolved["type"]](state, seat, resolved)
    if new is state:
        new = replace(state)
    new.entries = [*state.entries, {"seat": seat, "action": resolved}]
    new.version = state.version + 1
    return new


def _mode(state: TableState) -> str | None:
    return state.options.get("dice")


def _resolve_and_apply(
    state: TableState, seat: int | None, action: Action, rng: random.Random
) -> TableState:
    kind = action["type"]
    stamp = action.get("t")
    if kind == "rolloff":
        if state.phase != ROLLOFF:
            raise IllegalAction(_("The first roller is already known."))
        if "dice" in action:
            given = action["dice"]
            dice = {str(k): v for k, v in given.items()} if isinstance(given, dict) else given
            return _step(state, seat, {"type": "rolloff", "dice": dice})
        # One tap rolls for every seat still in it, again for the tied highest, until one
        # seat starts; each round is its own entry.
        while state.phase == ROLLOFF:
            dice = {str(s): roll_die(rng) for s in state.contenders}
            state = _step(state, seat, {"type": "rolloff", "dice": dice})
        return state
    if kind == "roll":
        if "dice" not in action:
            if _mode(state) == PHYSICAL:
                raise IllegalAction(_("Tonight is played with real dice: tap what was rolled."))
            action = {"type": "roll", "dice": roll_dice(rng)}
        resolved = {"type": "roll", "dice": action["dice"]}
        if stamp is not None:
            resolved["t"] = stamp
        if action.get("app"):
            resolved["app"] = True  # the host had the app roll for this seat
        return _step(state, seat, resolved)
    if kind == "report":
        if _mode(state) == VIRTUAL:
            raise IllegalAction(_("Tonight the phones roll the dice: press ROLL."))
        if _mode(state) == PHYSICAL and state.phase == PLAYING and seat is not None:
            seat = state.roller  # any phone at the table taps in the roller's dice
        resolved = {key: action[key] for key in ("type", "kind", "count", "t") if key in action}
        return _step(state, seat, resolved)
    if kind == "scramble":
        resolved = {key: action[key] for key in ("type", "split", "grabbers") if key in action}
        return _step(state, seat, resolved)
    if kind in ("autoplay", "end"):
        resolved = {key: action[key] for key in ("type", "seat", "on", "winner") if key in action}
        return _step(state, seat, resolved)
    return _step(state, seat, {"type": kind})


def _roll_for_ghosts(state: TableState, rng: random.Random, stamp: Any) -> TableState:
    """Ruling: 'the ghost's dice are rolled by the app' (and for a seat the host handed to the
    app)."""
    while state.phase == PLAYING and state.roller in state.ghosts:
        resolved = {"type": "roll", "dice": roll_dice(rng)}
        if stamp is not None:
            resolved["t"] = stamp
        if state.roller not in state.options["ghosts"]:
            resolved["app"] = True  # a player's seat the host handed to the app
        state = _step(state, state.roller, resolved)
        state.entries[-1] = {**state.entries[-1], "ghost": True}
    return state


def apply(state: TableState, seat: int | None, action: Action, rng: random.Random) -> TableState:
    """Apply one action; never mutates ``state``; raises IllegalAction with a reason."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in (*HANDLERS, "swap", "undo", "correct"):
        raise IllegalAction(_("That is not something you can do at a Bunko table."))
    check_seat(state, seat)
    if kind == "correct":
        return correct(state, seat, action)
    if state.phase == DONE:
        raise IllegalAction(_("This table has finished its game."))
    if kind == "swap":
        return swap(state, seat)
    if kind == "undo":
        return undo(state, seat)
    new = _resolve_and_apply(state, seat, action, rng)
    return _roll_for_ghosts(new, rng, action.get("t"))


# --- the stayers' swap, undo and corrections --------------------------------------------------


def swap(state: TableState, seat: int | None) -> TableState:
    """Ruling: 'Which stayer partners which arriver is the stayers' choice (the app proposes
    one, the table may swap before the first roll).' The arrivers trade seats 3 and 4."""
    if not state.options.get("swap"):
        raise IllegalAction(
            _("Partners can only be swapped by the stayers at a table after a move.")
        )
    if state.phase != ROLLOFF or state.rolloffs:
        raise IllegalAction(_("The table has started rolling: partners are set for this round."))
    if seat not in state.options.get("stayers", STAYERS):
        raise IllegalAction(_("The players who stayed at this table choose the partners."))
    if swap_makes_ghost_partners(state):
        raise IllegalAction(_("A swap would make the two ghosts partners: the partners stay."))
    players = [*state.players[:2], state.players[3], state.players[2]]
    moved = {2: 3, 3: 2}
    options = dict(state.options, ghosts=sorted(moved.get(g, g) for g in state.ghosts))
    fresh = setup(players, options, random.Random(0))
    fresh.version = state.version + 1
    return fresh


def swap_makes_ghost_partners(state: TableState) -> bool:
    """The stayers' swap is not offered when it would pair the table's two ghosts."""
    ghosts = [state.players[s] for s in state.options.get("ghosts", [])]
    return swap_pairs_ghosts(state.players, ghosts)


def replay(players: list[str], options: dict, entries: list[dict]) -> TableState:
    """The table rebuilt from its entries alone (every entry carries its dice).

    A roll or report is the roller's of that moment, whoever tapped it in, so a corrected
    entry may change who rolls next; grabs or a split left without a Bunko to scramble (the
    Bunko was corrected away) are dropped with it."""
    state = setup(players, options, random.Random(0))
    for entry in entries:
        action = entry["action"]
        seat = entry["seat"]
        if action["type"] in ("roll", "report") and state.phase == PLAYING:
            seat = state.roller
        if action["type"] in ("grab", "scramble") and state.phase != SCRAMBLE:
            continue
        state = _step(state, seat, action)
        if entry.get("ghost"):
            state.entries[-1] = {**state.entries[-1], "ghost": True}
    return state


def _last_player_move(state: TableState) -> int | None:
    for index in range(len(state.entries) - 1, -1, -1):
        entry = state.entries[index]
        if entry["action"]["type"] in PLAYER_MOVES and not entry.get("ghost"):
            return index
    return None


def undo(state: TableState, seat: int | None) -> TableState:
    """Physical dice: any phone at the table takes back the last entry tapped in (a mistaken
    tap); the rolls the app made for ghosts after it go with it, a STOP stays."""
    if _mode(state) != PHYSICAL:
        raise IllegalAction(_("The app's dice can't be taken back: ask the host to correct it."))
    index = _last_player_move(state)
    if index is None:
        raise IllegalAction(_("There is no entry to undo at this table yet."))
    kept = state.entries[:index] + [
        e for e in state.entries[index + 1 :] if e["action"]["type"] in KEPT_BY_UNDO
    ]
    new = replay(state.players, state.options, kept)
    new.version = state.version + 1
    return new


def correct(state: TableState, seat: int | None, action: Action) -> TableState:
    """The host changes one entry (a roll, a report or a split) or deletes it
    (``replacement`` None); the table replays from its entries."""
    if seat is not None:
        raise IllegalAction(_("Only the host corrects an entry."))
    index = action.get("index")
    if not isinstance(index, int) or isinstance(index, bool):
        raise IllegalAction(_("Choose the entry to correct."))
    if not 0 <= index < len(state.entries):
        raise IllegalAction(_("That entry is not in this table's log."))
    if state.entries[index]["action"]["type"] not in PLAYER_MOVES:
        raise IllegalAction(_("Only a roll or a scramble can be corrected."))
    replacement = action.get("replacement")
    entries = list(state.entries)
    if replacement is None:
        entries.pop(index)
    else:
        if not isinstance(replacement, dict) or replacement.get("type") not in PLAYER_MOVES:
            raise IllegalAction(_("A correction is a roll, a report or a split."))
        stamp = entries[index]["action"].get("t")
        fixed = dict(replacement, t=stamp) if stamp is not None else dict(replacement)
        entries[index] = {**entries[index], "action": fixed, "corrected": True}
    try:
        new = replay(state.players, state.options, entries)
    except IllegalAction as error:
        raise IllegalAction(
            _("That correction doesn't fit the entries after it: {error}").format(error=error)
        ) from None
    new.version = state.version + 1
    return new


# --- reading the state ------------------------------------------------------------------------


def _report_actions(state: TableState) -> list[Action]:
    actions: list[Action] = [
        {"type": "report", "kind": "miss"},
        {"type": "report", "kind": "sixes", "count": 1},
        {"type": "report", "kind": "sixes", "count": 2},
        {"type": "report", "kind": "bunko"},
    ]
    extra = "mini" if state.options["classic"] else "wipeout"
    actions.append({"type": "report", "kind": extra})
    return actions


def legal_actions(state: TableState, seat: int | None) -> list[Action]:
    """What ``seat`` may do now. Bunko has no timed system moves: STOP comes from the night,
    corrections from the host (``apply`` with seat None)."""
    if state.phase == DONE or seat is None:
        return []
    mode = _mode(state)
    actions: list[Action] = []
    if state.phase == ROLLOFF:
        actions.append({"type": "rolloff"})
        stayers = state.options.get("stayers", STAYERS)
        if (
            state.options.get("swap")
            and not state.rolloffs
            and seat in stayers
            and not swap_makes_ghost_partners(state)
        ):
            actions.append({"type": "swap"})
    elif state.phase == PLAYING:
        if mode == PHYSICAL:
            actions.extend(_report_actions(state))
        elif seat == state.roller:
            actions.append({"type": "roll"})
            if mode is None:
                actions.extend(_report_actions(state))
    elif state.phase == SCRAMBLE:
        if mode != PHYSICAL:
            actions.append({"type": "grab"})
        if mode != VIRTUAL and not state.grabs:
            actions.extend({"type": "scramble", "split": list(s)} for s in SPLITS)
    if mode == PHYSICAL and state.phase != ROLLOFF and _last_player_move(state) is not None:
        actions.append({"type": "undo"})
    return actions


# Every move a seat's own phone may make: what ``legal_actions`` ever offers a seat.
SEAT_MOVES = frozenset({"rolloff", "roll", "report", "grab", "scramble", "swap", "undo"})
# The moves a phone makes for the moment it was drawn for (``at``: the state's version): a
# grab in a scramble is a race, and whichever moment it lands in counts.
MOVES_OF_A_MOMENT = SEAT_MOVES - {"grab"}


def stalled_move(
    state: TableState, grabber: int | None, real_dice: bool
) -> tuple[int | None, Action]:
    """The move the host makes for a table whose next move waits on a phone that is gone,
    with the app's dice: the roll-off, the roller's roll, or in a scramble a grab for the
    seat the host names (``grabber``). As (seat, action) for ``apply``. With real dice the
    host has nothing to roll: any phone at the table taps in what was rolled."""
    if state.phase == ROLLOFF:
        return None, {"type": "rolloff"}
    if state.phase == SCRAMBLE:
        if grabber is None:
            raise IllegalAction(_("Say who grabs the die."))
        return grabber, {"type": "grab"}
    if real_dice:
        raise IllegalAction(_("With real dice any phone at the table taps in the roll."))
    return state.roller, {"type": "roll", "app": True}


def ghost_action(state: TableState, seat: int, rng: random.Random) -> Action | None:
    """What the app does for a ghost seat now: roll its dice, or grab in a scramble (the
    simulator's equally quick ghost)."""
    if state.phase == PLAYING and state.roller == seat:
        return {"type": "roll", "dice": roll_dice(rng)}
    if state.phase == SCRAMBLE:
        return {"type": "grab"}
    return None


def view(state: TableState, seat: int | None) -> dict:
    """Everything is public in Bunko; the seat's own view adds who they are and what they
    may tap."""
    check_seat(state, seat)
    data = state.to_json()
    data["target_number"] = target_number(state)
    data["roller_name"] = None if state.roller is None else state.players[state.roller]
    data["you"] = seat
    data["dice_mode"] = _mode(state)
    data["last_roll"] = state.rolls[-1] if state.rolls else None
    data["recent"] = list(reversed(state.rolls[-6:]))
    data["tied_after_stop"] = state.stopped and state.phase != DONE
    data["correctable"] = [
        i for i, e in enumerate(state.entries) if e["action"]["type"] in PLAYER_MOVES
    ]
    if seat is None:
        data.update(your_turn=False, team=None, partner=None)
    else:
        your_turn = (state.phase == PLAYING and state.roller == seat) or state.phase in (
            SCRAMBLE,
            ROLLOFF,
        )
        data.update(your_turn=your_turn, team=team_of(seat), partner=partner_of(seat))
    data["legal_actions"] = legal_actions(state, seat)
    data["outcome"] = outcome(state)
    return data


def outcome(state: TableState) -> dict | None:
    """'Winners mark their wins on their scoring sheets, and losers mark their losses.'"""
    if state.phase != DONE or state.winner is None:
        return None
    winners = [state.winner, state.winner + 2]
    losers = [1 - state.winner, 3 - state.winner]
    return {
        "winners": winners,
        "losers": losers,
        "score": list(state.scores),
        "ranking": [winners, losers],
        "scores": {seat: state.scores[team_of(seat)] for seat in range(SEATS)},
    }
