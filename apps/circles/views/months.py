"""A month's night: its details, the RSVPs, the host's checklist, the substitutes, starting
the night and arriving at it, and the hosts' swaps."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.circles import services
from apps.circles.access import Viewer
from apps.circles.forms import (
    AskAnswerForm,
    ChecklistForm,
    EmptyForm,
    FillForm,
    MonthAdminForm,
    MonthForm,
    RsvpForm,
    SwapAnswerForm,
    SwapCancelForm,
    SwapForm,
)
from apps.circles.mail import names_and
from apps.circles.models import Month, Rsvp, SubstituteAsk, SwapRequest
from apps.circles.selectors import (
    active_members,
    answer_of,
    attendance,
    checklist,
    hosts_of,
    place_of,
    substitutes,
    swap_targets,
)
from apps.core import cookies
from apps.core.errors import Refused
from apps.core.language import speak
from apps.core.tokens import seat_cookie_name
from apps.parties.selectors import tallies
from apps.parties.views.common import claim_of
from apps.parties.views.player import COOKIE_AGE

from .common import (
    answer,
    carried_out,
    circle_view,
    form_answer,
    keep_language_cookie,
    member_language,
    refusal,
    safe_next,
)


def month_context(request: HttpRequest, viewer: Viewer, month: Month, form=None) -> dict:
    circle = viewer.circle
    hosts = hosts_of(month)
    seen = attendance(month)
    runner = viewer.runs(month)
    member = viewer.member
    context = {
        "page": "season",
        "circle": circle,
        "viewer": viewer,
        "month": month,
        "hosts": hosts,
        "where": place_of(month, hosts),
        "seen": seen,
        "runner": runner,
        "hosting": viewer.hosts(month),
        "past": month.is_past(),
        "my_answer": answer_of(month, member) if viewer.is_member else None,
        "answers": Rsvp.Answer.choices,
        "checklist": checklist(month, seen),
    }
    if month.party is not None:
        context["winner"] = (month.party.result or {}).get("winner")
    if member is not None and month.party is not None:
        seat = month.seats.filter(member=member).select_related("player").first()
        player = seat.player if seat else None
        claim = claim_of(request, month.party)
        context["arrived"] = bool(
            player and claim and claim.seat_id == player.pk and claim.nonce == player.nonce
        )
        if player is not None and month.party.current_round:
            context["my_tally"] = next(
                (t for t in tallies(month.party) if t.player.pk == player.pk), None
            )
    if runner:
        asked = {a.member_id: a for a in seen.asks}
        context.update(
            start_problem=_start_problem(month, seen),
            signed_in=request.user.is_authenticated,
            runs_party=month.party is not None and month.party.host_id == request.user.pk,
            substitutes=[(s, asked.get(s.pk)) for s in substitutes(circle)],
            fills=Month.Fill.choices,
            edit_form=form or _month_form(viewer, month),
        )
    if viewer.hosts(month) and member is not None and not month.started:
        context["targets"] = swap_targets(member, month)
    return context


def _start_problem(month: Month, seen) -> str | None:
    if reason := services.may_start(month):
        return reason
    if seen.count < 4:
        return ngettext(
            "{count} coming so far: a night needs at least 4 players.",
            "{count} coming so far: a night needs at least 4 players.",
            seen.count,
        ).format(count=seen.count)
    if seen.short and month.fill == Month.Fill.SUBSTITUTES:
        return ngettext(
            "{short} seat short: ask the substitutes, or fall back to ghost seats or sit-outs.",
            "{short} seats short: ask the substitutes, or fall back to ghost seats or sit-outs.",
            seen.short,
        ).format(short=seen.short)
    return None


def _month_form(viewer: Viewer, month: Month, data=None):
    initial = {
        "date": month.date,
        "time": month.time,
        "place": month.place,
        "host_note": month.host_note,
    }
    if viewer.is_admin:
        initial["hosts"] = [h.pk for h in hosts_of(month)]
        return MonthAdminForm(data, initial=initial, members=active_members(viewer.circle))
    return MonthForm(data, initial=initial)


def _back(month: Month) -> str:
    return reverse("circles:month", args=[month.season.circle.code, month.pk])


@require_GET
@circle_view("circle", month=True)
def month_page(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    context = month_context(request, viewer, month)
    if request.htmx and request.GET.get("part") == "host" and context["runner"]:
        return render(request, "circles/month.html#host", context)  # the host's page polls
    return render(request, "circles/month.html", context)


@require_POST
@circle_view("runner", month=True)
def edit_month(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """Date, time, place and a note (the host or the admin); hosts (the admin)."""
    form = _month_form(viewer, month, request.POST)

    def save(data: dict) -> str:
        services.edit_month(
            month.pk,
            day=data["date"],
            at=data["time"],
            place=data["place"],
            host_note=data["host_note"],
            hosts=data.get("hosts") if viewer.is_admin else None,
        )
        return _("Saved. Members with an e-mail address hear of a new date or place.")

    error, success = carried_out(form, save)
    if success:
        form = None
        month.refresh_from_db()
        viewer.__dict__.pop("hosted_ids", None)
    if request.htmx and not error:
        response = HttpResponse(status=204)
        messages.success(request, success)
        response["HX-Redirect"] = _back(month)
        return response
    return answer(
        request,
        partial="circles/month.html#edit",
        context=lambda: month_context(request, viewer, month, form=form),
        back=_back(month),
        error=error,
        success=success,
    )


@require_POST
@circle_view("member", month=True)
def rsvp(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """Coming, not coming or maybe, from the member's phone."""
    form = RsvpForm(request.POST)
    error = None
    try:
        if not form.is_valid():
            raise Refused(_("Answer coming, not coming or maybe."))
        services.set_rsvp(month.pk, viewer.member.pk, form.cleaned_data["answer"])
    except Refused as problem:
        error = str(problem)
    month.refresh_from_db()
    return answer(
        request,
        partial="circles/parts.html#rsvp",
        context=lambda: {
            "month": month,
            "circle": viewer.circle,
            "my_answer": answer_of(month, viewer.member),
            "answers": Rsvp.Answer.choices,
            "viewer": viewer,
            "hosting": viewer.hosts(month),
        },
        back=safe_next(request, _back(month)),
        error=error,
    )


