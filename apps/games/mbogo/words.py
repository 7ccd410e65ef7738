"""Mbogo in words, in the viewer's language (apps.core.i18n): the cards' names, and the hand's
log, which the rules keep as events (who did what with which kind) and a screen turns into
sentences."""

from __future__ import annotations

from apps.core.i18n import N_, _, ngettext

NAME = {
    "antelope": N_("antelope"),
    "elephant": N_("elephant"),
    "gorilla": N_("gorilla"),
    "lion": N_("lion"),
    "rhinoceros": N_("rhinoceros"),
    "warthog": N_("wart hog"),
    "cage": N_("cage"),
    "hunter": N_("hunter"),
    "mbogo": N_("Mbogo"),
}
A = {
    "antelope": N_("an antelope"),
    "elephant": N_("an elephant"),
    "gorilla": N_("a gorilla"),
    "lion": N_("a lion"),
    "rhinoceros": N_("a rhinoceros"),
    "warthog": N_("a wart hog"),
    "cage": N_("a cage"),
    "hunter": N_("a hunter"),
    "mbogo": N_("Mbogo"),
}
THE = {
    "antelope": N_("the antelope"),
    "elephant": N_("the elephant"),
    "gorilla": N_("the gorilla"),
    "lion": N_("the lion"),
    "rhinoceros": N_("the rhinoceros"),
    "warthog": N_("the wart hog"),
}
PLURAL = {
    "antelope": N_("antelopes"),
    "elephant": N_("elephants"),
    "gorilla": N_("gorillas"),
    "lion": N_("lions"),
    "rhinoceros": N_("rhinoceroses"),
    "warthog": N_("wart hogs"),
    "cage": N_("cages"),
    "hunter": N_("hunters"),
    "mbogo": N_("Mbogo"),
}
COUNTED = {
    "antelope": lambda n: ngettext("{count} antelope", "{count} antelopes", n),
    "elephant": lambda n: ngettext("{count} elephant", "{count} elephants", n),
    "gorilla": lambda n: ngettext("{count} gorilla", "{count} gorillas", n),
    "lion": lambda n: ngettext("{count} lion", "{count} lions", n),
    "rhinoceros": lambda n: ngettext("{count} rhinoceros", "{count} rhinoceroses", n),
    "warthog": lambda n: ngettext("{count} wart hog", "{count} wart hogs", n),
}


def name_of(kind: str) -> str:
    return _(NAME[kind])


def a(kind: str) -> str:
    return _(A[kind])


def the(kind: str) -> str:
    return _(THE[kind])


def plural_of(kind: str, count: int = 2) -> str:
    if count == 1:
        return name_of(kind)
    return _(PLURAL[kind])


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def counted(kind: str, count: int) -> str:
    """ "1 lion", "3 lions"."""
    return COUNTED[kind](count).format(count=count)


def log_line(entry: dict | str, names: list[str]) -> str:
    """One event of the hand's log as a sentence (a line written before events were kept as
    data is shown as it was)."""
    if isinstance(entry, str):
        return entry
    event = entry["event"]
    who = names[entry["seat"]] if "seat" in entry else ""
    kind = entry.get("kind")
    if event == "dealt":
        return _("{name} dealt.").format(name=who)
    if event == "nothing":
        return _("{name} had nothing to play.").format(name=who)
    if event == "new_cage":
        return _("{name} put out a cage with {animal}.").format(name=who, animal=a(kind))
    if event == "caged":
        return _("{name} caged {animal}.").format(name=who, animal=a(kind))
    if event == "hunted":
        return _("{name} hunted {animal} from the centre.").format(name=who, animal=a(kind))
    if event == "released":
        return _("{name} released {animal} into the centre.").format(name=who, animal=a(kind))
    if event == "took_face_down":
        return _("{name} ran out of cards and took the face-down card.").format(name=who)
    if event == "out":
        return _("{name} ran out of cards and is out of the hand.").format(name=who)
    if event == "one_left":
        return _("Only one player has cards left: the hand is over.")
    if event == "no_play":
        return _("Nobody has played for two rounds: the hand is over.")
    if event == "drew":
        return _("{name} drew from {source}.").format(name=who, source=names[entry["from"]])
    if event == "mbogo":
        return _("Mbogo! {chooser} chooses which of {name}'s cages it attacks.").format(
            chooser=names[entry["chooser"]], name=who
        )
    if event == "attack":
        count = entry["count"]
        animals = name_of(kind) if count == 1 else counted(kind, count)
        return _("Mbogo! {chooser} releases {name}'s {animals}.").format(
            chooser=names[entry["chooser"]], name=who, animals=animals
        )
    return ""
