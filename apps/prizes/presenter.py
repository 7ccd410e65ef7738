"""What the screens show of the awards ceremony: the big screen, the host's console and the
phones all read the same public data (prizes are public). Pure: no Django imports."""

from __future__ import annotations

from apps.core.i18n import _
from apps.core.protocol import Action
from apps.parties.rules.attendance import shown_name
from apps.prizes.rules.categories import KINDS, shown
from apps.prizes.rules.steps import (
    CHOICE,
    HOST,
    PICK,
    ROLLOFF,
    State,
    holdings,
    is_ghost_seat,
    shown_name_of,
)


def _category(state: State, index: int) -> dict:
    """A category as the screens show it (its name in the viewer's language)."""
    return {"index": index, **state.categories[index], "name": shown_name_of(state, index)}


def _player(state: State, seat: int | None) -> str | None:
    return None if seat is None else state.players[seat]


def award_json(state: State, index: int) -> dict:
    """One award as the outcome lists it: ``rolloff`` names who rolled in each round of the
    roll-off that decided it, ``dice`` the same rounds with their dice (as ``Award.rolloff``
    keeps them)."""
    award = state.awards[index]
    assert award is not None
    category = state.categories[index]
    return {
        "category": category["name"],
        "kind": category["kind"],
        "prize": category["prize"],
        "player": state.players[award["player"]],
        "runner_up_of": _player(state, award["runner_up_of"]),
        "rolloff": [[state.players[s] for s, _die in rnd] for rnd in award["rounds"]],
        "dice": [{state.players[s]: die for s, die in rnd} for rnd in award["rounds"]],
    }


def _status(state: State, index: int) -> str:
    if state.awards[index] is not None:
        return "awarded"
    if index in state.unawarded:
        return "unawarded"
    task = state.task
    return "settling" if task is not None and task["category"] == index else "waiting"


def _spotlight(state: State) -> dict | None:
    spot = state.spotlight
    if spot is None:
        return None
    held = holdings(state)
    return {
        **_category(state, spot["category"]),
        "runner_up_of": _player(state, spot["runner_up_of"]),
        "candidates": [
            {
                "seat": c["seat"],
                "player": state.players[c["seat"]],
                "count": c["count"],
                "holds": shown_name_of(state, held[c["seat"]]) if c["seat"] in held else None,
            }
            for c in spot["candidates"]
        ],
    }


def _rolloff_view(state: State) -> dict | None:
    task = state.task
    if task is None or task["step"] != ROLLOFF:
        return None
    dice = dict(task["dice"])
    return {
        **_category(state, task["category"]),
        "round": len(task["rounds"]) + 1,
        "contenders": [
            {"seat": s, "player": state.players[s], "die": dice.get(s)} for s in task["contenders"]
        ],
        "rounds": [{state.players[s]: die for s, die in rnd} for rnd in task["rounds"]],
    }


def _choice_view(state: State) -> dict | None:
    task = state.task
    if task is None or task["step"] != CHOICE:
        return None
    return {
        "seat": task["player"],
        "player": state.players[task["player"]],
        "held": _category(state, task["held"]),
        "new": _category(state, task["category"]),
        "timeout_ms": state.options["choice_ms"],
    }


def _pick_view(state: State) -> dict | None:
    task = state.task
    if task is None or task["step"] != PICK:
        return None
    return {
        **_category(state, task["category"]),
        "runner_up_of": _player(state, task["runner_up_of"]),
        "choices": [{"seat": s, "player": state.players[s]} for s in task["choices"]],
    }


def _event_view(state: State, event: dict) -> dict:
    """An event with the names the screens print beside its seats and category indexes."""
    shown = dict(event)
    for key in ("category", "held", "new", "gave_up"):
        if key in event:
            shown[f"{key}_name"] = shown_name_of(state, event[key])
    for key in ("player", "runner_up_of"):
        if key in event:
            shown[f"{key}_name"] = _player(state, event[key])
    if "dice" in event:
        shown["dice"] = {state.players[s]: die for s, die in event["dice"]}
    return shown


