"""Dschungelparty in words: the names of faces, fields and rewards, and the table's log, for
the buttons' spoken labels, the dice's captions and the screens' lines. One name for one thing,
the same on the phone, the big screen and in the rules' sentences; each in the viewer's
language (apps.core.i18n), the game's keys ("green", "half-dots") staying the data."""

from __future__ import annotations

from apps.core.i18n import N_, _, ngettext

from .sheet import FACES, JOKER

COLOUR_WORDS = {
    "green": N_("green"),
    "purple": N_("purple"),
    "blue": N_("blue"),
    "pink": N_("pink"),
    "joker": N_("joker"),
}
FACE_WORDS = {
    "butterfly-multi": N_("multicoloured butterfly"),
    "butterfly-blue": N_("blue butterfly"),
    "butterfly-yellow": N_("yellow butterfly"),
    "flower-yellow": N_("yellow flower"),
    "flower-blue": N_("blue flower"),
    "flower-red": N_("red flower"),
    "flower-white": N_("white flower"),
    "banana": N_("banana"),
    "elephant": N_("elephant"),
    "half-stripes": N_("coconut half (stripes)"),
    "half-dots": N_("coconut half (dots)"),
    "half-zigzag": N_("coconut half (zigzag)"),
}
FACE_CAPTIONS = {
    "butterfly-multi": N_("multi butterfly"),
    "half-stripes": N_("stripes half"),
    "half-dots": N_("dots half"),
    "half-zigzag": N_("zigzag half"),
}
FLOWER_WORDS = {
    "yellow": N_("the yellow flower"),
    "blue": N_("the blue flower"),
    "red": N_("the red flower"),
    "white": N_("the white flower"),
}
ROW_WORDS = {
    "multi": N_("the multicoloured butterfly row"),
    "blue": N_("the blue butterfly row"),
    "yellow": N_("the yellow butterfly row"),
}
COLUMN_WORDS = {
    "green": N_("the green column of the fountain"),
    "purple": N_("the purple column of the fountain"),
    "blue": N_("the blue column of the fountain"),
    "pink": N_("the pink column of the fountain"),
}
STATUS_WORDS = {
    "rolling": N_("rolls the dice"),
    "choosing": N_("choosing"),
    "marking": N_("crossing"),
    "confirmed": N_("confirmed"),
    "passed": N_("passed"),
    "nothing": N_("nothing fits"),
    "timed_out": N_("out of time"),
    "waiting": N_("waiting"),
    "done": N_("done"),
    "over": N_("finished"),
    "won": N_("wins"),
}
AREA_WORDS = {
    "green": N_("flowers"),
    "purple": N_("bananas"),
    "blue": N_("fountain"),
    "pink": N_("coconuts"),
}


def colour(key: str) -> str:
    """A die's or an area's colour: "green"."""
    return _(COLOUR_WORDS[key]) if key in COLOUR_WORDS else key


def status_words(status: str) -> str:
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def area_noun(area: str) -> str:
    return _(AREA_WORDS[area])


def _face_key(face: str) -> str:
    f = FACES[face]
    return f"{f.symbol}-{f.kind}" if f.kind else f.symbol


def face_words(face: str) -> str:
    """ "yellow flower", "multicoloured butterfly", "coconut half (dots)", "joker"."""
    if face == JOKER:
        return _("joker")
    return _(FACE_WORDS[_face_key(face)])


def face_caption(face: str) -> str:
    """A face under its die, short enough for a phone's narrow die: "multi butterfly"."""
    key = _face_key(face)
    if key in FACE_CAPTIONS:
        return _(FACE_CAPTIONS[key])
    return face_words(face)


def die_words(die: dict) -> str:
    """A die as it lies: "green die: yellow flower", "joker"."""
    if die["joker"]:
        if die.get("as"):
            return _("joker (used as {what})").format(what=as_words(die["as"]))
        return _("joker")
    return _("{colour} die: {face}").format(
        colour=colour(die["colour"]), face=face_words(die["face"])
    )


