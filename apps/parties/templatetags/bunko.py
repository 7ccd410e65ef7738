"""Small display helpers for Bunko pages."""

from __future__ import annotations

from django import template

register = template.Library()

FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


@register.filter
def die_face(value: int) -> str:
    return FACES.get(value, "?")


@register.filter
def plus_one(value: int) -> int:
    return value + 1


@register.filter
def at(sequence, index):
    try:
        return sequence[index]
    except (IndexError, TypeError, KeyError):
        return None
