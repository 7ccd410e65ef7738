"""The forms of the circle's pages: every POST goes through one."""

from __future__ import annotations

import zoneinfo
from datetime import time

from django import forms
from django.conf import settings
from django.contrib.auth.forms import BaseUserCreationForm
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.circles.models import MONTH_NAMES, WEEKDAYS, WEEKS, Circle, Member, Month, Rsvp
from apps.prizes.rules.categories import DEFAULT, KINDS, kept, shown

MONTH_CHOICES = [(i, name) for i, name in enumerate(MONTH_NAMES, start=1)]


def _timezones() -> list[tuple[str, str]]:
    names = sorted(zoneinfo.available_timezones() | {settings.TIME_ZONE})
    return [(n, n.replace("_", " ")) for n in names]


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class CircleForm(forms.Form):
    name = forms.CharField(max_length=60, label=gettext_lazy("Name of the circle"))
    start = forms.DateField(
        label=gettext_lazy("First month of the season"),
        widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m"),
        input_formats=["%Y-%m", "%Y-%m-%d"],
        help_text=gettext_lazy("The season is the twelve months from this one."),
    )
    week = forms.TypedChoiceField(
        choices=WEEKS, coerce=int, initial=3, label=gettext_lazy("Usual night")
    )
    weekday = forms.TypedChoiceField(
        choices=WEEKDAYS, coerce=int, initial=3, label=gettext_lazy("Weekday")
    )
    time = forms.TimeField(
        initial=time(19, 0), widget=TimeInput(format="%H:%M"), label=gettext_lazy("At")
    )
    timezone = forms.ChoiceField(
        choices=_timezones,
        label=gettext_lazy("Time zone"),
        widget=forms.Select(attrs={"data-guess-timezone": ""}),
    )


class SettingsForm(forms.ModelForm):
    class Meta:
        model = Circle
        fields = [
            "name",
            "week",
            "weekday",
            "time",
            "timezone",
            "reminder_days",
            "answer_hours",
            "rounds",
            "dice_mode",
        ]
        labels = {
            "name": gettext_lazy("Name of the circle"),
            "timezone": gettext_lazy("Time zone"),
            "week": gettext_lazy("Usual night"),
            "weekday": gettext_lazy("Weekday"),
            "time": gettext_lazy("At"),
            "reminder_days": gettext_lazy("Reminder mail, days before the night"),
            "answer_hours": gettext_lazy("Hours a substitute has to answer"),
            "rounds": gettext_lazy("Rounds a night"),
            "dice_mode": gettext_lazy("Dice"),
        }
        help_texts = {
            "reminder_days": gettext_lazy("0: no reminder."),
            "time": gettext_lazy(
                "A new usual night moves the months to come that are still on the old one; "
                "a date a host set stays."
            ),
        }
        widgets = {
            "time": TimeInput(format="%H:%M"),
            "timezone": forms.Select(choices=[]),
            "dice_mode": forms.RadioSelect,
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["timezone"].widget.choices = _timezones()
        self.fields["reminder_days"].widget.attrs.update(min=0, max=30)
        self.fields["answer_hours"].widget.attrs.update(min=1, max=168)
        self.fields["rounds"].widget.attrs.update(min=1, max=30)

    def clean_timezone(self) -> str:
        name = self.cleaned_data["timezone"]
        if name not in zoneinfo.available_timezones() and name != settings.TIME_ZONE:
            raise forms.ValidationError(_("Choose a time zone from the list."))
        return name

    def clean_answer_hours(self) -> int:
        hours = self.cleaned_data["answer_hours"]
        if not 1 <= hours <= 168:
            raise forms.ValidationError(_("Between 1 hour and a week (168 hours)."))
        return hours

    def clean_reminder_days(self) -> int:
        days = self.cleaned_data["reminder_days"]
        if days > 30:
            raise forms.ValidationError(_("At most 30 days before."))
        return days

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        if not 1 <= rounds <= 30:
            raise forms.ValidationError(_("Between 1 and 30 rounds."))
        return rounds


class PrizesForm(forms.Form):
    """The circle's prize categories: the default seven, each on or off and renamed."""

    def __init__(self, *args, current: list[dict] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        chosen = {c["kind"]: c for c in current or []}
        for category in DEFAULT:
            mine = chosen.get(category.kind)
            self.fields[f"use_{category.kind}"] = forms.BooleanField(
                required=False, initial=mine is not None, label=_(KINDS[category.kind])
            )
            self.fields[f"name_{category.kind}"] = forms.CharField(
                required=False,
                max_length=60,
                initial=shown(category.kind, (mine or {}).get("name", category.name)),
                label=_("Name for {category}").format(category=_(KINDS[category.kind]).lower()),
            )

    def rows(self):
        for category in DEFAULT:
            yield self[f"use_{category.kind}"], self[f"name_{category.kind}"]

    def categories(self) -> list[dict]:
        data = self.cleaned_data
        return [
            {"kind": c.kind, "name": kept(c.kind, data[f"name_{c.kind}"] or c.name), "prize": ""}
            for c in DEFAULT
            if data[f"use_{c.kind}"]
        ]


class MemberDetailsForm(forms.Form):
    name = forms.CharField(max_length=200, label=gettext_lazy("Your name"))
    email = forms.EmailField(
        required=False,
        label=gettext_lazy("E-mail (optional)"),
        help_text=gettext_lazy("For your link and the reminders."),
    )
    phone = forms.CharField(required=False, max_length=30, label=gettext_lazy("Phone (optional)"))
    address = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Address (optional)"),
        help_text=gettext_lazy("Where the night is when you host. You can add it later."),
    )


class JoinForm(MemberDetailsForm):
    pass


class AddMemberForm(MemberDetailsForm):
    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    email = forms.EmailField(required=False, label=gettext_lazy("E-mail (optional)"))
    kind = forms.ChoiceField(
        choices=Member.Kind.choices,
        initial=Member.Kind.MEMBER,
        label=gettext_lazy("Member or substitute"),
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "add_%s")  # beside the invitations' form on one page
        super().__init__(*args, **kwargs)


class MemberForm(MemberDetailsForm):
    """A member's own details and the months they cannot host."""

    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    cannot_host = forms.TypedMultipleChoiceField(
        choices=MONTH_CHOICES,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Months I can't host"),
    )

    @classmethod
    def of(cls, member) -> MemberForm:
        """The form filled with the member's details as they are."""
        fields = ("name", "email", "phone", "address", "cannot_host")
        return cls(initial={field: getattr(member, field) for field in fields})


class InviteMailForm(forms.Form):
    addresses = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("E-mail addresses"),
        help_text=gettext_lazy("One or more, separated by commas, spaces or new lines."),
    )
    kind = forms.ChoiceField(
        choices=Member.Kind.choices, initial=Member.Kind.MEMBER, label=gettext_lazy("As")
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "invite_%s")
        super().__init__(*args, **kwargs)

    def clean_addresses(self) -> list[str]:
        raw = self.cleaned_data["addresses"].replace(",", " ").replace(";", " ").split()
        field = forms.EmailField()
        found = []
        for address in raw:
            try:
                found.append(field.clean(address))
            except forms.ValidationError:
                raise forms.ValidationError(
                    _("{address} is not an e-mail address.").format(address=address)
                ) from None
        if not found:
            raise forms.ValidationError(_("Type at least one e-mail address."))
        if len(found) > 50:
            raise forms.ValidationError(_("At most 50 addresses at a time."))
        return list(dict.fromkeys(found))


