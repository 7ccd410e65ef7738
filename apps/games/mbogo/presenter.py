"""How Mbogo's table reads on a phone and on the big screen: the rules' view for one viewer
turned into labels, grouped plays and a headline. Card ids appear only in what the viewer
may see (their own hand, the centre) and in the actions they may take."""

from __future__ import annotations

import json
from typing import Any

from apps.games.mbogo.cards import ANIMAL_KINDS, CAGE, HUNTER, MBOGO

KIND_ORDER = (*ANIMAL_KINDS, CAGE, HUNTER, MBOGO)
KIND_NAME = {"warthog": "wart hog", "mbogo": "Mbogo"}
PLURAL = {"rhinoceros": "rhinoceroses", "mbogo": "Mbogo"}
ARTICLE = {"antelope": "an", "elephant": "an"}


def name_of(kind: str) -> str:
    return KIND_NAME.get(kind, kind)


def plural_of(kind: str, count: int = 2) -> str:
    if count == 1:
        return name_of(kind)
    return PLURAL.get(kind, name_of(kind) + "s")


def a(kind: str) -> str:
    return f"{ARTICLE.get(kind, 'a')} {name_of(kind)}"


def _act(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def _cage_words(cages: list[dict], index: int, owner: str) -> str:
    """ "your cage of lions", "your empty cage 2": a number only where it is needed."""
    cage = cages[index]
    kind = cage["kind"]
    same = [c for c in cages if c["kind"] == kind]
    number = f" {index + 1}" if len(same) > 1 else ""
    if kind is None:
        return f"{owner} empty cage{number}"
    return f"{owner} cage{number} of {plural_of(kind)}"


def _plays(view: dict, me: int, names: list[str]) -> dict[str, list[dict]]:
    """The legal actions as buttons, one per different outcome: two lions are the same play."""
    sections: dict[str, list[dict]] = {"play": [], "draw": [], "attack": [], "table": []}
    seen: set[str] = set()
    my_cages = view["players"][me]["cages"]
    centre = {c["id"]: c["kind"] for c in view["centre"]}
    for action in view["legal_actions"]:
        kind = action["type"]
        section = "play"
        if kind == "cage":
            animal = _kind_of(view, action["animal"])
            text = f"New cage with {a(animal)}"
            aria = f"Put out a new cage with {a(animal)} in it"
        elif kind == "animal":
            animal = _kind_of(view, action["animal"])
            where = _cage_words(my_cages, action["cage"], "your")
            text = f"{name_of(animal).capitalize()} into {where}"
            aria = f"Put the {name_of(animal)} in {where}"
        elif kind == "hunt":
            animal = centre[action["animal"]]
            where = _cage_words(my_cages, action["cage"], "your")
            text = f"Hunt the {name_of(animal)} into {where}"
            aria = f"Use a hunter to take the {name_of(animal)} from the centre into {where}"
        elif kind == "release":
            animal = _kind_of(view, action["animal"])
            text = f"Release {a(animal)}"
            aria = f"Release {a(animal)} into the centre"
        elif kind == "skip":
            text = "Nothing to play: pass"
            aria = "You can play nothing: pass"
        elif kind == "draw":
            section = "draw"
            source = view["draw_from"]
            size = view["draw_from_size"]
            text = ""
            aria = f"Draw card {action['position'] + 1} of {size} from {names[source]}'s hand"
        elif kind == "attack":
            section = "attack"
            drawer = view["attack"]["drawer"]
            cages = view["players"][drawer]["cages"]
            cage = cages[action["cage"]]
            where = _cage_words(cages, action["cage"], f"{names[drawer]}'s")
            text = f"Attack {where} ({cage['count']})"
            aria = f"Mbogo attacks {where}, releasing {cage['count']}"
        else:
            continue  # "next_hand" is offered to the next dealer below
        if text and text in seen:
            continue
        seen.add(text)
        sections[section].append({"text": text, "aria": aria, "act": _act(action)})
    return sections


def _kind_of(view: dict, card: int) -> str:
    for c in view["hand"] or []:
        if c["id"] == card:
            return c["kind"]
    raise KeyError(card)


def _headline(view: dict, me: int | None, names: list[str]) -> str:
    match = view["match"]
    if match["over"]:
        winners = " and ".join(names[s] for s in match["winners"])
        return f"Match over: {winners} {'win' if len(match['winners']) > 1 else 'wins'}!"
    if view["phase"] == "over":
        return f"Hand {match['hand_number']} is over"
    actor = view["to_act"]
    if view["phase"] == "mbogo_attack":
        drawer = view["attack"]["drawer"]
        if actor == me:
            return f"Mbogo! Choose which of {names[drawer]}'s cages it attacks"
        victim = "your" if drawer == me else f"{names[drawer]}'s"
        return f"Mbogo! {names[actor]} chooses which of {victim} cages it attacks"
    source = view["draw_from"]
    if actor == me:
        if view["phase"] == "draw":
            return f"Your turn: draw a card from {names[source]}"
        return "Your turn: play a card" + (" again" if view["phase"] == "play2" else "")
    if view["phase"] == "draw":
        victim = "you" if source == me else names[source]
        return f"{names[actor]} is drawing from {victim}"
    return f"{names[actor]}'s turn"


def _outcome(view: dict, names: list[str]) -> dict | None:
    result = view["hand_result"]
    if result is None:
        return None
    rows = []
    totals = view["match"]["totals"]
    for seat, name in enumerate(names):
        parts = result["breakdown"][seat]
        bonus = [f"+10 all 7 {plural_of(k)}" for k in parts["all_seven"]]
        bonus += [f"+3 {plural_of(k)}" for k in parts["sole_kinds"]]
        rows.append(
            {
                "name": name,
                "bonus": ", ".join(bonus),
                "animals": parts["animals"],
                "score": result["scores"][seat],
                "total": totals[seat],
            }
        )
    ended = {
        "cards": "Only one player had cards left.",
        "no_play": "Nobody could play for two rounds.",
    }.get(result.get("ended_by") or "", "")
    return {"rows": rows, "ended": ended}


def present(view: dict, context: dict) -> dict[str, Any]:
    me = view["seat"]
    names = [p["name"] for p in view["players"]]
    seats = context["players"]
    players = []
    for p in view["players"]:
        seat = seats[p["seat"]]
        players.append(
            {
                **p,
                "is_me": p["seat"] == me,
                "is_turn": p["seat"] == view["to_act"],
                "is_dealer": p["seat"] == view["dealer"],
                "is_bot": bool(seat and seat.is_bot),
                "bot_for": seat.bot_for if seat else "",
                "backs": range(min(p["hand_size"], 15)),
                "cage_list": [
                    {
                        "number": c["index"] + 1,
                        "count": c["count"],
                        "kind": c["kind"] or "empty",
                        "text": f"{c['count']} {plural_of(c['kind'], c['count'])}"
                        if c["kind"]
                        else "empty",
                    }
                    for c in p["cages"]
                ],
            }
        )
    hand_groups = []
    for kind in KIND_ORDER:
        cards = [c["id"] for c in view["hand"] or [] if c["kind"] == kind]
        if cards:
            hand_groups.append({"kind": kind, "name": plural_of(kind, len(cards)), "cards": cards})
    centre_groups = []
    for kind in KIND_ORDER:
        cards = [c["id"] for c in view["centre"] if c["kind"] == kind]
        if cards:
            centre_groups.append(
                {"kind": kind, "name": plural_of(kind, len(cards)), "cards": cards}
            )
    over = view["phase"] == "over"
    return {
        "game": {
            "me": me,
            "players": players,
            "hand_groups": hand_groups,
            "hand_count": len(view["hand"] or []),
            "centre_groups": centre_groups,
            "face_down": view["face_down"],
            "headline": _headline(view, me, names),
            "my_turn": me is not None and view["to_act"] == me,
            "plays": _plays(view, me, names) if me is not None else None,
            "draw_from": names[view["draw_from"]] if view["draw_from"] is not None else "",
            "draw_from_is_me": view["draw_from"] == me and me is not None,
            "outcome": _outcome(view, names) if over else None,
            "next_hand": {"type": "next_hand"} in view["legal_actions"],
            "next_dealer": names[(view["dealer"] + 1) % len(names)]
            if over and not view["match"]["over"]
            else "",
            "match": view["match"],
            "log": list(reversed(view["log"][-6:])),
        }
    }
