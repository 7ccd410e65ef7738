"""What a night's play showed, read after it: each tap's times to every page that shows it,
each refusal judged (a genuine race, or a legal tap refused), and every page held against the
database and against the page a browser opened now would show."""

from __future__ import annotations

from typing import TYPE_CHECKING

import websockets

from apps.core.changes import version_of
from tests.bench.load_page import DATA_V, Page, normalise
from tests.bench.load_play import Phone, Play, Socket, Tap, fresh_page, limited

if TYPE_CHECKING:
    from tests.bench.load_run import Figures


def versions(snapshot: dict) -> dict[tuple[int, int], int]:
    return {(r, n): v for r, n, v, _ in snapshot["tables"]}


def tally_taps(play: Play, figures: Figures, start: float, end: float) -> None:
    taps = [t for t in play.taps.values() if start <= t.sent <= end]
    acked = [t for t in taps if t.v is not None]
    figures.taps = len(acked)
    figures.taps_per_s = len(acked) / (end - start)
    figures.unanswered = sum(1 for t in taps if t.answered is None)
    for tap in acked:
        figures.to_ack.append((tap.answered - tap.sent) * 1000)
        arrivals = [o.first_held(tap.key, tap.v) for o in tap.observers]
        phones = [t for o, t in zip(tap.observers, arrivals, strict=True) if o is not play.screen]
        figures.to_phones.append(after(tap, None if None in phones else max(phones, default=0)))
        figures.to_screen.append(after(tap, play.screen.first_held(tap.key, tap.v)))
        figures.to_screens.append(after(tap, None if None in arrivals else max(arrivals)))
        figures.tapped_at.append(tap.sent - start)
        figures.tap_steps.append(version_of(tap.v))
        figures.to_host.append(after(tap, play.host.first_held(tap.key, tap.v)))
        if None in arrivals:
            who = [
                "screen" if o is play.screen else f"phone {o.player}"
                for o, t in zip(tap.observers, arrivals, strict=True)
                if t is None
            ]
            figures.missing.append(f"{tap.kind} at table {tap.key} -> v{tap.v}: not on {who}")
    made = {(t.key, t.v): t for t in play.taps.values() if t.v is not None}
    for tap in taps:
        if tap.error is not None:
            judge_refusal(play, tap, made.get((tap.key, tap.base + 1)), figures)


def judge_refusal(play: Play, tap: Tap, next_change: Tap | None, figures: Figures) -> None:
    """A refused tap lost a genuine race when the table's next version (versions go up one
    by one) came from a tap sent before the refusal: another phone's, or this phone's own
    earlier tap on another state whose result the page did not show yet; or from no phone
    at all (the head table's STOP) and some page saw it. Otherwise a legal tap was refused."""
    why = ""
    if next_change is None:
        watchers = [tap.phone, play.screen, play.host, *tap.observers]
        moved = any(w.first_held(tap.key, tap.base, above=True) for w in watchers)
        race = moved
        why = "" if moved else " (the table never moved past what the phone showed)"
    elif next_change.sent > tap.answered:
        race = False
        why = " (the table's next version came from a tap sent after this refusal)"
    elif next_change.phone is tap.phone and next_change.at == tap.at:
        race = False
        why = " (this phone's own tap on that very state was applied: its page drew it again)"
    else:
        race = True
    if race:
        reason = f"{tap.kind}: {tap.error}"
        figures.races[reason] += 1
        if reason not in figures.race_examples:
            figures.race_examples[reason] = race_story(play, tap)
        return
    figures.refusals.append(
        f"{tap.kind} by player {tap.phone.player} at table {tap.key} "
        f"(showing v{tap.base}): {tap.error}{why}"
    )
    if len(figures.refusal_stories) < 3:
        figures.refusal_stories.append(f"player {tap.phone.player}: {phone_story(tap)}")


def phone_story(tap) -> str:
    """The refused tap's phone at that table: what it held when, and what it tapped."""
    phone = tap.phone
    events = [(t, f"held v{v}") for v, t in zip(*phone.seen.get(tap.key, ([], [])), strict=True)]
    for other in phone.play.taps.values():
        if other.phone is phone and other.key == tap.key:
            answer = f"v{other.v}" if other.v else f"refused: {other.error}"
            events.append((other.sent, f"tapped {other.kind} showing v{other.base}"))
            if other.answered:
                events.append((other.answered, f"answer to that tap: {answer}"))
    events.sort()
    here = next(i for i, (t, _) in enumerate(events) if t >= tap.sent)
    shown = events[max(0, here - 9) : here + 5]
    return "; ".join(f"{(t - tap.sent) * 1000:+.0f} ms {what}" for t, what in shown)


def after(tap, arrived: float | None) -> float:
    """Milliseconds from a tap to ``arrived``; infinite if it never came."""
    return float("inf") if arrived is None else (arrived - tap.sent) * 1000


def race_story(play: Play, tap) -> str:
    """What the table did around a tap that lost a race, as the table's phones saw it."""
    first: dict[int, float] = {}
    for phone in [tap.phone, *tap.observers]:
        for v, t in zip(*phone.seen.get(tap.key, ([], [])), strict=True):
            if tap.base - 1 <= v <= tap.base + 3 and t < first.get(v, float("inf")):
                first[v] = t
    around = ", ".join(f"v{v} at {(t - tap.sent) * 1000:+.0f} ms" for v, t in sorted(first.items()))
    return (
        f"player {tap.phone.player} at table {tap.key} tapped showing v{tap.base}, refused "
        f"{(tap.answered - tap.sent) * 1000:+.0f} ms later; its table's phones first held "
        f"{around}"
    )


