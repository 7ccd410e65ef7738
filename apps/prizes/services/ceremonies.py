"""Running the awards ceremony of a night: one function per change, each in a transaction
with the ceremony row locked, each logged in the night's log and told to every screen of the
night. The rules are apps.prizes.rules.settlement's; timed moves (a choice not made in time, a
phone that did not roll) are deadlines in the database, like a game room's."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from apps.core import scheduler
from apps.core.dice import new_seed, rng_for
from apps.core.errors import Refused, refused_by_rules
from apps.core.tokens import SeatClaim
from apps.parties.models import Event, Party, Player
from apps.parties.selectors import night_at, tallies
from apps.parties.services.log import AWARDS, record_night
from apps.prizes.models import Award, Ceremony
from apps.prizes.rules import settlement, steps
from apps.prizes.rules.categories import MOST_LOSSES, MOST_WINS
from apps.prizes.selectors import categories_of

HOST = settlement.HOST


def _options(party: Party, players: list[Player]) -> dict:
    """What the settlement needs of the night: categories, tallies, travelling holders, the
    overall roll-offs (so Most wins names the night's overall winner)."""
    sheet = {t.player.pk: t for t in tallies(party)}
    night = night_at(party)
    by_id = {p.pk: p.name for p in players}
    rolloffs: dict[str, list] = {MOST_WINS: [], MOST_LOSSES: []}
    for rolloff in party.result.get("rolloffs", []):
        kind = MOST_WINS if rolloff.get("for") == "winner" else MOST_LOSSES
        rolloffs[kind].append(rolloff["rolls"])
    return {
        "categories": [c.to_json() for c in categories_of(party)],
        "tallies": {
            p.name: {
                "wins": sheet[p.pk].wins if p.pk in sheet else 0,
                "losses": sheet[p.pk].losses if p.pk in sheet else 0,
                "bunkos": sheet[p.pk].bunkos if p.pk in sheet else 0,
                "wipeouts": sheet[p.pk].wipeouts if p.pk in sheet else 0,
            }
            for p in players
        },
        "travelling": {
            kind: [by_id[pid] for pid in night.holders.get(kind, []) if pid in by_id]
            for kind in ("bunko", "wipeout")
        },
        "ghosts": [p.name for p in players if p.is_ghost],
        "rolloffs": {k: v for k, v in rolloffs.items() if v},
        "dice": party.dice_mode,
    }


@transaction.atomic
def start_awards(code: str) -> Ceremony:
    """The host starts the awards once the night is over."""
    party = Party.objects.select_for_update().filter(code=code).first()
    if party is None:
        raise Refused(_("There is no party with the code {code}.").format(code=code))
    if party.status != Party.Status.ENDED:
        raise Refused(_("The awards come at the end: end the night first."))
    if Ceremony.objects.filter(party=party).exists():
        raise Refused(_("The awards have already started."))
    players = list(party.players.filter(active=True) | party.players.filter(kind=Player.Kind.GHOST))
    players = sorted(set(players), key=lambda p: p.pk)
    seed = new_seed()
    state = settlement.setup([p.name for p in players], _options(party, players), rng_for(seed, 0))
    ceremony = Ceremony.objects.create(
        party=party, state=state.to_json(), seed=seed, players=[p.pk for p in players]
    )
    record_night(party, "awards_started", parts=(AWARDS,))
    _plan(ceremony, state)
    return ceremony


def _locked(code: str) -> tuple[Party, Ceremony]:
    """The party row first (every change of a night locks it first), then the ceremony."""
    party = Party.objects.select_for_update().filter(code=code).first()
    ceremony = Ceremony.objects.select_for_update().filter(party=party).first() if party else None
    if party is None or ceremony is None:
        raise Refused(_("The awards have not started."))
    return party, ceremony


def seat_of(ceremony: Ceremony, claim: SeatClaim | None, party: Party) -> int:
    """The ceremony seat of the phone's player."""
    player = party.players.filter(pk=claim.seat_id).first() if claim else None
    if player is None or player.nonce != claim.nonce or player.pk not in ceremony.players:
        raise Refused(_("This phone has no part in the awards."))
    return ceremony.players.index(player.pk)


def _apply(
    party: Party,
    ceremony: Ceremony,
    seat: int | None,
    action: dict,
    kind: str,
    action_id: str | None = None,
) -> list[dict]:
    """Apply a step; the steps it adds to the night's log, in no language (``steps.told``):
    each reader's log says them in theirs (``presenter.said``)."""
    state = settlement.State.from_json(ceremony.state)
    with refused_by_rules():
        new = settlement.apply(state, seat, action, rng_for(ceremony.seed, ceremony.version + 1))
    ceremony.state = new.to_json()
    ceremony.version += 1
    ceremony.save(update_fields=["state", "version"])
    events = new.history[len(state.history) :]
    told = [step for e in events if (step := steps.told(new, e))]
    record_night(party, kind, parts=(AWARDS,), action_id=action_id, action=action, steps=told)
    result = settlement.outcome(new)
    if result is not None and not party.awards.exists():
        _record_awards(party, ceremony, result)
    _plan(ceremony, new)
    return told


def _record_awards(party: Party, ceremony: Ceremony, result: dict) -> None:
    by_name = {p.name: p for p in party.players.filter(pk__in=ceremony.players)}
    Award.objects.bulk_create(
        Award(
            party=party,
            position=i,
            kind=a["kind"],
            name=a["category"],
            prize=a.get("prize", ""),
            player=by_name[a["player"]],
            runner_up_of=by_name.get(a["runner_up_of"]) if a["runner_up_of"] else None,
            rolloff=a.get("dice", []),
        )
        for i, a in enumerate(result["awards"])
    )
    record_night(party, "awards_done", parts=(AWARDS,), awards=len(result["awards"]))


def _plan(ceremony: Ceremony, state) -> None:
    scheduler.sync(ceremony.scope, scheduler.system_moves(settlement.legal_actions(state, None)))


@transaction.atomic
def host_step(code: str, action: dict) -> list[dict]:
    """The host moves the ceremony on, picks a winner, or enters real dice; what happened,
    as the night's log keeps it (``presenter.said`` says it)."""
    party, ceremony = _locked(code)
    return _apply(party, ceremony, HOST, action, f"awards_{action.get('type', 'step')}")


@transaction.atomic
def player_step(
    code: str, claim: SeatClaim | None, action: dict, action_id: str | None = None
) -> None:
    """A phone rolls its roll-off die or chooses which prize to keep; a tap sent twice (the
    same ``action_id``) counts once."""
    party, ceremony = _locked(code)
    if action_id and Event.objects.filter(party=party, action_id=action_id).exists():
        return
    seat = seat_of(ceremony, claim, party)
    _apply(party, ceremony, seat, action, f"awards_{action.get('type', 'step')}", action_id)


def fire_deadline(deadline_id: int, scope: str, now: datetime) -> bool:
    """The scheduler's handler: a choice not made in time, a phone that did not roll."""
    code = scope.split(":", 1)[1]
    with transaction.atomic():
        try:
            party, ceremony = _locked(code)
        except Refused:
            return False
        deadline = scheduler.claim(deadline_id)
        if deadline is None:
            return False
        state = settlement.State.from_json(ceremony.state)
        action = deadline.payload.get("action")
        if not scheduler.still_offered(action, settlement.legal_actions(state, None)):
            _plan(ceremony, state)
            return False
        _apply(party, ceremony, None, action, f"awards_{action['type']}")
        return True
