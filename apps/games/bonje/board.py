"""The stables on a screen: every player's stables with their state in words, and, for the
player holding a card, the stables it may go to as buttons (a transport truck in two steps:
which animal, then where)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from apps.core.i18n import N_, _, ngettext

from .cards import NOUN, capital, the, with_article
from .story import Voice, animals_text, fate

# A stable's state as a short text (colour is never the only sign of it).
STATE_TEXT = {
    "complete": N_("Complete ✓"),
    "empty": N_("Empty"),
    "elephant": N_("Elephant inside"),
    "brawl": N_("Brawl!"),
    "needs_male": N_("Needs a male"),
    "needs_female": N_("Needs a female"),
    "wrong_kind": N_("Wrong kind"),
}
SIGN = {"male": "♂", "female": "♀"}


def act(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def pic(card: dict | None) -> dict | None:
    """A card as the templates draw it."""
    if card is None:
        return None
    name = card["name"]
    words = with_article(name)
    if card["number"] is not None:
        words = _("{card} (number {number})").format(card=words, number=card["number"])
    label = _(NOUN[name])
    return {
        "name": name,
        "label": label,
        # the name under the picture: dark on the light (female) cards, squeezed when long
        "ink": "dark" if card["sex"] == "female" else "light",
        "fit": len(label) > 8,
        "sign": SIGN.get(card["sex"] or "", ""),
        "number": card["number"],
        "article": with_article(name),
        "words": words,
    }


def _state_text(stable: dict) -> str:
    status = stable["status"]
    if status in ("needs_male", "needs_female") and stable["kind"]:
        return stable["needs_line"]
    return _(STATE_TEXT[status]) if status in STATE_TEXT else status


class Targets:
    """Where the viewer's held card may go, read from their legal actions."""

    def __init__(self, actions: list[dict], voice: Voice, holding: dict | None):
        self.voice = voice
        self.holding = holding
        self.plain: dict[tuple[int, int], dict] = {}
        self.picks: dict[tuple[int, int, str], dict] = {}
        self.drops: dict[tuple[int, int], list[str]] = {}
        self.removable: list[str] = []
        for action in actions:
            kind = action["type"]
            if kind == "place":
                self.plain[(voice.me, action["stable"])] = action
            elif kind in ("elephant", "mad"):
                self.plain[(action["seat"], action["stable"])] = action
            elif kind == "truck":
                source = (action["from_seat"], action["from_stable"], action["animal"])
                key = "-".join(str(part) for part in source)
                self.picks.setdefault(source, {"key": key})
                if action["to_seat"] is None:
                    self.removable.append(key)
                else:
                    to = (action["to_seat"], action["to_stable"])
                    self.drops.setdefault(to, []).append(key)

    def target(self, seat: int, index: int) -> dict | None:
        action = self.plain.get((seat, index))
        if action is None or self.holding is None:
            return None
        where = self.voice.stable(seat, index)
        card = the(self.holding["name"])
        if action["type"] == "mad":
            aria = _("Send {card} into {stable}").format(card=card, stable=where)
        else:
            aria = _("Put {card} in {stable}").format(card=card, stable=where)
        return {"id": f"to-{seat}-{index}", "act": act(action), "aria": aria, "text": _("Here")}

    def drop(self, seat: int, index: int) -> dict | None:
        keys = self.drops.get((seat, index))
        if not keys:
            return None
        return {
            "id": f"drop-{seat}-{index}",
            "from": " ".join(keys),
            "data": act({"to_seat": seat, "to_stable": index}),
            # {animal} is filled in on the phone once the animal is picked.
            "aria": _("Move {animal} into {stable}").format(
                animal="{animal}", stable=self.voice.stable(seat, index)
            ),
        }

    def pick(self, seat: int, index: int, name: str) -> dict | None:
        found = self.picks.get((seat, index, name))
        if found is None:
            return None
        source = self.voice.source(seat, index)
        return {
            "id": f"pick-{found['key']}",
            "key": found["key"],
            "data": act({"from_seat": seat, "from_stable": index, "animal": name}),
            "aria": _("Move {animal} {source}").format(animal=the(name), source=source),
            "animal": the(name),
        }

    def remove(self) -> dict | None:
        if not self.removable:
            return None
        return {
            "id": "drop-out",
            "from": " ".join(self.removable),
            "data": act({"to_seat": None, "to_stable": None}),
            "aria": _("Take {animal} out of the game").format(animal="{animal}"),
        }


