"""The address the terminal, the big screen and the QR codes advertise: one the server
listens on, and a word in the terminal when phones cannot reach it."""

from __future__ import annotations

import ifaddr
import pytest

from apps.core import network
from apps.core.management.commands.serve import banner

WIFI = "192.168.1.20"


@pytest.fixture
def wifi(monkeypatch):
    """A laptop on the party Wi-Fi; the serve command has not said where it listens."""
    monkeypatch.setattr(network, "lan_addresses", lambda: [WIFI])
    monkeypatch.setattr(network, "_listening", None)


@pytest.mark.parametrize("listening", ["0.0.0.0", "::", ""])
def test_a_server_on_every_interface_advertises_the_wifi_address(wifi, listening):
    assert network.advertised_host(listening) == WIFI
    assert network.join_url(listening, 8000) == f"http://{WIFI}:8000/"


@pytest.mark.parametrize(
    ("listening", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/"),
        ("localhost", "http://localhost:8000/"),
        ("::1", "http://[::1]:8000/"),
        ("10.0.0.5", "http://10.0.0.5:8000/"),
    ],
)
def test_a_server_on_one_address_advertises_that_address_and_never_the_wifi(wifi, listening, url):
    assert network.join_url(listening, 8000) == url


def test_the_big_screen_and_the_qr_code_advertise_loopback_when_the_server_listens_there(
    wifi, monkeypatch
):
    monkeypatch.setattr(network, "_listening", "127.0.0.1")
    assert network.public_base_for("localhost:8000") == "http://127.0.0.1:8000"
    monkeypatch.setattr(network, "_listening", "0.0.0.0")
    assert network.public_base_for("localhost:8000") == f"http://{WIFI}:8000"


def test_a_server_started_by_daphnes_own_command_line_still_advertises_the_wifi(wifi):
    # Behind a proxy each process listens on 127.0.0.1; phones reach the proxy.
    assert network.public_base_for("localhost:8001") == f"http://{WIFI}:8001"


@pytest.mark.django_db
def test_the_join_page_shows_the_address_the_server_listens_on(wifi, monkeypatch, client):
    from django.contrib.auth import get_user_model

    from apps.parties import services

    host = get_user_model().objects.create_user("host", password="x")
    party = services.create_party(host, name="Friday")
    monkeypatch.setattr(network, "_listening", "127.0.0.1")
    page = client.get(f"/p/{party.code}/screen/", HTTP_HOST="localhost:8000").content.decode()
    assert f"http://127.0.0.1:8000/p/{party.code}/join/" in page
    assert WIFI not in page


@pytest.mark.parametrize("listening", ["127.0.0.1", "localhost", "::1"])
def test_the_terminal_says_why_phones_cannot_join_a_server_on_loopback(wifi, listening):
    text = banner(listening, 8000)
    assert f"It listens on {listening} only, so phones cannot join" in text
    assert "HOST=0.0.0.0 make run" in text
    assert "scan this code" not in text and "█" not in text  # no QR code that opens nothing
    assert WIFI not in text


def test_the_terminal_on_every_interface_prints_the_wifi_address_and_its_qr_code(wifi):
    text = banner("0.0.0.0", 8000)
    assert f"Bunko Night is ready at http://{WIFI}:8000/" in text
    assert "Phones on the same Wi-Fi: open that address or scan this code." in text
    assert "█" in text and "phones cannot join" not in text


def test_the_laptops_addresses_come_from_its_interface_list_on_any_system(monkeypatch):
    """ifaddr reads the interfaces on Linux, macOS and Windows: the Wi-Fi's IPv4 address is
    advertised (loopback and link-local ones never), and the laptop answers to each address
    but an IPv6 link-local one, which a browser cannot put in an address."""
    adapters = [
        ifaddr.Adapter("lo", "Loopback", [ifaddr.IP("127.0.0.1", 8, "lo")]),
        ifaddr.Adapter(
            "en0",
            "Wi-Fi",
            [
                ifaddr.IP("169.254.3.4", 16, "en0"),
                ifaddr.IP(WIFI, 24, "en0"),
                ifaddr.IP(("fe80::1", 0, 4), 64, "en0"),
                ifaddr.IP(("2001:db8::7", 0, 0), 64, "en0"),
            ],
        ),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    monkeypatch.setattr(network.socket, "gethostname", lambda: "partylaptop")
    monkeypatch.setattr(network, "_found", (0.0, []))
    assert network._lan_addresses() == [WIFI]
    hosts = network.laptop_hosts()
    assert WIFI in hosts and "[2001:db8::7]" in hosts
    assert not any("fe80" in host for host in hosts)