def as_words(named: str) -> str:
    """What a joker stood for: a face, "pink-half-any", or a fountain column's colour."""
    if named == "pink-half-any":
        return _("a coconut half")
    if named in FACES:
        return face_words(named)
    return _("a {colour} die").format(colour=colour(named))


def field_words(field: str) -> str:
    """A field by its name in ``sheet.layout()``."""
    area, *rest = field.split("-")
    if area == "green":
        row, flower = rest
        return _("{flower} in {row}").format(flower=_(FLOWER_WORDS[flower]), row=_(ROW_WORDS[row]))
    if area == "purple":
        return _("bunch {bunch} of banana crate {crate}").format(
            bunch=int(rest[1]) + 1, crate=int(rest[0]) + 1
        )
    if area == "blue":
        column, row = rest
        return _("{column}, row {row}").format(column=_(COLUMN_WORDS[column]), row=int(row) + 1)
    return _("coconut {number}").format(number=int(rest[0]) + 1)


def stars_words(count: int) -> str:
    """ "1 rainbow star", "3 rainbow stars"."""
    return ngettext("{count} rainbow star", "{count} rainbow stars", count).format(count=count)


def jokers_words(count: int) -> str:
    return ngettext("{count} joker", "{count} jokers", count).format(count=count)


def crosses_words(count: int) -> str:
    return ngettext("{count} cross", "{count} crosses", count).format(count=count)


def reward_words(reward: dict) -> str:
    """ "a rainbow star", "2 rainbow stars", "a pink bonus mark", "a purple bonus of 2
    bananas"."""
    if reward.get("stars"):
        if reward["stars"] == 1:
            return _("a rainbow star")
        return stars_words(reward["stars"])
    if reward.get("bonus") == "purple":
        bananas = reward["bananas"]
        return ngettext(
            "a purple bonus of {count} banana", "a purple bonus of {count} bananas", bananas
        ).format(count=bananas)
    return _("a {colour} bonus mark").format(colour=colour(reward["bonus"]))


def bonus_words(bonus: dict) -> str:
    """What a waiting bonus mark lets a player cross."""
    area = bonus["area"]
    if area == "green":
        return _("any flower")
    if area == "purple":
        if bonus["bananas"] == 1:
            return _("a bunch of 1 banana")
        return _("bananas: up to a bunch of 2")
    if area == "blue":
        return _("the next field of any fountain column")
    return _("the next coconut")


def log_line(entry: dict, names: list[str]) -> str:
    """One line of the table's log, in the past tense."""
    who = names[entry["seat"]]
    if "rolled" in entry:
        dice = ", ".join(face_words(f) for f in entry["rolled"])
        if entry.get("again"):
            return _("{name} rolled again: {dice}").format(name=who, dice=dice)
        return _("{name} rolled: {dice}").format(name=who, dice=dice)
    how = entry.get("how")
    marks = entry.get("marks") or []
    if how == "confirmed" and marks:
        bonus = sum(1 for m in marks if m.get("bonus"))
        crosses = crosses_words(len(marks) - bonus)
        taken = colour(entry["colour"])
        if bonus:
            bonuses = ngettext("{count} bonus mark", "{count} bonus marks", bonus).format(
                count=bonus
            )
            return _("{name} took {colour}: {crosses} and {bonuses}").format(
                name=who, colour=taken, crosses=crosses, bonuses=bonuses
            )
        return _("{name} took {colour}: {crosses}").format(name=who, colour=taken, crosses=crosses)
    if how == "confirmed":
        return _("{name} crossed nothing").format(name=who)
    if how == "passed":
        return _("{name} passed").format(name=who)
    if how == "nothing":
        return _("Nothing fitted {name}'s sheet").format(name=who)
    if how == "timed_out":
        return _("{name} ran out of time").format(name=who)
    return _("{name} moved").format(name=who)
