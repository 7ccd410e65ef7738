"""How a Bunko table reads on the screens, built from the rules' own ``view`` and
``legal_actions``: the phone's buttons are the moves the rules offer that seat, the cards on
the big screen and the console say what the rules' state says. Nothing here re-derives a
rule (whose turn it is, what may be tapped, who won)."""

from __future__ import annotations

from typing import Any

from apps.core.i18n import N_, _, ngettext
from apps.parties import awards
from apps.parties.rules import table as rules
from apps.parties.rules.attendance import is_ghost, shown_name
from apps.parties.rules.rotation import next_table
from apps.parties.rules.table import DONE, PLAYING, ROLLOFF, SCRAMBLE, TableState


def describe(entry: dict, names: list[str]) -> str:
    """One roll as the score sheet would say it."""
    name = names[entry["seat"]]
    dice = " ".join(str(d) for d in entry["dice"]) if entry.get("dice") else None
    if entry.get("app") and dice:
        rolled = _("The app rolled {dice} for {name}").format(name=name, dice=dice)
    else:
        rolled = _("{name} rolled {dice}").format(name=name, dice=dice) if dice else name
    kind, points = entry["kind"], entry["points"]
    if kind == "bunko":
        if entry.get("scramble"):
            grabbers = ", ".join(names[s] for s in entry["scramble"])
            text = _("{rolled}: BUNKO! {points} points, dice grabbed by {grabbers}")
            return text.format(rolled=rolled, points=points, grabbers=grabbers)
        if "split" in entry:
            text = _("{rolled}: BUNKO! {points} points, scramble {a}-{b}")
            return text.format(
                rolled=rolled, points=points, a=entry["split"][0], b=entry["split"][1]
            )
        return _("{rolled}: BUNKO! {points} points").format(rolled=rolled, points=points)
    if kind == "wipeout":
        return _("{rolled}: wipeout, the team is back to 0").format(rolled=rolled)
    if kind == "miss":
        return _("{rolled}: no point, the dice pass").format(rolled=rolled)
    if entry.get("mini"):
        text = _("{rolled}: three of a kind, {points} points, rolls again")
        return text.format(rolled=rolled, points=points)
    text = ngettext(
        "{rolled}: {points} point, rolls again", "{rolled}: {points} points, rolls again", points
    )
    return text.format(rolled=rolled, points=points)


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
    return _("Roll-off: {rounds}. {name} starts.").format(
        rounds=_("; tied, again: ").join(rounds), name=names[view["first_roller"]]
    )


def state_text(view: dict, names: list[str]) -> str:
    """What the table is doing now, in a few words (the big screen's line)."""
    if view["phase"] == ROLLOFF:
        return _("Rolling for the first roller")
    if view["phase"] == SCRAMBLE:
        return _("BUNKO! Scramble")
    if view["phase"] == DONE:
        winners = view["outcome"]["winners"]
        return _("Done: {a} & {b} win").format(a=names[winners[0]], b=names[winners[1]])
    if view["tied_after_stop"]:
        return _("Tied: playing on · {name} rolls").format(name=view["roller_name"])
    return _("{name} rolls").format(name=view["roller_name"])


def entry_label(index: int, entry: dict, names: list[str]) -> str:
    """An entry as the host's correction menu lists it: "#4 Bea: two 6s"."""
    action = entry["action"]
    who = names[entry["seat"]] if entry["seat"] is not None else _("The table")
    if action["type"] == "roll":
        what = _("rolled {dice}").format(dice=" ".join(str(d) for d in action["dice"]))
    elif action["type"] == "report":
        words = REPORT_WORDS.get((action.get("kind"), action.get("count")))
        what = _(words) if words else action.get("kind")
    else:
        split = action.get("split") or []
        what = _("scramble {split}").format(split="-".join(str(n) for n in split))
    return f"#{index + 1} {who}: {what}"


REPORT_WORDS = {
    ("miss", None): N_("no 6"),
    ("sixes", 1): N_("one 6"),
    ("sixes", 2): N_("two 6s"),
    ("bunko", None): N_("Bunko"),
    ("wipeout", None): N_("wipeout"),
    ("mini", None): N_("three of a kind"),
}


def moves_text(view: dict, names: list[str], number: int, tables: int) -> str:
    """Where the teams go next round, by the rotation rulings (rules/rotation.py): at the
    head table the winners stay and the losers go to the bottom table; elsewhere the winners
    move up one table and the losers stay."""
    if view["outcome"] is None or tables < 2:
        return ""
    winners = team_names(names, view["winner"])
    losers = team_names(names, 1 - view["winner"])
    up, down = next_table(number, tables, won=True), next_table(number, tables, won=False)
    if number == 1:
        text = _("{winners} stay · {losers} go to table {table}")
        return text.format(winners=winners, losers=losers, table=down)
    text = _("{winners} move up to table {table} · {losers} stay")
    return text.format(winners=winners, losers=losers, table=up)


