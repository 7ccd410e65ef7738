from __future__ import annotations

import json

from django import template

from apps.core.live import socket_url as _socket_url

register = template.Library()


@register.simple_tag
def socket_url(name: str, **kwargs) -> str:
    """``{% socket_url "room_socket" code=room.code %}``: a page's socket path, by name."""
    return _socket_url(name, **kwargs)


@register.filter
def as_json(value) -> str:
    """A value as compact JSON, for a button's ``act`` (the template escapes it)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@register.filter
def act_label(action: dict) -> str:
    """A plain label for a move the game has not named: "take · card 3"."""
    rest = [f"{key} {value}" for key, value in action.items() if key not in ("type", "delay_ms")]
    return " · ".join([str(action.get("type", "?")), *rest])
