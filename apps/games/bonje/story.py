"""What happened, in words: the log's entries as sentences for one viewer ("You took Bea's
mare"), and the result of a round or of the game."""

from __future__ import annotations

from typing import Any

from .cards import plural, with_article, word

REMOVED_BECAUSE = {
    "no_stable": "none of their stables fits it",
    "no_empty_stable": "no other player has an empty stable",
    "no_cow_stable": "there is no cow stable to send it to",
    "no_horse_stable": "there is no horse stable to send it to",
    "no_animal": "no stable holds an animal",
}


class Voice:
    """Names as one viewer reads them: "you" for their own seat."""

    def __init__(self, names: list[str], me: int | None, stable_labels: list[list[str]]):
        self.names = names
        self.me = me
        self.labels = stable_labels

    def who(self, seat: int) -> str:
        return "You" if seat == self.me else self.names[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"{self.names[seat]}'s"

    def stable(self, seat: int, index: int, actor: int | None = None) -> str:
        """ "Bea's stable 2", "your special horse stable", and "their stable 2" when the one
        who moved is the owner."""
        row = self.labels[seat] if 0 <= seat < len(self.labels) else []
        label = row[index] if 0 <= index < len(row) else f"stable {index + 1}"
        label = label.removeprefix("the ")
        whose = "their" if seat == actor and seat != self.me else self.whose(seat)
        return f"{whose} {label}"

    def joined(self, seats: list[int]) -> str:
        people = [self.who(s) for s in seats]
        if len(people) <= 1:
            return "".join(people)
        return ", ".join(people[:-1]) + " and " + people[-1]


def _card(entry: dict, key: str = "card") -> str:
    return word(entry[key]["name"])


def _sentence(e: dict[str, Any], v: Voice) -> str | None:
    kind = e["type"]
    if kind == "deal":
        return f"Round {e['round']}: the cards are dealt."
    if kind in ("flip", "reveal"):
        return None  # every screen shows the flip itself
    if kind == "take":
        card, source = _card(e), e["from"]
        if e.get("auto"):
            return f"{v.who(e['seat'])} got the last card: {with_article(e['card']['name'])}."
        pile = "their own pile" if source == e["seat"] else f"{v.whose(source)} pile"
        if source == e["seat"] and e["seat"] == v.me:
            pile = "your own pile"
        return f"{v.who(e['seat'])} took the {card} from {pile}."
    if kind == "placed":
        where = v.stable(e["seat"], e["stable"], e["seat"])
        return f"{v.who(e['seat'])} put the {_card(e)} in {where}."
    if kind == "elephant":
        return f"{v.who(e['seat'])} put an elephant in {v.stable(e['to_seat'], e['stable'])}!"
    if kind == "mad":
        gone = len(e.get("cards") or [])
        animals = f"{gone} animal{'s' if gone != 1 else ''}"
        return (
            f"{v.who(e['seat'])} sent the {_card(e)} into "
            f"{v.stable(e['to_seat'], e['stable'], e['seat'])}: "
            f"{animals} out."
        )
    if kind == "truck":
        animal = _card(e, "animal")
        source = v.stable(e["from_seat"], e["from_stable"], e["seat"])
        if e["to_seat"] is None:
            return f"{v.who(e['seat'])} trucked the {animal} out of {source}, out of the game."
        target = v.stable(e["to_seat"], e["to_stable"], e["seat"])
        return f"{v.who(e['seat'])} trucked the {animal} from {source} to {target}."
    if kind == "wait":
        return f"{v.who(e['seat'])} waits with the {_card(e)}."
    if kind == "removed":
        why = REMOVED_BECAUSE.get(e.get("reason", ""), "it could not be played")
        if e["seat"] == v.me:
            why = why.replace("their", "your")
        return f"{v.whose(e['seat']).capitalize()} {_card(e)} left the game: {why}."
    if kind == "complete":
        return f"{v.who(e['seat'])} called COMPLETE!"
    if kind == "round_won":
        winners = e["winners"]
        verb = "win" if len(winners) > 1 or winners == [v.me] else "wins"
        return f"Round {e['round']}: {v.joined(winners)} {verb}."
    if kind == "game_won":
        winners = e["winners"]
        verb = "win" if len(winners) > 1 or winners == [v.me] else "wins"
        return f"{v.joined(winners)} {verb} the game!"
    if kind == "stable":
        gains = "gain" if e["seat"] == v.me else "gains"
        special = e.get("special")
        what = f"the special {special} stable" if special else "a stable"
        return f"{v.who(e['seat'])} {gains} {what}."
    if kind == "box_empty":
        return f"No stables are left in the box for {v.who(e['seat'])}."
    if kind == "choose_special":
        chooses = "choose" if e["seat"] == v.me else "chooses"
        return f"{v.who(e['seat'])} {chooses} a special stable."
    return None


PLAYED = frozenset({"placed", "elephant", "mad", "truck", "removed", "wait"})


def fate(log: list[dict], seat: int) -> dict | None:
    """What became of the card ``seat`` took this turn (played, waiting, or removed), from the
    log; None before it did anything."""
    for entry in reversed(log):
        if entry["type"] == "flip":
            return None
        if entry["type"] in PLAYED and entry.get("seat") == seat:
            return entry
    return None


def sentence(entry: dict, voice: Voice) -> str | None:
    return _sentence(entry, voice)


def sentences(log: list[dict], voice: Voice, limit: int) -> list[str]:
    """The latest happenings, newest first."""
    out = []
    for entry in reversed(log):
        text = _sentence(entry, voice)
        if text:
            out.append(text)
            if len(out) == limit:
                break
    return out


def round_result(view: dict, voice: Voice) -> dict | None:
    """The last finished round while its result is shown (and at the end of the game): how it
    ended, and every player's stables and their worth. The headline already names the
    winners."""
    if view["phase"] not in ("round_over", "over") or not view["rounds"]:
        return None
    last = view["rounds"][-1]
    winners, callers = last["winners"], last["callers"]
    rows = []
    for player in view["players"]:
        seat = player["seat"]
        value = last["values"][seat]
        rows.append(
            {
                "name": voice.who(seat),
                "value": value,
                "points": f"{value} pt{'s' if value != 1 else ''}",
                "won": seat in winners,
                "called": seat in callers,
                "stables": player["stable_count"],
            }
        )
    rows.sort(key=lambda row: (not row["won"], -row["value"]))
    if last["ended_by"] == "complete":
        first = callers[0] if callers else winners[0]
        how = f"{voice.who(first)} called COMPLETE with every stable complete."
        if len(callers) > 1:
            how += " More calls came within 300 ms: the most valuable stables win."
    else:
        how = "The stacks ran out: the most valuable stables win."
    return {
        "title": f"How round {last['round']} ended",
        "how": how,
        "rows": rows,
        "over": view["phase"] == "over",
        "goal": view["goal"],
    }


def animals_text(name: str, count: int) -> str:
    """ "1 mare", "3 ewes"."""
    return f"{count} {word(name) if count == 1 else plural(name)}"
