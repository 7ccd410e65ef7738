"""A page as the live client (apps/core/static/core/live.js) holds it, for the load bench.

A fragments message is a run of top-level elements; each replaces the element with the same
id anywhere in the page, unless both carry ``data-v`` and the fresh one's is lower, and a
message whose ``version`` is lower than the page's is dropped whole. An element whose id the
page does not hold is ignored, as the browser ignores it.

The page is kept as a dict id -> (data-v, html). The big screen's and the console's table
cards live inside the ``tables`` section and are swapped on their own, so a container's
cards are cut out into parts of their own (the container keeps a marker where each was).
Parsing is a few regexes over the tags: no DOM, so the client stays light.
"""

from __future__ import annotations

import re

# A tag (quoted attribute values may hold ">"), or a comment.
TAG = re.compile(
    r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>", re.S
)
VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()  # noqa: SIM905
)
ID = re.compile(r'\sid="([^"]+)"')
DATA_V = re.compile(r'\sdata-v="(-?\d+)"')
DATA_TABLE = re.compile(r'\sdata-table="(\d+)"')
# The big screen's card of table N in round R, and the host console's.
CARD = re.compile(r'<article id="([th])-(\d+)-(\d+)"')
FORM = re.compile(r"<form data-live-action[^>]*>(.*?)</form>", re.S)
FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
LABEL = re.compile(r"<button[^>]*>(.*?)</button>", re.S)
SEAT = re.compile(r", seat (\d+)</h1>")


def elements(html: str, pos: int = 0, first_only: bool = False):
    """The top-level elements of ``html`` from ``pos``: (start, end, opening tag)."""
    depth = 0
    start, opening = 0, ""
    for match in TAG.finditer(html, pos):
        name = match.group(2)
        if name is None:  # a comment
            continue
        if match.group(1):  # a closing tag
            depth -= 1
            if depth == 0:
                yield start, match.end(), opening
                if first_only:
                    return
            elif depth < 0:
                return  # past the end of the element we were asked about
        elif match.group(3) or name.lower() in VOID:
            if depth == 0:
                yield match.start(), match.end(), match.group(0)
                if first_only:
                    return
        else:
            if depth == 0:
                start, opening = match.start(), match.group(0)
            depth += 1


def version_of(opening: str) -> int | None:
    found = DATA_V.search(opening)
    return int(found.group(1)) if found else None


# The console's phone dots follow presence events (host.js), not fragments: they are not
# part of what a fresh render must match.
PHONE_DOT = re.compile(r'<span class="phone-dot [a-z]+" title="[^"]*"')  # then role, data-player


def normalise(html: str) -> str:
    return " ".join(PHONE_DOT.sub('<span class="phone-dot"', html).split())


class Page:
    """What one browser page shows now, fed the fragments its socket hears."""

    def __init__(self, cards: bool = False) -> None:
        self.version = -1
        self.parts: dict[str, tuple[int | None, str]] = {}
        self.inside: dict[str, list[str]] = {}  # container id -> the card ids cut out of it
        self.cards = cards
        self.dropped_messages = 0  # whole messages older than the page
        self.older_parts = 0  # parts skipped by the data-v rule
        self.orphans = 0  # parts for ids the page does not hold

    def apply(self, message: dict, first: bool = False) -> list[str]:
        """Swap a fragments message in; the ids that changed."""
        version = message.get("version")
        if isinstance(version, int):
            if version < self.version:
                self.dropped_messages += 1
                return []
            self.version = version
        html = message.get("html") or ""
        changed = []
        for start, end, opening in elements(html):
            found = ID.search(opening)
            if not found:
                continue
            part_id = found.group(1)
            held = self.parts.get(part_id)
            if held is None and not first:
                self.orphans += 1
                continue
            fresh_v = version_of(opening)
            if held and fresh_v is not None and held[0] is not None and fresh_v < held[0]:
                self.older_parts += 1
                continue
            changed.extend(self._put(part_id, fresh_v, html[start:end]))
        return changed

    def _put(self, part_id: str, version: int | None, html: str) -> list[str]:
        for card in self.inside.pop(part_id, ()):
            self.parts.pop(card, None)
        changed = [part_id]
        if self.cards and "<article" in html:
            pieces, cut, last = [], [], 0
            for match in CARD.finditer(html, 1):  # cards inside, not itself
                for start, end, opening in elements(html, match.start(), first_only=True):
                    card = ID.search(opening).group(1)
                    pieces.append(html[last:start] + f"<!--#{card}-->")
                    self.parts[card] = (version_of(opening), html[start:end])
                    cut.append(card)
                    last = end
            if cut:
                html = "".join(pieces) + html[last:]
                self.inside[part_id] = cut
                changed.extend(cut)
        self.parts[part_id] = (version, html)
        return changed

    def html(self, part_id: str) -> str:
        held = self.parts.get(part_id)
        return held[1] if held else ""

    def v(self, part_id: str) -> int | None:
        held = self.parts.get(part_id)
        return held[0] if held else None

    def differences(self, other: Page) -> dict[str, str]:
        """The ids whose html differs from ``other``'s: "content" when what a person sees
        differs (or the part is on one page only), "data-v" when only the versions do."""
        found = {}
        for part_id in set(self.parts) | set(other.parts):
            mine, theirs = self.parts.get(part_id), other.parts.get(part_id)
            if mine is None or theirs is None:
                found[part_id] = "content"
                continue
            a, b = normalise(mine[1]), normalise(theirs[1])
            if a != b:
                same = DATA_V.sub("", a) == DATA_V.sub("", b)
                found[part_id] = "data-v" if same else "content"
        return found


def moves(table_html: str) -> list[tuple[dict[str, str], str]]:
    """The moves a phone's #table offers: (the form's hidden fields, the button's label)."""
    found = []
    for form in FORM.finditer(table_html):
        fields = dict(FIELD.findall(form.group(1)))
        label = LABEL.search(form.group(1))
        found.append((fields, label.group(1).strip() if label else ""))
    return found


def table_of(part: tuple[int | None, str] | None) -> tuple[int, int] | None:
    """(round, table number) of a phone's #table part, None when it shows no table."""
    if part is None or part[0] is None:
        return None
    number = DATA_TABLE.search(part[1][:300])
    if number is None:
        return None
    return part[0] // 1_000_000, int(number.group(1))
