"""How fast one socket may send: a token bucket per socket.

A phone sends a hello when it connects and one message per tap, and holds the button until
the tap is answered; a reconnect resends its hello and every unanswered tap at once. So a
burst of ``BURST`` and ``RATE`` a second after it are far beyond any player, and a socket
beyond them is a script: its messages are dropped (the first refusal says so), and a socket
that sends another burst's worth after being told is closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

RATE = 10.0  # messages a second, refilled
BURST = 40  # messages at once

OK = "ok"  # handle the message
SLOW = "slow"  # drop it, and tell the client to slow down
DROP = "drop"  # drop it: the client was told
STOP = "stop"  # close the socket: the client did not slow down


class Pace:
    def __init__(
        self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()
        self.told = False

    def take(self) -> str:
        """One message: what to do with it. A refused message costs a token too, so a
        client that keeps sending is not let through by the refill."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        if self.tokens >= 0:
            self.told = False
            return OK
        if self.tokens < -self.burst:
            return STOP
        if self.told:
            return DROP
        self.told = True
        return SLOW
