"""The stables on a screen: every player's stables with their state in words, and, for the
player holding a card, the stables it may go to as buttons (a transport truck in two steps:
which animal, then where)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from .cards import with_article, word
from .story import Voice, animals_text, fate

# A stable's state as a short text (colour is never the only sign of it).
STATE_TEXT = {
    "complete": "Complete ✓",
    "empty": "Empty",
    "elephant": "Elephant inside",
    "brawl": "Brawl!",
    "needs_male": "Needs a male",
    "needs_female": "Needs a female",
    "wrong_kind": "Wrong kind",
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
        words += f" (number {card['number']})"
    return {
        "name": name,
        "label": card["label"],
        "sign": SIGN.get(card["sex"] or "", ""),
        "number": card["number"],
        "article": with_article(name),
        "words": words,
    }


def needs_text(needs: str) -> str:
    """The rules' "it needs a mare" as a stable's line: "Needs a mare"."""
    text = needs.removeprefix("it is empty: ").removeprefix("it ")
    text = text.replace("only a transport truck", "only a truck")
    return text[:1].upper() + text[1:]


def _state_text(stable: dict) -> str:
    status = stable["status"]
    if status in ("needs_male", "needs_female") and stable["kind"]:
        return needs_text(stable["needs"])
    return STATE_TEXT.get(status, status)


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
        card = word(self.holding["name"])
        verb = {"place": "Put", "elephant": "Put", "mad": "Send"}[action["type"]]
        return {
            "id": f"to-{seat}-{index}",
            "act": act(action),
            "aria": f"{verb} the {card} in {where}",
            "text": "Here",
        }

    def drop(self, seat: int, index: int) -> dict | None:
        keys = self.drops.get((seat, index))
        if not keys:
            return None
        return {
            "id": f"drop-{seat}-{index}",
            "from": " ".join(keys),
            "data": act({"to_seat": seat, "to_stable": index}),
            "aria": f"Move the {{animal}} into {self.voice.stable(seat, index)}",
        }

    def pick(self, seat: int, index: int, name: str) -> dict | None:
        found = self.picks.get((seat, index, name))
        if found is None:
            return None
        where = self.voice.stable(seat, index)
        return {
            "id": f"pick-{found['key']}",
            "key": found["key"],
            "data": act({"from_seat": seat, "from_stable": index, "animal": name}),
            "aria": f"Move the {word(name)} out of {where}",
        }

    def remove(self) -> dict | None:
        if not self.removable:
            return None
        return {
            "id": "drop-out",
            "from": " ".join(self.removable),
            "data": act({"to_seat": None, "to_stable": None}),
            "aria": "Take the {animal} out of the game",
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
    contents = ", ".join(g["text"] for g in groups) or "nothing in it"
    label = stable["label"].removeprefix("the ")
    return {
        "id": f"st-{seat}-{index}",
        "number": index + 1,
        "label": label[:1].upper() + label[1:],
        "special": stable["special"],
        "status": stable["status"],
        "state": state,
        "needs": needs_text(stable["needs"]) if stable["needs"] else "",
        "complete": stable["complete"],
        "groups": groups,
        "value": stable["value"],
        "aria": f"{voice.stable(seat, index).capitalize()}: {contents}. {state}.",
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
        badges.append({"text": "bot", "tone": ""})
    elif seat_row is not None and seat_row.bot_for:
        badges.append({"text": f"Bot playing for {seat_row.bot_for}", "tone": "bot-for"})
    elif seat not in connected and seat != voice.me:
        badges.append({"text": "phone away", "tone": "away"})
    if player["called"]:
        badges.append({"text": "called COMPLETE!", "tone": "turn"})
    complete = sum(1 for s in player["stables"] if s["complete"])
    return {
        "seat": seat,
        "name": voice.who(seat) if seat != voice.me else "You",
        "real_name": player["name"],
        "is_me": seat == voice.me,
        "badges": badges,
        "wins": player["wins"],
        "wins_text": f"{player['wins']} round{'s' if player['wins'] != 1 else ''} won",
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
        card = word(holding["name"])
        if player["waiting"]:
            order = view["waiting_order"]
            place = order.index(player["seat"]) + 1 if player["seat"] in order else 0
            return f"waits with the {card}" + (f" (plays {_nth(place)})" if place else "")
        return f"holds the {card}"
    took = player.get("took")
    if took is not None and player["took_from"] is not None:
        done = fate(view["log"], player["seat"])
        lost = done is not None and done["type"] == "removed"
        return f"{'lost' if lost else 'played'} the {word(took['name'])}"
    if view["phase"] == "race":
        return "looking…"
    return ""


def _nth(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