def next_tables(view: dict, number: int, tables: int) -> tuple[str, str]:
    """Where each team (0, then 1) goes next round, in words short enough to stand under
    the team's names on the big screen: the same rotation rulings as ``moves_text``."""
    if view["outcome"] is None or tables < 2:
        return ("", "")
    up, down = next_table(number, tables, won=True), next_table(number, tables, won=False)
    winners = _glued(
        _("Stay at table {table}") if up == number else _("Move up to table {table}"), up
    )
    losers = _glued(
        _("Stay at table {table}") if down == number else _("Go to table {table}"), down
    )
    return (winners, losers) if view["winner"] == 0 else (losers, winners)


def _glued(text: str, table: int) -> str:
    """A line that wraps never leaves the table's number alone on the next line."""
    return text.replace(" {table}", "\u00a0{table}").format(table=table)


def with_shown_names(view: dict) -> dict:
    """The rules' view with the roller's name as the viewer reads it (a ghost's translated)."""
    if view.get("roller_name"):
        return {**view, "roller_name": shown_name(view["roller_name"])}
    return view


def table_card(table: Any, state: TableState, keys: list[str], tables: int = 1) -> dict:
    """A table as every screen shows it (the same for all who look): teams and scores, the
    last dice, what it is doing, its recent rolls and its roll-off. ``keys`` are the seats'
    stored names; the card shows them as the viewer reads them."""
    view = with_shown_names(rules.view(state, None))
    names = [shown_name(key) for key in keys]
    winner = view["winner"]
    going = next_tables(view, table.number, tables)
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
                "players": (names[team], names[team + 2]),
                "score": view["scores"][team],
                "won": winner == team,
                "next": going[team],
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
        # The newest roll's number in the round: the recent rolls are numbered down from it,
        # as on the sheet, not 6 to 1 whatever the round's length.
        "rolls_played": len(view["rolls"]),
        "rolloff_text": rolloff_text(view, names),
        "target_number": view["target_number"],
        "classic": view["options"]["classic"],
        "grabs": len(view["grabs"]),
        "outcome": view["outcome"],
        "version": view["version"],
        # Whether the host may correct an entry; the menu itself (correction_menu) is drawn
        # only when the host opens it: labelling every entry of a long game at every change
        # was most of the cost of a card.
        "can_correct": bool(view["correctable"]),
        # Seats the app rolls for: ghosts, and players the host handed to the app.
        "autoplay": [names[s] for s in view["ghosts"] if not is_ghost(keys[s])],
        # The players (not the ghosts, whom the app plays anyway) by seat: whom the host may
        # hand to the app, or grab a die for.
        "people": [
            {"seat": s, "name": names[s], "autoplay": s in view["ghosts"]}
            for s in range(len(keys))
            if not is_ghost(keys[s])
        ],
    }


def correction_menu(state: TableState, keys: list[str]) -> dict:
    """The host's correction form of a table: its entries that can be corrected, labelled,
    and what each may become."""
    view = rules.view(state, None)
    names = [shown_name(key) for key in keys]
    return {
        "correctable": [
            {"index": i, "label": entry_label(i, view["entries"][i], names)}
            for i in view["correctable"]
        ],
        "corrections": correction_choices(view),
    }


def correction_choices(view: dict) -> list[tuple[str, str]]:
    """What an entry may be corrected to: the reports these rules know, the splits, or
    nothing (deleted). Exact dice can be typed too."""
    if view["options"]["classic"]:
        choices = [("miss", _("No hit")), ("six1", _("One hit")), ("six2", _("Two hits"))]
    else:
        choices = [("miss", _("No 6")), ("six1", _("One 6")), ("six2", _("Two 6s"))]
    choices.append(("bunko", _("Bunko")))
    if view["options"]["classic"]:
        choices.append(("mini", _("Three of a kind (mini Bunko)")))
    else:
        choices.append(("wipeout", _("Wipeout")))
    choices += [
        (f"split:{a}-{b}", _("Scramble {a}-{b}").format(a=a, b=b))
        for a, b in ((3, 0), (2, 1), (1, 2), (0, 3))
    ]
    choices.append(("delete", _("Delete the entry")))
    return choices


# --- a seat's controls --------------------------------------------------------------------------


