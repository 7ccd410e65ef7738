from __future__ import annotations

from django import forms

from apps.parties.models import Party


class PartyForm(forms.ModelForm):
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=30,
        initial=6,
        help_text="Leave empty for an open end: you finish the night by hand.",
    )

    class Meta:
        model = Party
        fields = ["name", "rounds", "dice_mode", "attendance", "seating", "classic"]
        labels = {
            "name": "Name of the night",
            "dice_mode": "Dice",
            "attendance": "When players are not a multiple of 4",
            "seating": "Seating for round 1",
            "classic": "Classic Bunco (target = round number, Bunko = 21 points)",
        }
        widgets = {
            "dice_mode": forms.RadioSelect,
            "attendance": forms.RadioSelect,
            "seating": forms.RadioSelect,
        }


class JoinCodeForm(forms.Form):
    code = forms.CharField(max_length=12, label="Party code")
