"""The path converter of the product's short codes (a night's, a room's, a circle's).

A code is a few letters and digits; anything else in its place (a NUL byte, a slash made
of dots, a script) is a page that does not exist, answered before any view or database
sees it.
"""

from __future__ import annotations


class CodeConverter:
    regex = "[A-Za-z0-9]{1,12}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def row_id(text: object) -> int | None:
    """A row's id written in a query string or a link, or None. ``str.isdigit`` takes "²"
    and "٣" (which ``int`` refuses or reads), and a 30-digit number overflows the database's
    integer: only ASCII digits of a size an id can have."""
    if isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None
