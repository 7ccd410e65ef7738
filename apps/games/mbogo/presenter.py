"""How Mbogo's table reads on a phone and on the big screen: the rules' view for one viewer
turned into labels, grouped plays and a headline. Card ids appear only in what the viewer
may see (their own hand, the centre) and in the actions they may take."""

from __future__ import annotations

import json
from typing import Any

from apps.core.i18n import _
from apps.games.mbogo.cards import ANIMAL_KINDS, CAGE, HUNTER, MBOGO
from apps.games.mbogo.words import a, capital, counted, log_line, name_of, plural_of, the

KIND_ORDER = (*ANIMAL_KINDS, CAGE, HUNTER, MBOGO)


def _act(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def _cage_words(cages: list[dict], index: int, owner: str | None) -> str:
    """ "your cage of lions", "Ann's empty cage 2": a number only where it is needed (``owner``
    None: the viewer's own)."""
    cage = cages[index]
    kind = cage["kind"]
    same = [c for c in cages if c["kind"] == kind]
    if kind is None:
        if len(same) > 1:
            text = (
                _("your empty cage {number}")
                if owner is None
                else _("{name}'s empty cage {number}")
            )
        else:
            text = _("your empty cage") if owner is None else _("{name}'s empty cage")
        return text.format(name=owner, number=index + 1)
    if len(same) > 1:
        text = (
            _("your cage {number} of {animals}")
            if owner is None
            else _("{name}'s cage {number} of {animals}")
        )
    else:
        text = _("your cage of {animals}") if owner is None else _("{name}'s cage of {animals}")
    return text.format(name=owner, number=index + 1, animals=plural_of(kind))


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
            text = _("New cage with {animal}").format(animal=a(animal))
            aria = _("Put out a new cage with {animal} in it").format(animal=a(animal))
        elif kind == "animal":
            animal = _kind_of(view, action["animal"])
            where = _cage_words(my_cages, action["cage"], None)
            text = _("{animal} into {cage}").format(animal=capital(name_of(animal)), cage=where)
            aria = _("Put {animal} in {cage}").format(animal=the(animal), cage=where)
        elif kind == "hunt":
            animal = centre[action["animal"]]
            where = _cage_words(my_cages, action["cage"], None)
            text = _("Hunt {animal} into {cage}").format(animal=the(animal), cage=where)
            aria = _("Use a hunter to take {animal} from the centre into {cage}").format(
                animal=the(animal), cage=where
            )
        elif kind == "release":
            animal = _kind_of(view, action["animal"])
            text = _("Release {animal}").format(animal=a(animal))
            aria = _("Release {animal} into the centre").format(animal=a(animal))
        elif kind == "skip":
            text = _("Nothing to play: pass")
            aria = _("You can play nothing: pass")
        elif kind == "draw":
            section = "draw"
            source = view["draw_from"]
            size = view["draw_from_size"]
            text = ""
            aria = _("Draw card {number} of {count} from {name}'s hand").format(
                number=action["position"] + 1, count=size, name=names[source]
            )
        elif kind == "attack":
            section = "attack"
            drawer = view["attack"]["drawer"]
            cages = view["players"][drawer]["cages"]
            cage = cages[action["cage"]]
            where = _cage_words(cages, action["cage"], names[drawer])
            text = _("Attack {cage} ({count})").format(cage=where, count=cage["count"])
            aria = _("Mbogo attacks {cage}, releasing {count}").format(
                cage=where, count=cage["count"]
            )
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


def _joined(people: list[str]) -> str:
    if len(people) <= 1:
        return "".join(people)
    return _("{people} and {last}").format(people=", ".join(people[:-1]), last=people[-1])


def _headline(view: dict, me: int | None, names: list[str]) -> str:
    match = view["match"]
    if match["over"]:
        winners = _joined([names[s] for s in match["winners"]])
        if len(match["winners"]) > 1:
            return _("Match over: {names} win!").format(names=winners)
        return _("Match over: {names} wins!").format(names=winners)
    if view["phase"] == "over":
        return _("Hand {number} is over").format(number=match["hand_number"])
    actor = view["to_act"]
    if view["phase"] == "mbogo_attack":
        drawer = view["attack"]["drawer"]
        if actor == me:
            return _("Mbogo! Choose which of {name}'s cages it attacks").format(name=names[drawer])
        if drawer == me:
            return _("Mbogo! {name} chooses which of your cages it attacks").format(
                name=names[actor]
            )
        return _("Mbogo! {name} chooses which of {victim}'s cages it attacks").format(
            name=names[actor], victim=names[drawer]
        )
    source = view["draw_from"]
    if actor == me:
        if view["phase"] == "draw":
            return _("Your turn: draw a card from {name}").format(name=names[source])
        if view["phase"] == "play2":
            return _("Your turn: play a card again")
        return _("Your turn: play a card")
    if view["phase"] == "draw":
        if source == me:
            return _("{name} is drawing from you").format(name=names[actor])
        return _("{name} is drawing from {victim}").format(name=names[actor], victim=names[source])
    return _("{name}'s turn").format(name=names[actor])


def _outcome(view: dict, names: list[str]) -> dict | None:
    result = view["hand_result"]
    if result is None:
        return None
    rows = []
    totals = view["match"]["totals"]
    for seat, name in enumerate(names):
        parts = result["breakdown"][seat]
        bonus = [_("+10 all 7 {animals}").format(animals=plural_of(k)) for k in parts["all_seven"]]
        bonus += [_("+3 {animals}").format(animals=plural_of(k)) for k in parts["sole_kinds"]]
        rows.append(
            {
                "name": name,
                "bonus": ", ".join(bonus),
                "animals": parts["animals"],
                "score": result["scores"][seat],
                "total": totals[seat],
            }
        )
    ended = ""
    if result.get("ended_by") == "cards":
        ended = _("Only one player had cards left.")
    elif result.get("ended_by") == "no_play":
        ended = _("Nobody could play for two rounds.")
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
                        "text": counted(c["kind"], c["count"]) if c["kind"] else _("empty"),
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
            "log": [log_line(entry, names) for entry in reversed(view["log"][-6:])],
        }
    }
