"""The night's pages: the host sets up and runs it, players join from their phones."""

from __future__ import annotations

import pytest

from apps.core.tokens import seat_cookie_name
from apps.parties import services
from apps.parties.models import Party, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x")


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


def four_seated(host, **options) -> tuple[Party, dict[str, str]]:
    """A night of Ann, Bea, Cal and Dot at its one table, round 1 started; their seat tokens."""
    party = services.create_party(host, name="Friday", **options)
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        _, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    return party, tokens


def test_the_host_creates_a_night_with_its_options(host_client):
    response = host_client.post(
        "/p/new/",
        {
            "name": "March at Ann's",
            "rounds": "4",
            "dice_mode": "physical",
            "attendance": "sitouts",
            "seating": "roll",
        },
    )
    party = Party.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/p/{party.code}/host/"
    assert (party.rounds, party.dice_mode, party.attendance, party.seating, party.classic) == (
        4,
        "physical",
        "sitouts",
        "roll",
        False,
    )


def test_an_empty_round_count_means_an_open_end(host_client):
    host_client.post(
        "/p/new/",
        {
            "name": "Open",
            "rounds": "",
            "dice_mode": "virtual",
            "attendance": "ghosts",
            "seating": "random",
        },
    )
    assert Party.objects.get().rounds is None


def test_setting_up_a_night_needs_a_host_login(client):
    response = client.get("/p/new/")
    assert response.status_code == 302 and response["Location"].startswith("/signin/")


def test_a_phone_joins_by_code_and_stays_that_player_after_a_reload(client, host):
    party = services.create_party(host, name="Friday")
    services.add_player(party.code, "Ann")
    response = client.post("/join/", {"code": party.code.lower()})
    assert response["Location"] == f"/p/{party.code}/join/"
    page = client.get(response["Location"]).content.decode()
    assert "Pick your name" in page and ">Ann<" in page
    ann = Player.objects.get(name="Ann")
    response = client.post(f"/p/{party.code}/join/", {"player": ann.id})
    assert response["Location"] == f"/p/{party.code}/"
    assert seat_cookie_name(party.scope) in response.cookies
    page = client.get(f"/p/{party.code}/").content.decode()
    assert "You are <strong>Ann</strong>" in page
    assert client.get(f"/p/{party.code}/join/")["Location"] == f"/p/{party.code}/"


def test_a_guest_joining_is_not_offered_the_host_sign_in_but_the_host_still_finds_it(client, host):
    party = services.create_party(host, name="Friday")
    for path in ["/join/", f"/p/{party.code}/join/"]:
        page = client.get(path).content.decode()
        assert "Host sign-in" not in page and 'href="/signin/' not in page
    home = client.get("/").content.decode()
    assert 'href="/signin/?next=/p/new/"' in home and "Host sign-in" in home
    assert client.get("/signin/").status_code == 200
    client.force_login(host)  # a signed-in host on the join page can still sign out
    assert "Sign out host" in client.get(f"/p/{party.code}/join/").content.decode()


def test_a_wrong_code_is_explained_next_to_the_code_field(client):
    page = client.post("/join/", {"code": "ZZZZZ"}).content.decode()
    assert "No party has the code ZZZZZ" in page
    assert 'aria-invalid="true"' in page


def test_a_name_already_taken_by_another_phone_is_refused_with_what_to_do(client, host):
    party = services.create_party(host, name="Friday")
    ann = services.add_player(party.code, "Ann")
    services.join_party(party.code, player_id=ann.id)
    response = client.post(f"/p/{party.code}/join/", {"player": ann.id})
    assert response.status_code == 400
    assert "ask the host to free the name" in response.content.decode()


def test_a_player_adds_themselves_when_not_on_the_list(client, host):
    party = services.create_party(host, name="Friday")
    client.post(f"/p/{party.code}/join/", {"name": "  Zoe  "})
    assert Player.objects.get(party=party).name == "Zoe"


def test_each_phone_says_where_to_sit_and_with_whom(client, host):
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        player, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    client.cookies[seat_cookie_name(party.scope)] = tokens["Ann"]
    page = client.get(f"/p/{party.code}/").content.decode()
    assert "Table 1 (head table), seat" in page
    assert "Your partner is <strong>" in page
    assert "Roll for the first roller" in page


def test_the_big_screen_shows_the_join_code_who_joined_and_every_table(client, host):
    party = services.create_party(host, name="Friday")
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        services.join_party(party.code, new_name=name)
    services.add_player(party.code, "Eve")  # on the list, but no phone has joined as Eve
    page = client.get(f"/p/{party.code}/screen/").content.decode()
    assert party.code in page and "4 here" in page and "<li>Dot</li>" in page
    services.start_next_round(party.code)
    page = client.get(f"/p/{party.code}/screen/").content.decode()
    assert 'aria-label="Table 1, the head table"' in page and 'aria-label="Table 2"' in page
    assert "Ghost" in page


