"""Person names, as every list of the product shows them: a night's players, a game room's
seats, a circle's members.

A name is read aloud, shown on a phone and on the big screen, and told apart from the others
by eye. So it is cleaned once, the same way everywhere: compatibility forms folded (NFKC),
invisible characters (controls, zero-width and direction marks, lone surrogates) dropped, runs
of spaces made one. Two names that then differ only in case or spaces are the same name, and a
name may not pass for one of the app's own empty seats ("Ghost 1").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from apps.core.errors import Refused
from apps.core.i18n import _

MAX_NAME = 30
# The app's own seat names: a ghost rolls for an empty seat at a night's table.
RESERVED_PREFIXES = ("ghost",)
INVISIBLE = {"Cc", "Cf", "Cs"}


def clean_name(text: object, max_length: int = MAX_NAME, empty: str = "") -> str:
    """The name as it will be stored and shown; Refused when nothing (or too much) is left or
    when it imitates a ghost seat."""
    name = unicodedata.normalize("NFKC", str(text or ""))
    # Whitespace (tabs, newlines, no-break spaces) becomes one space before controls go,
    # so "Ann\tB" stays two words.
    name = "".join(" " if ch.isspace() else ch for ch in name)
    name = "".join(ch for ch in name if unicodedata.category(ch) not in INVISIBLE)
    name = " ".join(name.split())
    if not name:
        raise Refused(empty or _("Type a name first."))
    if len(name) > max_length:
        raise Refused(_("A name can be at most {MAX_NAME} characters.").format(MAX_NAME=max_length))
    if imitates_ghost(name):
        raise Refused(_("Names starting with 'Ghost' are kept for the app's ghost seats."))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: "ANN", "ann", "Ａnn" are one name; "Jo Ann", "JoAnn" too."""
    return "".join(clean_key(name).split())


def clean_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", str(name or ""))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in INVISIBLE)
    return unicodedata.normalize("NFKC", text.casefold())


def imitates_ghost(name: str) -> bool:
    return name_key(name).startswith(RESERVED_PREFIXES)


def same_name(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that is ``name`` once case and look-alike forms are set aside."""
    key = name_key(name)
    return next((other for other in others if name_key(other) == key), None)
