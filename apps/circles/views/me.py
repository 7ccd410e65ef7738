"""A member's own page: their details, their language, a login of their own, and signing
this phone out of the circle."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.circles import services
from apps.circles.access import Viewer
from apps.circles.forms import EmptyForm, LanguageForm, LoginForm, MemberForm
from apps.core import cookies
from apps.core.errors import Refused
from apps.core.language import speak

from .common import (
    answer,
    circle_view,
    first_error,
    form_answer,
    keep_language_cookie,
    phone_link,
    refusal,
)
from .people import member_url


@require_POST
@circle_view("circle")
def forget(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """Sign this phone out of the circle (the member link still works elsewhere)."""
    EmptyForm(request.POST).is_valid()
    response = redirect("circles:list")
    cookies.forget(response, viewer.circle.cookie_name)
    messages.info(
        request, _("This phone is signed out of the circle. Your member link still works.")
    )
    return response


def me_context(request: HttpRequest, viewer: Viewer, form=None, login_form=None) -> dict:
    member = viewer.member
    return {
        "page": "me",
        "circle": viewer.circle,
        "viewer": viewer,
        "member": member,
        "form": form or MemberForm.of(member),
        "login_form": login_form or LoginForm(),
        "link": phone_link(request, member_url(member)),
        "link_path": member_url(member),
        "welcome": request.GET.get("welcome") == "1",
        "languages": settings.LANGUAGES,
    }


def _not_a_member(viewer: Viewer) -> str:
    return _(
        "You run {circle} but are not one of its members. To play and host too, "
        "join with the circle's invite link on the members page."
    ).format(circle=viewer.circle.name)


@require_http_methods(["GET", "POST"])
@circle_view("circle")
def me(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    if viewer.member is None:
        return refusal(request, _not_a_member(viewer), circle=viewer.circle)
    if request.method == "GET":
        return render(request, "circles/me.html", me_context(request, viewer))
    form = MemberForm(request.POST)

    def save(data: dict) -> str:
        viewer.member = services.update_member(
            viewer.member.pk,
            name=data["name"],
            email=data["email"],
            phone=data["phone"],
            address=data["address"],
            cannot_host=data["cannot_host"] if not viewer.member.is_substitute else None,
        )
        return _("Saved.")

    return form_answer(
        request,
        form,
        save,
        partial="circles/me.html#details",
        context=lambda shown: me_context(request, viewer, form=shown),
        back=reverse("circles:me", args=[viewer.circle.code]),
    )


@require_POST
@circle_view("circle")
def language(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """A member chooses the language of their pages and of the circle's mails to them: kept
    with the member, and on this phone as the language picker keeps it."""
    if viewer.member is None:
        return refusal(request, _not_a_member(viewer), circle=viewer.circle)
    form = LanguageForm(request.POST)
    response = redirect("circles:me", code=viewer.circle.code)
    if not form.is_valid():
        messages.error(request, _("Choose English, Nederlands or Deutsch."))
        return response
    chosen = services.set_member_language(viewer.member.pk, form.cleaned_data["language"])
    # Said in the language chosen, so each catalogue names its own language.
    with speak(chosen):
        messages.success(
            request, _("Saved: your pages and the circle's mails to you are in English now.")
        )
    keep_language_cookie(request, response, chosen)
    return response


@require_POST
@circle_view("circle")
def signup(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """A member makes a login for themselves, to run their night on the laptop."""
    if viewer.member is None:
        return refusal(request, _not_a_member(viewer), circle=viewer.circle)
    form = LoginForm(request.POST)
    error = None
    if form.is_valid():
        try:
            user = services.give_login(
                viewer.member.pk, form.cleaned_data["username"], form.cleaned_data["password1"]
            )
        except Refused as problem:
            error = str(problem)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            viewer.member.user = user
            messages.success(
                request,
                _("Your login {username} is ready, and you are signed in.").format(
                    username=user.get_username()
                ),
            )
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = reverse("circles:me", args=[viewer.circle.code])
                return response
            return redirect("circles:me", code=viewer.circle.code)
    else:
        error = first_error(form)
    return answer(
        request,
        partial="circles/me.html#login",
        context=lambda: me_context(request, viewer, login_form=form),
        back=reverse("circles:me", args=[viewer.circle.code]) + "#login",
        error=error,
    )
