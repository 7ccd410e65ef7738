"""Writes of the prizes app."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from apps.core.errors import Refused
from apps.parties.models import Party
from apps.prizes.models import Ceremony, PrizeCategory
from apps.prizes.rules.categories import Category, check


@transaction.atomic
def set_categories(code: str, categories: list[Category]) -> list[PrizeCategory]:
    """The night's prize categories, in order (replacing any set before)."""
    party = Party.objects.select_for_update().filter(code=code).first()
    if party is None:
        raise Refused(_("There is no party with the code {code}.").format(code=code))
    if Ceremony.objects.filter(party=party).exists():
        raise Refused(_("The awards have started: the prizes stay as they are."))
    try:
        checked = check(categories)
    except ValueError as error:
        raise Refused(str(error)) from None
    party.prize_categories.all().delete()
    return PrizeCategory.objects.bulk_create(
        PrizeCategory(party=party, position=i, kind=c.kind, name=c.name, prize=c.prize)
        for i, c in enumerate(checked)
    )
