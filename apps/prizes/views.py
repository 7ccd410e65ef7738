"""The host's prize list for a night."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.core.errors import Refused
from apps.parties.models import Party
from apps.parties.views.host import first_error, host_answer, host_only
from apps.prizes import presenter, services
from apps.prizes.forms import AwardStepForm, CategoryFormSet, NewCategoryForm, categories_from
from apps.prizes.rules.categories import shown
from apps.prizes.selectors import categories_of
from apps.prizes.services import ceremonies


@host_only
@require_http_methods(["GET", "POST"])
def night_prizes(request: HttpRequest, party: Party) -> HttpResponse:
    """Rename, reorder, drop or add the night's prize categories, with the prize on the table
    written next to each."""
    initial = [
        {"kind": c.kind, "name": shown(c.kind, c.name), "prize": c.prize, "position": i + 1}
        | {"keep": True}
        for i, c in enumerate(categories_of(party))
    ]
    if request.method == "POST":
        formset = CategoryFormSet(request.POST, initial=initial)
        new = NewCategoryForm(request.POST, prefix="new")
        if formset.is_valid() and new.is_valid():
            try:
                services.set_categories(party.code, categories_from(formset, new))
            except Refused as problem:
                messages.error(request, str(problem))
            else:
                messages.success(request, _("The prizes are saved."))
                return redirect("night_prizes", code=party.code)
    else:
        formset = CategoryFormSet(initial=initial)
        new = NewCategoryForm(prefix="new")
    context = {"party": party, "formset": formset, "new": new}
    return render(request, "prizes/night_prizes.html", context)


@host_only
@require_POST
def awards_step(request: HttpRequest, party: Party) -> HttpResponse:
    """The host's buttons at the awards; every screen of the night hears the step on its
    socket, the answer says why nothing happened when nothing did."""
    form = AwardStepForm(request.POST)
    try:
        if not form.is_valid():
            raise Refused(first_error(form))
        action = form.action()
        if action["type"] == "start":
            ceremonies.start_awards(party.code)
            text = _("The awards have started: the big screen shows them.")
        else:
            told = ceremonies.host_step(party.code, action)
            said = [line for step in told if (line := presenter.said(step))]
            text = "; ".join(said) + "." if said else _("The big screen shows the next prize.")
    except (Refused, ValidationError) as problem:
        text = problem.messages[0] if isinstance(problem, ValidationError) else str(problem)
        return host_answer(request, party, form, text, ok=False)
    return host_answer(request, party, form, text, ok=True)
