"""Dschungelparty in words: the names of faces, fields and rewards, and the table's log, for
the buttons' spoken labels, the dice's captions and the screens' lines. One name for one thing,
the same on the phone, the big screen and in the rules' sentences."""

from __future__ import annotations

from .sheet import FACES, JOKER

BUTTERFLY_WORDS = {"multi": "multicoloured", "blue": "blue", "yellow": "yellow"}
BUTTERFLY_SHORT = {"multi": "multi", "blue": "blue", "yellow": "yellow"}
STATUS_WORDS = {
    "rolling": "rolls the dice",
    "choosing": "choosing",
    "marking": "crossing",
    "confirmed": "confirmed",
    "passed": "passed",
    "nothing": "nothing fits",
    "timed_out": "out of time",
    "waiting": "waiting",
    "done": "done",
    "over": "finished",
    "won": "wins",
}
AREA_WORDS = {"green": "flowers", "purple": "bananas", "blue": "fountain", "pink": "coconuts"}


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def face_words(face: str) -> str:
    """ "yellow flower", "multicoloured butterfly", "coconut half (dots)", "joker"."""
    if face == JOKER:
        return "joker"
    f = FACES[face]
    if f.symbol == "butterfly":
        return f"{BUTTERFLY_WORDS[f.kind or '']} butterfly"
    if f.symbol == "flower":
        return f"{f.kind} flower"
    if f.symbol == "half":
        return f"coconut half ({f.kind})"
    return f.symbol


def face_caption(face: str) -> str:
    """A face under its die, short enough for a phone's narrow die: "multi butterfly"."""
    f = FACES[face]
    if f.symbol == "butterfly":
        return f"{BUTTERFLY_SHORT[f.kind or '']} butterfly"
    if f.symbol == "half":
        return f"{f.kind} half"
    return face_words(face)


def die_words(die: dict) -> str:
    """A die as it lies: "green die: yellow flower", "joker"."""
    if die["joker"]:
        named = f" (used as {as_words(die['as'])})" if die.get("as") else ""
        return f"joker{named}"
    return f"{die['colour']} die: {face_words(die['face'])}"


def as_words(named: str) -> str:
    """What a joker stood for: a face, "pink-half-any", or a fountain column's colour."""
    if named == "pink-half-any":
        return "a coconut half"
    if named in FACES:
        return face_words(named)
    return f"a {named} die"


def field_words(field: str) -> str:
    """A field by its name in ``sheet.layout()``."""
    area, *rest = field.split("-")
    if area == "green":
        row, flower = rest
        return f"the {flower} flower in the {BUTTERFLY_WORDS[row]} butterfly row"
    if area == "purple":
        return f"bunch {int(rest[1]) + 1} of banana crate {int(rest[0]) + 1}"
    if area == "blue":
        column, row = rest
        return f"the {column} column of the fountain, row {int(row) + 1}"
    return f"coconut {int(rest[0]) + 1}"


def reward_words(reward: dict) -> str:
    """ "a rainbow star", "2 rainbow stars", "a pink bonus mark", "a purple bonus of 2
    bananas"."""
    if reward.get("stars"):
        return "a rainbow star" if reward["stars"] == 1 else f"{reward['stars']} rainbow stars"
    if reward.get("bonus") == "purple":
        return f"a purple bonus of {plural(reward['bananas'], 'banana')}"
    return f"a {reward['bonus']} bonus mark"


def bonus_words(bonus: dict) -> str:
    """What a waiting bonus mark lets a player cross."""
    area = bonus["area"]
    if area == "green":
        return "any flower"
    if area == "purple":
        return "a bunch of 1 banana" if bonus["bananas"] == 1 else "bananas: up to a bunch of 2"
    if area == "blue":
        return "the next field of any fountain column"
    return "the next coconut"


def log_line(entry: dict, names: list[str]) -> str:
    """One line of the table's log, in the past tense."""
    who = names[entry["seat"]]
    if "rolled" in entry:
        dice = ", ".join(face_words(f) for f in entry["rolled"])
        again = " again" if entry.get("again") else ""
        return f"{who} rolled{again}: {dice}"
    how = entry.get("how")
    marks = entry.get("marks") or []
    if how == "confirmed" and marks:
        bonus = sum(1 for m in marks if m.get("bonus"))
        extra = f" and {plural(bonus, 'bonus mark')}" if bonus else ""
        crosses = plural(len(marks) - bonus, "cross", "crosses")
        return f"{who} took {entry['colour']}: {crosses}{extra}"
    return {
        "confirmed": f"{who} crossed nothing",
        "passed": f"{who} passed",
        "nothing": f"Nothing fitted {who}'s sheet",
        "timed_out": f"{who} ran out of time",
    }.get(how or "", f"{who} moved")
