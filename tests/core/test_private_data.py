"""What the laptop keeps to itself: the admin shows no game's hidden state and is for the
laptop's owner alone; the data folder, the database and the secret key are readable by the
laptop's account only; and only the laptop's own names reach it (DNS rebinding)."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory

from apps.core.network import LaptopHosts, laptop_hosts
from apps.games import services
from apps.games.models import Room, RoomEvent
from apps.parties.models import Party, Table
from tests.games.roomkit import started_room
from tests.servers import ROOT

HIDDEN = {"state", "seed", "nonce"}


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- the admin --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_only_superusers_get_the_admin(django_user_model):
    staff = django_user_model.objects.create_user("helper", password="x", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/").status_code == 302
    assert client.get("/admin/games/room/").status_code == 302
    owner = django_user_model.objects.create_superuser("host", password="x")
    client.force_login(owner)
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_the_admin_never_shows_a_state_or_seed_and_no_move_of_a_running_game(
    django_user_model, night_with_a_table
):
    room, _ = started_room(("Ann", "Bea"))
    owner = django_user_model.objects.create_superuser("host", password="x")
    request = RequestFactory().get("/admin/")
    request.user = owner
    rows = {
        Room: room,
        RoomEvent: room.events.order_by("version").last(),
        Table: night_with_a_table,
    }
    for model, model_admin in admin.site._registry.items():
        obj = rows.get(model) or model.objects.first()
        shown = set(model_admin.get_fields(request, obj))
        assert not shown & HIDDEN, (model.__name__, shown & HIDDEN)
        assert not set(model_admin.get_list_display(request)) & HIDDEN
    assert "data" not in admin.site._registry[RoomEvent].get_fields(request, rows[RoomEvent])
    client = Client()
    client.force_login(owner)
    hands = room.state["hand"]["hands"]
    for url in (
        f"/admin/games/room/{room.pk}/change/",
        f"/admin/games/roomevent/{rows[RoomEvent].pk}/change/",
    ):
        page = client.get(url).content.decode()
        assert '"hands"' not in page and "&quot;hands&quot;" not in page
        assert str(hands[1]) not in page


@pytest.fixture
def night_with_a_table(django_user_model):
    from apps.parties import services as nights

    host = django_user_model.objects.create_user("nighthost", password="x")
    party = nights.create_party(host, name="Friday")
    for name in ("Ann", "Bea", "Cal", "Dot"):
        nights.join_party(party.code, new_name=name)
    nights.start_next_round(party.code)
    assert Party.objects.count() == 1
    return Table.objects.first()


# -- files ------------------------------------------------------------------------------------


def embedded(data_dir, code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(BUNKO_DATA_DIR=str(data_dir), DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_data_folder_the_database_and_the_key_are_the_laptop_accounts_alone(tmp_path):
    data = tmp_path / "data"
    old = os.umask(0o022)  # as a shell usually leaves it
    try:
        embedded(data, "from django.db import connection; connection.ensure_connection()")
    finally:
        os.umask(old)
    assert mode(data) == 0o700
    assert mode(data / "secret_key") == 0o600
    files = sorted(p.name for p in data.glob("bunko.sqlite3*"))
    assert "bunko.sqlite3" in files
    assert all(mode(data / name) == 0o600 for name in files), files


def test_an_older_install_left_readable_by_others_is_closed_up(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    (data / "bunko.sqlite3").write_text("")
    (data / "secret_key").write_text("an-old-key")
    for path, wanted in ((data, 0o755), (data / "bunko.sqlite3", 0o644)):
        os.chmod(path, wanted)
    os.chmod(data / "secret_key", 0o644)
    out = embedded(data, "from django.conf import settings; print(settings.SECRET_KEY)")
    assert out.stdout.strip() == "an-old-key"
    assert (mode(data), mode(data / "bunko.sqlite3"), mode(data / "secret_key")) == (
        0o700,
        0o600,
        0o600,
    )


def test_the_secret_key_file_is_created_with_its_mode_in_one_step(tmp_path, monkeypatch):
    import config.settings as config

    opened = []
    real_open = os.open

    def spy(path, flags, mode=0o777, *args, **kwargs):
        opened.append((str(path), flags, mode))
        return real_open(path, flags, mode, *args, **kwargs)

    monkeypatch.setattr(config, "DATA_DIR", tmp_path)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setattr(os, "open", spy)
    old = os.umask(0)  # whatever the umask, the key is never readable by others
    try:
        key = config._secret_key()
    finally:
        os.umask(old)
    assert key and mode(tmp_path / "secret_key") == 0o600
    path, flags, created_mode = next(o for o in opened if o[0].endswith("secret_key"))
    assert flags & os.O_CREAT and flags & os.O_EXCL and created_mode == 0o600
    assert config._secret_key() == key  # the second start reads the same key


# -- hosts ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_only_the_laptops_own_names_and_addresses_and_listed_names_are_served(settings):
    settings.ALLOWED_HOSTS = LaptopHosts(["bunko.example.org"])
    name = socket.gethostname().lower()
    own = ["localhost:8000", "127.0.0.1", "[::1]:8000", name, f"{name.split('.')[0]}.local"]
    lan = [h for h in laptop_hosts() if h not in {"localhost", "127.0.0.1", "[::1]"}]
    for host in [*own, *lan, "bunko.example.org"]:
        assert Client().get("/", HTTP_HOST=host).status_code == 200, host
    for host in ("evil.example", "192.0.2.250", "rebind.attacker.test:8000"):
        assert Client().get("/", HTTP_HOST=host).status_code == 400, host


def test_the_default_allowed_hosts_follow_the_laptops_addresses_and_add_the_environments():
    env = {"ALLOWED_HOSTS": "bunko.example.org, other.example.org", "PUBLIC_URL": ""}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(' '.join(settings.ALLOWED_HOSTS))",
        ],
        cwd=ROOT,
        env={**os.environ, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    hosts = result.stdout.split()
    assert "*" not in hosts
    for wanted in ("bunko.example.org", "other.example.org", "localhost", "127.0.0.1", "[::1]"):
        assert wanted in hosts
    assert set(laptop_hosts()) <= set(hosts)


@pytest.mark.django_db(transaction=True)
async def test_a_socket_to_a_name_that_is_not_the_laptops_is_refused(settings):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    room, _ = await database_sync_to_async(services.create_room)("mbogo", {}, "Ann")
    settings.ALLOWED_HOSTS = LaptopHosts([])
    for host, allowed in ((b"rebind.attacker.test", False), (b"localhost:8000", True)):
        headers = [(b"origin", b"http://" + host), (b"host", host)]
        path = f"/ws/rooms/{room.code}/screen/"
        communicator = WebsocketCommunicator(application, path, headers)
        connected, _ = await communicator.connect()
        assert connected == allowed, host
        if allowed:
            await communicator.disconnect()
