"""The awards at the end of a night: the host moves them on from the console, tied players
roll on their phones, a double winner chooses, the screens follow, and what was given is kept
for the sheets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.language import speak
from apps.core.tokens import read_seat_token
from apps.parties import console, render, services
from apps.parties.models import Event, Party, Table
from apps.parties.presenter import log_line
from apps.prizes import services as prize_services
from apps.prizes.models import Award, Ceremony
from apps.prizes.rules import settlement
from apps.prizes.rules.categories import HOST_CHOICE, MOST_WINS, Category
from apps.prizes.services import ceremonies

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cal", "Dot"]


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


def play_one_game(host, dice_mode: str = "virtual") -> tuple[Party, dict]:
    """Four players, one game won by the team of seat 1: two wins and two losses."""
    party = services.create_party(host, name="Friday", dice_mode=dice_mode)
    tokens = {}
    for name in NAMES:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    table = Table.objects.get(party=party, round=1)
    services.host_move(party.code, table.pk, {"type": "end", "winner": 1})
    return party, tokens


@pytest.fixture
def ended(host):
    party, tokens = play_one_game(host)
    services.end_night(party.code)
    party.refresh_from_db()
    return party, tokens


def view_of(party: Party, seat=settlement.HOST) -> dict:
    ceremony = Ceremony.objects.get(party=party)
    return settlement.view(settlement.State.from_json(ceremony.state), seat)


def claim(party: Party, token: str):
    return read_seat_token(token, party.scope)


def next_until_rolloff(party: Party) -> dict:
    while (view := view_of(party))["phase"] == "ready":
        ceremonies.host_step(party.code, {"type": "next"})
    return view


def test_the_awards_wait_for_the_end_of_the_night(host):
    party, _ = play_one_game(host)
    with pytest.raises(Refused, match="end the night first"):
        ceremonies.start_awards(party.code)
    assert not Ceremony.objects.exists()


def test_the_awards_start_once_and_the_prizes_then_stay_as_they_are(ended):
    party, _ = ended
    ceremonies.start_awards(party.code)
    with pytest.raises(Refused, match="already started"):
        ceremonies.start_awards(party.code)
    with pytest.raises(Refused, match="prizes stay"):
        prize_services.set_categories(party.code, [Category(MOST_WINS, "Top dog")])


def test_most_wins_goes_to_the_nights_overall_winner_of_the_roll_off(ended):
    party, _ = ended
    ceremonies.start_awards(party.code)
    ceremonies.host_step(party.code, {"type": "next"})
    ceremonies.host_step(party.code, {"type": "next"})
    given = {a["category"]: a["player"] for a in view_of(party)["awards"]}
    assert given == {"Most wins": party.result["winner"], "Most losses": party.result["loser"]}


def test_tied_players_roll_on_their_phones_and_the_night_keeps_the_awards(ended):
    party, tokens = ended
    ceremonies.start_awards(party.code)
    view = next_until_rolloff(party)
    assert view["rolloff"]["name"] == "Consolation prize"
    tied = [c["player"] for c in view["rolloff"]["contenders"]]
    others = [n for n in NAMES if n not in tied]
    with pytest.raises(Refused, match="Only .* roll for"):
        ceremonies.player_step(party.code, claim(party, tokens[others[0]]), {"type": "roll"})
    while view_of(party)["phase"] == "rolloff":
        for c in view_of(party)["rolloff"]["contenders"]:
            if c["die"] is None:
                token = tokens[c["player"]]
                ceremonies.player_step(party.code, claim(party, token), {"type": "roll"})
    while view_of(party)["phase"] != "done":
        ceremonies.host_step(party.code, {"type": "next"})
    awards = {a.name: a.player.name for a in Award.objects.filter(party=party)}
    assert awards["Most wins"] == party.result["winner"]
    assert awards["Consolation prize"] in tied
    consolation = Award.objects.get(party=party, name="Consolation prize")
    assert consolation.rolloff and set(consolation.rolloff[0]) == set(tied)
    kinds = list(Event.objects.filter(party=party).values_list("kind", flat=True))
    assert kinds.count("awards_started") == 1 and kinds.count("awards_done") == 1


def test_a_forged_or_foreign_phone_and_an_illegal_step_change_nothing(ended, host):
    party, tokens = ended
    other, other_tokens = play_one_game(host)
    ceremonies.start_awards(party.code)
    before = Ceremony.objects.get(party=party).version
    with pytest.raises(Refused):
        ceremonies.player_step(party.code, None, {"type": "roll"})
    with pytest.raises(Refused):  # a seat token of another night reads as nobody here
        ceremonies.player_step(party.code, claim(party, other_tokens["Ann"]), {"type": "roll"})
    with pytest.raises(Refused, match="no roll-off|not"):
        ceremonies.player_step(party.code, claim(party, tokens["Ann"]), {"type": "roll"})
    with pytest.raises(Refused):
        ceremonies.host_step(party.code, {"type": "pick", "player": 0})
    with pytest.raises(Refused):
        ceremonies.host_step(party.code, {"type": "fly"})
    assert Ceremony.objects.get(party=party).version == before


def test_a_phone_that_does_not_roll_has_its_die_rolled_by_the_app(ended):
    party, _ = ended
    ceremonies.start_awards(party.code)
    next_until_rolloff(party)
    ceremony = Ceremony.objects.get(party=party)
    assert [d.payload["action"]["type"] for d in scheduler.pending(ceremony.scope)] == ["roll_for"]
    scheduler.run_until_quiet(now=timezone.now() + timedelta(minutes=5))
    view = view_of(party)
    assert view["phase"] != "rolloff"
    assert "Consolation prize" in [a["category"] for a in view["awards"]]


def test_a_double_winner_chooses_and_the_other_prize_passes_on(host):
    party, tokens = play_one_game(host)
    prize_services.set_categories(
        party.code,
        [Category(MOST_WINS, "Most wins", "Candle"), Category(HOST_CHOICE, "Best laugh", "Mug")],
    )
    services.end_night(party.code)
    party.refresh_from_db()
    winner = party.result["winner"]
    ceremonies.start_awards(party.code)
    ceremonies.host_step(party.code, {"type": "next"})
    ceremonies.host_step(party.code, {"type": "next"})
    seat = view_of(party)["players"].index(winner)
    ceremonies.host_step(party.code, {"type": "pick", "player": seat})
    view = view_of(party, seat)
    assert view["choice"]["player"] == winner
    assert {"type": "keep", "category": 1} in view["legal_actions"]
    ceremonies.player_step(
        party.code, claim(party, tokens[winner]), {"type": "keep", "category": 1}
    )
    view = view_of(party)
    assert any(a["category"] == "Best laugh" and a["player"] == winner for a in view["awards"])
    if view["phase"] == "pick":  # Most wins passes to the runner-up: a tie among the rest
        ceremonies.host_step(
            party.code, {"type": "pick", "player": view["pick"]["choices"][0]["seat"]}
        )
    elif view["phase"] == "rolloff":
        scheduler.run_until_quiet(now=timezone.now() + timedelta(minutes=5))
    given = {a["category"]: a for a in view_of(party)["awards"]}
    assert given["Most wins"]["player"] != winner
    assert given["Most wins"]["runner_up_of"] == winner


def test_a_choice_not_made_in_time_keeps_the_prize_already_won(host):
    party, _ = play_one_game(host)
    prize_services.set_categories(
        party.code, [Category(MOST_WINS, "Most wins"), Category(HOST_CHOICE, "Best laugh")]
    )
    services.end_night(party.code)
    party.refresh_from_db()
    ceremonies.start_awards(party.code)
    ceremonies.host_step(party.code, {"type": "next"})
    ceremonies.host_step(party.code, {"type": "next"})
    seat = view_of(party)["players"].index(party.result["winner"])
    ceremonies.host_step(party.code, {"type": "pick", "player": seat})
    scheduler.run_due(now=timezone.now() + timedelta(minutes=5))
    given = {a["category"]: a["player"] for a in view_of(party)["awards"]}
    assert given["Most wins"] == party.result["winner"]
    lines = console.host_log(render.night_of(party.code, party.version))
    assert "time ran out" in lines


def test_with_real_dice_the_host_enters_the_roll_off(host):
    party, _ = play_one_game(host, dice_mode="physical")
    services.end_night(party.code)
    ceremonies.start_awards(party.code)
    view = next_until_rolloff(party)
    seats = [c["seat"] for c in view["rolloff"]["contenders"]]
    with pytest.raises(Refused):
        ceremonies.host_step(party.code, {"type": "dice", "dice": {str(seats[0]): 9}})
    dice = {str(seats[0]): 6, str(seats[1]): 2}
    ceremonies.host_step(party.code, {"type": "dice", "dice": dice})
    given = {a["category"]: a["player"] for a in view_of(party)["awards"]}
    assert given["Consolation prize"] == view["players"][seats[0]]


def test_the_console_buttons_start_and_step_the_awards_for_the_host_only(
    client, ended, django_user_model
):
    party, _ = ended
    url = f"/p/{party.code}/host/awards/"
    other = django_user_model.objects.create_user("other", password="x")
    client.force_login(other)
    assert client.post(url, {"type": "start"}).status_code == 403
    client.force_login(party.host)
    page = client.get(f"/p/{party.code}/host/").content.decode()
    assert "Start the awards" in page
    answer = client.post(url, {"type": "start"}, HTTP_HX_REQUEST="true")
    assert "The awards have started" in answer.content.decode()
    answer = client.post(url, {"type": "dice", "die_0": "7"}, HTTP_HX_REQUEST="true")
    assert "1 to 6" in answer.content.decode()
    client.post(url, {"type": "next"}, HTTP_HX_REQUEST="true")
    assert "Most wins" in [a["category"] for a in view_of(party)["awards"]]
    page = client.get(f"/p/{party.code}/host/").content.decode()
    assert "Next prize: Most losses" in page


def test_the_big_screen_and_the_phones_show_the_awards(client, ended):
    party, tokens = ended
    screen = client.get(f"/p/{party.code}/screen/").content.decode()
    assert "podium" in screen  # before the awards: the night's winners
    ceremonies.start_awards(party.code)
    ceremonies.host_step(party.code, {"type": "next"})
    screen = client.get(f"/p/{party.code}/screen/").content.decode()
    assert "tv-awards" in screen and party.result["winner"] in screen
    phone, _ = render.render_phone(party.code, claim(party, tokens["Ann"]))
    assert 'id="awards"' in phone and "Most wins" in phone


def test_once_the_awards_have_begun_the_night_cannot_be_reopened(ended):
    party, _ = ended
    ceremonies.start_awards(party.code)
    with pytest.raises(Refused, match="awards have begun"):
        services.reopen_night(party.code)
    party.refresh_from_db()
    assert party.status == Party.Status.ENDED


def test_the_nights_log_says_each_award_in_its_readers_language(client, host):
    party, _ = play_one_game(host)
    prize_services.set_categories(
        party.code, [Category(MOST_WINS, "Most wins"), Category(HOST_CHOICE, "Best laugh")]
    )
    services.end_night(party.code)
    party.refresh_from_db()
    winner = party.result["winner"]
    ceremonies.start_awards(party.code)
    ceremonies.host_step(party.code, {"type": "next"})
    most_wins = Event.objects.filter(party=party, kind="awards_next").latest("pk")
    # Kept in no language: what happened, who, which category; the sentence is made on reading.
    assert "said" not in most_wins.data
    assert most_wins.data["steps"][-1] == {"event": "awarded", "kind": MOST_WINS, "player": winner}
    lines = {}
    for language in ("en", "nl", "de"):
        with speak(language):
            lines[language] = log_line(most_wins, None)
    assert lines["en"].endswith(f"{winner} wins Most wins.")
    assert lines["nl"].endswith(f"{winner} wint Meeste overwinningen.")
    assert lines["de"].endswith(f"{winner} gewinnt Meiste Siege.")
    # The two winners of the one game tie for the most wins: the night's roll-off comes first.
    assert lines["nl"].startswith("Opgooien voor Meeste overwinningen: ")

    ceremonies.host_step(party.code, {"type": "next"})
    other = next(name for name in view_of(party)["players"] if name != winner)
    seat = view_of(party)["players"].index(other)
    ceremonies.host_step(party.code, {"type": "pick", "player": seat})
    client.force_login(host)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    dutch = client.get(f"/p/{party.code}/host/").content.decode()
    assert f"{winner} wint Meeste overwinningen." in dutch
    assert f"{other} wint Best laugh." in dutch  # a name the host typed, as typed
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(f"/p/{party.code}/host/").content.decode()
    assert f"{winner} wins Most wins." in english and "Meeste overwinningen" not in english


def test_an_award_logged_as_an_english_sentence_still_reads_in_the_log(host):
    party, _ = play_one_game(host)
    old = Event.objects.create(
        party=party,
        version=Party.objects.get(pk=party.pk).version + 1,
        kind="awards_next",
        data={"said": ["Ann wins Most wins"]},
    )
    with speak("nl"):
        assert log_line(old, None) == "Ann wins Most wins."
