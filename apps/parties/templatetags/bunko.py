"""Small display helpers for Bunko pages."""

from __future__ import annotations

import functools

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from apps.parties.rules import attendance

register = template.Library()

# Where the pips sit on a die face of 100 x 100.
PIPS = {
    1: [(50, 50)],
    2: [(27, 27), (73, 73)],
    3: [(27, 27), (50, 50), (73, 73)],
    4: [(27, 27), (73, 27), (27, 73), (73, 73)],
    5: [(27, 27), (73, 27), (50, 50), (27, 73), (73, 73)],
    6: [(27, 25), (73, 25), (27, 50), (73, 50), (27, 75), (73, 75)],
}


@register.simple_tag
def die(value: int, size: str = "") -> SafeString:
    """A die drawn as SVG (text glyphs like ⚅ are missing from many phones' fonts); the
    spoken label says the number."""
    return _die(int(value), size)


@functools.lru_cache(maxsize=64)
def _die(value: int, size: str) -> SafeString:
    # A few dozen faces in all, drawn on every phone after every roll: drawn once each.
    pips = format_html_join("", '<circle cx="{}" cy="{}" r="9"/>', PIPS.get(int(value), []))
    six = " six" if int(value) == 6 else ""
    return format_html(
        '<svg class="die-svg{}{}" viewBox="0 0 100 100" role="img" aria-label="{}">'
        '<rect x="4" y="4" width="92" height="92" rx="18"/><g class="pips">{}</g></svg>',
        six,
        f" {size}" if size else "",
        value,
        pips,
    )


@register.filter
def plus_one(value: int) -> int:
    return value + 1


@register.filter
def period(text: str) -> str:
    """End a sentence after a name without doubling a name's own full stop ("Ann B.")."""
    text = str(text)
    return text if text.endswith((".", "!", "?")) else text + "."


@register.filter
def shown_name(name) -> str:
    """``{{ player.name|shown_name }}``: a ghost seat's name in the viewer's language."""
    return attendance.shown_name(str(name))


@register.filter
def times(count: int) -> range:
    """``{% for _ in n|times %}``: repeat something n times (a hole per Bunko)."""
    return range(max(0, int(count or 0)))


@register.filter
def at(items, index):
    """``{{ names|at:seat }}``: the item at a position computed in the template."""
    try:
        return items[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""


@register.simple_tag
def move(button: dict, table: dict, at: int) -> SafeString:
    """One move a seat may make, as the rules offer it (presenter.seat_panel's buttons): a
    form of hidden fields, sent over the socket by live.js, and its button. Drawn here, not
    by an included template: a phone's table offers up to seven and is redrawn at every tap
    of its table on each of its four phones, and including a template seven times was two
    thirds of that redraw. All but the moment it is for (``at``) is the same from one tap
    to the next, and drawn once."""
    before_table, before_round, before_at, tail = _move_around(
        tuple(button["fields"].items()),
        button["style"],
        str(button.get("aria") or ""),
        str(button["label"]),  # in the language of the moment
    )
    number, round_number = int(table["number"]), int(table["round"])
    return SafeString(
        f"{before_table}{number}{before_round}{round_number}{before_at}{int(at)}{tail}"
    )


# A few dozen moves in three languages: the table and the round are not part of the key, so
# a night's hundreds of tables and rounds share the drawings instead of filling the cache
# with ones no later round asks for.
@functools.lru_cache(maxsize=512)
def _move_around(fields, style, aria, label) -> tuple[str, str, str, str]:
    form = format_html(
        '<form data-live-action class="move{}">\n  {}\n  <input type="hidden" name="target"'
        ' value="table"><input type="hidden" name="table" value="{{table}}"><input type="hidden"'
        ' name="round" value="{{round}}"><input type="hidden" name="at" value="{{at}}">\n  <button'
        ' class="button {}" type="submit"{}>{}</button>\n</form>\n',
        " wide" if "wide" in style else "",
        format_html_join("", '<input type="hidden" name="{}" value="{}">', fields),
        style,
        format_html(' aria-label="{}"', aria) if aria else "",
        label,
    )
    # The fields before the marks are never typed text, so each mark is found where it was put.
    before_table, rest = form.split("{table}", 1)
    before_round, rest = rest.split("{round}", 1)
    before_at, tail = rest.split("{at}", 1)
    return before_table, before_round, before_at, tail
