"""A month's night: RSVPs, the host's checklist, the substitutes asked in order, starting the
night and arriving at it."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.circles import mail, tokens
from apps.circles.models import (
    Member,
    Month,
    NightSeat,
    Rsvp,
    SubstituteAsk,
)
from apps.circles.selectors import CHECKLIST, attendance, hosts_of, place_of
from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.models import Deadline
from apps.parties import services as parties
from apps.parties.models import Party, Player
from apps.prizes.rules.categories import Category
from apps.prizes.services import set_categories

from .common import (
    MIN_ANSWER,
    check_open,
    close_ask,
    day_name,
    is_open,
    lock_month,
    ms,
    note,
    scope_of,
)


@transaction.atomic
def set_rsvp(month_id: int, member_id: int, answer: str) -> Rsvp:
    """A member answers from their phone: coming, not coming, maybe. After the night has
    started the list is the party's (late arrivals join there)."""
    month = lock_month(month_id)
    if answer not in Rsvp.Answer.values:
        raise Refused(_("Answer coming, not coming or maybe."))
    member = month.season.circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused(_("Only members of the circle can answer."))
    if member.is_substitute:
        raise Refused(_("Substitutes are asked by the host when a seat is free."))
    if month.hostings.filter(member=member).exists():
        raise Refused(
            _(
                "You host {month}, so you count as coming. If you can't, ask "
                "another host to swap months."
            ).format(month=month.name)
        )
    if month.started:
        raise Refused(
            _(
                "{month}'s night has already started, so the answers are closed. "
                "If you are there, join the night from your page."
            ).format(month=month.name)
        )
    if month.is_past():
        raise Refused(_("{month}'s night is over.").format(month=month.name))
    rsvp, _created = Rsvp.objects.update_or_create(
        month=month, member=member, defaults={"answer": answer}
    )
    _withdraw_if_full(month)
    return rsvp


@transaction.atomic
def set_checklist(month_id: int, item: str, done: bool) -> Month:
    month = lock_month(month_id)
    if item not in CHECKLIST:
        raise Refused(_("That is not on the host's checklist."))
    check_open(month, "the checklist")
    setattr(month, CHECKLIST[item][0], bool(done))
    month.save(update_fields=[CHECKLIST[item][0], "updated"])
    return month


@transaction.atomic
def set_fill(month_id: int, fill: str) -> Month:
    """What the night does when the players are not a multiple of 4: substitutes, or the
    host falls back to ghost seats or sit-outs (the party's attendance option)."""
    month = lock_month(month_id)
    if fill not in Month.Fill.values:
        raise Refused(_("Choose substitutes, ghost seats or sit-outs."))
    check_open(month, "the empty seats")
    month.fill = fill
    month.save(update_fields=["fill", "updated"])
    if fill != Month.Fill.SUBSTITUTES:
        for ask in month.asks.filter(status=SubstituteAsk.Status.ASKED):
            close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
    return month


# --- substitutes -------------------------------------------------------------------------------


def _withdraw_if_full(month: Month) -> None:
    """Once every seat is filled the open requests are withdrawn (nobody arrives to find
    the tables full)."""
    seen = attendance(month)
    extra = len(seen.open_asks) - seen.short
    if extra <= 0:
        return
    for ask in reversed(seen.open_asks[-extra:]):
        close_ask(ask, SubstituteAsk.Status.WITHDRAWN)


def _ask(month: Month, count: int, now: datetime | None = None) -> list[SubstituteAsk]:
    """Ask the next ``count`` substitutes on the list not asked for this month yet (one whose
    request was withdrawn when the tables filled up may be asked again)."""
    now = now or timezone.now()
    circle = month.season.circle
    asked = set(
        month.asks.exclude(status=SubstituteAsk.Status.WITHDRAWN).values_list(
            "member_id", flat=True
        )
    )
    coming = set(month.rsvps.filter(answer=Rsvp.Answer.YES).values_list("member_id", flat=True))
    candidates = [
        m
        for m in circle.members.filter(active=True, kind=Member.Kind.SUBSTITUTE).order_by(
            "position", "id"
        )
        if m.pk not in asked and m.pk not in coming
    ]
    window = timedelta(hours=circle.answer_hours)
    due = min(now + window, month.starts_at - timedelta(hours=1))
    due = max(due, now + MIN_ANSWER)
    made = []
    for member in candidates[:count]:
        ask = SubstituteAsk.objects.create(month=month, member=member, asked_at=now, due_at=due)
        scheduler.arm(
            scope_of(month),
            f"ask:{ask.pk}",
            ms(due - now),
            {"kind": "ask", "ask": ask.pk},
            now=now,
        )
        hosts = hosts_of(month)
        mail.send_member(
            member,
            "substitute",
            {
                "circle": circle,
                "month": month,
                "hosts": hosts,
                "where": place_of(month, hosts),
                "short": count,  # the seats still to fill, this one's among them
                "due": due.astimezone(circle.tz),
                "link": mail.ask_link(ask),
            },
        )
        note(circle, "sub_asked", {"name": member.name}, month)
        made.append(ask)
    return made