def _button(action: dict, card: dict) -> dict:
    """One legal move as a button: its label, its spoken label, its fields and its weight."""
    classic = card["classic"]
    fields = {"type": action["type"]}
    kind = action["type"]
    style = "big"
    aria = ""
    if kind == "rolloff":
        label, style = _("Roll for the first roller"), "big primary"
    elif kind == "roll":
        label, style = _("ROLL"), "big primary roll"
    elif kind == "grab":
        label, style = _("GRAB"), "big primary grab"
    elif kind == "swap":
        label = _("Swap partners")
    elif kind == "undo":
        label, style = _("Undo the last entry"), "undo"
    elif kind == "scramble":
        a, b = action["split"]
        fields.update(team0=a, team1=b)
        label = f"{a} – {b}"
        aria = _("{left} grabbed {a}, {right} grabbed {b}").format(
            left=team_names(card["names"], 0), a=a, right=team_names(card["names"], 1), b=b
        )
    else:  # a report of real dice
        report = action["kind"]
        fields["kind"] = report
        if report == "sixes":
            fields["count"] = action["count"]
            if classic:
                label = _("One hit") if action["count"] == 1 else _("Two hits")
            else:
                label = _("One 6") if action["count"] == 1 else _("Two 6s")
        elif report == "bunko":
            label, style = (_("Bunko!") if classic else _("Bunko! (three 6s)")), "big bunko"
        elif report == "wipeout":
            label, style = _("Wipeout (three 1s)"), "big wipeout"
        elif report == "mini":
            label = _("Three of a kind (5 points)")
        else:
            no_hit = _("No hit: pass the dice") if classic else _("No 6: pass the dice")
            label, style = no_hit, "big wide"
    return {"label": label, "aria": aria, "fields": fields, "style": style, "kind": kind}


def seat_panel(card: dict, state: TableState, seat: int, next_round: bool = True) -> dict:
    """What one seat's phone offers now: the rules' legal moves for that seat, as buttons,
    and a line saying whose move it is (and, once its game is over, where it sits
    ``next_round``: not after the last round, nor once the night is over)."""
    view = with_shown_names(rules.view(state, seat))
    names = card["names"]
    buttons = [_button(a, card) for a in view["legal_actions"]]
    if view["phase"] == ROLLOFF:
        headline = _("Who rolls first? One tap rolls a die for each seat; highest starts.")
    elif view["phase"] == SCRAMBLE:
        headline = _("BUNKO! Scramble for the dice!")
    elif view["phase"] == PLAYING:
        headline = (
            _("Your turn to roll!")
            if view["roller"] == seat
            else _("{name} is rolling.").format(name=view["roller_name"])
        )
    elif view["phase"] == DONE:
        won = view["winner"] == view["team"]
        headline = _("Your team won this round!") if won else _("Your team lost this round.")
        if card["moves"] and next_round:
            number = card["number"]
            going = next_table(number, card["tables"], won)
            if going == number == 1:
                next_round = _("You stay at the head table.")
            elif going == number:
                next_round = _("Next round you stay at this table.")
            elif going < number:
                next_round = _("Next round you move up to table {table}.").format(table=going)
            else:
                next_round = _("Next round you go to table {table}.").format(table=going)
            headline += " " + next_round
    else:
        headline = ""
    moves = [b for b in buttons if b["kind"] not in ("undo", "swap")]
    choosing = _choosing_partners(state, seat)
    return {
        "seat": seat,
        "team": view["team"],
        "partner": names[view["partner"]],
        "your_turn": view["your_turn"],
        "yours": view["phase"] == PLAYING and view["roller"] == seat,
        "headline": headline,
        "moves": moves,
        # Real dice reported: the hits on top, Bunko and wipeout apart below (phone.html).
        "hits": [b for b in moves if b["fields"].get("kind") in ("sixes", "miss", "mini")],
        "specials": [b for b in moves if b["fields"].get("kind") in ("bunko", "wipeout")],
        "undo": next((b for b in buttons if b["kind"] == "undo"), None),
        "swap": next((b for b in buttons if b["kind"] == "swap"), None),
        # "alone": the other stayer is a ghost (or came back from a rest), so this phone
        # chooses alone; "kept": a swap would pair the two ghosts, so none is offered.
        "choosing": choosing,
        # The host handed this player's seat to the app: the phone says so.
        "app_plays": seat in view["ghosts"] and seat not in view["options"]["ghosts"],
        "reporting": view["dice_mode"] == "physical" and view["phase"] == PLAYING,
        "splitting": any(b["kind"] == "scramble" for b in buttons),
        "at": view["version"],
    }


