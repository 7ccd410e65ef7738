"""How Dschungelparty reads on a phone and on the big screen: the rules' view for one viewer
turned into a headline, the dice, buttons with spoken labels, and sheets ready to draw, each
field knowing whether it is crossed and whether this viewer may tap it."""

from __future__ import annotations

import json
from typing import Any

from apps.core.i18n import N_, _, ngettext

from .sheet import AREAS
from .sheets import drawn_sheet
from .words import (
    as_words,
    bonus_words,
    colour,
    die_words,
    face_caption,
    face_words,
    field_words,
    jokers_words,
    log_line,
    stars_words,
    status_words,
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
    "chosen": N_("taken"),
    "used": N_("used"),
    "left": N_("left over"),
    "gone": N_("gone"),  # an elephant rolled again and not used: "no longer available"
}


def _status(status: str) -> str:
    return _(TABLE_STATUS[status]) if TABLE_STATUS[status] else ""


def _die(die: dict, status: str, words: str, free: bool, rerolled: bool = False) -> dict:
    named = die.get("as")
    if rerolled:  # an elephant rolled again: only its new colour counts
        words = _("rolled again, {status}").format(status=words) if words else _("rolled again")
    return {
        "die": die["die"],
        "colour": die["colour"] or "joker",
        "icon": icon_of(die),
        "joker": die["joker"],
        "caption": _("joker") if die["joker"] else face_caption(die["face"]),
        "words": _("joker") if die["joker"] else face_words(die["face"]),
        "status": status,
        "status_words": words,
        "as_words": as_words(named) if named else "",
        "free": free,
        "label": die_words(die) + (", " + words if words else ""),
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
            shown.append(_die(taken, status, _status(status), False, taken["rerolled"]))
            continue
        if mine and status == "left":
            shown.append(_die(die, "not-taken", _("not taken"), False))
            continue
        # the active player takes from the dice rolled, the others from the dice left
        free = me is not None and play is None and status == ("rolled" if me == active else "left")
        words = _status(status)
        if phase == "others" and me != active:
            if status == "left":
                words = _("free")
            elif status == "used":
                words = _("{name}'s").format(name=view["players"][active])
        elif phase == "others" and status == "used":
            words = _("yours")
        shown.append(_die(die, status, words, free, die["rerolled"]))
    return shown


def _choices(view: dict, shown: list[dict]) -> list[dict]:
    """ "Take green": every die of the colour and every joker, in words."""
    free = [d for d in shown if d["free"]]
    choices = []
    for action in view["legal_actions"]:
        if action["type"] != "choose":
            continue
        key = action["colour"]
        taken = [d for d in free if d["colour"] == key]
        jokers = sum(1 for d in free if d["joker"])
        joker_words = [jokers_words(jokers)] if jokers else []
        what = ", ".join([d["caption"] for d in taken] + joker_words)
        spoken = ", ".join([d["words"] for d in taken] + joker_words)
        text = _("Take {colour}").format(colour=colour(key))
        if key == "blue" and jokers:
            # ruling: "a joker taken with them is no elephant die and is not rerolled"
            aria = ngettext(
                "{take}: {dice} (the elephants are rolled again, the joker stays)",
                "{take}: {dice} (the elephants are rolled again, the jokers stay)",
                jokers,
            )
        elif key == "blue":
            aria = _("{take}: {dice} (the elephants are rolled again)")
        else:
            aria = _("{take}: {dice}")
        choices.append(
            {
                "colour": key,
                "icon": AREA_ICONS[key],
                "text": text,
                "what": what,
                "aria": aria.format(take=text, dice=spoken),
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
        text = _("Put the dice back")
        return text, _("{text}: the {colour} dice, to choose again").format(
            text=text, colour=colour(play["colour"])
        )
    if step["type"] == "skip_bonus":
        return _("Undo"), _("Undo: take back skipping the bonus mark")
    text = _("Undo last cross")
    return text, _("{text}: {field}").format(text=text, field=field_words(step["field"]))


def _controls(view: dict, me: int) -> list[dict]:
    kinds = {a["type"] for a in view["legal_actions"]}
    play = view["sheets"][me]["play"]
    marks = len(play["marks"]) if play else 0
    if marks:
        confirm = ngettext("Confirm {count} cross", "Confirm {count} crosses", marks).format(
            count=marks
        )
    else:
        confirm = _("Done: cross nothing")
    words = {
        "roll": (_("Roll the dice"), _("Roll the dice: all five"), "primary"),
        "reroll": (_("Roll all five again"), _("Roll all five again: nothing fits"), "primary"),
        "skip_bonus": (_("Skip this bonus"), _("Skip this bonus: let the bonus mark go"), ""),
        "confirm": (confirm, confirm, "primary"),
        "pass": (_("Pass"), _("Pass: cross nothing this round"), ""),
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


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("{people} and {last}").format(people=", ".join(names[:-1]), last=names[-1])


def _headline(view: dict, me: int | None) -> tuple[str, str]:
    """(headline, one line under it) for this viewer."""
    names, phase, active = view["players"], view["phase"], view["active"]
    who = names[active]
    if phase == "over":
        return _over_headline(view), _("Most rainbow stars wins; a tie shares the win.")
    mine = me is not None and me in view["to_act"]
    sheet = view["sheets"][me] if me is not None else None
    if phase == "roll":
        if me == active:
            return _("Your turn: roll the dice"), _("Then take one colour and cross on your sheet.")
        return _("{name} rolls the dice").format(name=who), ""
    if mine and sheet is not None:
        return _my_step(view, sheet, me == active)
    if me is not None and me != active and phase == "others":
        done = view["sheets"][me]["status"]
        waiting = [names[o["seat"]] for o in view["others"] if o["status"] in _BUSY]
        rest = _("Waiting for {names}.").format(names=_names(waiting)) if waiting else ""
        if done == "confirmed":
            return _("Your crosses are made"), rest
        if done == "passed":
            return _("You passed this round"), rest
        if done == "nothing":
            return _("None of {name}'s dice fit your sheet").format(name=who), rest
        if done == "timed_out":
            return _("Time ran out for this round"), rest
        return _("Waiting"), rest
    if phase == "others":
        waiting = [names[o["seat"]] for o in view["others"] if o["status"] in _BUSY]
        still = _("Still choosing: {names}.").format(names=", ".join(waiting)) if waiting else ""
        if me == active:
            return _("The others choose from your dice"), still
        line = _("from the dice {name} left, all at once.").format(name=who)
        return _("The others choose"), f"{line} {still}".strip()
    play = view["sheets"][active]["play"]
    if play is not None:
        took = _("{name} took {colour}").format(name=who, colour=colour(play["colour"]))
        return took, _("crossing on their sheet")
    return _("{name} is choosing").format(name=who), _("which colour to take")


_BUSY = ("choosing", "marking")


def _my_step(view: dict, sheet: dict, active: bool) -> tuple[str, str]:
    play = sheet["play"]
    if play is None:
        kinds = {a["type"] for a in view["legal_actions"]}
        if "choose" in kinds:
            if active:
                title = _("Take a colour")
            else:
                title = _("Take a colour from {name}'s dice").format(
                    name=view["players"][view["active"]]
                )
            return title, _("You take every die of it and every joker.")
        if "reroll" in kinds:
            return _("Nothing fits"), _("You may roll all five dice once more.")
        return _("Nothing fits"), _("Pass: you cross nothing this round.")
    if sheet["bonuses"]:
        bonus = sheet["bonuses"][0]
        more = len(sheet["bonuses"]) - 1
        line = _("Cross {what}.").format(what=bonus_words(bonus))
        if more:
            line += " " + ngettext(
                "({count} more bonus mark after this)",
                "({count} more bonus marks after this)",
                more,
            ).format(count=more)
        return _("Bonus mark: {colour}").format(colour=colour(bonus["area"])), line
    if any(a["type"] == "mark" for a in view["legal_actions"]):
        return _("Cross in {colour}").format(colour=colour(play["colour"])), _(
            "Tap a dashed field on your sheet, then confirm."
        )
    return _("Confirm your crosses"), _("Your dice have no more crosses to make.")


def _hint(sheet: dict, legal: list[dict]) -> str:
    """The step in a few words beside the turn's buttons, for when the headline has scrolled
    away above the sheet."""
    if sheet["bonuses"]:
        bonus = sheet["bonuses"][0]
        return _("Bonus mark in {colour}: cross {what}.").format(
            colour=colour(bonus["area"]), what=bonus_words(bonus)
        )
    if any(a["type"] == "mark" for a in legal):
        return _("Tap a dashed field in {colour}, then confirm.").format(
            colour=colour(sheet["play"]["colour"])
        )
    return _("No more crosses to make: confirm.")


def _over_headline(view: dict) -> str:
    result = view["outcome"]
    names = view["players"]
    if result is None:
        return _("Game over")
    top = result["winners"]
    stars = stars_words(result["stars"][top[0]])
    if len(names) == 1:
        return _("Game over: {stars}").format(stars=stars)
    if len(top) > 1:
        return _("{names} share the win with {stars}").format(
            names=_names([names[s] for s in top]), stars=stars
        )
    return _("{name} wins with {stars}").format(name=names[top[0]], stars=stars)


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
                "status_words": status_words(status),
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
    return {"rows": rows, "areas": [(a, icon, colour(a)) for a, icon in AREA_ICONS.items()]}


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
                "words": _("s left to choose") if choosing else _("s left for the others"),
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
        return _("The dice {name} left").format(name=view["players"][view["active"]])
    return _("The dice")
