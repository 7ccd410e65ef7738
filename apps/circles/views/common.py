"""What every circle page shares: finding the circle, who is looking, refusals, htmx."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from functools import wraps
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django_htmx.http import reswap, retarget

from apps.circles import services
from apps.circles.access import NotAllowed, Viewer, require, viewer_for
from apps.circles.models import Circle, Member, Month
from apps.core import cookies, i18n
from apps.core.errors import Refused
from apps.core.language import browser_language, speak, supported
from apps.core.network import lan_addresses, public_base
from apps.core.paths import local_path

NO_CIRCLE = "There is no circle with that code."
CHANGED = "circle-changed"  # the event a change done in a page tells the page


def get_circle(code: str) -> Circle:
    circle = Circle.objects.select_related("admin").filter(code=str(code).upper()).first()
    if circle is None:
        raise Http404(NO_CIRCLE)
    return circle


def get_month(circle: Circle, month_id: int) -> Month:
    month = (
        Month.objects.select_related("season__circle", "party")
        .filter(pk=month_id, season__circle=circle)
        .first()
    )
    if month is None:
        raise Http404("That month is not part of this circle.")
    month.season.circle = circle
    return month


def phone_link(request: HttpRequest, path: str) -> str:
    """A link to show, copy or mail for a phone to open: on the address phones reach (the
    laptop's on the Wi-Fi, or PUBLIC_URL), whatever name the admin's own browser used
    ("localhost" opens nothing on a phone). The QR codes encode the same address."""
    return public_base(request) + path


def site_of(request: HttpRequest) -> str:
    """Where the links in mails sent later (by the scheduler) should point: this server as
    the admin reached it, but by its address on the network when the admin is at the laptop
    itself (a phone cannot open "localhost")."""
    base = request.build_absolute_uri("/")
    parts = urlsplit(base)
    if parts.hostname in {"localhost", "127.0.0.1", "::1"}:
        addresses = lan_addresses()
        if addresses:
            netloc = addresses[0] + (f":{parts.port}" if parts.port else "")
            base = urlunsplit(parts._replace(netloc=netloc))
    return base


def refusal(
    request: HttpRequest,
    message: str,
    *,
    status: int = 403,
    circle: Circle | None = None,
    viewer: Viewer | None = None,
) -> HttpResponse:
    """A clear message and nothing changed: a page of its own (with the viewer's name in
    its header), or (htmx) the page's alert."""
    if request.htmx:
        response = render(request, "circles/_alert.html", {"error": message}, status=status)
        return reswap(retarget(response, "#circle-error"), "innerHTML")
    context = {"message": message, "circle": circle, "viewer": viewer}
    return render(request, "circles/refused.html", context, status=status)


def circle_view(role: str = "circle", *, month: bool = False) -> Callable:
    """Load the circle (and the month), work out who is looking, and let the view run only
    for the role it needs; someone in the circle reads why not, with status 403. To anyone
    outside it the circle does not exist: the same "not found" as a wrong code (and counted
    as a guess), so guessing a code tells nobody a circle's name, or that it is there."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, code: str, *args, **kwargs) -> HttpResponse:
            circle = get_circle(code)
            viewer = viewer_for(request, circle)
            if not viewer.in_circle:
                raise Http404(NO_CIRCLE)
            the_month = get_month(circle, kwargs.pop("month_id")) if month else None
            member = viewer.member
            try:
                require(viewer, role, the_month)
            except NotAllowed as problem:
                # Said in the member's language, naming them; a refused page keeps nothing.
                language = member_language(request, member, keep=False) if member else None
                with speak(language) if language else nullcontext():
                    return refusal(request, str(problem), circle=circle, viewer=viewer)
            language = member_language(request, member) if member else None
            # Times on the circle's pages are the circle's (the laptop may be set to UTC); a
            # member's pages speak the member's language.
            with timezone.override(circle.tz), speak(language) if language else nullcontext():
                if month:
                    response = view(request, viewer, the_month, *args, **kwargs)
                else:
                    response = view(request, viewer, *args, **kwargs)
            if language:
                keep_language_cookie(request, response, language)
            if viewer.is_admin and response.status_code < 400:
                services.remember_site(circle, site_of(request))
            return response

        return wrapper

    return decorate


def member_language(request: HttpRequest, member: Member, keep: bool = True) -> str:
    """The language of a member on their own pages, kept with the member for the mails they
    get, as a seat keeps its phone's (apps.parties.views.player.seat_language): a language
    this phone chose with a picker (its cookie); else the member's, unless it is only the
    admin's guess and the browser asks for one of the product's languages; else the
    browser's. A page view keeps it; a form only speaks it (a refused form changes nothing,
    and every form is sent from a page viewed first)."""
    chosen = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    browser = browser_language(request.headers.get("Accept-Language"))
    kept = supported(member.language)
    if chosen:
        language = chosen
    elif member.language_guessed:
        language = browser or kept or i18n.DEFAULT
    else:
        language = kept or browser or i18n.DEFAULT
    # Still a guess while neither this phone nor its browser has said otherwise.
    guessed = member.language_guessed and not chosen and not browser
    if (
        keep
        and request.method in ("GET", "HEAD")
        and (language != member.language or guessed != member.language_guessed)
    ):
        member.language = services.set_member_language(member.pk, language, guessed=guessed)
        member.language_guessed = guessed
    return language


def keep_language_cookie(request: HttpRequest, response: HttpResponse, language: str) -> None:
    """The language cookie Django's set_language sets, for a phone that lost it (or never
    had it): the member's pages then speak the member's language on every page."""
    if supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)) == language:
        return
    if settings.LANGUAGE_COOKIE_NAME in response.cookies:  # a language chosen just now
        return
    cookies.keep_language(response, language)


def answer(
    request: HttpRequest,
    *,
    partial: str,
    context: Callable[[], dict],
    back: str,
    error: str | None = None,
    success: str | None = None,
) -> HttpResponse:
    """After a form: htmx gets the part of the page it changed (with the refusal next to the
    form, status 400), a plain browser goes back to the page with the message on top."""
    if request.htmx:
        data = context()
        data.update(error=error, success=success)
        response = render(request, partial, data, status=400 if error else 200)
        if not error:
            # Everything else on the page that the change touches (a count, the schedule, the
            # latest changes) is fetched again by the page's refresher (circles/refresh.html).
            response["HX-Trigger"] = CHANGED
        return response
    if error:
        messages.error(request, error)
    elif success:
        messages.success(request, success)
    # A path, never a URL name: redirect() would look a name up.
    return HttpResponseRedirect(back)


def safe_next(request: HttpRequest, fallback: str) -> str:
    """A page of this server to go back to after a form (never another site)."""
    return local_path(request, request.POST.get("next"), fallback)


def first_error(form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return _("Something in that form was not right; nothing changed.")


def carried_out(form, act: Callable[[dict], str | None]) -> tuple[str | None, str | None]:
    """A page's form handed to its service: (error, success). The error is the form's first
    one, or the service's refusal (nothing changed); else ``act(form.cleaned_data)``, which
    returns the sentence that says it is done (or None)."""
    if not form.is_valid():
        return first_error(form), None
    try:
        return None, act(form.cleaned_data)
    except Refused as problem:
        return str(problem), None


def form_answer(
    request: HttpRequest,
    form,
    act: Callable[[dict], str | None],
    *,
    partial: str,
    context: Callable[[Any], dict],
    back: str,
) -> HttpResponse:
    """A page's form handed to its service (``carried_out``) and answered (``answer``). The
    part of the page comes from ``context(form)``: the form as sent when it was refused, so
    the member's typing stays, and None (a blank form) once it is done."""
    error, success = carried_out(form, act)
    shown = None if success else form
    return answer(
        request,
        partial=partial,
        context=lambda: context(shown),
        back=back,
        error=error,
        success=success,
    )


def set_member_cookie(response: HttpResponse, circle: Circle, token: str) -> HttpResponse:
    # A season and then some.
    return cookies.keep(response, circle.cookie_name, token, max_age=60 * 60 * 24 * 400)


__all__ = [
    "Viewer",
    "answer",
    "carried_out",
    "circle_view",
    "first_error",
    "form_answer",
    "get_circle",
    "refusal",
]
