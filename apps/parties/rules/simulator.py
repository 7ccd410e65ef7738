"""Play a whole Bunko night with a seeded rng: the same seed gives the same night."""

from __future__ import annotations

import gc
import random

from apps.prizes.rules.categories import DEFAULT, MOST_LOSSES, MOST_WINS
from apps.prizes.rules.settlement import settle_automatically

from .attendance import GHOSTS, SUBSTITUTES, is_ghost, missing, with_substitutes
from .night import Night, finish_night, new_night, play_round

# --prizes: the seven default categories, or no prizes at all.
PRIZES = ("default", "none")

FIRST_NAMES = [
    "Ann",
    "Bea",
    "Cal",
    "Dee",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ida",
    "Jo",
    "Kit",
    "Lou",
    "Max",
    "Ned",
    "Oli",
    "Pam",
    "Quin",
    "Roy",
    "Sue",
    "Tom",
    "Uma",
    "Val",
    "Wes",
    "Xia",
    "Yve",
    "Zoe",
    "Abe",
    "Bet",
    "Cy",
    "Dot",
    "Ed",
    "Flo",
    "Gil",
    "Hope",
    "Ike",
    "Jan",
    "Kay",
    "Lee",
    "Mae",
    "Nat",
    "Opal",
    "Pat",
    "Ray",
    "Sal",
    "Ted",
    "Una",
    "Vic",
    "Wyn",
    "Ada",
    "Ben",
    "Cleo",
    "Dan",
    "Ella",
    "Finn",
    "Gail",
    "Hank",
    "Iris",
    "Jack",
    "Kim",
    "Lena",
    "Mia",
    "Nick",
    "Otto",
    "Paz",
    "Rita",
    "Sam",
    "Tess",
    "Ugo",
    "Vera",
    "Walt",
    "Yuki",
    "Zack",
    "Alma",
    "Bob",
    "Cora",
    "Drew",
    "Emma",
    "Fred",
    "Gwen",
    "Hugo",
    "Ivy",
    "Jim",
    "Kate",
    "Leo",
    "Mona",
    "Nora",
    "Omar",
    "Pia",
    "Rex",
    "Sara",
    "Tina",
    "Vince",
    "Will",
    "Zara",
    "Amy",
    "Bill",
    "Chloe",
    "Dora",
    "Eli",
    "Gina",
]


def player_names(count: int) -> list[str]:
    """Readable, distinct names: the first names, then again with a letter (Ann B.)."""
    base = len(FIRST_NAMES)
    return [
        FIRST_NAMES[i % base] + ("" if i < base else f" {chr(ord('A') + i // base)}.")
        for i in range(count)
    ]


def travelling_holders(rounds: list[dict]) -> dict[str, list[str]]:
    """Every holder of each travelling prize, latest first ('passes live to whoever rolled
    the latest Bunko'): the Bunkos and wipeouts in the order they were rolled, by round, then
    by step (the night's lock-step clock), then by table (the order a step plays them in)."""
    rolled: dict[str, list[str]] = {"bunko": [], "wipeout": []}
    for rnd in rounds:
        found = [
            (roll["step"], table["table"], roll["kind"], roll["player"])
            for table in rnd["tables"]
            for roll in table["rolls"]
            if roll["kind"] in rolled
        ]
        for _step, _table, kind, player in sorted(found):
            rolled[kind].append(player)
    return {kind: names[::-1] for kind, names in rolled.items()}


def settle_prizes(night: Night, end: dict, rng: random.Random) -> list[dict]:
    """The default seven categories settled automatically at the end of the night: roll-offs
    with the rng, and a player who wins a second prize keeps the first. The overall winner's
    and loser's roll-offs decide the same ties for most wins and most losses."""
    decided = {"winner": MOST_WINS, "loser": MOST_LOSSES}
    options = {
        "rolloffs": {
            decided[kind]: [r["rolls"] for r in end["rolloffs"] if r["for"] == kind]
            for kind in decided
            if any(r["for"] == kind for r in end["rolloffs"])
        },
        "categories": [category.to_json() for category in DEFAULT],
        "tallies": night.tallies,
        "travelling": travelling_holders(night.rounds),
        "ghosts": [name for name in night.tallies if is_ghost(name)],
    }
    result = settle_automatically(night.players, options, rng)
    return [
        {key: award[key] for key in ("category", "player", "runner_up_of", "rolloff")}
        for award in result["awards"]
    ]


