"""The circle's own pages: the list of one's circles, a new circle, the season overview with
the planner, and the admin's settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.circles import activity, mail, services
from apps.circles.access import Viewer, member_from_cookie
from apps.circles.dates import add_months
from apps.circles.forms import CircleForm, EmptyForm, PrizesForm, SettingsForm
from apps.circles.models import Circle, Member, Rsvp, Season, SubstituteAsk, SwapRequest
from apps.circles.selectors import (
    attendances,
    checklist,
    current_season,
    months_of,
    pending_swaps,
    swap_targets,
)
from apps.circles.tokens import make_ask_token, make_feed_token
from apps.core.converters import row_id
from apps.core.errors import Refused

from .common import answer, carried_out, circle_view, first_error, site_of


@require_GET
def circle_list(request: HttpRequest) -> HttpResponse:
    """The circles this person runs or belongs to (by login, or by this phone's links)."""
    run, joined = [], []
    user = request.user
    if user.is_authenticated:
        run = list(Circle.objects.filter(admin=user))
        joined = [
            m.circle for m in Member.objects.filter(user=user, active=True).select_related("circle")
        ]
    codes = [name[len("circle_") :] for name in request.COOKIES if name.startswith("circle_")]
    for circle in Circle.objects.filter(code__in=codes[:50]):
        if circle not in joined and member_from_cookie(request, circle) is not None:
            joined.append(circle)
    joined = [c for c in joined if c not in run]
    return render(request, "circles/list.html", {"run": run, "joined": joined})


@login_required
@require_http_methods(["GET", "POST"])
def new_circle(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    form = CircleForm(
        request.POST or None,
        initial={"start": add_months(today, 1), "timezone": timezone.get_current_timezone_name()},
    )
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            circle = services.create_circle(
                request.user,
                name=data["name"],
                start=data["start"],
                week=data["week"],
                weekday=data["weekday"],
                at=data["time"],
                tz=data["timezone"],
                site_url=site_of(request),
            )
        except Refused as problem:
            error = str(problem)
        else:
            messages.success(
                request,
                _("{circle} is ready. Invite the members with the link below.").format(
                    circle=circle.name
                ),
            )
            return redirect("circles:members", code=circle.code)
    return render(
        request,
        "circles/new.html",
        {"form": form, "error": error},
        status=400 if error or form.errors else 200,
    )


def _season(viewer: Viewer, wanted: str | None) -> Season | None:
    circle = viewer.circle
    if (pk := row_id(wanted)) is not None:
        season = circle.seasons.filter(pk=pk).first()
        if season is not None:
            return season
    return current_season(circle)


def circle_context(viewer: Viewer, season: Season | None) -> dict:
    circle = viewer.circle
    now = timezone.now()
    months = months_of(season) if season else []
    seen = attendances(months)
    member = viewer.member
    answers = {}
    if member is not None:
        answers = dict(
            Rsvp.objects.filter(member=member, month__in=months).values_list("month_id", "answer")
        )
    for month in months:
        month.seen = seen[month.pk]
        month.past = month.is_past(now)
        month.open = not month.started and not month.past
        month.mine = viewer.hosts(month)
        month.my_answer = "yes" if month.mine else answers.get(month.pk)
        month.checklist = checklist(month, month.seen)
        month.checklist_done = sum(item["done"] for item in month.checklist)
    upcoming = next(
        (m for m in months if m.open or (m.started and m.party.status != "ended")), None
    )
    mine = [m for m in months if m.mine and m.open]
    for month in mine:
        month.targets = swap_targets(member, month, now)
    context = {
        "page": "season",
        "answers": Rsvp.Answer.choices,
        "circle": circle,
        "viewer": viewer,
        "season": season,
        "seasons": list(circle.seasons.all()),
        "months": months,
        "upcoming": upcoming,
        "my_months": mine,
        "incoming": [],
        "outgoing": [],
        "my_asks": [],
        "feed_url": reverse(
            "circles:calendar", args=[circle.code, make_feed_token(circle.pk, circle.feed_nonce)]
        ),
    }
    if member is not None:
        swaps = SwapRequest.objects.filter(status=SwapRequest.Status.PENDING).select_related(
            "from_month", "to_month", "from_member", "to_member"
        )
        context["incoming"] = list(swaps.filter(to_member=member))
        context["outgoing"] = list(swaps.filter(from_member=member))
        asks = SubstituteAsk.objects.filter(
            member=member, status=SubstituteAsk.Status.ASKED
        ).select_related("month")
        context["my_asks"] = [(a, make_ask_token(a.pk, a.nonce)) for a in asks]
    if viewer.is_admin:
        context.update(
            pending=pending_swaps(circle),
            activity=activity.latest(circle),
            open_months=[m for m in months if m.open],
            unhosted=[m for m in months if m.open and not m.host_list],
            member_count=circle.members.filter(active=True, kind=Member.Kind.MEMBER).count(),
            last_season=circle.seasons.order_by("-start").first(),
        )
    return context


@require_GET
@circle_view("circle")
def circle_page(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    season = _season(viewer, request.GET.get("season"))
    return render(request, "circles/circle.html", circle_context(viewer, season))


@require_POST
@circle_view("admin")
def plan(request: HttpRequest, viewer: Viewer, season_id: int) -> HttpResponse:
    """The planner's one action: the season's schedule of hosts."""
    season = viewer.circle.seasons.filter(pk=season_id).first()
    error = success = None
    try:
        if season is None:
            raise Refused(_("That season is not this circle's."))
        if not EmptyForm(request.POST).is_valid():  # pragma: no cover - no fields
            raise Refused(_("Something in that form was not right; nothing changed."))
        made = services.plan_season(season.pk)
    except Refused as problem:
        error = str(problem)
        season = season or current_season(viewer.circle)
    else:
        success = _("The schedule is made and mailed to every member with an e-mail address.")
        if made.unhosted:
            success += " Nobody can host some months: choose their hosts by hand."
    viewer.__dict__.pop("hosted_ids", None)  # the viewer's own hostings changed
    back = reverse("circles:circle", args=[viewer.circle.code])
    return answer(
        request,
        partial="circles/circle.html#season",
        context=lambda: circle_context(viewer, season),
        back=f"{back}?season={season.pk}" if season else back,
        error=error,
        success=success,
    )


@require_POST
@circle_view("admin")
def new_season(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    form = EmptyForm(request.POST)
    if not form.is_valid():  # pragma: no cover - an empty form is always valid
        messages.error(request, first_error(form))
        return redirect("circles:circle", code=viewer.circle.code)
    season = services.new_season(viewer.circle.pk)
    messages.success(
        request, _("The {season} season is added: plan its hosts.").format(season=season.name)
    )
    url = reverse("circles:circle", args=[viewer.circle.code]) + f"?season={season.pk}"
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def settings_context(viewer: Viewer, form=None, prizes=None) -> dict:
    circle = viewer.circle
    return {
        "page": "settings",
        "circle": circle,
        "viewer": viewer,
        "form": form or SettingsForm(instance=circle),
        "prizes": prizes or PrizesForm(current=circle.prize_categories),
        "feed": mail.feed_link(circle),
    }


@require_http_methods(["GET", "POST"])
@circle_view("admin")
def settings_page(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    circle = viewer.circle
    if request.method == "GET":
        return render(request, "circles/settings.html", settings_context(viewer))
    form = SettingsForm(request.POST, instance=Circle.objects.get(pk=circle.pk))

    def save(data: dict) -> str:
        viewer.circle = services.update_circle(circle.pk, data)
        return _("Saved.")

    return _settings_answer(request, viewer, form, save, part="options", form_name="form")


@require_POST
@circle_view("admin")
def prizes(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    circle = viewer.circle
    form = PrizesForm(request.POST, current=circle.prize_categories)

    def save(_data: dict) -> str:
        viewer.circle = services.update_circle(circle.pk, {"prize_categories": form.categories()})
        return _("The prize categories are saved; each night starts with them.")

    return _settings_answer(
        request, viewer, form, save, part="prizes", form_name="prizes", said="prize_"
    )


def _settings_answer(
    request, viewer: Viewer, form, save, *, part: str, form_name: str, said: str = ""
) -> HttpResponse:
    """The settings page after one of its forms (``carried_out``): htmx gets the form's
    part, a plain browser the page; the form as sent when refused, a blank one once saved.
    ``said``: the prefix of the part's error and success in the page's context."""
    error, success = carried_out(form, save)
    context = settings_context(viewer, **{form_name: None if success else form})
    context.update({f"{said}error": error, f"{said}success": success})
    template = f"circles/settings.html#{part}" if request.htmx else "circles/settings.html"
    return render(request, template, context, status=400 if error else 200)


@require_POST
@circle_view("admin")
def new_feed(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    viewer.circle = services.new_feed_link(viewer.circle.pk)
    messages.success(request, _("The calendar has a new link; the old one no longer works."))
    if request.htmx:
        return render(request, "circles/settings.html#feed", settings_context(viewer))
    return redirect("circles:settings", code=viewer.circle.code)
