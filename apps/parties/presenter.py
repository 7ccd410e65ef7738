"""How a Bunko table reads on the screens, built from the rules' own ``view`` and
``legal_actions``: the phone's buttons are the moves the rules offer that seat, the cards on
the big screen and the console say what the rules' state says. Nothing here re-derives a
rule (whose turn it is, what may be tapped, who won)."""

from __future__ import annotations

from typing import Any

from apps.parties.rules import table as rules
from apps.parties.rules.table import DONE, PLAYING, ROLLOFF, SCRAMBLE, TableState


def describe(entry: dict, names: list[str]) -> str:
    """One roll as the score sheet would say it."""
    name = names[entry["seat"]]
    dice = " ".join(str(d) for d in entry["dice"]) if entry.get("dice") else None
    rolled = f"{name} rolled {dice}" if dice else name
    kind, points = entry["kind"], entry["points"]
    if kind == "bunko":
        text = f"{rolled}: BUNKO! {points} points"
        if entry.get("scramble"):
            grabbers = ", ".join(names[s] for s in entry["scramble"])
            text += f", dice grabbed by {grabbers}"
        elif "split" in entry:
            text += f", scramble {entry['split'][0]}-{entry['split'][1]}"
        return text
    if kind == "wipeout":
        return f"{rolled}: wipeout, the team is back to 0"
    if kind == "miss":
        return f"{rolled}: no point, the dice pass"
    if entry.get("mini"):
        return f"{rolled}: three of a kind, {points} points, rolls again"
    return f"{rolled}: {points} point{'s' if points != 1 else ''}, rolls again"


def team_names(names: list[str], team: int) -> str:
    return f"{names[team]} & {names[team + 2]}"


def rolloff_text(view: dict, names: list[str]) -> str:
    """'Each player rolls a die to see whom goes first', as the table saw it."""
    if not view["rolloffs"] or view["first_roller"] is None:
        return ""
    rounds = [
        ", ".join(f"{names[s]} {d}" for s, d in zip(r["seats"], r["dice"], strict=True))
        for r in view["rolloffs"]
    ]
    return f"Roll-off: {'; tied, again: '.join(rounds)}. {names[view['first_roller']]} starts."


def state_text(view: dict, names: list[str]) -> str:
    """What the table is doing now, in a few words (the big screen's line)."""
    if view["phase"] == ROLLOFF:
        return "Rolling for the first roller"
    if view["phase"] == SCRAMBLE:
        return "BUNKO! Scramble"
    if view["phase"] == DONE:
        winners = view["outcome"]["winners"]
        return f"Done: {names[winners[0]]} & {names[winners[1]]} win"
    if view["tied_after_stop"]:
        return f"Tied: playing on · {view['roller_name']} rolls"
    return f"{view['roller_name']} rolls"


def entry_label(index: int, entry: dict, names: list[str]) -> str:
    """An entry as the host's correction menu lists it: "#4 Bea: two 6s"."""
    action = entry["action"]
    who = names[entry["seat"]] if entry["seat"] is not None else "The table"
    if action["type"] == "roll":
        what = "rolled " + " ".join(str(d) for d in action["dice"])
    elif action["type"] == "report":
        what = REPORT_WORDS.get((action.get("kind"), action.get("count")), action.get("kind"))
    else:
        split = action.get("split") or []
        what = "scramble " + "-".join(str(n) for n in split)
    return f"#{index + 1} {who}: {what}"


REPORT_WORDS = {
    ("miss", None): "no 6",
    ("sixes", 1): "one 6",
    ("sixes", 2): "two 6s",
    ("bunko", None): "Bunko",
    ("wipeout", None): "wipeout",
    ("mini", None): "three of a kind",
}


def moves_text(view: dict, names: list[str], number: int, tables: int) -> str:
    """Where the teams go next round, by the rotation rulings: at the head table the winners
    stay and the losers go to the bottom table; elsewhere the winners move up one table and
    the losers stay."""
    if view["outcome"] is None or tables < 2:
        return ""
    winners = team_names(names, view["winner"])
    losers = team_names(names, 1 - view["winner"])
    if number == 1:
        return f"{winners} stay · {losers} go to table {tables}"
    return f"{winners} move up to table {number - 1} · {losers} stay"


