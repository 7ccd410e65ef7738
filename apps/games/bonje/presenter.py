"""How Bonje in de Stal reads on a phone and on the big screen: the rules' view for one viewer
turned into the face-up cards to grab, the card in hand and where it may go, every player's
stables in words, the WAIT and COMPLETE bar, the countdowns and the log in sentences.

Card ids never reach the page: a take names the pile ("from": seat), a play names a stable,
and a player's own card is drawn as a back until it is revealed to them."""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static

from apps.core.i18n import N_, _, ngettext

from .board import Targets, act, pic, player_block
from .cards import (
    ELEPHANT,
    KIND_OF_NAME,
    MAD_COW,
    MAD_KIND,
    MAD_STALLION,
    SPECIAL_STABLE,
    TRUCK,
    kind_stable,
    the,
)
from .story import Voice, fate, round_result, sentence, sentences

SPRITE = "games/bonje/cards.svg"
LOG_LINES = {"phone": 6, "screen": 9}
PLAY_HINT = {
    "place": N_("Tap one of your stables marked Here."),
    "elephant": N_("Tap an empty stable of another player, marked Here."),
    "truck": N_("Tap the animal to move, then where it goes."),
}
# Why a taken card has no target yet (the card's name is the key), before "WAIT: ...".
NO_PLACE_YET = {
    **dict.fromkeys(KIND_OF_NAME, N_("None of your stables fits it yet.")),
    ELEPHANT: N_("No other player has an empty stable yet."),
    MAD_COW: N_("There is no cow stable to send it to yet."),
    MAD_STALLION: N_("There is no horse stable to send it to yet."),
    TRUCK: N_("No stable holds an animal yet."),
}
CLOCK_TEXT = {
    "reveal": N_("Your card shows in"),
    "close_calls": N_("Calls close in"),
    "count": N_("Counting stables in"),
    "next_round": N_("Next deal in"),
}


