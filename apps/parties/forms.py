"""The forms of a night's pages: every POST goes through one."""

from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.core.codes import normalize_code
from apps.parties.models import Party, Player
from apps.parties.rules.doors import MOST_EXPECTED, RECOMMENDED_PLAYERS


class PartyForm(forms.ModelForm):
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=30,
        initial=6,
        help_text=gettext_lazy("Leave empty for an open end: you finish the night by hand."),
    )
    expected_players = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MOST_EXPECTED,
        help_text=format_lazy(
            gettext_lazy(
                "A new name beyond this many players waits for your OK. Leave empty for "
                "{players}, and from round 1 on twice the players of the round."
            ),
            players=RECOMMENDED_PLAYERS,
        ),
    )

    class Meta:
        model = Party
        fields = [
            "name",
            "rounds",
            "expected_players",
            "dice_mode",
            "attendance",
            "seating",
            "classic",
        ]
        labels = {
            "expected_players": gettext_lazy("Players expected"),
            "name": gettext_lazy("Name of the night"),
            "dice_mode": gettext_lazy("Dice"),
            "attendance": gettext_lazy("When players are not a multiple of 4"),
            "seating": gettext_lazy("Seating for round 1"),
            "classic": gettext_lazy("Classic Bunco (target = round number, Bunko = 21 points)"),
        }
        widgets = {
            "dice_mode": forms.RadioSelect,
            "attendance": forms.RadioSelect,
            "seating": forms.RadioSelect,
        }


class JoinCodeForm(forms.Form):
    code = forms.CharField(max_length=40, label=gettext_lazy("Party code"))

    def clean_code(self) -> str:
        code = normalize_code(self.cleaned_data["code"])
        if not code:
            raise forms.ValidationError(_("Type the code from the big screen."))
        return code


class JoinNightForm(forms.Form):
    """A phone picks a name from the list (``player``) or adds its own (``name``)."""

    player = forms.IntegerField(required=False)
    name = forms.CharField(required=False, max_length=200)


# Where the host's page scrolls back to after a form.
BACK_TO = ["main", "players", "tables", "status", "waiting"]


class HostForm(forms.Form):
    back = forms.ChoiceField(choices=[(b, b) for b in BACK_TO], required=False)

    def anchor(self) -> str:
        return (self.cleaned_data.get("back") if hasattr(self, "cleaned_data") else "") or "main"


class ScreenLanguageForm(HostForm):
    language = forms.ChoiceField(choices=settings.LANGUAGES)


class AddPlayerForm(HostForm):
    name = forms.CharField(max_length=200)
    kind = forms.ChoiceField(
        choices=[
            (Player.Kind.PLAYER, gettext_lazy("Player")),
            (Player.Kind.SUBSTITUTE, gettext_lazy("Substitute")),
        ],
        required=False,
    )


class PlayerForm(HostForm):
    player = forms.IntegerField(error_messages={"required": gettext_lazy("Choose a player.")})


class JoinRequestForm(HostForm):
    join_request = forms.IntegerField(
        error_messages={"required": gettext_lazy("Choose a phone that waits to join.")}
    )


class ExpectedPlayersForm(HostForm):
    """Empty: the night's own bound again (apps/parties/rules/doors.py)."""

    expected = forms.IntegerField(required=False, min_value=1, max_value=MOST_EXPECTED)


class RenameForm(PlayerForm):
    name = forms.CharField(max_length=200)


# The correction menu's choices, as rules actions ("delete" removes the entry).
REPORTS = {
    "miss": {"type": "report", "kind": "miss"},
    "six1": {"type": "report", "kind": "sixes", "count": 1},
    "six2": {"type": "report", "kind": "sixes", "count": 2},
    "bunko": {"type": "report", "kind": "bunko"},
    "wipeout": {"type": "report", "kind": "wipeout"},
    "mini": {"type": "report", "kind": "mini"},
}


class CorrectionForm(HostForm):
    table = forms.IntegerField()
    index = forms.IntegerField(min_value=0)
    replacement = forms.CharField(max_length=40)
    reason = forms.CharField(max_length=300, required=False)
    preview = forms.BooleanField(required=False)

    def clean_replacement(self) -> dict | None:
        value = self.cleaned_data["replacement"]
        if value == "delete":
            return None
        if value in REPORTS:
            return dict(REPORTS[value])
        try:
            if value.startswith("dice:"):
                dice = json.loads("[" + value[5:] + "]")
                if len(dice) == 3 and all(isinstance(d, int) for d in dice):
                    return {"type": "roll", "dice": dice}
            elif value.startswith("split:"):
                a, b = value[6:].split("-")
                return {"type": "scramble", "split": [int(a), int(b)]}
        except ValueError:
            pass
        raise forms.ValidationError(_("Choose what the entry should have been."))


def replacement_code(action: dict | None) -> str:
    """An entry's action as the correction menu names it (to put an entry back)."""
    if action is None:
        return "delete"
    if action["type"] == "roll":
        return "dice:" + ",".join(str(d) for d in action["dice"])
    if action["type"] == "scramble":
        a, b = action.get("split") or (0, 0)
        return f"split:{a}-{b}"
    for code, report in REPORTS.items():
        if report["kind"] == action.get("kind") and report.get("count") == action.get("count"):
            return code
    return "delete"


class HostMoveForm(HostForm):
    """The host's way out of a stalled table."""

    table = forms.IntegerField()
    type = forms.ChoiceField(choices=[("play", "play"), ("autoplay", "autoplay"), ("end", "end")])
    seat = forms.IntegerField(min_value=0, max_value=3, required=False)
    winner = forms.IntegerField(min_value=0, max_value=1, required=False)
    on = forms.BooleanField(required=False)


class ScreenRoomForm(HostForm):
    room = forms.CharField(max_length=12, required=False)
