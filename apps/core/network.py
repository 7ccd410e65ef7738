"""The laptop's addresses on the local network, for the join link phones scan."""

from __future__ import annotations

import ipaddress
import socket
import time


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _interface_addresses() -> list[str]:
    """IPv4 addresses of the network interfaces (Linux), read without sending anything."""
    try:
        import fcntl
        import struct
    except ImportError:
        return []
    found = []
    siocgifaddr = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(
                    probe.fileno(), siocgifaddr, struct.pack("256s", name.encode()[:15])
                )
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


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


def join_url(host: str, port: int) -> str:
    """The address to print and encode in the QR code."""
    if host in {"0.0.0.0", "::", ""}:
        addresses = lan_addresses()
        host = addresses[0] if addresses else "localhost"
    return f"http://{host}:{port}/" if port != 80 else f"http://{host}/"


def public_base(request) -> str:
    """The address phones use to reach this server (see ``public_base_for``)."""
    return public_base_for(request.get_host())


def public_base_for(host: str) -> str:
    """PUBLIC_URL when the deployment sets one (a proxy in front), else the laptop's LAN
    address on the port ``host`` (a Host header) names, whatever name the host's browser
    used: a big screen opened at localhost must still show a code phones can reach."""
    from django.conf import settings

    if public := getattr(settings, "PUBLIC_URL", ""):
        return public.rstrip("/")
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    port_number = int(port) if port.isdigit() else 80
    addresses = lan_addresses()
    if not addresses:
        return f"http://{host}" if host else "http://localhost"
    return join_url(addresses[0], port_number).rstrip("/")