def check_database(play: Play, phones: list[Phone], snapshot: dict, figures: Figures) -> None:
    """Every page against the database: each phone shows its table of the current round at
    the table's version; the big screen and the console show every table's version."""
    current = snapshot["round"]
    stamps = {}
    seat_of = {}
    for round_number, number, version, seats in snapshot["tables"]:
        stamps[(round_number, number)] = round_number * 1_000_000 + version
        if round_number == current:
            for player in seats:
                seat_of[player] = (round_number, number)
    for phone in phones:
        want = seat_of.get(phone.player)
        held = phone.page.v("table")
        if want is None:
            continue
        if phone.key != want:
            problem = "phone shows another table"
        elif held < stamps[want]:
            problem = "phone's table behind the database"
        elif held > stamps[want]:
            problem = "phone's table ahead of the database"
        else:
            continue
        figures.behind_database[problem] += 1
        figures.database_example = figures.database_example or (
            f"player {phone.player}: shows {phone.key} v{held}, database {want} v{stamps[want]}"
        )
    for page, prefix in ((play.screen, "t"), (play.host, "h")):
        name = "big screen" if prefix == "t" else "host console"
        for (round_number, number), stamp in stamps.items():
            if round_number != current:
                continue
            held = page.page.v(f"{prefix}-{round_number}-{number}")
            if held != stamp:
                figures.behind_database[f"{name}'s card not at the database's version"] += 1
                figures.database_example = figures.database_example or (
                    f"{name} table {number}: shows v{held}, database v{stamp}"
                )


async def compare_fresh(play: Play, phones: list[Phone], figures: Figures) -> None:
    """Each page held against the page a browser opened now would show."""

    async def one(page: Socket, cards: bool) -> tuple[Socket, Page]:
        return page, await fresh_page(page.server, page.path, page.cookie, cards)

    results: list[tuple[Socket, Page]] = []

    async def collect(page: Socket, cards: bool) -> None:
        try:
            results.append(await one(page, cards))
        except (OSError, TimeoutError, websockets.WebSocketException) as error:
            figures.notes.append(f"no fresh render for the {page.label}: {error!r}")

    await limited(collect(p, False) for p in phones)
    for page, fresh in results:
        found = page.page.differences(fresh)
        for part_id, how in found.items():
            if how == "data-v":
                figures.version_only[f"#{part_id}"] += 1
        ids = sorted(i for i, how in found.items() if how == "content")
        if not ids:
            continue
        figures.phones_differing += 1
        for part_id in ids:
            figures.differences[describe(part_id, page.page, fresh)] += 1
        if not figures.difference_example:
            part_id = "table" if "table" in ids else ids[0]
            figures.difference_example = example(page, part_id, fresh)
    for page in (play.screen, play.host):
        try:
            _, fresh = await one(page, True)
        except (OSError, TimeoutError, websockets.WebSocketException) as error:
            figures.notes.append(f"no fresh render for the {page.label}: {error!r}")
            continue
        name = "big screen" if page is play.screen else "host console"
        for part_id, how in sorted(page.page.differences(fresh).items()):
            if how == "data-v":
                figures.version_only[f"{name} #{part_id}"] += 1
            else:
                figures.screens_differing.append(f"{name}: {describe(part_id, page.page, fresh)}")
                kind = f"{name} {'card' if part_id[:2] in ('t-', 'h-') else part_id}"
                if kind not in figures.screen_examples:
                    figures.screen_examples[kind] = example(page, part_id, fresh)


def describe(part_id: str, held: Page, fresh: Page) -> str:
    mine, theirs = held.v(part_id), fresh.v(part_id)
    name = "#table" if part_id == "table" else f"#{part_id}"
    if part_id not in held.parts or part_id not in fresh.parts:
        return f"{name} on one page only"
    if mine is None or theirs is None or mine == theirs:
        return f"{name} differs" + (" at the same data-v" if mine is not None else "")
    if theirs < mine:
        return f"{name}: the fresh render is older than the page held"
    return f"{name}: the page held is older than the fresh render (a lost update)"


def example(page: Socket, part_id: str, fresh: Page) -> str:
    # Where what is shown differs (the data-v are in the first line of the example).
    held_html = DATA_V.sub("", normalise(page.page.html(part_id)))
    fresh_html = DATA_V.sub("", normalise(fresh.html(part_id)))
    start = next(
        (i for i, (a, b) in enumerate(zip(held_html, fresh_html, strict=False)) if a != b),
        min(len(held_html), len(fresh_html)),
    )
    lo = max(0, start - 120)
    who = f"player {page.player}" if isinstance(page, Phone) else page.path.split("/")[-2]
    return (
        f"{who}, #{part_id}: held data-v={page.page.v(part_id)}, fresh "
        f"data-v={fresh.v(part_id)}\n      held:  ...{held_html[lo : start + 160]}...\n"
        f"      fresh: ...{fresh_html[lo : start + 160]}..."
    )
