"""What each seat may see of a game: ``rules.view`` builds it here.

Hidden information: the face-down stacks' cards never appear (only their sizes), and a player's
own flipped card is hidden from that player until the reveal, while the others and the big
screen see it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apps.core import i18n

from .cards import CARD_DATA, IS_ELEPHANT, KIND, NUMBER
from .rounds import GOAL, round_running
from .scoring import stable_value
from .stables import COMPLETE, Stable, needs, stable_label, stable_status
from .state import CALLS, RACE, BonjeState
from .turn import due

LOG_SHOWN = 12
_CARD_FIELDS = ("card", "animal")


def card(card_id: int | None) -> dict | None:
    return None if card_id is None else dict(CARD_DATA[card_id])


@lru_cache(maxsize=8192)
def _summary(
    cards: tuple[int, ...], special: str | None, language: str
) -> tuple[str, str, str, int, bool]:
    """(status, needs, needs in short, value, brawl) of a stable's contents in ``language``; a
    stable changes far less often than it is shown, so every screen of a turn shares one
    computation."""
    stable = Stable(list(cards), special)
    return (
        stable_status(stable),
        needs(stable),
        needs(stable, short=True),
        stable_value(stable),
        stable.brawl,
    )


def stable_data(row: list[Stable], index: int) -> dict:
    stable = row[index]
    cards = stable.cards
    status, missing, line, value, brawl = _summary(tuple(cards), stable.special, i18n.current())
    return {
        "index": index,
        "label": stable_label(row, index),
        "special": stable.special,
        "cards": [dict(CARD_DATA[c]) for c in cards],
        "kind": KIND[cards[0]] if cards else None,
        "elephant": bool(cards) and IS_ELEPHANT[cards[0]],
        "brawl": brawl,
        "status": status,
        "complete": status == COMPLETE,
        "needs": missing,
        "needs_line": line,
        "value": value,
    }


def log_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry with its card ids shown as cards."""
    shown = dict(entry)
    for key, value in entry.items():
        if key in _CARD_FIELDS:
            if value is not None:
                shown[key] = dict(CARD_DATA[value])
        elif key == "cards":
            shown[key] = [dict(CARD_DATA[c]) for c in value]
        elif isinstance(value, list):
            shown[key] = list(value)
    return shown


def waiting_order(state: BonjeState) -> list[int]:
    """The waiting seats in the order their cards will be played."""
    waiting = [s for s in state.seats if state.held[s] is not None and state.waiting[s]]
    return sorted(waiting, key=lambda s: (NUMBER[state.held[s]] or 0, state.take_order.index(s)))


def build_view(
    state: BonjeState,
    seat: int | None,
    actions: list[dict],
    result: dict | None,
    timer: dict | None,
) -> dict:
    own_hidden = (
        seat is not None and not state.revealed and state.phase in (RACE, CALLS)
    )  # the player's own card faces away from them
    face_up = []
    for source, card_id in enumerate(state.face_up):
        if card_id is None:
            continue
        hidden = own_hidden and source == seat
        face_up.append(
            {"seat": source, "card": None if hidden else card(card_id), "hidden": hidden}
        )
    players = []
    for s, name in enumerate(state.players):
        row = state.stables[s]
        stables = [stable_data(row, i) for i in range(len(row))]
        players.append(
            {
                "seat": s,
                "name": name,
                "stack": len(state.stacks[s]),
                "stables": stables,
                "stable_count": len(row),
                "value": sum(stable["value"] for stable in stables),
                "complete": all(stable["complete"] for stable in stables),
                "wins": state.wins[s],
                "holding": card(state.held[s]),
                "took_from": state.took_from[s],
                "took": card(state.took[s]),
                "waiting": state.waiting[s],
                "called": s in state.calls,
            }
        )
    return {
        "game": "bonje",
        "seat": seat,
        "phase": state.phase,
        "round": state.round,
        "turn": state.turn,
        "turns_left": len(state.stacks[0]),
        "options": dict(state.options),
        "goal": GOAL,
        "players": players,
        "face_up": face_up,
        "revealed": not own_hidden,
        "due": due(state),
        "waiting_order": waiting_order(state),
        "calls": list(state.calls),
        "can_call": seat is not None and round_running(state) and seat not in state.calls,
        "choosing_special": state.choosing,
        "box": {"stables": state.box, "special": list(state.special_box)},
        "rounds": [
            {k: list(v) if isinstance(v, list) else v for k, v in r.items()} for r in state.rounds
        ],
        "timer": timer,
        "log": [log_entry(e) for e in state.log[-LOG_SHOWN:]],
        "legal_actions": actions,
        "outcome": result,
    }