def ask_next(month: Month, now: datetime | None = None) -> list[SubstituteAsk]:
    """After a decline or a silence: ask the next ones while seats are short; when the list
    runs out, tell the host."""
    if month.fill != Month.Fill.SUBSTITUTES or not is_open(month, now):
        return []
    seen = attendance(month)
    if seen.still_to_find <= 0:
        return []
    made = _ask(month, seen.still_to_find, now)
    if len(made) < seen.still_to_find:
        circle = month.season.circle
        short = seen.still_to_find - len(made)
        note(circle, "subs_ran_out", month=month)
        for host in hosts_of(month):
            mail.send_member(
                host,
                "list_ran_out",
                {
                    "circle": circle,
                    "month": month,
                    "short": short,
                    "link": mail.member_link(host),
                },
            )
    return made


@transaction.atomic
def ask_substitutes(month_id: int) -> list[SubstituteAsk]:
    """The host's one action: ask the substitutes in the list's order, as many as seats are
    short. Each gets a link to accept or decline; the next is asked when one declines or
    does not answer in time."""
    month = lock_month(month_id)
    check_open(month, "the players")
    seen = attendance(month)
    if seen.short == 0:
        raise Refused(
            _("Nobody is coming yet.")
            if not seen.count
            else _("Every table is full: no seat to fill.")
        )
    if seen.still_to_find == 0:
        raise Refused(
            ngettext(
                "{count} substitute has been asked already: wait for the answer.",
                "{count} substitutes have been asked already: wait for their answers.",
                len(seen.open_asks),
            ).format(count=len(seen.open_asks))
        )
    if month.fill != Month.Fill.SUBSTITUTES:
        month.fill = Month.Fill.SUBSTITUTES
        month.save(update_fields=["fill", "updated"])
    made = _ask(month, seen.still_to_find)
    if not made:
        raise Refused(
            _(
                "Every substitute on the list has been asked. Fall back to ghost seats or "
                "sit-outs, or ask the admin to add substitutes."
            )
        )
    return made


def ask_of(token: str) -> SubstituteAsk:
    found = tokens.read_ask_token(token)
    ask = (
        SubstituteAsk.objects.select_related("month__season__circle", "member")
        .filter(pk=found[0])
        .first()
        if found
        else None
    )
    if ask is None or ask.nonce != found[1]:
        raise Refused(
            _(
                "This link is not valid: it may have been cut short or mistyped. Ask the host "
                "to send it again."
            )
        )
    return ask


STATUS_REFUSALS = {
    SubstituteAsk.Status.DECLINED: gettext_lazy(
        "You already said you can't come. Thank you for answering."
    ),
    SubstituteAsk.Status.EXPIRED: gettext_lazy(
        "Sorry, the time to answer ran out and the next substitute was asked."
    ),
    SubstituteAsk.Status.WITHDRAWN: gettext_lazy(
        "Thank you, but the tables are full now: you are not needed this time."
    ),
}


@transaction.atomic
def answer_ask(token: str, accept: bool) -> SubstituteAsk:
    """A substitute accepts or declines from the link on their phone."""
    found = ask_of(token)
    month = lock_month(found.month_id)
    ask = SubstituteAsk.objects.select_related("member").get(pk=found.pk)
    if ask.status == SubstituteAsk.Status.ACCEPTED:
        if accept:
            return ask  # a second tap on the same answer
        raise Refused(
            _(
                "You already said you'll come. If you can't after all, tell the host, {name}."
            ).format(name=", ".join(h.name for h in hosts_of(month)) or _("the admin"))
        )
    if ask.status in STATUS_REFUSALS:
        raise Refused(str(STATUS_REFUSALS[ask.status]))
    if month.started:
        raise Refused(_("{month}'s night has already started.").format(month=month.name))
    if month.is_past():
        raise Refused(_("{month}'s night is over.").format(month=month.name))
    circle = month.season.circle
    if not accept:
        close_ask(ask, SubstituteAsk.Status.DECLINED)
        note(circle, "sub_declined", {"name": ask.member.name}, month)
        ask_next(month)
        return ask
    if attendance(month).short == 0:  # (every change that fills the tables withdraws asks)
        raise Refused(STATUS_REFUSALS[SubstituteAsk.Status.WITHDRAWN])
    close_ask(ask, SubstituteAsk.Status.ACCEPTED)
    Rsvp.objects.update_or_create(
        month=month, member=ask.member, defaults={"answer": Rsvp.Answer.YES}
    )
    note(circle, "sub_accepted", {"name": ask.member.name}, month)
    _withdraw_if_full(month)
    for host in hosts_of(month):
        mail.send_member(
            host,
            "substitute_found",
            {
                "circle": circle,
                "month": month,
                "substitute": ask.member,
                "short": attendance(month).short,
                "link": mail.member_link(host),
            },
        )
    return ask


