"""What a seat sees: the dice, every sheet, who has finished. All of Dschungelparty is public,
so every seat sees the same table; only the legal actions differ."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .areas import Sheet, rewards_won
from .play import Play
from .sheet import AREAS, FACES, JOKER
from .turn import ACTIVE, OTHERS, ROLL

if TYPE_CHECKING:
    from .rules import State

LOG_SHOWN = 12


def face_view(face: str) -> dict:
    """A face as colour and symbol ("joker" for a joker, which has neither until named)."""
    f = FACES[face]
    return {
        "face": face,
        "colour": f.colour,
        "symbol": f.symbol,
        "kind": f.kind,
        "joker": face == JOKER,
    }


def dice_view(state: State) -> list[dict]:
    """The five dice and where each is: "rolled" (on the table), "chosen" or "used" by the
    active player, then "left" for the others or "gone" (a rerolled elephant not used)."""
    if state.phase == ROLL:
        return []
    play = state.plays[state.active] if state.phase == ACTIVE else None
    taken = {d: p for p, d in enumerate(play.dice)} if play is not None else {}
    dice = []
    for d, face in enumerate(state.dice):
        shown, status, named = face, "rolled", None
        if d in taken:
            p = taken[d]
            assert play is not None
            shown, named = play.faces[p], play.names[p]
            status = "used" if play.spent[p] else "chosen"
        elif state.phase != ACTIVE:
            status = "used" if d in state.used else "gone" if d in state.gone else "left"
        rerolled = d in play.rolled if d in taken and play is not None else d in state.elephants
        dice.append(
            {"die": d, **face_view(shown), "status": status, "as": named, "rerolled": rerolled}
        )
    return dice


def play_view(play: Play) -> dict:
    """A seat's dice and crosses of this turn, not yet confirmed."""
    return {
        "colour": play.colour,
        "rerolled": play.rerolled,
        "column": play.column,
        "dice": [
            {
                "die": d,
                **face_view(play.faces[p]),
                "used": bool(play.spent[p]),
                "as": play.names[p],
                "rerolled": d in play.rolled,
            }
            for p, d in enumerate(play.dice)
        ],
        "marks": [dict(m) for m in play.marks],
        "dice_marks_open": not play.bonus_begun,
        # what ``undo`` takes back: this step, or the colour choice itself when None
        "last_step": dict(play.steps[-1]) if play.steps else None,
    }


def stars_by_area(sheet: Sheet) -> dict[str, int]:
    """Rainbow stars per area, the Extra Stars with their area."""
    counts = dict.fromkeys(AREAS, 0)
    for name, reward in rewards_won(sheet):
        head, _, rest = name.partition("-")
        area = rest if head == "extra" else head
        counts[area] += reward.stars
    return counts


def _status(state: State, seat: int) -> str:
    if state.phase == ROLL:
        return "rolling" if seat == state.active else "waiting"
    if state.phase == ACTIVE:
        if seat != state.active:
            return "waiting"
        return "choosing" if state.plays[seat] is None else "marking"
    if state.phase == OTHERS:
        if seat == state.active:
            return "waiting"
        done = state.done[seat]
        if done is not None:
            return done
        return "choosing" if state.plays[seat] is None else "marking"
    return "over"


def sheet_view(state: State, seat: int) -> dict[str, Any]:
    """A seat's sheet as it stands, this turn's unconfirmed crosses included (listed in
    "new"), with "confirmed_stars" counting only what is confirmed."""
    play = state.plays[seat]
    confirmed = state.sheets[seat].summary()
    sheet = play.sheet if play is not None else state.sheets[seat]
    now = sheet.summary()
    return {
        "seat": seat,
        "name": state.players[seat],
        "status": _status(state, seat),
        "stars": now.stars,
        "confirmed_stars": confirmed.stars,
        "marks": sheet.to_json(),
        "fields": list(now.fields),
        "counts": dict(now.counts),
        "new": [m["field"] for m in play.marks] if play is not None else [],
        "rewards": list(now.rewards),
        "extra_stars": list(now.extra_stars),
        "bonuses": [dict(b) for b in play.bonuses] if play is not None else [],
        "play": play_view(play) if play is not None else None,
    }


def seat_view(
    state: State,
    seat: int | None,
    legal: list[dict],
    acting: list[int],
    result: dict | None,
) -> dict[str, Any]:
    others = state.phase == OTHERS
    return {
        "game": "dschungel",
        "seat": seat,
        "players": list(state.players),
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "to_act": acting,
        "rerolled": state.rerolled,
        "dice": dice_view(state),
        "countdown": {"seconds": state.countdown, "turn": state.turn} if others else None,
        "confirmed": [s for s, how in enumerate(state.done) if how == "confirmed"],
        "others": [
            {"seat": s, "status": _status(state, s)}
            for s in range(len(state.players))
            if s != state.active
        ]
        if others
        else [],
        "sheets": [sheet_view(state, s) for s in range(len(state.players))],
        "ending": state.ending,
        "log": state.log[-LOG_SHOWN:],
        "legal_actions": legal,
        "outcome": result,
    }
