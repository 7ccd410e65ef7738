"""The laptop's addresses on the local network, for the join link phones scan."""

from __future__ import annotations

import ipaddress
import socket
import time

import ifaddr


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _interface_ips() -> list[tuple[int, str]]:
    """Every address of the network interfaces, as (IP version, address), read without
    sending anything, on Linux, macOS and Windows alike (ifaddr asks the system's own
    interface list)."""
    found = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        return []
    for adapter in adapters:
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                found.append((4, ip.ip))
            else:  # IPv6: (address, flow info, scope id)
                found.append((6, ip.ip[0].split("%")[0]))
    return found


def _interface_addresses() -> list[str]:
    """The IPv4 addresses of the network interfaces."""
    return [address for version, address in _interface_ips() if version == 4]


_found: tuple[float, list[str]] = (0.0, [])


def lan_addresses() -> list[str]:
    """Private addresses first: those are the ones phones on the party Wi-Fi can reach.
    Looked up at most every 30 s (a laptop may change Wi-Fi, but not between two pages)."""
    global _found
    if time.monotonic() - _found[0] < 30:
        return list(_found[1])
    _found = (time.monotonic(), _lan_addresses())
    return list(_found[1])


def _lan_addresses() -> list[str]:
    candidates = _interface_addresses()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(info[4][0])
    except OSError:
        pass
    unique = list(dict.fromkeys(a for a in candidates if _usable(a)))
    return sorted(unique, key=lambda a: not ipaddress.ip_address(a).is_private)


# The host `make run` listens on, told by the serve command. None where daphne's own command
# line started the process: behind a proxy, which PUBLIC_URL names (else the LAN address).
_listening: str | None = None

ALL_INTERFACES = {"0.0.0.0", "::", ""}


def listen_on(host: str | None) -> None:
    global _listening
    _listening = host


def is_loopback(host: str) -> bool:
    """Whether only this laptop can reach a server listening on ``host``."""
    if host.lower() in {"localhost", "localhost.localdomain", "ip6-localhost"}:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def advertised_host(listening: str | None) -> str:
    """The one address to print, to show on the big screen and to put in QR codes: one the
    server listens on. On every interface that is the laptop's LAN address (phones on the
    Wi-Fi reach it); on one address, that address, even a loopback one that phones cannot
    reach (the terminal says so): a Wi-Fi address there would be a link that never opens."""
    if listening is None or listening in ALL_INTERFACES:
        addresses = lan_addresses()
        return addresses[0] if addresses else "localhost"
    return listening


def join_url(host: str, port: int) -> str:
    """The address to print and encode in the QR code, for a server listening on ``host``."""
    host = advertised_host(host)
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address, as a URL writes it
    return f"http://{host}:{port}/" if port != 80 else f"http://{host}/"


def public_base(request) -> str:
    """The address phones use to reach this server (see ``public_base_for``)."""
    return public_base_for(request.get_host())


def public_base_for(host: str) -> str:
    """PUBLIC_URL when the deployment sets one (a proxy in front), else the address this
    server advertises (``advertised_host``) on the port ``host`` (a Host header) names,
    whatever name the host's browser used: a big screen opened at localhost must still
    show a code phones can reach."""
    from django.conf import settings

    if public := getattr(settings, "PUBLIC_URL", ""):
        return public.rstrip("/")
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    port_number = int(port) if port.isdigit() else 80
    if (_listening is None or _listening in ALL_INTERFACES) and not lan_addresses():
        return f"http://{host}" if host else "http://localhost"
    return join_url(_listening or "0.0.0.0", port_number).rstrip("/")


# -- the names this laptop answers to (ALLOWED_HOSTS) ---------------------------------------------


def _ipv6_addresses() -> list[str]:
    """IPv6 addresses of the network interfaces, but link-local ones: a browser cannot put
    those in an address."""
    found = []
    for version, address in _interface_ips():
        if version != 6:
            continue
        try:
            if not ipaddress.IPv6Address(address).is_link_local:
                found.append(address)
        except ValueError:
            continue
    return found


def _named_addresses() -> list[str]:
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(info[4][0]).split("%")[0])
    except OSError:
        pass
    return found


def laptop_hosts() -> list[str]:
    """Every Host a phone or the laptop's own browser may use tonight: the loopback names,
    the machine's name (and its .local name on the Wi-Fi), and each address of its network
    interfaces (IPv6 ones in brackets, as a Host header writes them)."""
    name = socket.gethostname().lower()
    hosts = ["localhost", "127.0.0.1", "[::1]", name, f"{name.split('.')[0]}.local"]
    for address in [*_interface_addresses(), *_ipv6_addresses(), *_named_addresses()]:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        hosts.append(f"[{ip}]" if ip.version == 6 else str(ip))
    return list(dict.fromkeys(hosts))


class LaptopHosts(list):
    """ALLOWED_HOSTS for a laptop whose address changes with the venue's Wi-Fi: the names
    the deployment lists, then the laptop's own names and addresses as they are now (looked
    up again every few seconds), so a Host header naming anything else (a DNS-rebinding
    page) is refused."""

    REFRESH = 10.0

    def __init__(self, listed: list[str]) -> None:
        super().__init__(listed)
        self._seen: tuple[float, list[str]] = (-1e9, [])

    def current(self) -> list[str]:
        if time.monotonic() - self._seen[0] >= self.REFRESH:
            self._seen = (time.monotonic(), laptop_hosts())
        return self._seen[1]

    def __iter__(self):
        yield from list.__iter__(self)
        yield from self.current()

    def __contains__(self, host: object) -> bool:
        return any(host == entry for entry in self)