def table_card(table: Any, state: TableState, names: list[str], tables: int = 1) -> dict:
    """A table as every screen shows it (the same for all who look): teams and scores, the
    last dice, what it is doing, its recent rolls and its roll-off."""
    view = rules.view(state, None)
    winner = view["winner"]
    return {
        "moves": moves_text(view, names, table.number, tables),
        "tables": tables,
        "pk": table.pk,
        "number": table.number,
        "round": table.round,
        "stamp": table.stamp,
        "head": view["options"]["head"],
        "names": names,
        "teams": [
            {
                "index": team,
                "names": team_names(names, team),
                "score": view["scores"][team],
                "won": winner == team,
            }
            for team in (0, 1)
        ],
        "phase": view["phase"],
        "done": view["phase"] == DONE,
        "stopped": view["stopped"],
        "tied_after_stop": view["tied_after_stop"],
        "state_text": state_text(view, names),
        "roller": view["roller"],
        "roller_name": view["roller_name"],
        "last_dice": (view["last_roll"] or {}).get("dice"),
        "recent": [describe(entry, names) for entry in view["recent"]],
        "rolloff_text": rolloff_text(view, names),
        "target_number": view["target_number"],
        "classic": view["options"]["classic"],
        "grabs": len(view["grabs"]),
        "outcome": view["outcome"],
        "version": view["version"],
        "correctable": [
            {"index": i, "label": entry_label(i, view["entries"][i], names)}
            for i in view["correctable"]
        ],
        "corrections": correction_choices(view),
        # Seats the app rolls for: ghosts, and players the host handed to the app.
        "autoplay": [names[s] for s in view["ghosts"] if not names[s].startswith("Ghost ")],
        "changed_ms": int(table.changed.timestamp() * 1000)
        if getattr(table, "changed", None)
        else 0,
    }


def correction_choices(view: dict) -> list[tuple[str, str]]:
    """What an entry may be corrected to: the reports these rules know, the splits, or
    nothing (deleted). Exact dice can be typed too."""
    hit = "hit" if view["options"]["classic"] else "6"
    choices = [("miss", f"No {hit}"), ("six1", f"One {hit}"), ("six2", f"Two {hit}s")]
    choices.append(("bunko", "Bunko"))
    if view["options"]["classic"]:
        choices.append(("mini", "Three of a kind (mini Bunko)"))
    else:
        choices.append(("wipeout", "Wipeout"))
    choices += [
        (f"split:{a}-{b}", f"Scramble {a}-{b}") for a, b in ((3, 0), (2, 1), (1, 2), (0, 3))
    ]
    choices.append(("delete", "Delete the entry"))
    return choices


# --- a seat's controls --------------------------------------------------------------------------


def _button(action: dict, card: dict) -> dict:
    """One legal move as a button: its label, its spoken label, its fields and its weight."""
    classic = card["classic"]
    hit, hits = ("hit", "hits") if classic else ("6", "6s")
    fields = {"type": action["type"]}
    kind = action["type"]
    style = "big"
    aria = ""
    if kind == "rolloff":
        label, style = "Roll for the first roller", "big primary"
    elif kind == "roll":
        label, style = "ROLL", "big primary roll"
    elif kind == "grab":
        label, style = "GRAB", "big primary grab"
    elif kind == "swap":
        label = "Swap partners"
    elif kind == "undo":
        label, style = "Undo the last entry", "undo"
    elif kind == "scramble":
        a, b = action["split"]
        fields.update(team0=a, team1=b)
        label = f"{a} – {b}"
        aria = (
            f"{team_names(card['names'], 0)} grabbed {a}, "
            f"{team_names(card['names'], 1)} grabbed {b}"
        )
    else:  # a report of real dice
        report = action["kind"]
        fields["kind"] = report
        if report == "sixes":
            fields["count"] = action["count"]
            label = f"One {hit}" if action["count"] == 1 else f"Two {hits}"
        elif report == "bunko":
            label, style = ("Bunko!" if classic else "Bunko! (three 6s)"), "big bunko"
        elif report == "wipeout":
            label, style = "Wipeout (three 1s)", "big wipeout"
        elif report == "mini":
            label = "Three of a kind (5 points)"
        else:
            label, style = f"No {hit}: pass the dice", "big wide"
    return {"label": label, "aria": aria, "fields": fields, "style": style, "kind": kind}