def stable_block(player: dict, stable: dict, voice: Voice, targets: Targets | None) -> dict:
    seat, index = player["seat"], stable["index"]
    counts = Counter(card["name"] for card in stable["cards"])
    sexes = {card["name"]: card["sex"] for card in stable["cards"]}
    groups = []
    for name, count in counts.items():
        groups.append(
            {
                "name": name,
                "count": count,
                "text": animals_text(name, count),
                "sign": SIGN.get(sexes[name] or "", ""),
                "pick": targets.pick(seat, index, name) if targets else None,
            }
        )
    state = _state_text(stable)
    contents = ", ".join(g["text"] for g in groups) or _("nothing in it")
    return {
        "id": f"st-{seat}-{index}",
        "number": index + 1,
        "label": capital(stable["label"]),
        "special": stable["special"],
        "status": stable["status"],
        "state": state,
        "needs": stable["needs_line"],
        "complete": stable["complete"],
        "groups": groups,
        "value": stable["value"],
        "aria": _("{stable}: {contents}. {state}.").format(
            stable=voice.title(seat, index), contents=contents, state=state
        ),
        "target": targets.target(seat, index) if targets else None,
        "drop": targets.drop(seat, index) if targets else None,
    }


def player_block(
    player: dict,
    voice: Voice,
    targets: Targets | None,
    seat_row: Any,
    connected: set[int],
    view: dict,
) -> dict:
    """One player's part of the table: name, badges, what they hold, their stables."""
    seat = player["seat"]
    stables = [stable_block(player, s, voice, targets) for s in player["stables"]]
    badges = []
    if seat_row is not None and seat_row.is_bot:
        badges.append({"text": _("bot"), "tone": ""})
    elif seat_row is not None and seat_row.bot_for:
        text = _("Bot playing for {name}").format(name=seat_row.bot_for)
        badges.append({"text": text, "tone": "bot-for"})
    elif seat not in connected and seat != voice.me:
        badges.append({"text": _("phone away"), "tone": "away"})
    if player["called"]:
        badges.append({"text": _("called COMPLETE!"), "tone": "turn"})
    complete = sum(1 for s in player["stables"] if s["complete"])
    return {
        "seat": seat,
        "name": voice.who(seat),
        "real_name": player["name"],
        "is_me": seat == voice.me,
        "badges": badges,
        "wins": player["wins"],
        "wins_text": ngettext("{count} round won", "{count} rounds won", player["wins"]).format(
            count=player["wins"]
        ),
        "stable_count": player["stable_count"],
        "complete_count": complete,
        "value": player["value"],
        "doing": _doing(player, voice, view),
        "holding": pic(player["holding"]),
        "stables": stables,
        "columns": min(len(stables), 5),
        "acts": any(s["target"] or s["drop"] for s in stables)
        or any(g["pick"] for s in stables for g in s["groups"]),
    }


def _doing(player: dict, voice: Voice, view: dict) -> str:
    """What a player is up to this turn, in a few words."""
    if view["phase"] not in ("race", "calls", "pause"):
        return ""
    holding = player["holding"]
    if holding is not None:
        card = the(holding["name"])
        if player["waiting"]:
            order = view["waiting_order"]
            place = order.index(player["seat"]) + 1 if player["seat"] in order else 0
            if place:
                return _("waits with {card} (plays {place})").format(card=card, place=_nth(place))
            return _("waits with {card}").format(card=card)
        return _("holds {card}").format(card=card)
    took = player.get("took")
    if took is not None and player["took_from"] is not None:
        done = fate(view["log"], player["seat"])
        card = the(took["name"])
        if done is not None and done["type"] == "removed":
            return _("lost {card}").format(card=card)
        return _("played {card}").format(card=card)
    if view["phase"] == "race":
        return _("looking…")
    return ""


def _nth(place: int) -> str:
    if place == 1:
        return _("1st")
    if place == 2:
        return _("2nd")
    if place == 3:
        return _("3rd")
    return _("{place}th").format(place=place)
