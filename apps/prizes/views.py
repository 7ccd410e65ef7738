"""The host's prize list for a night."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from apps.core.errors import Refused
from apps.parties.models import Party
from apps.parties.views.host import host_only
from apps.prizes import services
from apps.prizes.forms import CategoryFormSet, NewCategoryForm, categories_from
from apps.prizes.selectors import categories_of


@host_only
@require_http_methods(["GET", "POST"])
def night_prizes(request: HttpRequest, party: Party) -> HttpResponse:
    """Rename, reorder, drop or add the night's prize categories, with the prize on the table
    written next to each."""
    initial = [
        {"kind": c.kind, "name": c.name, "prize": c.prize, "position": i + 1, "keep": True}
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
                messages.success(request, "The prizes are saved.")
                return redirect("night_prizes", code=party.code)
    else:
        formset = CategoryFormSet(initial=initial)
        new = NewCategoryForm(prefix="new")
    context = {"party": party, "formset": formset, "new": new}
    return render(request, "prizes/night_prizes.html", context)
