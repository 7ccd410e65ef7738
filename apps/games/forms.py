"""The forms of the game rooms' pages: every POST goes through one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy

from apps.core.codes import normalize_code
from apps.core.protocol import Option
from apps.games.registry import all_games


def option_field_name(slug: str, option: Option) -> str:
    return f"{slug}__{option.name}"


def _option_field(option: Option) -> forms.Field:
    """The games mark their options' words as data (N_): translated here, per request."""
    label = gettext(option.label)
    help_text = gettext(option.help) if option.help else option.help
    if option.choices:
        return forms.TypedChoiceField(
            label=label,
            choices=[(str(value), gettext(text)) for value, text in option.choices],
            initial=str(option.default),
            required=False,
            help_text=help_text,
        )
    return forms.IntegerField(
        label=label,
        initial=option.default,
        min_value=option.minimum,
        max_value=option.maximum,
        required=False,
        help_text=help_text,
    )


class InviteField(forms.MultipleChoiceField):
    """Names to pre-list; a name that is not (or no longer) on the night's list is dropped
    rather than refusing the whole form (the night may have changed since the page)."""

    def validate(self, value) -> None:
        pass

    def clean(self, value) -> list[str]:
        names = super().clean(value)
        allowed = {str(key) for key, _label in self.choices}
        return [name for name in names if name in allowed]


class CreateRoomForm(forms.Form):
    """A new room: the game, its options, the creator's name, and from a party night the
    names to invite (only names of that night)."""

    game = forms.ChoiceField(widget=forms.RadioSelect)
    name = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=60,
        error_messages={"required": gettext_lazy("Type your name first.")},
    )
    party = forms.CharField(required=False, widget=forms.HiddenInput)
    invite = InviteField(required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, invitable: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        games = all_games()
        self.fields["game"].choices = [(slug, gettext(entry.name)) for slug, entry in games.items()]
        self.fields["game"].initial = next(iter(games))
        self.fields["invite"].choices = [(name, name) for name in invitable]
        for slug, entry in games.items():
            for option in entry.options:
                self.fields[option_field_name(slug, option)] = _option_field(option)

    def option_fields(self, slug: str) -> list[forms.BoundField]:
        entry = all_games()[slug]
        return [self[option_field_name(slug, option)] for option in entry.options]

    def chosen_options(self) -> dict:
        slug = self.cleaned_data["game"]
        entry = all_games()[slug]
        return {
            option.name: self.cleaned_data.get(option_field_name(slug, option))
            for option in entry.options
        }


class JoinRoomForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Room code"), max_length=12)

    def clean_code(self) -> str:
        code = normalize_code(self.cleaned_data["code"])
        if not code:
            raise forms.ValidationError(gettext("Type the room's code."))
        return code


class SitForm(forms.Form):
    slot = forms.IntegerField(
        min_value=0, max_value=20, error_messages={"required": gettext_lazy("Pick a seat.")}
    )
    name = forms.CharField(max_length=60, required=False)
