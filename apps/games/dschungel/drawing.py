"""Where every field and reward of the sheet is drawn: the geometry of the four areas, built
once from ``sheet.layout()``. Pure data (no Django): the presenter adds a seat's crosses and
the fields it may tap, the templates draw it as SVG.

Each area is its own drawing, ``WIDTH`` wide and ``HEIGHT`` tall, so a phone stacks the four
and the big screen sets them two by two. Sizes are chosen so that on a phone held upright
(about 350 px for a drawing) every field a player taps is at least 48 px each way.
"""

from __future__ import annotations

from functools import cache

from apps.core import i18n
from apps.core.i18n import N_

from .sheet import (
    BUTTERFLIES,
    FLOWERS,
    FOUNTAIN_COLUMNS,
    FOUNTAIN_ROWS,
    layout,
)

WIDTH, HEIGHT = 360, 240
FOOTER = 206  # the top of each area's footer line (its Extra Star)

# green: a butterfly column, then four flowers with a reward between neighbours
GREEN_HEAD, GREEN_ROW, GREEN_CELL, GREEN_GAP, GREEN_LEFT = 26, 60, 52, 26, 68
# purple: six crates, three to a row, a reward above each
CRATE_W, CRATE_PITCH, CRATE_ROW, BUNCH_W = 114, 118, 101, 54
# blue: four fountain columns, then the row rewards
COLUMN_W, COLUMN_PITCH, BASIN_H, BASIN_ROW = 62, 68, 52, 58
# pink: thirteen coconuts on a winding path, five to a row
COCONUT_PITCH, COCONUT_ROW, COCONUT_R = 68, 62, 26
# the path's rows bottom first, each left to right: it winds back and forth
PATH_ROWS = ((0, 1, 2, 3, 4), (9, 8, 7, 6, 5), (10, 11, 12))


def _box(x: float, y: float, w: float, h: float) -> dict:
    """A field's box, also in percent of its drawing (where its tap button goes)."""
    return {
        "x": x,
        "y": y,
        "w": w,
        "h": h,
        "cx": x + w / 2,
        "cy": y + h / 2,
        "left": round(100 * x / WIDTH, 3),
        "top": round(100 * y / HEIGHT, 3),
        "width": round(100 * w / WIDTH, 3),
        "height": round(100 * h / HEIGHT, 3),
    }


def _green(rewards: dict[str, dict]) -> dict:
    fields, spots, labels = [], [], []
    for f, flower in enumerate(FLOWERS):
        x = GREEN_LEFT + f * (GREEN_CELL + GREEN_GAP)
        labels.append({"x": x + GREEN_CELL / 2, "y": 18, "text": flower})
    for row_data in layout()["green"]["rows"]:
        r = BUTTERFLIES.index(row_data["row"])
        y = GREEN_HEAD + (len(BUTTERFLIES) - 1 - r) * GREEN_ROW
        labels.append({"x": 32, "y": y + GREEN_CELL + 2, "text": row_data["row"]})
        spots.append({"kind": "butterfly", "of": row_data["row"], "cx": 32, "cy": y + 22})
        for f, name in enumerate(row_data["flowers"]):
            x = GREEN_LEFT + f * (GREEN_CELL + GREEN_GAP)
            fields.append(
                {"id": name, "row": row_data["row"], "flower": FLOWERS[f]}
                | _box(x, y, GREEN_CELL, GREEN_CELL)
            )
            if f < len(FLOWERS) - 1:
                reward = rewards[f"{name}-{FLOWERS[f + 1]}"]
                cx = x + GREEN_CELL + GREEN_GAP / 2
                spots.append({"kind": "reward", **reward, "cx": cx, "cy": y + GREEN_CELL / 2})
    return {"fields": fields, "spots": spots, "labels": labels}


