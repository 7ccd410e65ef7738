"""How Bonje in de Stal reads on a phone and on the big screen: the rules' view for one viewer
turned into the face-up cards to grab, the card in hand and where it may go, every player's
stables in words, the WAIT and COMPLETE bar, the countdowns and the log in sentences.

Card ids never reach the page: a take names the pile ("from": seat), a play names a stable,
and a player's own card is drawn as a back until it is revealed to them."""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static

from .board import Targets, act, pic, player_block
from .cards import MAD_KIND, word
from .story import Voice, fate, round_result, sentence, sentences

SPRITE = "games/bonje/cards.svg"
LOG_LINES = {"phone": 6, "screen": 9}
PLAY_HINT = {
    "place": "Tap one of your stables marked Here.",
    "elephant": "Tap an empty stable of another player, marked Here.",
    "truck": "Tap the animal to move, then where it goes.",
}
CLOCK_TEXT = {
    "reveal": "Your card shows in",
    "close_calls": "Calls close in",
    "count": "Counting stables in",
    "next_round": "Next deal in",
}


def _clock(timers: list[dict], view: dict, screen: bool) -> dict | None:
    """The countdown that matters now (the next flip, the call window, the next deal)."""
    for timer in timers:
        kind = timer["type"]
        if kind == "reveal" and (screen or view["seat"] is None):
            continue  # the big screen sees every card at once
        if kind == "flip":
            text = "First cards in" if view["turn"] == 0 else "Next cards in"
        else:
            text = CLOCK_TEXT.get(kind)
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
        owner = "your pile" if seat == voice.me else f"{player['name']}'s pile"
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
                    slot["aria"] = f"Take {card['words']} from {owner}"
        elif seat in taker and taker[seat]["took"] is not None:
            by = taker[seat]
            slot.update(state="taken", card=pic(by["took"]), act=None, by=voice.who(by["seat"]))
        else:
            slot.update(state="empty", card=None, act=None)
        slots.append(slot)
    return slots


def _hold(view: dict, voice: Voice, targets: Targets) -> dict:
    """The viewer's card in hand and what to do with it."""
    me = view["players"][voice.me]
    holding = me["holding"]
    phase = view["phase"]
    panel: dict[str, Any] = {"card": pic(holding), "hint": "", "specials": [], "remove": None}
    specials = [a for a in view["legal_actions"] if a["type"] == "choose_special"]
    if specials:
        panel["hint"] = "You earned your 5th stable first: choose a special stable."
        panel["specials"] = [
            {
                "id": f"special-{a['kind']}",
                "act": act(a),
                "text": f"Special {a['kind']} stable",
            }
            for a in specials
        ]
        return panel
    if holding is None:
        if phase == "race" and me["took_from"] is None:
            panel["hint"] = "Grab a card!"
        elif phase in ("race", "pause") and me["took"] is not None:
            done = fate(view["log"], voice.me)
            panel["hint"] = sentence(done, voice) if done else ""
        return panel
    card = word(holding["name"])
    due = me["waiting"] and view["due"] == voice.me
    if me["waiting"] and not due:
        panel["hint"] = f"You wait: the {card} is played after the others, lowest number first."
        return panel
    kind = _play_kind(view["legal_actions"])
    if kind == "mad":
        stable_kind = MAD_KIND[holding["name"]]
        panel["hint"] = (
            f"Tap another player's {stable_kind} stable, or your own with a brawl, marked Here."
        )
    else:
        panel["hint"] = PLAY_HINT.get(kind, "")
    if due:
        panel["hint"] = "Your turn now. " + panel["hint"]
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
        sub = "called: deciding…"
    elif ready:
        sub = "all stables complete!"
    else:
        sub = f"{complete} of {me['stable_count']} complete"
    if me["waiting"]:
        wait_sub = "you wait"
    elif can_wait:
        wait_sub = "let others play first"
    else:
        wait_sub = "hold a card first"
    if running:
        left = view["turns_left"]
        status = f"{left} turn{'s' if left != 1 else ''} left this round"
    elif view["choosing_special"] is not None:
        status = "A special stable is being chosen"
    else:
        status = "The round is over"
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
        verb = "win" if len(winners) > 1 or winners == [me] else "wins"
        return f"{voice.joined(winners)} {verb} the game!", "done"
    if phase == "round_over":
        if view["choosing_special"] is not None:
            chooser = view["choosing_special"]
            if chooser == me:
                return "Choose your special stable", "go"
            return f"{voice.who(chooser)} chooses a special stable", "wait"
        winners = view["rounds"][-1]["winners"]
        verb = "win" if len(winners) > 1 or winners == [me] else "wins"
        return f"Round {view['round']}: {voice.joined(winners)} {verb}", "done"
    if phase == "calls":
        callers = view["calls"]
        return f"{voice.who(callers[0])} called COMPLETE! Deciding…", "wait"
    if phase == "pause":
        if view["turn"] == 0:
            return f"Round {view['round']}: get ready…", "wait"
        if view["turns_left"] == 0:
            return "The stacks are used up: counting…", "wait"
        return "Next cards coming…", "wait"
    if me is None:
        return f"Turn {view['turn']}: grab the cards!", "go"
    player = view["players"][me]
    if player["holding"] is not None:
        card = word(player["holding"]["name"])
        if player["waiting"] and view["due"] != me:
            return f"You wait with the {card}", "wait"
        return f"Play your {card}!", "play"
    if player["took_from"] is None:
        return "Grab a card!", "go"
    return "Played. Next cards soon…", "wait"


def _meta(view: dict, screen: bool) -> str:
    parts = [f"round {view['round']}"]
    if view["turn"]:
        total = view["turn"] + view["turns_left"]
        parts.append(f"turn {view['turn']} of {total}")
    if view["options"].get("length") == "short":
        if screen:
            parts.append("short game: one round")
    elif screen:
        parts.append(f"win a round with {view['goal']} stables to win the game")
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
