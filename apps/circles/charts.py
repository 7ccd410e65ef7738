"""The standings' pictures, drawn on the server as inline SVG (no script, no CDN: the laptop
serves the party offline). Colours come from circles.css classes, so they follow the page
in light and dark; every chart has a title and a description for screen readers, and the
table beside it holds the same numbers.
"""

from __future__ import annotations

import hashlib
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.circles.standings import Line, Standings

LABEL = 92  # width of the names column
CELL = 30
ROW = 28
HIGHLIGHTS = 4  # coloured lines in the Bunkos chart; the rest are grey


def _svg(width: int, height: int, title: str, desc: str, body: list[str], css: str) -> SafeString:
    key = hashlib.sha1(f"{title}|{desc}".encode()).hexdigest()[:8]
    return mark_safe(
        f'<svg class="chart {css}" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" data-vars="--chart-max: {width * 3 // 2}px" role="img" '
        f'aria-labelledby="t{key} d{key}" preserveAspectRatio="xMinYMin meet">'
        f'<title id="t{key}">{escape(title)}</title><desc id="d{key}">{escape(desc)}</desc>'
        + "".join(body)
        + "</svg>"
    )


def _short(name: str, length: int = 11) -> str:
    return name if len(name) <= length else name[: length - 1] + "…"


