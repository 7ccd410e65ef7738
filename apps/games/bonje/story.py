"""What happened, in words: the log's entries as sentences for one viewer ("You took Bea's
mare"), and the result of a round or of the game."""

from __future__ import annotations

from typing import Any

from apps.core.i18n import N_, _, ngettext

from .cards import SPECIAL_STABLE, counted, the, with_article, word

REMOVED_BECAUSE = {
    "no_stable": N_("none of their stables fits it"),
    "no_empty_stable": N_("no other player has an empty stable"),
    "no_cow_stable": N_("there is no cow stable to send it to"),
    "no_horse_stable": N_("there is no horse stable to send it to"),
    "no_animal": N_("no stable holds an animal"),
}
REMOVED_MINE = {"no_stable": N_("none of your stables fits it")}


class Voice:
    """Names as one viewer reads them: "you" for their own seat."""

    def __init__(self, names: list[str], me: int | None, stable_labels: list[list[str]]):
        self.names = names
        self.me = me
        self.labels = stable_labels

    def who(self, seat: int) -> str:
        return _("You") if seat == self.me else self.names[seat]

    def pile(self, seat: int, taker: int | None = None) -> str:
        """ "your pile", "Bea's pile", "their own pile" (the taker's)."""
        if seat == taker:
            return _("your own pile") if seat == self.me else _("their own pile")
        if seat == self.me:
            return _("your pile")
        return _("{name}'s pile").format(name=self.names[seat])

    def _label(self, seat: int, index: int) -> str:
        row = self.labels[seat] if 0 <= seat < len(self.labels) else []
        if 0 <= index < len(row):
            return row[index]
        return _("stable {number}").format(number=index + 1)

    def stable(self, seat: int, index: int, actor: int | None = None) -> str:
        """ "Bea's stable 2", "your special horse stable", and "their stable 2" when the one
        who moved is the owner: a stable as a sentence's object ("… into Bea's stable 2")."""
        label = self._label(seat, index)
        if seat == self.me:
            return _("your {stable}").format(stable=label)
        if seat == actor:
            return _("their {stable}").format(stable=label)
        return _("{name}'s {stable}").format(name=self.names[seat], stable=label)

    def source(self, seat: int, index: int, actor: int | None = None) -> str:
        """ "from Bea's stable 2", "out of your stable 1": where a truck takes an animal."""
        label = self._label(seat, index)
        if seat == self.me:
            return _("from your {stable}").format(stable=label)
        if seat == actor:
            return _("from their {stable}").format(stable=label)
        return _("from {name}'s {stable}").format(name=self.names[seat], stable=label)

    def title(self, seat: int, index: int) -> str:
        """ "Bea's stable 2" as the subject of a line ("Your stable 1: …")."""
        label = self._label(seat, index)
        if seat == self.me:
            return _("Your {stable}").format(stable=label)
        return _("{name}'s {stable}").format(name=self.names[seat], stable=label)

    def joined(self, seats: list[int]) -> str:
        people = [self.who(s) for s in seats]
        if len(people) <= 1:
            return "".join(people)
        return _("{people} and {last}").format(people=", ".join(people[:-1]), last=people[-1])

    def win(self, seats: list[int]) -> bool:
        """Whether "win" is said rather than "wins" (several winners, or the viewer)."""
        return len(seats) > 1 or seats == [self.me]


def _name(entry: dict, key: str = "card") -> str:
    return entry[key]["name"]