def _purple(rewards: dict[str, dict]) -> dict:
    fields, spots, labels = [], [], []
    for crate in layout()["purple"]["crates"]:
        c = crate["crate"]
        x = 4 + (c % 3) * CRATE_PITCH
        y = 4 + (c // 3) * CRATE_ROW
        reward = rewards[f"purple-crate-{c}"]
        spots.append({"kind": "reward", **reward, "cx": x + CRATE_W / 2, "cy": y + 13})
        spots.append({"kind": "crate", "x": x, "y": y + 28, "w": CRATE_W, "h": 66})
        labels.append({"x": x + 12, "y": y + 18, "text": str(c + 1), "anchor": "start"})
        for b, bunch in enumerate(crate["bunches"]):
            bx = x + 3 + b * (BUNCH_W + 2)
            fields.append(
                {"id": bunch["field"], "crate": c, "bunch": b, "bananas": bunch["bananas"]}
                | _box(bx, y + 32, BUNCH_W, 58)
            )
    return {"fields": fields, "spots": spots, "labels": labels}


def _blue(rewards: dict[str, dict]) -> dict:
    fields, spots, labels = [], [], []
    for column in layout()["blue"]["columns"]:
        c = FOUNTAIN_COLUMNS.index(column["column"])
        x = 6 + c * COLUMN_PITCH
        below = 6 + FOUNTAIN_ROWS * BASIN_ROW + 14
        labels.append({"x": x + COLUMN_W / 2, "y": below, "text": column["column"]})
        for r, name in enumerate(column["fields"]):
            y = 6 + (FOUNTAIN_ROWS - 1 - r) * BASIN_ROW
            box = _box(x, y, COLUMN_W, BASIN_H)
            fields.append({"id": name, "column": column["column"], "row": r} | box)
            reward = rewards.get(f"blue-field-{column['column']}-{r}")
            if reward is not None:
                spots.append({"kind": "reward", **reward, "cx": box["cx"], "cy": box["cy"]})
    for r in range(FOUNTAIN_ROWS):
        cy = 6 + (FOUNTAIN_ROWS - 1 - r) * BASIN_ROW + BASIN_H / 2
        reward = rewards.get(f"blue-row-{r}")
        if reward is not None:
            spots.append({"kind": "reward", **reward, "cx": 304, "cy": cy})
        spots.append({"kind": "arrow", "x": 6 + 4 * COLUMN_PITCH - 2, "y": cy})
    return {"fields": fields, "spots": spots, "labels": labels}


def _pink(rewards: dict[str, dict]) -> dict:
    fields, spots, centres = [], [], {}
    for line, path_row in enumerate(PATH_ROWS):
        cy = 6 + (len(PATH_ROWS) - 1 - line) * COCONUT_ROW + COCONUT_ROW / 2
        for i, k in enumerate(path_row):  # listed left to right
            cx = 44 + i * COCONUT_PITCH
            centres[k] = (cx, cy)
    for k, name in enumerate(layout()["pink"]["coconuts"]):
        cx, cy = centres[k]
        box = _box(cx - 30, cy - 28, 60, 56)
        fields.append({"id": name, "coconut": k, "number": k + 1, "r": COCONUT_R} | box)
        reward = rewards.get(f"pink-coconut-{k}")
        if reward is not None:
            spots.append({"kind": "reward", **reward, "cx": cx + 21, "cy": cy - 19, "small": True})
    path = " ".join(f"{centres[k][0]:g},{centres[k][1]:g}" for k in range(len(centres)))
    start = centres[0]
    return {
        "fields": fields,
        "spots": spots,
        "labels": [],
        "path": f"{start[0] - 26:g},{start[1]:g} {path}",
    }


EXTRA_WORDS = {
    "green": N_("All 12 flowers: Extra Star"),
    "purple": N_("5 full crates: Extra Star"),
    "blue": N_("Top row full: Extra Star"),
    "pink": N_("All 13 coconuts: Extra Star"),
}
AREA_TITLES = {
    "green": N_("Green · flowers"),
    "purple": N_("Purple · bananas"),
    "blue": N_("Blue · elephant fountain"),
    "pink": N_("Pink · coconut path"),
}
# The short words drawn on the sheet: the flowers' and the fountain columns' colours, the
# butterfly rows.
LABEL_WORDS = {
    "yellow": N_("yellow"),
    "blue": N_("blue"),
    "red": N_("red"),
    "white": N_("white"),
    "multi": N_("multi"),
    "green": N_("green"),
    "purple": N_("purple"),
    "pink": N_("pink"),
}


def areas() -> dict[str, dict]:
    """The four areas' drawings: fields (with their tap boxes), reward spots, labels, and the
    Extra Star in the footer, in the language of the moment."""
    return _areas(i18n.current())


@cache
def _areas(language: str) -> dict[str, dict]:
    rewards = {r["id"]: r for r in layout()["rewards"]}
    built = {
        "green": _green(rewards),
        "purple": _purple(rewards),
        "blue": _blue(rewards),
        "pink": _pink(rewards),
    }
    with i18n.speaking(language):
        for area, drawing in built.items():
            drawing["key"] = area
            drawing["title"] = i18n._(AREA_TITLES[area])
            drawing["extra"] = {**rewards[f"extra-{area}"], "cx": 22, "cy": FOOTER + 16}
            drawing["extra_words"] = i18n._(EXTRA_WORDS[area])
            drawing["footer_text_y"] = FOOTER + 21
            for label in drawing["labels"]:
                if label["text"] in LABEL_WORDS:
                    label["text"] = i18n._(LABEL_WORDS[label["text"]])
    return built
