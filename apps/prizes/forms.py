"""The host's list of a night's prizes: names, the prize on the table, order, which to give."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.parties.forms import HostForm
from apps.prizes.rules.categories import HOST_CHOICE, KINDS, Category
from apps.prizes.rules.categories import kept as kept_name


class CategoryForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[(kind, gettext_lazy(name)) for kind, name in KINDS.items()],
        widget=forms.HiddenInput,
    )
    name = forms.CharField(max_length=60, label=gettext_lazy("Name"))
    prize = forms.CharField(max_length=80, required=False, label=gettext_lazy("The prize"))
    position = forms.IntegerField(min_value=0, max_value=99, label=gettext_lazy("Order"))
    keep = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Give this prize"))


class NewCategoryForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            ("", gettext_lazy("Add a prize…")),
            *[(kind, gettext_lazy(name)) for kind, name in KINDS.items()],
        ],
        required=False,
        label=gettext_lazy("Add a prize"),
    )
    name = forms.CharField(max_length=60, required=False, label=gettext_lazy("Its name"))
    prize = forms.CharField(max_length=80, required=False, label=gettext_lazy("The prize"))


CategoryFormSet = forms.formset_factory(CategoryForm, extra=0)


def categories_from(formset, new: NewCategoryForm) -> list[Category]:
    """The categories the host kept, in the order they numbered them, and the one added."""
    kept = [f.cleaned_data for f in formset.forms if f.cleaned_data and f.cleaned_data.get("keep")]
    kept.sort(key=lambda d: d["position"])
    chosen = [
        Category(d["kind"], kept_name(d["kind"], d["name"]), d.get("prize", "")) for d in kept
    ]
    kind = new.cleaned_data.get("kind")
    if kind:
        name = kept_name(kind, new.cleaned_data.get("name") or KINDS[kind])
        chosen.append(Category(kind, name, new.cleaned_data.get("prize", "")))
    return chosen


__all__ = ["HOST_CHOICE", "CategoryFormSet", "NewCategoryForm", "categories_from"]


class AwardStepForm(HostForm):
    """The host's buttons at the awards: start them, the next prize, a pick, real dice. The
    dice come as die_<seat> fields, one for each tied player still to roll."""

    type = forms.ChoiceField(choices=[(t, t) for t in ("start", "next", "pick", "dice")])
    player = forms.IntegerField(min_value=0, required=False)

    def anchor(self) -> str:
        return "host-awards"

    def action(self) -> dict:
        kind = self.cleaned_data["type"]
        if kind == "pick":
            if self.cleaned_data["player"] is None:
                raise forms.ValidationError(_("Choose who wins this prize."))
            return {"type": "pick", "player": self.cleaned_data["player"]}
        if kind == "dice":
            dice = {}
            for key, value in self.data.items():
                if key.startswith("die_") and value != "":
                    seat, die = key[4:], value
                    if not (seat.isdigit() and die.isdigit() and 1 <= int(die) <= 6):
                        raise forms.ValidationError(_("Each die is a number from 1 to 6."))
                    dice[seat] = int(die)
            if not dice:
                raise forms.ValidationError(_("Enter the dice of the roll-off."))
            return {"type": "dice", "dice": dice}
        return {"type": kind}
