"""A socket whose reader falls behind is closed, so what it does not read cannot pile up.

Daphne hands every message a consumer sends to its Twisted transport, which keeps whatever
the network has not taken yet in memory, without a limit: two scripts that asked the big
screen for its page and never read grew a server by hundreds of megabytes a minute, kept
after they left. Here, once more than ``SOCKET_SEND_BACKLOG`` bytes wait for one reader, the
socket is closed with ``SLOW_READER`` (the close frame waits behind the backlog; a reader
that does not answer it within a second is cut off, and its backlog let go) and what the
consumer sends meanwhile is dropped. The page reconnects and catches up by version.
"""

from __future__ import annotations

import logging

from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.conf import settings

log = logging.getLogger(__name__)

# The close code of a socket whose reader fell behind: the page reconnects as after any close.
SLOW_READER = 4408


def waiting(transport) -> int | None:
    """Bytes written to a Twisted TCP transport that the network has not taken yet (None for
    a transport that does not say)."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except AttributeError:
        return None


class BoundedWebSocketProtocol(WebSocketProtocol):
    """Daphne's WebSocket protocol, with a bound on what waits for its reader."""

    def serverSend(self, content, binary=False):
        if self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
            return  # closing (for falling behind, or by the client): nobody will read it
        # What waited before this message: the network takes a message on the loop's next
        # turn, so one big page is never a backlog by itself.
        behind = waiting(self.transport)
        if behind is not None and behind > settings.SOCKET_SEND_BACKLOG:
            log.warning(
                "live: a socket to %s fell behind by %d bytes; closed",
                self.client_addr and self.client_addr[0],
                behind,
            )
            self.sendClose(code=SLOW_READER)
            return
        super().serverSend(content, binary)


def install() -> None:
    """Every WebSocket daphne opens from now on is bounded."""
    WebSocketFactory.protocol = BoundedWebSocketProtocol