def _month_action(
    request, viewer, month, form, act, partial="circles/month.html#host"
) -> HttpResponse:
    def context(_shown) -> dict:
        month.refresh_from_db()  # as the service left it
        return month_context(request, viewer, month)

    return form_answer(request, form, act, partial=partial, context=context, back=_back(month))


@require_POST
@circle_view("runner", month=True)
def tick(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """The host's checklist: one item done or not done."""

    def act(data):
        services.set_checklist(month.pk, data["item"], data["done"])

    return _month_action(request, viewer, month, ChecklistForm(request.POST), act)


@require_POST
@circle_view("runner", month=True)
def fill(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """What fills the empty seats: substitutes, or the fallback to ghosts or sit-outs."""

    def act(data):
        changed = services.set_fill(month.pk, data["fill"])
        fill = changed.get_fill_display().split(" (")[0].lower()
        return _("Empty seats: {fill}.").format(fill=fill)

    return _month_action(request, viewer, month, FillForm(request.POST), act)


@require_POST
@circle_view("runner", month=True)
def ask(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """One action: the substitutes are asked, in the list's order."""

    def act(data):
        made = services.ask_substitutes(month.pk)
        return _("Asked {names}.").format(names=", ".join(a.member.name for a in made))

    return _month_action(request, viewer, month, EmptyForm(request.POST), act)


@require_POST
@circle_view("runner", month=True)
def start(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """The month's party night, with the RSVPs as its players; the one who starts it runs
    it on the laptop (the host console)."""
    if not request.user.is_authenticated:
        return _month_action(
            request,
            viewer,
            month,
            EmptyForm(request.POST),
            lambda data: _refuse(
                _(
                    "The night runs on the laptop with a login: sign up for one on your page (or "
                    "sign in), then start the night."
                )
            ),
        )
    party = None

    def act(data):
        nonlocal party
        party = services.start_night(month.pk, request.user)

    response = _month_action(request, viewer, month, EmptyForm(request.POST), act)
    if party is None:
        return response
    url = reverse("party_host", args=[party.code])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _refuse(message: str):
    raise Refused(message)


@require_POST
@circle_view("circle", month=True)
def arrive(request: HttpRequest, viewer: Viewer, month: Month) -> HttpResponse:
    """A member at the night: this phone becomes their player at the party."""
    if viewer.member is None:
        return _month_action(
            request,
            viewer,
            month,
            EmptyForm(request.POST),
            lambda data: _refuse(_("Only the circle's members and substitutes play its nights.")),
            partial="circles/month.html#night",
        )
    result = None

    def act(data):
        nonlocal result
        result = services.arrive(month.pk, viewer.member.pk)

    response = _month_action(
        request, viewer, month, EmptyForm(request.POST), act, partial="circles/month.html#night"
    )
    if result is None:
        return response
    player, token = result
    party = month.party
    url = reverse("party_phone", args=[party.code])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
    else:
        response = redirect(url)
    return cookies.keep(response, seat_cookie_name(party.scope), token, max_age=COOKIE_AGE)


# --- swaps ------------------------------------------------------------------------------------


def _swap_answer(request, viewer, act, form) -> HttpResponse:
    from .circle import circle_context, current_season

    def context(_shown) -> dict:
        viewer.__dict__.pop("hosted_ids", None)  # a swap moves who hosts what
        return circle_context(viewer, current_season(viewer.circle))

    return form_answer(
        request,
        form,
        act,
        partial="circles/circle.html#swaps",
        context=context,
        back=safe_next(request, reverse("circles:circle", args=[viewer.circle.code])),
    )


@require_POST
@circle_view("member")
def request_swap(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """A host asks another host to exchange months."""

    def act(data):
        month_id, member_id = form.pair()
        swap = services.request_swap(viewer.member.pk, data["month"], month_id, member_id)
        return _("Asked {name} to swap {mine} for {theirs}: you'll see their answer here.").format(
            name=swap.to_member.name, mine=swap.from_month.name, theirs=swap.to_month.name
        )

    form = SwapForm(request.POST)
    return _swap_answer(request, viewer, act, form)


@require_POST
@circle_view("member")
def answer_swap(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """The other host accepts or declines on their phone."""

    def act(data):
        accept = data["answer"] == "accept"
        swap = services.answer_swap(viewer.circle.pk, data["swap"], viewer.member.pk, accept)
        if swap.status == SwapRequest.Status.ACCEPTED:
            return _("Swapped: you now host {month}.").format(month=swap.from_month.name)
        return _("Declined: nothing changed.")

    return _swap_answer(request, viewer, act, SwapAnswerForm(request.POST))


@require_POST
@circle_view("member")
def cancel_swap(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    def act(data):
        services.cancel_swap(viewer.circle.pk, data["swap"], viewer.member.pk)
        return _("The swap request is taken back.")

    return _swap_answer(request, viewer, act, SwapCancelForm(request.POST))


# --- a substitute's answer ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def substitute_answer(request: HttpRequest, token: str) -> HttpResponse:
    """The link a substitute gets: accept or decline a seat at a month's night. It is their
    own link, so it speaks their language, as their member pages do."""
    try:
        ask = services.ask_of(token)
    except Refused as problem:
        return refusal(request, str(problem), status=400)
    language = member_language(request, ask.member)
    with timezone.override(ask.month.season.circle.tz), speak(language):
        response = _substitute_answer(request, ask, token)
    keep_language_cookie(request, response, language)
    return response


def _substitute_answer(request: HttpRequest, ask: SubstituteAsk, token: str) -> HttpResponse:
    error = success = None
    if request.method == "POST":
        form = AskAnswerForm(request.POST)
        try:
            if not form.is_valid():
                raise Refused(_("Choose whether you can come."))
            accept = form.cleaned_data["answer"] == "accept"
            services.answer_ask(token, accept)
            success = _("See you there!") if accept else _("Thank you for answering.")
        except Refused as problem:
            error = str(problem)
        ask.refresh_from_db()
    month = ask.month
    hosts = hosts_of(month)
    context = {
        "ask": ask,
        "month": month,
        "circle": month.season.circle,
        "hosts": hosts,
        # "At Dirk and Eva's": the names joined here, so each language builds its own phrase.
        "host_names": names_and([h.name for h in hosts]),
        "where": place_of(month, hosts),
        "token": token,
        "error": error,
        "success": success,
        "asked": ask.status == SubstituteAsk.Status.ASKED,
    }
    template = "circles/ask.html#answer" if request.htmx else "circles/ask.html"
    return render(request, template, context, status=400 if error else 200)
