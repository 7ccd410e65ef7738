"""How Dschungelparty reads on a phone and on the big screen: the rules' view for one viewer
turned into a headline, the dice, buttons with spoken labels, and sheets ready to draw, each
field knowing whether it is crossed and whether this viewer may tap it."""

from __future__ import annotations

import json
from typing import Any

from .sheet import AREAS
from .sheets import drawn_sheet
from .words import (
    STATUS_WORDS,
    as_words,
    bonus_words,
    die_words,
    face_caption,
    face_words,
    field_words,
    log_line,
    plural,
)

AREA_ICONS = {"green": "flower-yellow", "purple": "banana", "blue": "elephant", "pink": "half-dots"}
STAR_ROW_MAX = 30  # rainbow stars drawn in a row at the end; more are only counted
CONTROL_ORDER = ("roll", "reroll", "skip_bonus", "undo", "confirm", "pass")


def act(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def icon_of(die: dict) -> str:
    """The symbol drawn on a die: "flower-yellow", "butterfly-multi", "banana", "joker"."""
    if die["joker"]:
        return "joker"
    return f"{die['symbol']}-{die['kind']}" if die["kind"] else die["symbol"]


# --- the dice ------------------------------------------------------------------------------

TABLE_STATUS = {
    "rolled": "",
    "chosen": "taken",
    "used": "used",
    "left": "left over",
    "gone": "gone",  # an elephant rolled again and not used: "no longer available"
}


def _die(die: dict, status: str, words: str, free: bool, rerolled: bool = False) -> dict:
    named = die.get("as")
    if rerolled:  # an elephant rolled again: only its new colour counts
        words = f"rolled again, {words}" if words else "rolled again"
    return {
        "die": die["die"],
        "colour": die["colour"] or "joker",
        "icon": icon_of(die),
        "joker": die["joker"],
        "caption": "joker" if die["joker"] else face_caption(die["face"]),
        "words": "joker" if die["joker"] else face_words(die["face"]),
        "status": status,
        "status_words": words,
        "as_words": as_words(named) if named else "",
        "free": free,
        "label": die_words(die) + (f", {words}" if words else ""),
    }


def dice(view: dict, me: int | None) -> list[dict]:
    """The five dice as this viewer should see them. In the others' phase a seat that took
    dice sees its own (its own elephant reroll, what its jokers stood for); "free" marks the
    dice this viewer may still take."""
    phase, active = view["phase"], view["active"]
    play = view["sheets"][me]["play"] if me is not None else None
    mine = {d["die"]: d for d in play["dice"]} if play and me != active else {}
    shown = []
    for die in view["dice"]:
        status = die["status"]
        if die["die"] in mine:
            taken = mine[die["die"]]
            status = "used" if taken["used"] else "chosen"
            shown.append(_die(taken, status, TABLE_STATUS[status], False, play["rerolled"]))
            continue
        if mine and status == "left":
            shown.append(_die(die, "not-taken", "not taken", False))
            continue
        # the active player takes from the dice rolled, the others from the dice left
        free = me is not None and play is None and status == ("rolled" if me == active else "left")
        words = TABLE_STATUS[status]
        if phase == "others" and me != active:
            words = {"left": "free", "used": f"{view['players'][active]}'s"}.get(status, words)
        elif phase == "others" and status == "used":
            words = "yours"
        shown.append(_die(die, status, words, free, die["rerolled"]))
    return shown


def _choices(view: dict, shown: list[dict]) -> list[dict]:
    """ "Take green": every die of the colour and every joker, in words."""
    free = [d for d in shown if d["free"]]
    choices = []
    for action in view["legal_actions"]:
        if action["type"] != "choose":
            continue
        colour = action["colour"]
        taken = [d for d in free if d["colour"] == colour]
        jokers = sum(1 for d in free if d["joker"])
        joker_words = [plural(jokers, "joker")] if jokers else []
        what = ", ".join([d["caption"] for d in taken] + joker_words)
        spoken = ", ".join([d["words"] for d in taken] + joker_words)
        extra = " (the elephants are rolled again)" if colour == "blue" else ""
        choices.append(
            {
                "colour": colour,
                "icon": AREA_ICONS[colour],
                "text": f"Take {colour}",
                "what": what,
                "aria": f"Take {colour}: {spoken}{extra}",
                "act": act(action),
            }
        )
    return choices


# --- the buttons ---------------------------------------------------------------------------


def _undo_words(play: dict) -> tuple[str, str]:
    """(the button's text, its spoken label): the label begins with the text, so a voice
    command of what is written works."""
    step = play["last_step"]
    if step is None:
        return "Put the dice back", f"Put the dice back: the {play['colour']} dice, to choose again"
    if step["type"] == "skip_bonus":
        return "Undo", "Undo: take back skipping the bonus mark"
    return "Undo last cross", f"Undo last cross: {field_words(step['field'])}"


def _controls(view: dict, me: int) -> list[dict]:
    kinds = {a["type"] for a in view["legal_actions"]}
    play = view["sheets"][me]["play"]
    marks = len(play["marks"]) if play else 0
    confirm = f"Confirm {plural(marks, 'cross', 'crosses')}" if marks else "Done: cross nothing"
    words = {
        "roll": ("Roll the dice", "Roll the dice: all five", "primary"),
        "reroll": ("Roll all five again", "Roll all five again: nothing fits", "primary"),
        "skip_bonus": ("Skip this bonus", "Skip this bonus: let the bonus mark go", ""),
        "confirm": (confirm, confirm, "primary"),
        "pass": ("Pass", "Pass: cross nothing this round", ""),
    }
    if play:
        words["undo"] = (*_undo_words(play), "")
    return [
        {"type": kind, "text": words[kind][0], "aria": words[kind][1], "style": words[kind][2]}
        | {"act": act({"type": kind})}
        for kind in CONTROL_ORDER
        if kind in kinds
    ]


# --- headlines -----------------------------------------------------------------------------


def _headline(view: dict, me: int | None) -> tuple[str, str]:
    """(headline, one line under it) for this viewer."""
    names, phase, active = view["players"], view["phase"], view["active"]
    who = names[active]
    if phase == "over":
        return _over_headline(view), "Most rainbow stars wins; a tie shares the win."
    mine = me is not None and me in view["to_act"]
    sheet = view["sheets"][me] if me is not None else None
    if phase == "roll":
        if me == active:
            return "Your turn: roll the dice", "Then take one colour and cross on your sheet."
        return f"{who} rolls the dice", ""
    if mine and sheet is not None:
        return _my_step(view, sheet, me == active)
    if me is not None and me != active and phase == "others":
        done = view["sheets"][me]["status"]
        waiting = [names[o["seat"]] for o in view["others"] if o["status"] in _BUSY]
        rest = f"Waiting for {' and '.join(waiting)}." if waiting else ""
        return {
            "confirmed": "Your crosses are made",
            "passed": "You passed this round",
            "nothing": f"None of {who}'s dice fit your sheet",
            "timed_out": "Time ran out for this round",
        }.get(done, "Waiting"), rest
    if phase == "others":
        waiting = [names[o["seat"]] for o in view["others"] if o["status"] in _BUSY]
        still = f"Still choosing: {', '.join(waiting)}." if waiting else ""
        if me == active:
            return "The others choose from your dice", still
        return "The others choose", f"from the dice {who} left, all at once. {still}".strip()
    play = view["sheets"][active]["play"]
    if play is not None:
        return f"{who} took {play['colour']}", "crossing on their sheet"
    return f"{who} is choosing", "which colour to take"


_BUSY = ("choosing", "marking")


def _my_step(view: dict, sheet: dict, active: bool) -> tuple[str, str]:
    play = sheet["play"]
    source = "" if active else f" from {view['players'][view['active']]}'s dice"
    if play is None:
        kinds = {a["type"] for a in view["legal_actions"]}
        if "choose" in kinds:
            return "Take a colour" + source, "You take every die of it and every joker."
        if "reroll" in kinds:
            return "Nothing fits", "You may roll all five dice once more."
        return "Nothing fits", "Pass: you cross nothing this round."
    if sheet["bonuses"]:
        bonus = sheet["bonuses"][0]
        more = len(sheet["bonuses"]) - 1
        tail = f" ({plural(more, 'more bonus mark')} after this)" if more else ""
        return f"Bonus mark: {bonus['area']}", f"Cross {bonus_words(bonus)}.{tail}"
    if any(a["type"] == "mark" for a in view["legal_actions"]):
        return f"Cross in {play['colour']}", "Tap a dashed field on your sheet, then confirm."
    return "Confirm your crosses", "Your dice have no more crosses to make."


def _hint(sheet: dict, legal: list[dict]) -> str:
    """The step in a few words beside the turn's buttons, for when the headline has scrolled
    away above the sheet."""
    if sheet["bonuses"]:
        bonus = sheet["bonuses"][0]
        return f"Bonus mark in {bonus['area']}: cross {bonus_words(bonus)}."
    if any(a["type"] == "mark" for a in legal):
        return f"Tap a dashed field in {sheet['play']['colour']}, then confirm."
    return "No more crosses to make: confirm."


def _over_headline(view: dict) -> str:
    result = view["outcome"]
    names = view["players"]
    if result is None:
        return "Game over"
    top = result["winners"]
    stars = plural(result["stars"][top[0]], "rainbow star")
    if len(names) == 1:
        return f"Game over: {stars}"
    if len(top) > 1:
        return f"{' and '.join(names[s] for s in top)} share the win with {stars}"
    return f"{names[top[0]]} wins with {stars}"


# --- the players around the table ----------------------------------------------------------


def _players(view: dict, context: dict, me: int | None) -> list[dict]:
    seats = context.get("players") or []
    connected = context.get("connected") or set()
    rows = []
    for sheet in view["sheets"]:
        s = sheet["seat"]
        seat = seats[s] if s < len(seats) else None
        is_bot = bool(seat and seat.is_bot)
        status = sheet["status"]
        if view["phase"] == "others" and s == view["active"]:
            status = "done"  # the others choose from this player's dice
        if view["outcome"] is not None:
            status = "won" if s in view["outcome"]["winners"] else "over"
        rows.append(
            {
                "seat": s,
                "name": sheet["name"],
                "is_me": s == me,
                "is_active": s == view["active"] and view["phase"] != "over",
                "is_bot": is_bot,
                "bot_for": seat.bot_for if seat else "",
                "away": seat is not None and not is_bot and s not in connected,
                "stars": sheet["stars"],
                "status": status,
                "status_words": STATUS_WORDS.get(status, status),
                "busy": status in _BUSY,
            }
        )
    return rows


def _outcome(view: dict) -> dict | None:
    result = view["outcome"]
    if result is None:
        return None
    rows = []
    for s, name in enumerate(view["players"]):
        by_area = result["stars_by_area"][s]
        rows.append(
            {
                "name": name,
                "stars": result["stars"][s],
                "star_row": range(min(result["stars"][s], STAR_ROW_MAX)),
                "won": s in result["winners"],
                "areas": [(a, by_area[a]) for a in AREAS],
                "extras": [a for a in AREAS if a in result["extra_stars"][s]],
            }
        )
    rows.sort(key=lambda r: -r["stars"])
    return {"rows": rows, "areas": list(AREA_ICONS.items())}


def _countdown(view: dict, context: dict) -> dict | None:
    if view["countdown"] is None:
        return None
    me = view["seat"]
    choosing = me is not None and me != view["active"]
    for timer in context.get("timers") or []:
        if timer["type"] == "timeout":
            return {
                "ms": timer["ms"],
                "seconds": view["countdown"]["seconds"],
                "words": "s left to choose" if choosing else "s left for the others",
            }
    return None


def present(view: dict, context: dict) -> dict[str, Any]:
    me = view["seat"]
    screen = bool(context.get("screen"))
    shown = dice(view, me)
    headline, subline = _headline(view, me)
    legal = view["legal_actions"]
    own = None
    if me is not None and not screen:
        own = drawn_sheet(view["sheets"][me], legal, mine=True)
    return {
        "game": {
            "me": me,
            "turn": view["turn"],
            "phase": view["phase"],
            "active_seat": view["active"] if view["phase"] != "over" else None,
            "headline": headline,
            "subline": subline,
            "my_move": bool(legal),
            "dice": shown if view["phase"] != "over" else [],
            "dice_label": _dice_label(view),
            "choices": _choices(view, shown),
            "controls": _controls(view, me) if me is not None else [],
            "hint": _hint(view["sheets"][me], legal) if own and own["marking"] else "",
            "sheet": own,
            # the big screen and a watcher without a seat see every sheet
            "sheets": [drawn_sheet(s, [], mine=False) for s in view["sheets"]]
            if own is None
            else [],
            "players": _players(view, context, me),
            "countdown": _countdown(view, context),
            "ending": view["ending"] and view["phase"] != "over",
            "outcome": _outcome(view),
            "log": [log_line(e, view["players"]) for e in reversed(view["log"][-8:])],
        }
    }


def _dice_label(view: dict) -> str:
    if view["phase"] == "others":
        return f"The dice {view['players'][view['active']]} left"
    return "The dice"