def simulate_night(
    players: int | list[str],
    rounds: int,
    seed: int,
    attendance: str = GHOSTS,
    classic: bool = False,
    prizes: str = "default",
) -> dict:
    """Play ``rounds`` rounds and return the night as a JSON-ready dict; ``prizes`` is
    "default" (the seven default categories, settled after the overall winner and loser,
    with the same rng) or "none" (an empty list)."""
    if rounds < 1:
        raise ValueError("A night has at least one round.")
    if prizes not in PRIZES:
        raise ValueError("Prizes are 'default' or 'none'.")
    names = player_names(players) if isinstance(players, int) else list(players)
    substitutes: list[str] = []
    if attendance == SUBSTITUTES:
        # The circle's list: names nobody at the party has.
        pool = [n for n in player_names(len(names) + 4) if n not in names]
        full = with_substitutes(names, pool)
        substitutes = full[len(names) :]
        names = full
    rng = random.Random(seed)
    night = new_night(names, attendance=attendance, classic=classic)
    # A big night builds hundreds of thousands of small dicts and no reference cycles: the
    # cycle collector would only re-scan them, so it rests while the night is played.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            play_round(night, rng)
    finally:
        if collecting:
            gc.enable()
    end = finish_night(night, rng)
    awards = settle_prizes(night, end, rng) if prizes == "default" else []
    return {
        "seed": seed,
        "players": names,
        "attendance": attendance,
        "classic": classic,
        "ghosts": list(night.ghosts),
        "substitutes": substitutes,
        "empty_seats": missing(len(names)) if attendance == GHOSTS else 0,
        "rounds": night.rounds,
        "tallies": night.tallies,
        "winner": end["winner"],
        "loser": end["loser"],
        "rolloffs": end["rolloffs"],
        "prizes": awards,
    }


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _table_lines(table: dict) -> list[str]:
    seats = table["seats"]
    teams = f"{seats[0]} & {seats[2]}  vs  {seats[1]} & {seats[3]}"
    score = table["score"]
    bunkos = sum(1 for r in table["rolls"] if r["kind"] == "bunko")
    wipeouts = sum(1 for r in table["rolls"] if r["kind"] == "wipeout")
    extra = (
        f", {len(table['rolls'])} rolls, {_count(bunkos, 'Bunko')}, {_count(wipeouts, 'wipeout')}"
    )
    head = "head table" if table["table"] == 1 else f"table {table['table']}"
    return [
        f"  {head}: {teams}",
        f"    first roller {table['first_roller']}; score {score[0]}-{score[1]}{extra}",
        f"    winners {' & '.join(table['winners'])}, losers {' & '.join(table['losers'])}",
    ]


def format_night(night: dict) -> str:
    """The night for people: rounds, tables, STOP, tallies, winner, loser and roll-offs."""
    mode = "classic Bunco" if night.get("classic") else "Bunko"
    lines = [f"{mode} night, seed {night['seed']}, {len(night['players'])} players"]
    if night.get("ghosts"):
        lines.append(f"Ghost seats: {', '.join(night['ghosts'])}")
    for rnd in night["rounds"]:
        lines.append("")
        lines.append(f"Round {rnd['number']}: STOP at step {rnd['stop_step']}")
        if rnd.get("sitouts"):
            lines.append(f"  sitting out: {', '.join(rnd['sitouts'])}")
        for table in rnd["tables"]:
            lines.extend(_table_lines(table))
    lines.append("")
    lines.append(f"{'Player':<12} {'wins':>5} {'losses':>7} {'Bunkos':>7} {'wipeouts':>9}")
    for name, t in night["tallies"].items():
        lines.append(
            f"{name:<12} {t['wins']:>5} {t['losses']:>7} {t['bunkos']:>7} {t['wipeouts']:>9}"
        )
    lines.append("")
    lines.append(f"Overall winner: {night['winner']}")
    lines.append(f"Overall loser: {night['loser']}")
    for rolloff in night["rolloffs"]:
        dice = ", ".join(f"{name} {die}" for name, die in rolloff["rolls"].items())
        lines.append(f"Roll-off for {rolloff['for']}: {dice}")
    if night.get("prizes"):
        lines.append("")
        lines.append("Prizes:")
    for award in night.get("prizes", []):
        extra = f", runner-up of {award['runner_up_of']}" if award["runner_up_of"] else ""
        if award["rolloff"]:
            extra += f", after a roll-off of {_count(len(award['rolloff']), 'round')}"
        lines.append(f"  {award['category']}: {award['player']}{extra}")
    return "\n".join(lines)
