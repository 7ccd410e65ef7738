"""The people of a circle: invitations, joining, the member link, and the admin's list of
members and substitutes and page of one member (a login made for them). A member's own page
is in .me."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.circles import services
from apps.circles.access import Viewer, viewer_for
from apps.circles.forms import (
    AddMemberForm,
    AdminLoginForm,
    EmptyForm,
    InviteMailForm,
    JoinForm,
    KindForm,
    MemberForm,
    MemberPickForm,
    MoveForm,
)
from apps.circles.models import Member
from apps.circles.selectors import active_members, substitutes
from apps.circles.tokens import make_invite, make_member_token, read_invite, read_member_token
from apps.core.errors import Refused
from apps.core.limits import wrong_code

from .common import (
    answer,
    circle_view,
    first_error,
    form_answer,
    get_circle,
    phone_link,
    refusal,
    set_member_cookie,
)


def member_url(member: Member) -> str:
    token = make_member_token(member.circle_id, member.pk, member.nonce)
    return reverse("circles:member_link", args=[member.circle.code, token])


def invite_urls(circle) -> dict[str, str]:
    return {
        kind: reverse(
            "circles:join", args=[circle.code, make_invite(circle.pk, circle.invite_nonce, kind)]
        )
        for kind in Member.Kind.values
    }


# --- joining --------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A phone opens an invite link and joins with a name and, if they like, an address."""
    circle = get_circle(code)
    try:
        invited, kind = services.invite_circle(token)
        if invited.pk != circle.pk:
            raise Refused(
                _(
                    "This invite link is not valid: it may have been cut short or mistyped. Ask "
                    "the circle's admin to send it again."
                )
            )
    except Refused as problem:
        # A made-up link at a real circle's code is a guess, as a wrong code is.
        invite = read_invite(token)
        made_up = invite is None or invite.circle_id != circle.pk
        if made_up and (refused := wrong_code(request)):
            return refused
        return refusal(request, str(problem), status=400)
    viewer = viewer_for(request, circle)
    if viewer.member is not None:
        messages.info(
            request,
            _("You are already in {circle} as {name}.").format(
                circle=circle.name, name=viewer.member.name
            ),
        )
        return redirect("circles:circle", code=circle.code)
    form = JoinForm(request.POST or None)
    error = None
    if request.method == "POST":
        if form.is_valid():
            user = request.user if request.user.is_authenticated else None
            try:
                member = services.join_circle(
                    token, user=user, language=request.LANGUAGE_CODE, **form.cleaned_data
                )
            except Refused as problem:
                error = str(problem)
            else:
                response = redirect(reverse("circles:me", args=[circle.code]) + "?welcome=1")
                token = make_member_token(circle.pk, member.pk, member.nonce)
                return set_member_cookie(response, circle, token)
        else:
            error = first_error(form)
    return render(
        request,
        "circles/join.html",
        {"circle": circle, "form": form, "kind": kind, "error": error},
        status=400 if error else 200,
    )