def seat_panel(card: dict, state: TableState, seat: int) -> dict:
    """What one seat's phone offers now: the rules' legal moves for that seat, as buttons,
    and a line saying whose move it is."""
    view = rules.view(state, seat)
    names = card["names"]
    buttons = [_button(a, card) for a in view["legal_actions"]]
    if view["phase"] == ROLLOFF:
        headline = "Who rolls first? One tap rolls a die for each seat; highest starts."
    elif view["phase"] == SCRAMBLE:
        headline = "BUNKO! Scramble for the dice!"
    elif view["phase"] == PLAYING:
        headline = (
            "Your turn to roll!" if view["roller"] == seat else f"{view['roller_name']} is rolling."
        )
    elif view["phase"] == DONE:
        won = view["winner"] == seat % 2
        headline = "Your team won this round!" if won else "Your team lost this round."
        if card["moves"]:
            number = card["number"]
            if won:
                headline += (
                    " You stay at the head table."
                    if number == 1
                    else (f" Next round you move up to table {number - 1}.")
                )
            elif number == 1:
                headline += f" Next round you go to table {card['tables']}."
            else:
                headline += " Next round you stay at this table."
    else:
        headline = ""
    return {
        "seat": seat,
        "team": seat % 2,
        "partner": names[(seat + 2) % 4],
        "your_turn": view["your_turn"],
        "yours": view["phase"] == PLAYING and view["roller"] == seat,
        "headline": headline,
        "moves": [b for b in buttons if b["kind"] not in ("undo", "swap")],
        "undo": next((b for b in buttons if b["kind"] == "undo"), None),
        "swap": next((b for b in buttons if b["kind"] == "swap"), None),
        "reporting": view["dice_mode"] == "physical" and view["phase"] == PLAYING,
        "splitting": any(b["kind"] == "scramble" for b in buttons),
        "at": view["version"],
    }


def grid_of(tables: int, aspect: float = 1.45) -> dict:
    """Columns and rows for the big screen's tables, so that 2 or 30 of them fill the area
    (about ``aspect`` times wider than tall) with cards close to 3:2 and few empty cells."""
    best = None
    for cols in range(1, max(tables, 1) + 1):
        rows = -(-tables // cols)
        card = aspect * rows / cols  # a card's width over its height
        waste = cols * rows - tables
        score = abs(card - 1.5) + 0.25 * waste
        if best is None or score < best[0]:
            best = (score, cols, rows)
    return {"cols": best[1], "rows": best[2]}


def standings_pages(sheet: list, size: int = 10, shown: int = 30) -> list[list[dict]]:
    """The big screen's standings: the top ``shown`` places, in pages that take turns (tied
    players share a place)."""
    rows = []
    place = 0
    previous = None
    for index, tally in enumerate(sheet[:shown]):
        key = (tally.wins, tally.losses)
        if key != previous:
            place, previous = index + 1, key
        rows.append({"place": place, "tally": tally})
    return [rows[i : i + size] for i in range(0, len(rows), size)]


NIGHT_LINES = {
    "created": "The night was set up.",
    "joined": "{name} joined on a phone.",
    "player_added": "{name} was added to the list.",
    "player_renamed": "{old} is now called {name}.",
    "player_removed": "{name} leaves after this round.",
    "player_returned": "{name} is back on the list.",
    "player_freed": "The name {name} was freed for another phone.",
    "round_started": "Round {round} started at {tables} tables.",
    "round_over": "Round {round} is over.",
    "stop": "STOP! The head table reached 21.",
    "stop_undone": "STOP was taken back: the tables play on.",
    "paused": "The night was paused.",
    "resumed": "The night goes on.",
    "ended": "The night ended.",
    "reopened": "The night was reopened.",
    "corrected": "Table {table}: entry {entry} corrected ({reason}).",
    "partners_swapped": "Partners were swapped at table {table}.",
    "travelling": "The travelling prizes changed hands.",
    "screen_room": "The big screen shows {what}.",
    "awards_started": "The awards started.",
    "awards_done": "All prizes are given: {awards} awards.",
    "awards_next": "The host moved on to the next prize.",
}
HOST_MOVES = {
    "host_play": "the host made the move for the table",
    "host_autoplay": "the host changed who the app plays for",
    "host_end": "the host ended the game as it stands",
}


def log_line(event: Any, table_number: int | None) -> str:
    """One entry of the night's log as a sentence ("Table 1: Gus rolled 6 6 2: 2 points")."""
    data = dict(event.data or {})
    if event.player_id and "name" not in data:
        data["name"] = event.player.name if event.player else "A player"
    if table_number is not None:
        if event.kind in HOST_MOVES:
            return f"Table {table_number}: {HOST_MOVES[event.kind]}."
        said = data.get("said")
        if said:
            return f"Table {table_number}: " + "; ".join(said) + "."
        if event.kind == "stop":
            return f"Table {table_number}: stopped."
    if data.get("said"):  # a step of the awards, in its own words
        return "; ".join(data["said"]) + "."
    if event.kind == "corrected":
        data["entry"] = f"#{int(data.get('index', 0)) + 1}"
    template = NIGHT_LINES.get(event.kind)
    if template is None:
        return f"{event.kind.replace('_', ' ').capitalize()}."
    try:
        # "Ann B." ends a sentence once: "Bob is now called Ann B."
        return template.format(**data).replace("..", ".")
    except (KeyError, IndexError, ValueError):
        return template.split(":")[0].split("{")[0].strip() or event.kind