def wins_per_night(table: Standings) -> SafeString:
    """A dot per member and night: the bigger the dot, the more rounds won that night."""
    lines = [line for line in table.lines if line.nights]
    nights = table.nights
    if not lines or not nights:
        return mark_safe("")
    most = max(n.wins for line in lines for n in line.history) or 1
    width = LABEL + CELL * len(nights) + 8
    height = ROW * (len(lines) + 1) + 6
    body = []
    for col, month in enumerate(nights):
        x = LABEL + CELL * col + CELL / 2
        body.append(
            f'<text class="chart-label" x="{x:.1f}" y="{ROW - 10}" '
            f'text-anchor="middle">{escape(month.short_name)}</text>'
        )
    for row, line in enumerate(lines, start=1):
        y = ROW * row + ROW / 2
        body.append(
            f'<text class="chart-name" x="{LABEL - 8}" y="{y + 5:.1f}" text-anchor="end">'
            f"{escape(_short(line.member.name))}</text>"
        )
        body.append(
            f'<line class="chart-grid" x1="{LABEL}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        for col, month in enumerate(nights):
            x = LABEL + CELL * col + CELL / 2
            night = line.night(month)
            if night is None:
                continue
            r = 3 + 9 * (night.wins / most) ** 0.5
            body.append(
                f'<circle class="chart-dot{" top" if night.top else ""}" cx="{x:.1f}" '
                f'cy="{y:.1f}" r="{r:.1f}"><title>{escape(line.member.name)}, '
                f"{escape(_won(month.name, night.wins))}</title></circle>"
            )
            if night.wins:
                body.append(
                    f'<text class="chart-count" x="{x:.1f}" y="{y + 4:.1f}" '
                    f'text-anchor="middle">{night.wins}</text>'
                )
    best = max(lines, key=lambda ln: ln.wins)
    desc = ngettext(
        "Rounds won by each member at each of the {count} night played; "
        "{name} has won the most, {wins}.",
        "Rounds won by each member at each of the {count} nights played; "
        "{name} has won the most, {wins}.",
        len(nights),
    ).format(count=len(nights), name=best.member.name, wins=best.wins)
    return _svg(width, height, _("Wins per night"), desc, body, "chart-grid-dots")


def bunkos_over_season(table: Standings, me: int | None = None) -> SafeString:
    """Each member's Bunkos added up night by night: the leaders (and you) in colour."""
    lines = [line for line in table.lines if line.nights]
    nights = table.nights
    if not lines or not nights:
        return mark_safe("")
    totals = {
        line.member.pk: _running([n.bunkos if (n := line.night(m)) else 0 for m in nights])
        for line in lines
    }
    top = max(t[-1] for t in totals.values()) or 1
    leaders = sorted(lines, key=lambda ln: (-totals[ln.member.pk][-1], ln.member.name))
    coloured = [ln.member.pk for ln in leaders[:HIGHLIGHTS] if totals[ln.member.pk][-1]]
    if me is not None and me in totals and me not in coloured:
        coloured.append(me)
    left, right, top_pad, bottom = 34, 104, 14, 30
    step = 44 if len(nights) > 1 else 0
    width = left + step * max(len(nights) - 1, 1) + right
    height = 220
    plot = height - top_pad - bottom

    def xy(col: int, value: int) -> tuple[float, float]:
        return left + step * col, top_pad + plot * (1 - value / top)

    body = []
    for tick in _ticks(top):
        _x, y = xy(0, tick)
        body.append(
            f'<line class="chart-grid" x1="{left}" x2="{width - right + 8}" '
            f'y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="chart-label" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{tick}</text>"
        )
    for col, month in enumerate(nights):
        x, _y = xy(col, 0)
        body.append(
            f'<text class="chart-label" x="{x:.1f}" y="{height - 10}" text-anchor="middle">'
            f"{escape(month.short_name)}</text>"
        )
    # Grey lines first, so the coloured ones are drawn on top.
    order = [ln for ln in lines if ln.member.pk not in coloured] + [
        ln for pk in coloured for ln in lines if ln.member.pk == pk
    ]
    labels = []
    for line in order:
        values = totals[line.member.pk]
        points = " ".join(
            f"{x:.1f},{y:.1f}" for x, y in (xy(col, v) for col, v in enumerate(values))
        )
        if line.member.pk in coloured:
            css = f"chart-line c{coloured.index(line.member.pk) + 1}"
            if line.member.pk == me:
                css += " me"
            labels.append((xy(len(values) - 1, values[-1])[1], line, css))
        else:
            css = "chart-line quiet"
        bunkos = ngettext("{count} Bunko", "{count} Bunkos", values[-1]).format(count=values[-1])
        body.append(
            f'<polyline class="{css}" points="{points}"><title>{escape(line.member.name)}: '
            f"{escape(bunkos)}</title></polyline>"
        )
        if line.member.pk in coloured:
            body.extend(
                f'<circle class="{css.replace("chart-line", "chart-mark")}" cx="{x:.1f}" '
                f'cy="{y:.1f}" r="3.5"/>'
                for x, y in (xy(col, v) for col, v in enumerate(values))
            )
    # End labels, pushed apart so two members on the same total stay readable.
    placed: list[float] = []
    for y, line, css in sorted(labels, key=lambda item: item[0]):
        y = max([y, *(p + 15 for p in placed)])
        placed.append(y)
        x = xy(len(nights) - 1, 0)[0] + 8
        body.append(
            f'<text class="chart-end {css.replace("chart-line", "").strip()}" x="{x:.1f}" '
            f'y="{y + 4:.1f}">{escape(_short(line.member.name, 10))} '
            f"{totals[line.member.pk][-1]}</text>"
        )
    best = leaders[0]
    desc = ngettext(
        "Bunkos rolled, added up night by night over {count} night; {name} leads with {total}.",
        "Bunkos rolled, added up night by night over {count} nights; {name} leads with {total}.",
        len(nights),
    ).format(count=len(nights), name=best.member.name, total=totals[best.member.pk][-1])
    return _svg(width, height, _("Bunkos over the season"), desc, body, "chart-lines")


def member_nights(line: Line, nights) -> SafeString:
    """One member's nights: rounds won above the line, rounds lost below, every night the
    circle played (a dash where they were not there)."""
    if not line.history:
        return mark_safe("")
    months = list(nights)
    most = max(max(n.wins, n.losses) for n in line.history) or 1
    bar, gap, left = 26, 14, 8
    width = left + (bar + gap) * len(months) + 8
    half = 70
    mid = half + 16
    height = mid + half + 36
    body = [f'<line class="chart-axis" x1="{left}" x2="{width - 4}" y1="{mid}" y2="{mid}"/>']
    for col, month in enumerate(months):
        night = line.night(month)
        x = left + col * (bar + gap) + gap / 2
        centre = x + bar / 2
        body.append(
            f'<text class="chart-label" x="{centre:.1f}" y="{height - 6}" '
            f'text-anchor="middle">{escape(month.short_name)}</text>'
        )
        if night is None:
            away = _("{month}: not there").format(month=month.name)
            body.append(
                f'<text class="chart-label" x="{centre:.1f}" y="{mid - 6}" '
                f'text-anchor="middle"><title>{escape(away)}</title>–</text>'
            )
            continue
        up = half * night.wins / most
        down = half * night.losses / most
        body.append(
            f'<rect class="chart-win" x="{x:.1f}" y="{mid - up:.1f}" width="{bar}" '
            f'height="{up:.1f}"><title>{escape(_won(month.name, night.wins))}</title></rect>'
            f'<rect class="chart-loss" x="{x:.1f}" y="{mid:.1f}" width="{bar}" '
            f'height="{down:.1f}"><title>{escape(_lost(month.name, night.losses))}</title></rect>'
            f'<text class="chart-label" x="{centre:.1f}" y="{mid - up - 4:.1f}" '
            f'text-anchor="middle">{night.wins}</text>'
            f'<text class="chart-label" x="{centre:.1f}" y="{mid + down + 12:.1f}" '
            f'text-anchor="middle">{night.losses}</text>'
        )
    played = len(line.history)
    desc = ngettext(
        "{name}'s rounds won (up) and lost (down) at each of the {count} night they played: "
        "{wins} won, {losses} lost.",
        "{name}'s rounds won (up) and lost (down) at each of the {count} nights they played: "
        "{wins} won, {losses} lost.",
        played,
    ).format(name=line.member.name, count=played, wins=line.wins, losses=line.losses)
    title = _("{name}, night by night").format(name=line.member.name)
    return _svg(width, height, title, desc, body, "chart-bars")


def _won(month: str, wins: int) -> str:
    return _("{month}: {count} won").format(month=month, count=wins)


def _lost(month: str, losses: int) -> str:
    return _("{month}: {count} lost").format(month=month, count=losses)


def _running(values: list[int]) -> list[int]:
    total, out = 0, []
    for value in values:
        total += value
        out.append(total)
    return out


def _ticks(top: int) -> list[int]:
    step = 1 if top <= 6 else 2 if top <= 12 else 5
    return list(range(0, top + 1, step))