@require_GET
def member_link(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A member's own link: this phone becomes that member (no account needed)."""
    circle = get_circle(code)
    claim = read_member_token(token)
    member = None
    if claim is not None and claim.circle_id == circle.pk:
        member = circle.members.filter(pk=claim.member_id).first()
    if member is None:
        if refused := wrong_code(request):  # a made-up link is a guess, as a wrong code is
            return refused
        return refusal(
            request,
            _(
                "This member link is not valid: it may have been cut short or mistyped. Ask the "
                "circle's admin for your link."
            ),
            status=400,
        )
    if not member.active or member.nonce != claim.nonce:
        return refusal(
            request,
            _(
                "This member link to {circle} is no longer valid: a newer one was made. "
                "Look for the latest mail, or ask the circle's admin for your link."
            ).format(circle=circle.name),
            status=400,
        )
    response = redirect("circles:circle", code=circle.code)
    return set_member_cookie(response, circle, token)


# --- the admin's list ---------------------------------------------------------------------------


def members_context(request: HttpRequest, viewer: Viewer, add_form=None, mail_form=None) -> dict:
    circle = viewer.circle
    urls = invite_urls(circle)
    return {
        "page": "members",
        "circle": circle,
        "viewer": viewer,
        "members": active_members(circle),
        "substitutes": substitutes(circle),
        "invite_member": phone_link(request, urls["member"]),
        "invite_substitute": phone_link(request, urls["substitute"]),
        "invite_member_path": urls["member"],
        "invite_substitute_path": urls["substitute"],
        "add_form": add_form or AddMemberForm(),
        "mail_form": mail_form or InviteMailForm(),
        "former": list(circle.members.filter(active=False)),
    }


@require_GET
@circle_view("admin")
def members(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    return render(request, "circles/members.html", members_context(request, viewer))


def _back(viewer: Viewer) -> str:
    return reverse("circles:members", args=[viewer.circle.code])


@require_POST
@circle_view("admin")
def add_member(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    form = AddMemberForm(request.POST)

    def add(data: dict) -> str:
        # The admin's language, until the member's own pages say theirs.
        member = services.add_member(viewer.circle.pk, language=translation.get_language(), **data)
        return _("{name} is added.").format(name=member.name)

    return form_answer(
        request,
        form,
        add,
        partial="circles/members.html#people",
        context=lambda shown: members_context(request, viewer, add_form=shown),
        back=_back(viewer),
    )


def _people_action(request: HttpRequest, viewer: Viewer, form, act) -> HttpResponse:
    return form_answer(
        request,
        form,
        act,
        partial="circles/members.html#people",
        context=lambda _shown: members_context(request, viewer),
        back=_back(viewer),
    )


@require_POST
@circle_view("admin")
def move_substitute(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    def act(data):
        services.move_substitute(viewer.circle.pk, data["member"], data["step"])

    return _people_action(request, viewer, MoveForm(request.POST), act)


@require_POST
@circle_view("admin")
def set_kind(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    def act(data):
        member = services.set_kind(viewer.circle.pk, data["member"], data["kind"])
        if member.is_substitute:
            return _("{name} is now a substitute.").format(name=member.name)
        return _("{name} is now a member.").format(name=member.name)

    return _people_action(request, viewer, KindForm(request.POST), act)


@require_POST
@circle_view("admin")
def remove_member(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    def act(data):
        member = viewer.circle.members.filter(pk=data["member"]).first()
        months = services.remove_member(viewer.circle.pk, data["member"])
        text = _("{name} is off the list.").format(name=member.name)
        if months:
            again = _("Give these months a new host: {months}.")
            text += " " + again.format(months=", ".join(m.name for m in months))
        return text

    return _people_action(request, viewer, MemberPickForm(request.POST), act)


@require_POST
@circle_view("admin")
def new_invites(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    EmptyForm(request.POST).is_valid()
    viewer.circle = services.new_invite_links(viewer.circle.pk)
    return answer(
        request,
        partial="circles/members.html#invites",
        context=lambda: members_context(request, viewer),
        back=_back(viewer),
        success=_("New invite links are made: the old ones no longer work."),
    )


@require_POST
@circle_view("admin")
def mail_invites(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    form = InviteMailForm(request.POST)
    error = success = None
    if form.is_valid():
        kind = form.cleaned_data["kind"]
        url = phone_link(request, invite_urls(viewer.circle)[kind])
        count = services.send_invitations(
            viewer.circle.pk, form.cleaned_data["addresses"], kind, url
        )
        success = ngettext("{count} invitation sent.", "{count} invitations sent.", count).format(
            count=count
        )
        form = None
    else:
        error = first_error(form)
    return answer(
        request,
        partial="circles/members.html#invites",
        context=lambda: members_context(request, viewer, mail_form=form),
        back=_back(viewer),
        error=error,
        success=success,
    )


# --- the admin's page of one member -------------------------------------------------------------


def member_context(request: HttpRequest, viewer: Viewer, member: Member, form=None) -> dict:
    return {
        "page": "members",
        "circle": viewer.circle,
        "viewer": viewer,
        "member": member,
        "form": form or MemberForm.of(member),
        "login_form": AdminLoginForm(initial={"member": member.pk}),
        "link": phone_link(request, member_url(member)),
        "link_path": member_url(member),
        "hosting": [h.month for h in member.hostings.select_related("month")],
    }


@require_http_methods(["GET", "POST"])
@circle_view("admin")
def member_page(request: HttpRequest, viewer: Viewer, member_id: int) -> HttpResponse:
    member = viewer.circle.members.filter(pk=member_id, active=True).first()
    if member is None:
        return refusal(request, _("That person is not a member of this circle."), status=404)
    if request.method == "GET":
        return render(request, "circles/member.html", member_context(request, viewer, member))
    form = MemberForm(request.POST)

    def save(data: dict) -> str:
        nonlocal member
        member = services.update_member(member.pk, **data)
        return _("Saved.")

    return form_answer(
        request,
        form,
        save,
        partial="circles/member.html#details",
        context=lambda shown: member_context(request, viewer, member, form=shown),
        back=reverse("circles:member", args=[viewer.circle.code, member.pk]),
    )


@require_POST
@circle_view("admin")
def reset_link(request: HttpRequest, viewer: Viewer, member_id: int) -> HttpResponse:
    error = success = None
    member = None
    try:
        member = services.reset_member_link(viewer.circle.pk, member_id)
        success = _("{name} has a new link; the old one no longer works.").format(name=member.name)
    except Refused as problem:
        error = str(problem)
    member = member or viewer.circle.members.filter(pk=member_id).first()
    return answer(
        request,
        partial="circles/member.html#link",
        context=lambda: member_context(request, viewer, member),
        back=reverse("circles:member", args=[viewer.circle.code, member_id]),
        error=error,
        success=success,
    )


@require_POST
@circle_view("admin")
def admin_login(request: HttpRequest, viewer: Viewer, member_id: int) -> HttpResponse:
    """The admin makes a login for a member (to pass on to them)."""
    form = AdminLoginForm(request.POST)
    error = success = None
    if form.is_valid() and form.cleaned_data["member"] == member_id:
        try:
            if not viewer.circle.members.filter(pk=member_id, active=True).exists():
                raise Refused(_("That person is not a member of this circle."))
            user = services.give_login(
                member_id, form.cleaned_data["username"], form.cleaned_data["password"]
            )
            success = _("The login {username} is ready: give it to them.").format(
                username=user.get_username()
            )
        except Refused as problem:
            error = str(problem)
    else:
        error = first_error(form) if form.errors else _("Choose a username and a password.")
    member = viewer.circle.members.filter(pk=member_id).first()
    if member is None:
        return refusal(request, _("That person is not a member of this circle."), status=404)
    return answer(
        request,
        partial="circles/member.html#login",
        context=lambda: member_context(request, viewer, member),
        back=reverse("circles:member", args=[viewer.circle.code, member_id]),
        error=error,
        success=success,
    )