# --- the night ---------------------------------------------------------------------------------


def may_start(month: Month, today: date | None = None) -> str | None:
    """Why the month's night cannot be started today, or None."""
    today = today or month.season.circle.today()
    if month.started:
        return _("{month}'s night has already started.").format(month=month.name)
    if today < month.date - timedelta(days=1):
        return _("{month}'s night can be started from {day} (the day before).").format(
            month=month.name, day=day_name(month.date - timedelta(days=1))
        )
    if today > month.date + timedelta(days=1):
        return _("{month}'s night is over.").format(month=month.name)
    return None


@transaction.atomic
def start_night(month_id: int, user) -> Party:
    """The party night of the month: the RSVPs who are coming as its players (substitutes as
    substitutes), the circle's prize categories, and the circle's options; the month's
    fallback is the night's attendance. The one who starts it is its host on the laptop."""
    month = lock_month(month_id)
    circle = month.season.circle
    if reason := may_start(month):
        raise Refused(reason)
    seen = attendance(month)
    if seen.count < 4:
        raise Refused(
            ngettext(
                "Only {count} is coming: Bunko needs at least 4 players.",
                "Only {count} are coming: Bunko needs at least 4 players.",
                seen.count,
            ).format(count=seen.count)
        )
    if seen.short and month.fill == Month.Fill.SUBSTITUTES:
        raise Refused(
            ngettext(
                "{short} seat is still short of a table of 4. Ask the substitutes, or fall "
                "back to ghost seats or sit-outs.",
                "{short} seats are still short of a table of 4. Ask the substitutes, or fall "
                "back to ghost seats or sit-outs.",
                seen.short,
            ).format(short=seen.short)
        )
    party = parties.create_party(
        user,
        name=f"{circle.name}: {month.name}"[:80],
        rounds=circle.rounds,
        dice_mode=circle.dice_mode,
        attendance=month.fill,
    )
    set_categories(party.code, [Category.from_json(c) for c in circle.prize_categories])
    for member in seen.coming:
        kind = Player.Kind.SUBSTITUTE if member.is_substitute else Player.Kind.PLAYER
        player = parties.add_player(party.code, member.name, kind=kind)
        NightSeat.objects.create(month=month, member=member, player=player)
    month.party = party
    month.save(update_fields=["party", "updated"])
    for ask in month.asks.filter(status=SubstituteAsk.Status.ASKED):
        close_ask(ask, SubstituteAsk.Status.WITHDRAWN)
    Deadline.objects.filter(scope=scope_of(month)).delete()
    note(circle, "night_started", {"count": seen.count}, month)
    return party


@transaction.atomic
def arrive(month_id: int, member_id: int) -> tuple[Player, str]:
    """A member arrives at the night: their phone becomes their player (the one made from
    their RSVP, or a new one for someone who came after all), so the night's results go to
    the right person. Returns the player and the seat token."""
    month = lock_month(month_id)
    member = month.season.circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        raise Refused(_("Only members of the circle can join its night."))
    party = month.party
    if party is None:
        raise Refused(_("{month}'s night has not started yet.").format(month=month.name))
    if party.status == Party.Status.ENDED:
        raise Refused(_("{month}'s night is over.").format(month=month.name))
    seat = NightSeat.objects.filter(month=month, member=member).select_related("player").first()
    if seat is None:
        player = party.players.filter(name__iexact=member.name, circle_seat__isnull=True).first()
        if player is None:
            kind = Player.Kind.SUBSTITUTE if member.is_substitute else Player.Kind.PLAYER
            player = parties.add_player(party.code, member.name, kind=kind)
        seat = NightSeat.objects.create(month=month, member=member, player=player)
    if seat.player.claimed:
        # The member's link proves who they are: this phone becomes their seat, and the phone
        # they joined on before lets go of it (its seat token no longer holds).
        parties.free_player(party.code, seat.player_id)
    return parties.join_party(party.code, player_id=seat.player_id)