def _choosing_partners(state: TableState, seat: int) -> str | None:
    """How this seat takes part in the stayers' choice of partners, if at all."""
    options = state.options
    stayers = options.get("stayers", [])
    if not options.get("swap") or seat not in stayers or state.phase != ROLLOFF:
        return None
    if state.rolloffs:
        return None
    if rules.swap_makes_ghost_partners(state):
        return "kept"
    other = 1 - seat
    if other not in stayers or other in options.get("ghosts", []):
        return "alone"
    return "together"


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
    "created": N_("The night was set up."),
    "joined": N_("{name} joined on a phone."),
    "player_added": N_("{name} was added to the list."),
    "player_renamed": N_("{old} is now called {name}."),
    "player_removed": N_("{name} leaves after this round."),
    "player_returned": N_("{name} is back on the list."),
    "player_freed": N_("The name {name} was freed for another phone."),
    "join_waiting": N_("{name} waits for your OK to join."),
    "let_in": N_("{name} was let in."),
    "turned_away": N_("{name} was turned away."),
    "turned_away_all": N_("{count} waiting phones were turned away."),
    "expected_players": N_("The night expects {number} players."),
    "round_started": N_("Round {round} started at {tables} tables."),
    "round_over": N_("Round {round} is over."),
    "stop": N_("STOP! The head table reached 21."),
    "stop_undone": N_("STOP was taken back: the tables play on."),
    "paused": N_("The night was paused."),
    "resumed": N_("The night goes on."),
    "ended": N_("The night ended."),
    "reopened": N_("The night was reopened."),
    "corrected": N_("Table {table}: entry {entry} corrected ({reason})."),
    "partners_swapped": N_("Partners were swapped at table {table}."),
    "travelling": N_("The travelling prizes changed hands."),
    "screen_room": N_("The big screen shows {what}."),
    "awards_started": N_("The awards started."),
    "awards_done": N_("All prizes are given: {awards} awards."),
    "awards_next": N_("The host moved on to the next prize."),
}
HOST_MOVES = {
    "host_play": N_("the host made the move for the table"),
    "host_autoplay": N_("the host changed who the app plays for"),
    "host_end": N_("the host ended the game as it stands"),
}


def tell(item: dict) -> str:
    """One thing a table's change did (services.tables.told) in the reader's language."""
    if "roll" in item:
        return describe(item["roll"], [shown_name(name) for name in item["names"]])
    if "rolloff" in item:
        return _("Roll-off: {name} starts").format(name=shown_name(item["rolloff"]))
    if "undo" in item:
        return _("{name} took back the last entry").format(name=shown_name(item["undo"]))
    a, b = item["split"]
    return _("The scramble went {a}-{b}").format(a=a, b=b)


def log_line(event: Any, table_number: int | None, player_name: str | None = None) -> str:
    """One entry of the night's log as a sentence ("Table 1: Gus rolled 6 6 2: 2 points");
    ``player_name``: its player's name, when it was read with the entry."""
    data = dict(event.data or {})
    if event.player_id and "name" not in data:
        if player_name is None and event.player:
            player_name = event.player.name
        data["name"] = shown_name(player_name) if player_name else _("A player")
    if table_number is not None:
        if event.kind in HOST_MOVES:
            what = _(HOST_MOVES[event.kind])
            if event.kind == "host_autoplay" and "name" in data:
                on = (data.get("action") or {}).get("on", True)
                said = _("the app plays for {name}") if on else _("{name} has the seat back")
                what = said.format(name=shown_name(data["name"]))
            lines = [what, *(tell(item) for item in data.get("told") or [])]
            return _("Table {table}: {what}.").format(table=table_number, what="; ".join(lines))
        lines = [tell(item) for item in data.get("told") or []] or data.get("said")
        if lines:
            what = "; ".join(lines)
            return _("Table {table}: {what}.").format(table=table_number, what=what)
        if event.kind == "stop":
            return _("Table {table}: stopped.").format(table=table_number)
    if data.get("steps"):  # a step of the awards, said in the reader's language
        provider = awards.provider()
        lines = [line for step in data["steps"] if provider and (line := provider.said(step))]
        if lines:
            return "; ".join(lines) + "."
    if data.get("said"):  # a step of the awards logged before the steps were kept as data
        return "; ".join(data["said"]) + "."
    if event.kind == "corrected":
        data["entry"] = f"#{int(data.get('index', 0)) + 1}"
    template = NIGHT_LINES.get(event.kind)
    if template is None:
        return f"{event.kind.replace('_', ' ').capitalize()}."
    template = _(template)
    try:
        # "Ann B." ends a sentence once: "Bob is now called Ann B."
        return template.format(**data).replace("..", ".")
    except (KeyError, IndexError, ValueError):
        return template.split(":")[0].split("{")[0].strip() or event.kind