def build_view(
    state: State,
    seat: int | None,
    legal: list[Action],
    timers: list[Action],
    result: dict | None,
) -> dict:
    """The ceremony as ``seat`` sees it (everything is public):

    - ``players``, ``ghosts`` (their seats), ``you`` (the seat), ``host`` (the host's view),
      ``phase`` (ready, rolloff, choice, pick, done), ``dice_mode`` (virtual, physical);
    - ``categories``: each with ``index``, ``kind``, ``name``, ``prize``, ``status`` (waiting,
      settling, awarded, unawarded), ``player`` and ``runner_up_of`` once awarded;
    - ``next``: the category the host's next step takes up (None when all were);
    - ``current``: the category last taken up, with ``runner_up_of`` (when it is being
      passed on) and its ``candidates`` then (seat, player, count, the prize each ``holds``);
    - ``rolloff``: the category, its ``round``, its ``contenders`` (seat, player, ``die`` this
      round or None) and the earlier ``rounds`` ({name: die});
    - ``choice``: who chooses (``seat``, ``player``), the ``held`` and the ``new`` category,
      ``timeout_ms``; ``pick``: a host's-choice category and its ``choices``;
    - ``awards`` and ``unawarded`` so far (as in the outcome), ``history`` (every event, with
      names), ``timers`` (the timed moves running), ``legal_actions``, ``outcome``.
    """
    following = state.next if state.next < len(state.categories) else None
    return {
        "players": list(state.players),
        "ghosts": [s for s in range(len(state.players)) if is_ghost_seat(state, s)],
        "you": seat,
        "host": seat == HOST,
        "phase": state.phase,
        "dice_mode": state.options["dice"],
        "categories": [
            {
                **_category(state, i),
                "status": _status(state, i),
                "player": _player(state, a["player"]) if a else None,
                "runner_up_of": _player(state, a["runner_up_of"]) if a else None,
            }
            for i, a in enumerate(state.awards)
        ],
        "next": _category(state, following) if following is not None else None,
        "current": _spotlight(state),
        "rolloff": _rolloff_view(state),
        "choice": _choice_view(state),
        "pick": _pick_view(state),
        "awards": [{**w, "category": shown(w["kind"], w["category"])} for w in awards_json(state)],
        "unawarded": [shown_name_of(state, i) for i in sorted(state.unawarded)],
        "history": [_event_view(state, e) for e in state.history],
        "timers": timers,
        "legal_actions": legal,
        "outcome": result,
    }


def awards_json(state: State) -> list[dict]:
    """The awards so far, in the host's order of the categories."""
    return [award_json(state, i) for i, a in enumerate(state.awards) if a is not None]


def said(step: dict) -> str | None:
    """One line of the night's log for a ceremony step (``steps.told``) in the reader's
    language ("Ann wins Most Bunkos"): a default category's name translated, a typed one as
    typed."""
    kind = step.get("kind", "")
    category = shown(kind, step.get("category") or KINDS.get(kind, kind))
    name = shown_name(step.get("player") or "")
    event = step.get("event")
    if event == "rolloff":
        dice = ", ".join(f"{shown_name(who)} {die}" for who, die in step.get("dice") or [])
        return _("Roll-off for {category}: {dice}").format(category=category, dice=dice)
    if event == "unawarded":
        return _("{category} is not given tonight").format(category=category)
    if event == "choice":
        text = _("{name} won {category} too and chooses which prize to keep")
        return text.format(name=name, category=category)
    if event == "kept" and step.get("timeout"):
        return _("{name} keeps {category} (time ran out)").format(name=name, category=category)
    if event == "kept":
        return _("{name} keeps {category}").format(name=name, category=category)
    if event == "awarded":
        return _("{name} wins {category}").format(name=name, category=category)
    return None
