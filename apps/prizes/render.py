"""The awards ceremony on the night's screens: the phones (roll, choose), the big screen
(each category step by step), the host's console (move it on, pick, enter real dice)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from apps.parties.awards import PREFIX
from apps.prizes import presenter
from apps.prizes.models import Ceremony
from apps.prizes.rules import settlement
from apps.prizes.rules.steps import TRAVELLING
from apps.prizes.services import ceremonies


def _ceremony(party) -> Ceremony | None:
    return Ceremony.objects.filter(party=party).first()


def _view(ceremony: Ceremony, seat: int | None) -> dict:
    state = settlement.State.from_json(ceremony.state)
    return settlement.view(state, seat)


def _timers(ceremony: Ceremony) -> dict:
    """The ceremony's timed moves by their type, each with the milliseconds left (for
    countdown.js) and the whole seconds left (what the page says before the script runs)."""
    from django.utils import timezone

    from apps.core import scheduler

    now = timezone.now()
    timers = {}
    for deadline in scheduler.pending(ceremony.scope):
        ms = max(0, int((deadline.due_at - now).total_seconds() * 1000))
        timers[deadline.payload["action"]["type"]] = {"ms": ms, "seconds": -(-ms // 1000)}
    return timers


def _travelling(ceremony: Ceremony) -> dict:
    """The travelling prizes the awards have settled, by prize ("bunko", "wipeout"): who
    takes it home and who passed it on, or None when it is not given tonight."""
    state = settlement.State.from_json(ceremony.state)
    settled: dict = {}
    for index, category in enumerate(state.categories):
        prize = TRAVELLING.get(category["kind"])
        award = state.awards[index]
        if prize is None:
            continue
        if award is not None:
            passer = award["runner_up_of"]
            settled[prize] = {
                "player": state.players[award["player"]],
                "runner_up_of": None if passer is None else state.players[passer],
            }
        elif index in state.unawarded:
            settled[prize] = None
    return settled


class CeremonyScreens:
    """What apps.parties.awards asks of the prizes app."""

    def phone(self, party, player) -> str:
        ceremony = _ceremony(party)
        context = {"party": party, "a": None}
        if ceremony is not None and player is not None and player.pk in ceremony.players:
            seat = ceremony.players.index(player.pk)
            view = _view(ceremony, seat)
            context.update(a=view, seat=seat, timers=_timers(ceremony), prefix=PREFIX)
        return render_to_string("prizes/_phone_awards.html", context)

    def screen(self, party) -> str:
        ceremony = _ceremony(party)
        if ceremony is None:
            return ""
        context = {"party": party, "a": _view(ceremony, None), "timers": _timers(ceremony)}
        return render_to_string("prizes/_tv_awards.html", context)

    def host(self, party) -> str:
        ceremony = _ceremony(party)
        context = {"party": party, "a": None}
        if ceremony is not None:
            context.update(a=_view(ceremony, settlement.HOST), timers=_timers(ceremony))
        return render_to_string("prizes/_host_awards.html", context)

    def step(self, code, claim, act, action_id) -> None:
        action = {k: v for k, v in act.items() if k in ("type", "category")}
        action["type"] = action["type"][len(PREFIX) :]
        if action["type"] not in ("roll", "keep"):
            from apps.core.errors import Refused

            raise Refused(_("That is not something a phone does at the awards."))
        if "category" in action:
            try:
                action["category"] = int(action["category"])
            except (TypeError, ValueError):
                action["category"] = None
        ceremonies.player_step(code, claim, action, action_id)

    def said(self, step: dict) -> str | None:
        return presenter.said(step)

    def travelling(self, party) -> dict:
        ceremony = _ceremony(party)
        return {} if ceremony is None else _travelling(ceremony)
