"""Prize categories as plain data (pure: no Django imports).

Ruling: 'Default categories: most wins, most losses, most Bunkos, most wipeouts, travelling
Bunko, travelling wipeout, consolation. The host can rename, reorder, drop or add
categories.' A category added by the host is awarded by the host's own choice.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from apps.core.i18n import N_, _

MOST_WINS = "most_wins"
MOST_LOSSES = "most_losses"
MOST_BUNKOS = "most_bunkos"
MOST_WIPEOUTS = "most_wipeouts"
TRAVELLING_BUNKO = "travelling_bunko"
TRAVELLING_WIPEOUT = "travelling_wipeout"
CONSOLATION = "consolation"
HOST_CHOICE = "host_choice"

# Kind -> the name it has unless the host renames it.
KINDS = {
    MOST_WINS: N_("Most wins"),
    MOST_LOSSES: N_("Most losses"),
    MOST_BUNKOS: N_("Most Bunkos"),
    MOST_WIPEOUTS: N_("Most wipeouts"),
    TRAVELLING_BUNKO: N_("Travelling Bunko"),
    TRAVELLING_WIPEOUT: N_("Travelling wipeout"),
    CONSOLATION: N_("Consolation prize"),
    HOST_CHOICE: N_("The host's choice"),
}


def shown(kind: str, name: str) -> str:
    """A category's name in the viewer's language: a default name is translated, a name the
    host typed is shown as typed (the state keeps the name, never a translation)."""
    return _(name) if name == KINDS.get(kind) else name


def kept(kind: str, name: str) -> str:
    """The name to keep for a category the host saved: a default name shown translated is
    kept as the default (so it goes on following each viewer's language)."""
    default = KINDS.get(kind)
    return default if default is not None and name in (default, _(default)) else name


# The tally a "most" category counts.
COUNTS = {
    MOST_WINS: "wins",
    MOST_LOSSES: "losses",
    MOST_BUNKOS: "bunkos",
    MOST_WIPEOUTS: "wipeouts",
}


@dataclass(frozen=True)
class Category:
    kind: str
    name: str
    prize: str = ""  # the physical prize on the prize table ("scented candle")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Category:
        return cls(
            kind=data["kind"],
            name=data.get("name") or KINDS[data["kind"]],
            prize=data.get("prize", ""),
        )


DEFAULT = [
    Category(kind, KINDS[kind])
    for kind in (
        MOST_WINS,
        MOST_LOSSES,
        MOST_BUNKOS,
        MOST_WIPEOUTS,
        TRAVELLING_BUNKO,
        TRAVELLING_WIPEOUT,
        CONSOLATION,
    )
]


def check(categories: list[Category]) -> list[Category]:
    """A night's categories: known kinds, a name each, every kind but the host's choice at
    most once (two "most wins" would award the same thing twice)."""
    seen: set[str] = set()
    checked = []
    for category in categories:
        if category.kind not in KINDS:
            raise ValueError(f"Unknown prize category {category.kind!r}.")
        if category.kind != HOST_CHOICE and category.kind in seen:
            raise ValueError(f"{KINDS[category.kind]} is listed twice.")
        seen.add(category.kind)
        name = " ".join(category.name.split())[:60] or KINDS[category.kind]
        checked.append(Category(category.kind, name, " ".join(category.prize.split())[:80]))
    return checked