def _clock(timers: list[dict], view: dict, screen: bool) -> dict | None:
    """The countdown that matters now (the next flip, the call window, the next deal)."""
    for timer in timers:
        kind = timer["type"]
        if kind == "reveal" and (screen or view["seat"] is None):
            continue  # the big screen sees every card at once
        if kind == "flip":
            text = _("First cards in") if view["turn"] == 0 else _("Next cards in")
        else:
            text = _(CLOCK_TEXT[kind]) if kind in CLOCK_TEXT else None
        if text:
            return {"text": text, "ms": timer["ms"], "seconds": -(-timer["ms"] // 1000)}
    return None


def _slots(view: dict, voice: Voice) -> list[dict]:
    """One place per pile, always in the same spot: the card lying there (a button when the
    viewer may take it), the back of the viewer's own unseen card, or who took it."""
    legal = {a["from"] for a in view["legal_actions"] if a["type"] == "take"}
    lying = {f["seat"]: f for f in view["face_up"]}
    taker = {p["took_from"]: p for p in view["players"] if p["took_from"] is not None}
    slots = []
    for player in view["players"]:
        seat = player["seat"]
        owner = voice.pile(seat)
        slot: dict[str, Any] = {"seat": seat, "id": f"take-{seat}", "owner": owner}
        if seat in lying:
            face = lying[seat]
            if face["hidden"]:
                slot.update(state="hidden", card=None, act=None)
            else:
                card = pic(face["card"])
                slot.update(state="up", card=card, act=None)
                if seat in legal:
                    slot["act"] = act({"type": "take", "from": seat})
                    slot["aria"] = _("Take {card} from {pile}").format(
                        card=card["words"], pile=owner
                    )
        elif seat in taker and taker[seat]["took"] is not None:
            by = taker[seat]
            card = pic(by["took"])
            slot.update(state="taken", card=card, act=None, by=voice.who(by["seat"]))
            # The ribbon lies across the card, over its pile's caption ("Your pile"): a bare
            # name there reads as the pile's owner, so it says who took the card.
            if by["seat"] == voice.me:
                aria = _("You took {card} from {pile}")
                slot["ribbon"] = _("Taken by you")
            else:
                aria = _("{name} took {card} from {pile}")
                slot["ribbon"] = _("Taken by {name}").format(name=slot["by"])
            slot["taken_aria"] = aria.format(name=slot["by"], card=card["words"], pile=owner)
        else:
            slot.update(state="empty", card=None, act=None)
        slots.append(slot)
    return slots


def _hold(view: dict, voice: Voice, targets: Targets) -> dict:
    """The viewer's card in hand and what to do with it."""
    me = view["players"][voice.me]
    holding = me["holding"]
    phase = view["phase"]
    panel: dict[str, Any] = {
        "card": pic(holding),
        "hint": "",
        "grab": False,
        "specials": [],
        "remove": None,
    }
    specials = [a for a in view["legal_actions"] if a["type"] == "choose_special"]
    if specials:
        panel["hint"] = _("You earned your 5th stable first: choose a special stable.")
        panel["specials"] = [
            {
                "id": f"special-{a['kind']}",
                "act": act(a),
                "text": _(SPECIAL_STABLE[a["kind"]]).capitalize(),
            }
            for a in specials
        ]
        return panel
    if holding is None:
        if phase == "race" and me["took_from"] is None:
            panel["hint"] = _("Grab a card!")
            panel["grab"] = True
        elif phase in ("race", "pause") and me["took"] is not None:
            done = fate(view["log"], voice.me)
            panel["hint"] = sentence(done, voice) if done else ""
        return panel
    card = the(holding["name"])
    due = me["waiting"] and view["due"] == voice.me
    if me["waiting"] and not due:
        panel["hint"] = _(
            "You wait: {card} is played after the others, lowest number first."
        ).format(card=card)
        return panel
    kind = _play_kind(view["legal_actions"])
    if not kind and {"type": "wait"} in view["legal_actions"]:
        # No target yet, but a card still to be played could make one: the waiting tactic.
        why = _(NO_PLACE_YET.get(holding["name"], N_("It has no place yet.")))
        panel["hint"] = _(
            "{why} WAIT: a card still to be played may make a place for it. If none does, "
            "it leaves the game when its turn comes."
        ).format(why=why)
        return panel
    if kind == "mad":
        panel["hint"] = _(
            "Tap another player's {stable}, or your own with a brawl, marked Here."
        ).format(stable=kind_stable(MAD_KIND[holding["name"]]))
    else:
        panel["hint"] = _(PLAY_HINT[kind]) if kind in PLAY_HINT else ""
    if due:
        panel["hint"] = _("Your turn now.") + " " + panel["hint"]
    if kind == "truck":
        panel["truck"] = True
        panel["remove"] = targets.remove()
    return panel


def _play_kind(actions: list[dict]) -> str:
    for action in actions:
        if action["type"] in ("place", "elephant", "mad", "truck"):
            return action["type"]
    return ""


def _bar(view: dict, running: bool) -> dict:
    """WAIT and COMPLETE, always in the same place, with what the table waits for."""
    me = view["players"][view["seat"]]
    legal = view["legal_actions"]
    can_wait = {"type": "wait"} in legal
    ready = {"type": "complete"} in legal
    complete = sum(1 for s in me["stables"] if s["complete"])
    if me["called"]:
        sub = _("called: deciding…")
    elif ready:
        sub = _("all stables complete!")
    else:
        sub = _("{done} of {count} complete").format(done=complete, count=me["stable_count"])
    if me["waiting"]:
        wait_sub = _("you wait")
    elif can_wait:
        wait_sub = _("let others play first")
    else:
        wait_sub = _("hold a card first")
    if running:
        left = view["turns_left"]
        status = ngettext(
            "{count} turn left this round", "{count} turns left this round", left
        ).format(count=left)
    elif view["choosing_special"] is not None:
        status = _("A special stable is being chosen")
    else:
        status = _("The round is over")
    return {
        "status": status,
        "wait": {"act": act({"type": "wait"}), "enabled": can_wait, "sub": wait_sub},
        "waiting": me["waiting"],
        "complete": {
            "act": act({"type": "complete"}),
            "enabled": bool(view["can_call"]),
            "ready": ready,
            "sub": sub,
        },
    }


def _headline(view: dict, voice: Voice) -> tuple[str, str]:
    """The one line that says what happens now, and its tone for the page."""
    phase, me = view["phase"], voice.me
    if phase == "over":
        winners = view["outcome"]["winners"] if view["outcome"] else []
        text = _("{names} win the game!") if voice.win(winners) else _("{names} wins the game!")
        return text.format(names=voice.joined(winners)), "done"
    if phase == "round_over":
        if view["choosing_special"] is not None:
            chooser = view["choosing_special"]
            if chooser == me:
                return _("Choose your special stable"), "go"
            return _("{name} chooses a special stable").format(name=voice.who(chooser)), "wait"
        winners = view["rounds"][-1]["winners"]
        text = (
            _("Round {round}: {names} win")
            if voice.win(winners)
            else _("Round {round}: {names} wins")
        )
        return text.format(round=view["round"], names=voice.joined(winners)), "done"
    if phase == "calls":
        caller = view["calls"][0]
        if caller == me:
            return _("You called COMPLETE! Deciding…"), "wait"
        return _("{name} called COMPLETE! Deciding…").format(name=voice.who(caller)), "wait"
    if phase == "pause":
        if view["turn"] == 0:
            return _("Round {round}: get ready…").format(round=view["round"]), "wait"
        if view["turns_left"] == 0:
            return _("The stacks are used up: counting…"), "wait"
        return _("Next cards coming…"), "wait"
    if me is None:
        if not view["face_up"]:  # every card is taken: what is left is playing them
            return _("Turn {turn}: the taken cards are played").format(turn=view["turn"]), "play"
        return _("Turn {turn}: grab the cards!").format(turn=view["turn"]), "go"
    player = view["players"][me]
    if player["holding"] is not None:
        card = the(player["holding"]["name"])
        if player["waiting"] and view["due"] != me:
            return _("You wait with {card}").format(card=card), "wait"
        if not _play_kind(view["legal_actions"]):
            return _("No place yet for {card}").format(card=card), "wait"
        return _("Play {card}!").format(card=card), "play"
    if player["took_from"] is None:
        return _("Grab a card!"), "go"
    return _("Played. Next cards soon…"), "wait"


def _meta(view: dict, screen: bool) -> str:
    parts = [_("round {round}").format(round=view["round"])]
    if view["turn"]:
        total = view["turn"] + view["turns_left"]
        parts.append(_("turn {turn} of {total}").format(turn=view["turn"], total=total))
    if view["options"].get("length") == "short":
        if screen:
            parts.append(_("short game: one round"))
    elif screen:
        parts.append(_("win a round with {goal} stables to win the game").format(goal=view["goal"]))
    return " · ".join(parts)


def present(view: dict, context: dict) -> dict[str, Any]:
    me = view["seat"]
    screen = bool(context.get("screen"))
    names = [p["name"] for p in view["players"]]
    labels = [[s["label"] for s in p["stables"]] for p in view["players"]]
    voice = Voice(names, me, labels)
    seats = context.get("players") or [None] * len(names)
    connected = context.get("connected", set(range(len(names))))
    targets = None
    if me is not None:
        targets = Targets(view["legal_actions"], voice, view["players"][me]["holding"])
    blocks = [
        player_block(p, voice, targets, seats[p["seat"]], connected, view) for p in view["players"]
    ]
    if me is not None:  # the viewer first, then the others around the table
        blocks = blocks[me:] + blocks[:me]
    headline, tone = _headline(view, voice)
    running = view["phase"] in ("pause", "race", "calls")
    slots = _slots(view, voice)
    hold = _hold(view, voice, targets) if targets is not None else None
    if not running and hold is not None and not hold["specials"]:
        hold = None  # between rounds the hand is empty: the result takes its place
    return {
        "game": {
            "me": me,
            "phase": view["phase"],
            "sprite": static(SPRITE),
            "meta": _meta(view, screen),
            "headline": headline,
            "tone": tone,
            "clock": _clock(context.get("timers", []), view, screen),
            "slots": slots,
            # After a round only cards still lying face up are worth the space.
            "show_flip": running or any(slot["state"] == "up" for slot in slots),
            "hold": hold,
            "mine": blocks[0] if me is not None else None,
            "others": blocks[1:] if me is not None else blocks,
            "bar": _bar(view, running) if me is not None and view["phase"] != "over" else None,
            "result": round_result(view, voice),
            "log": sentences(view["log"], voice, LOG_LINES["screen" if screen else "phone"]),
        }
    }