class MemberPickForm(forms.Form):
    member = forms.IntegerField()


class MoveForm(MemberPickForm):
    step = forms.TypedChoiceField(choices=[(-1, "up"), (1, "down")], coerce=int)


class KindForm(MemberPickForm):
    kind = forms.ChoiceField(choices=Member.Kind.choices)


class LoginForm(BaseUserCreationForm):
    """A login for a member: a username and a password twice."""

    class Meta(BaseUserCreationForm.Meta):
        fields = ["username"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Django focuses the username; on the member page it is the last card, and the page
        # would open scrolled past its message and the cards above.
        self.fields["username"].widget.attrs.pop("autofocus", None)


class AdminLoginForm(forms.Form):
    member = forms.IntegerField()
    username = forms.CharField(max_length=150)
    password = forms.CharField(widget=forms.PasswordInput, max_length=128)


class MonthForm(forms.Form):
    date = forms.DateField(widget=DateInput(format="%Y-%m-%d"), label=gettext_lazy("Date"))
    time = forms.TimeField(widget=TimeInput(format="%H:%M"), label=gettext_lazy("Time"))
    place = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Place"),
        help_text=gettext_lazy("Leave empty for the host's address."),
    )
    host_note = forms.CharField(
        required=False,
        max_length=300,
        label=gettext_lazy("A note for everyone"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Parking, bring a dish, the door code..."),
    )


class MonthAdminForm(MonthForm):
    hosts = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Hosts")
    )

    def __init__(self, *args, members=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["hosts"].choices = [(m.pk, m.name) for m in members]


class RsvpForm(forms.Form):
    answer = forms.ChoiceField(choices=Rsvp.Answer.choices)


class ChecklistForm(forms.Form):
    item = forms.ChoiceField(choices=[("place", "place"), ("food", "food"), ("prizes", "prizes")])
    done = forms.BooleanField(required=False)


class FillForm(forms.Form):
    fill = forms.ChoiceField(choices=Month.Fill.choices)


class SwapForm(forms.Form):
    month = forms.IntegerField()
    target = forms.RegexField(
        regex=r"^\d+:\d+$", error_messages={"invalid": gettext_lazy("Choose a month.")}
    )

    def pair(self) -> tuple[int, int]:
        month, member = self.cleaned_data["target"].split(":")
        return int(month), int(member)


class SwapAnswerForm(forms.Form):
    swap = forms.IntegerField()
    answer = forms.ChoiceField(choices=[("accept", "accept"), ("decline", "decline")])


class SwapCancelForm(forms.Form):
    swap = forms.IntegerField()


class LanguageForm(forms.Form):
    """A member's language: their pages' and the circle's mails to them."""

    language = forms.ChoiceField(choices=settings.LANGUAGES)


class AskAnswerForm(forms.Form):
    answer = forms.ChoiceField(choices=[("accept", "accept"), ("decline", "decline")])


class EmptyForm(forms.Form):
    """A button with no fields (plan the season, ask the substitutes, start the night)."""