def test_only_the_host_of_the_night_sees_its_console(client, host, django_user_model):
    party = services.create_party(host, name="Friday")
    other = django_user_model.objects.create_user("other", password="x")
    client.force_login(other)
    assert client.get(f"/p/{party.code}/host/").status_code == 403
    assert client.post(f"/p/{party.code}/host/start-round/").status_code == 403


def test_the_host_console_runs_the_night_and_explains_refusals(host_client, host):
    party = services.create_party(host, name="Friday")
    for name in ["Ann", "Bea", "Cal"]:
        host_client.post(f"/p/{party.code}/host/add-player/", {"name": name})
    response = host_client.post(f"/p/{party.code}/host/start-round/", follow=True)
    assert "Bunko needs at least 4 players" in response.content.decode()
    host_client.post(f"/p/{party.code}/host/add-player/", {"name": "Dot"})
    page = host_client.post(f"/p/{party.code}/host/start-round/", follow=True).content.decode()
    assert "Round 1 of 6" in page
    assert Party.objects.get().current_round == 1


def test_the_score_sheet_lists_every_player(client, host):
    party = services.create_party(host, name="Friday")
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        services.add_player(party.code, name)
    services.start_next_round(party.code)
    page = client.get(f"/p/{party.code}/sheet/").content.decode()
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        assert name in page


def test_the_phones_show_the_roll_off_and_who_starts(client, host):
    party = services.create_party(host, name="Friday")
    tokens = {}
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        player, tokens[name] = services.join_party(party.code, new_name=name)
    services.start_next_round(party.code)
    from apps.core.tokens import read_seat_token

    services.table_action(
        party.code, read_seat_token(tokens["Ann"], party.scope), "rolloff-01", {"type": "rolloff"}
    )
    client.cookies[seat_cookie_name(party.scope)] = tokens["Bea"]
    page = client.get(f"/p/{party.code}/").content.decode()
    assert "Roll-off: " in page and " starts." in page


def test_the_host_corrects_a_tapped_entry_from_the_console(host_client, host):
    from apps.core.tokens import read_seat_token
    from apps.parties.models import Event, Table

    party, tokens = four_seated(host, dice_mode="physical")
    claim = read_seat_token(tokens["Ann"], party.scope)
    services.table_action(party.code, claim, "c-rolloff", {"type": "rolloff"})
    services.table_action(party.code, claim, "c-report", {"type": "report", "kind": "miss"})
    table = Table.objects.get(party=party)
    page = host_client.get(f"/p/{party.code}/host/").content.decode()
    assert "Correct an entry" in page
    form = host_client.get(f"/p/{party.code}/host/table/{table.pk}/correct/").content.decode()
    assert "Should have been" in form and "Back to the console" in form
    index = len(table.state["entries"]) - 1
    response = host_client.post(
        f"/p/{party.code}/host/correct/",
        {"table": table.id, "index": index, "replacement": "six2", "reason": "Two sixes, not none"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    roller_team = table.state["entries"][index]["seat"] % 2
    assert table.state["scores"][roller_team] == 2
    logged = Event.objects.get(party=party, kind="corrected", table=table)
    assert logged.data["reason"] == "Two sixes, not none"


def test_a_correction_without_a_reason_is_refused_on_the_console(host_client, host):
    party = services.create_party(host, name="Friday", dice_mode="physical")
    for name in ["Ann", "Bea", "Cal", "Dot"]:
        services.add_player(party.code, name)
    services.start_next_round(party.code)
    table = party.tables.get()
    page = host_client.post(
        f"/p/{party.code}/host/correct/",
        {"table": table.id, "index": 0, "replacement": "six1", "reason": " "},
        follow=True,
    ).content.decode()
    assert "Say why the entry is corrected" in page


def test_the_table_log_numbers_the_latest_rolls_as_the_rounds_own(client, host):
    from apps.core.tokens import read_seat_token
    from apps.parties.models import Table

    party, tokens = four_seated(host, dice_mode="physical")
    claims = {name: read_seat_token(token, party.scope) for name, token in tokens.items()}
    by_id = {claim.seat_id: claim for claim in claims.values()}
    services.table_action(party.code, claims["Ann"], "off", {"type": "rolloff"})
    table = Table.objects.get(party=party)
    for tap in range(8):  # eight misses: the dice pass, nobody scores
        table.refresh_from_db()
        roller = by_id[table.seats[table.state["roller"]]]
        services.table_action(party.code, roller, f"miss-{tap}", {"type": "report", "kind": "miss"})
    table.refresh_from_db()
    assert len(table.state["rolls"]) == 8
    client.cookies[seat_cookie_name(party.scope)] = tokens["Ann"]
    page = client.get(f"/p/{party.code}/").content.decode()
    # The newest of the six shown is the round's eighth roll, not a sixth.
    assert '<ol class="roll-log" reversed start="8">' in page
    log = page.split('<ol class="roll-log"')[1].split("</ol>")[0]
    assert log.count("<li>") == 6