def _sentence(e: dict[str, Any], v: Voice) -> str | None:
    kind = e["type"]
    seat = e.get("seat")
    mine = seat is not None and seat == v.me
    who = v.who(seat) if seat is not None else ""
    if kind == "deal":
        return _("Round {round}: the cards are dealt.").format(round=e["round"])
    if kind in ("flip", "reveal"):
        return None  # every screen shows the flip itself
    if kind == "take":
        if e.get("auto"):
            card = with_article(_name(e))
            if mine:
                return _("You got the last card: {card}.").format(card=card)
            return _("{name} got the last card: {card}.").format(name=who, card=card)
        card, pile = the(_name(e)), v.pile(e["from"], seat)
        if mine:
            return _("You took {card} from {pile}.").format(card=card, pile=pile)
        return _("{name} took {card} from {pile}.").format(name=who, card=card, pile=pile)
    if kind == "placed":
        card, where = the(_name(e)), v.stable(seat, e["stable"], seat)
        if mine:
            return _("You put {card} in {stable}.").format(card=card, stable=where)
        return _("{name} put {card} in {stable}.").format(name=who, card=card, stable=where)
    if kind == "elephant":
        where = v.stable(e["to_seat"], e["stable"])
        if mine:
            return _("You put an elephant in {stable}!").format(stable=where)
        return _("{name} put an elephant in {stable}!").format(name=who, stable=where)
    if kind == "mad":
        gone = len(e.get("cards") or [])
        animals = ngettext("{count} animal", "{count} animals", gone).format(count=gone)
        card, where = the(_name(e)), v.stable(e["to_seat"], e["stable"], seat)
        if mine:
            text = _("You sent {card} into {stable}: {animals} out.")
        else:
            text = _("{name} sent {card} into {stable}: {animals} out.")
        return text.format(name=who, card=card, stable=where, animals=animals)
    if kind == "truck":
        animal = the(_name(e, "animal"))
        source = v.source(e["from_seat"], e["from_stable"], seat)
        if e["to_seat"] is None:
            if mine:
                text = _("You trucked {animal} {source}, out of the game.")
            else:
                text = _("{name} trucked {animal} {source}, out of the game.")
            return text.format(name=who, animal=animal, source=source)
        target = v.stable(e["to_seat"], e["to_stable"], seat)
        if mine:
            text = _("You trucked {animal} {source} to {target}.")
        else:
            text = _("{name} trucked {animal} {source} to {target}.")
        return text.format(name=who, animal=animal, source=source, target=target)
    if kind == "wait":
        card = the(_name(e))
        if mine:
            return _("You wait with {card}.").format(card=card)
        return _("{name} waits with {card}.").format(name=who, card=card)
    if kind == "removed":
        reason = e.get("reason", "")
        why = REMOVED_MINE.get(reason) if mine else None
        why = _(why or REMOVED_BECAUSE.get(reason, N_("it could not be played")))
        card = word(_name(e))
        if e.get("waited"):  # it waited for a place that never came
            if mine:
                text = _(
                    "Your {card} still had no place when its turn came and left the game: {why}."
                )
            else:
                text = _(
                    "{name}'s {card} still had no place when its turn came and left the game: "
                    "{why}."
                )
            return text.format(name=who, card=card, why=why)
        if mine:
            return _("Your {card} left the game: {why}.").format(card=card, why=why)
        return _("{name}'s {card} left the game: {why}.").format(name=who, card=card, why=why)
    if kind == "complete":
        if mine:
            return _("You called COMPLETE!")
        return _("{name} called COMPLETE!").format(name=who)
    if kind == "round_won":
        winners = e["winners"]
        if v.win(winners):
            text = _("Round {round}: {names} win.")
        else:
            text = _("Round {round}: {names} wins.")
        return text.format(round=e["round"], names=v.joined(winners))
    if kind == "game_won":
        winners = e["winners"]
        text = _("{names} win the game!") if v.win(winners) else _("{names} wins the game!")
        return text.format(names=v.joined(winners))
    if kind == "stable":
        special = e.get("special")
        if special:
            what = _(SPECIAL_STABLE[special])
            text = _("You gain the {special}.") if mine else _("{name} gains the {special}.")
            return text.format(name=who, special=what)
        return _("You gain a stable.") if mine else _("{name} gains a stable.").format(name=who)
    if kind == "box_empty":
        if mine:
            return _("No stables are left in the box for you.")
        return _("No stables are left in the box for {name}.").format(name=who)
    if kind == "choose_special":
        if mine:
            return _("You choose a special stable.")
        return _("{name} chooses a special stable.").format(name=who)
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
                "points": ngettext("{count} pt", "{count} pts", value).format(count=value),
                "won": seat in winners,
                "called": seat in callers,
                "stables": player["stable_count"],
            }
        )
    rows.sort(key=lambda row: (not row["won"], -row["value"]))
    if last["ended_by"] == "complete":
        first = callers[0] if callers else winners[0]
        if first == voice.me:
            how = _("You called COMPLETE with every stable complete.")
        else:
            how = _("{name} called COMPLETE with every stable complete.").format(
                name=voice.who(first)
            )
        if len(callers) > 1:
            how += " " + _("More calls came within 300 ms: the most valuable stables win.")
    else:
        how = _("The stacks ran out: the most valuable stables win.")
    return {
        "title": _("How round {round} ended").format(round=last["round"]),
        "how": how,
        "rows": rows,
        "over": view["phase"] == "over",
        "goal": view["goal"],
    }


def animals_text(name: str, count: int) -> str:
    """ "1 mare", "3 ewes"."""
    return counted(name, count)
