"""The awards at the end of a night, as the prizes app provides them: the night's screens
show the ceremony and its phones take part in it, without the night importing that app."""

from __future__ import annotations

from typing import Any, Protocol

from apps.core.tokens import SeatClaim


class Awards(Protocol):
    def phone(self, party: Any, player: Any) -> str: ...

    def screen(self, party: Any) -> str: ...

    def host(self, party: Any) -> str: ...

    def step(self, code: str, claim: SeatClaim | None, act: dict, action_id: str) -> None: ...

    def said(self, step: dict) -> str | None:
        """A step of the ceremony the night's log keeps (in no language) as a sentence in
        the reader's language."""
        ...

    def travelling(self, party: Any) -> dict:
        """The travelling prizes the awards have settled so far, by prize ("bunko",
        "wipeout"): ``{"player", "runner_up_of"}`` (names), or None when not given."""
        ...


_provider: list[Awards] = []


def provide(awards: Awards) -> None:
    _provider[:] = [awards]


def provider() -> Awards | None:
    return _provider[0] if _provider else None


PREFIX = "awards."  # a phone's ceremony moves travel as {"type": "awards.roll"}, ...
