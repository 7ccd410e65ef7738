"""One seat's sheet ready to draw: the areas' geometry (``drawing.py``) with that seat's
crosses, the rewards it has won, and on its own phone the fields it may tap, each with a
spoken label that says what the cross wins."""

from __future__ import annotations

import json

from apps.core.i18n import _, ngettext

from .areas import Sheet, mark_blue, mark_green, mark_pink, mark_purple
from .drawing import areas
from .sheet import AREAS, BUTTERFLIES, FLOWERS, FOUNTAIN_COLUMNS
from .words import area_noun, face_words, field_words, reward_words

FIELD_COUNTS = {"green": 12, "purple": 12, "blue": 12, "pink": 13}


def _of_fields(area: str, count: int, total: int) -> str:
    """ "3 of 12 flowers crossed"."""
    if area == "green":
        text = ngettext(
            "{count} of {total} flower crossed", "{count} of {total} flowers crossed", total
        )
    elif area == "purple":
        text = ngettext(
            "{count} of {total} bunch crossed", "{count} of {total} bunches crossed", total
        )
    elif area == "blue":
        text = ngettext(
            "{count} of {total} field crossed", "{count} of {total} fields crossed", total
        )
    else:
        text = ngettext(
            "{count} of {total} coconut crossed", "{count} of {total} coconuts crossed", total
        )
    return text.format(count=count, total=total)


def _wins(sheet: Sheet, action: dict) -> list[str]:
    """What crossing this field would win, in words."""
    area = action["area"]
    if area == "green":
        r, f = BUTTERFLIES.index(action["row"]), FLOWERS.index(action["flower"])
        _done, won = mark_green(sheet, r, f)
    elif area == "purple":
        _done, won = mark_purple(sheet, action["crate"], action["bunch"])
    elif area == "blue":
        _done, won = mark_blue(sheet, FOUNTAIN_COLUMNS.index(action["column"]))
    else:
        _done, won = mark_pink(sheet)
    words = []
    for name, reward in won:
        if name.startswith("extra-"):
            words.append(_("the Extra Star"))
            continue
        words.append(reward_words(vars(reward)))
    return words


def _taps(sheet_view: dict, legal: list[dict]) -> dict[str, dict]:
    """The fields this seat may cross now, by name, with their button's act and label: a tap
    crosses with the dice the rules pick first (the choice of other dice is apart)."""
    marks = [a for a in legal if a["type"] in ("mark", "bonus") and "dice" not in a]
    if not marks:
        return {}
    sheet = Sheet.from_json(sheet_view["marks"])
    taps = {}
    for action in marks:
        won = _wins(sheet, action)
        field = field_words(action["field"])
        if action["type"] == "bonus":
            label = _("Bonus mark: cross {field}").format(field=field)
        else:
            label = _("Cross {field}").format(field=field)
        if won:
            label = _("{label}: wins {rewards}").format(label=label, rewards=_(" and ").join(won))
        taps[action["field"]] = {
            "act": json.dumps(action, separators=(",", ":")),
            "label": label,
            "bonus": action["type"] == "bonus",
        }
    return taps


def _dice_choices(sheet_view: dict, legal: list[dict]) -> list[dict]:
    """The crosses offered with other dice than a tap on the field uses, one button each:
    the dice it spends, and which of the taken dice then stay for the others."""
    play = sheet_view["play"]
    if play is None:
        return []
    taken = {d["die"]: d for d in play["dice"]}
    found = []
    for action in legal:
        if action["type"] != "mark" or "dice" not in action:
            continue
        spends = [face_words(taken[d]["face"]) for d in action["dice"]]
        staying = [
            face_words(d["face"])
            for d in play["dice"]
            if not d["used"] and not d["rerolled"] and d["die"] not in action["dice"]
        ]
        text = _("Cross {field} using: {dice}").format(
            field=field_words(action["field"]), dice=", ".join(spends)
        )
        if staying:
            left = _("Stays for the others: {dice}").format(dice=", ".join(staying))
        else:
            left = _("None of your dice stays for the others")
        found.append(
            {
                "id": "dice-" + "-".join([action["field"], *map(str, action["dice"])]),
                "act": json.dumps(action, separators=(",", ":")),
                "text": text,
                "left": left,
                "aria": _("{text}; {left}").format(text=text, left=left),
            }
        )
    return found


def _area_stars(rewards: list[str]) -> dict[str, list[str]]:
    won: dict[str, list[str]] = {a: [] for a in AREAS}
    for name in rewards:
        head, _dash, rest = name.partition("-")
        won[rest if head == "extra" else head].append(name)
    return won


def _summary(area: str, count: int, won: list[str], rewards: dict[str, dict]) -> str:
    """An area in one sentence, for screen readers (the drawing itself is hidden from them)."""
    total = FIELD_COUNTS[area]
    text = _of_fields(area, count, total)
    if won:
        rewards_won = ", ".join(
            _("the Extra Star") if n.startswith("extra-") else reward_words(rewards[n]) for n in won
        )
        return _("{crossed}; won {rewards}.").format(crossed=text, rewards=rewards_won)
    return text + "."


def drawn_sheet(sheet_view: dict, legal: list[dict], mine: bool) -> dict:
    """The sheet's four areas, each with its fields, rewards and tap buttons. On a player's
    own phone the area they may cross in comes first, so it sits right under the dice."""
    marked = set(sheet_view["fields"])
    new = set(sheet_view["new"])
    won = set(sheet_view["rewards"])
    by_area = _area_stars(sheet_view["rewards"])
    taps = _taps(sheet_view, legal) if mine else {}
    choices = _dice_choices(sheet_view, legal) if mine else []
    play = sheet_view["play"]
    marking = None
    if sheet_view["bonuses"]:
        marking = sheet_view["bonuses"][0]["area"]
    elif play is not None:
        marking = play["colour"]
    drawn = []
    for key, drawing in areas().items():
        reward_ids = {s["id"]: s for s in drawing["spots"] if s["kind"] == "reward"}
        reward_ids[drawing["extra"]["id"]] = drawing["extra"]
        fields = [
            {
                **field,
                "marked": field["id"] in marked,
                "new": field["id"] in new,
                "tap": taps.get(field["id"]),
            }
            for field in drawing["fields"]
        ]
        spots = [{**spot, "won": spot.get("id") in won} for spot in drawing["spots"]]
        count = sheet_view["counts"][key]
        drawn.append(
            {
                **drawing,
                "fields": fields,
                "spots": spots,
                "extra_won": drawing["extra"]["id"] in won,
                "taps": [f for f in fields if f["tap"]],
                "dice_choices": choices if key == marking else [],
                "marking": key == marking,
                "count": count,
                "total": FIELD_COUNTS[key],
                "stars": sum(reward_ids[n]["stars"] for n in by_area[key]),
                "noun": area_noun(key),
                "summary": _summary(key, count, by_area[key], reward_ids),
            }
        )
    if mine and marking is not None:
        drawn.sort(key=lambda a: not a["marking"])
    return {
        "seat": sheet_view["seat"],
        "prefix": "me" if mine else f"s{sheet_view['seat']}",
        "name": sheet_view["name"],
        "stars": sheet_view["stars"],
        "status": sheet_view["status"],
        "areas": drawn,
        "new_count": len(new),
        "marking": marking,
        "bonus": bool(sheet_view["bonuses"]),
    }
