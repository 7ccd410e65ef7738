"""A request too long for the server gets a short page that says so, not a dropped connection.

Daphne reads HTTP with Twisted's ``HTTPChannel``, which bounds the request line and each
header line at 16 kB (``MAX_LENGTH``) and all of them together at 16 kB
(``totalHeadersSize``). Past the first it closes the connection without a word, past the
second it answers a bare 400; the request never reaches the ASGI application, so the bound
is answered where it is enforced: 414 for the request line (the address), 431 for the
headers (mostly cookies), with a page in the server's language. The bounds stay Twisted's:
no page of the product comes near them, and daphne has no setting for them.

The answer is written, then the server stops writing and reads (and drops) whatever the
client still sends until it closes: closing with the rest of a 100 kB request unread would
reset the connection, and the client would lose the answer with it.
"""

from __future__ import annotations

import html
import logging

from twisted.web.http import HTTPChannel

log = logging.getLogger(__name__)

# Seconds a refused client gets to read the answer and close before it is cut off.
DRAIN = 10


def _page(status: int) -> tuple[bytes, bytes]:
    """The reason phrase and the page of a refusal."""
    from django.utils.translation import gettext as _

    if status == 414:
        title = _("That address is too long")
        text = _(
            "This server takes addresses of up to {size} kB; nothing changed. Go back and "
            "try again."
        ).format(size=HTTPChannel.MAX_LENGTH // 1024)
        reason = b"URI Too Long"
    else:
        title = _("That request is too long")
        text = _(
            "Its headers (mostly cookies) are more than this server takes; nothing changed. "
            "Clear this site's cookies and try again."
        )
        reason = b"Request Header Fields Too Large"
    page = (
        f'<!doctype html><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>\n"
    )
    return reason, page.encode()


class BoundedChannel(HTTPChannel):
    """Twisted's HTTP channel, answering a request past its bounds 414 or 431."""

    refused = False
    cut_off = None

    def dataReceived(self, data: bytes) -> None:
        if self.refused:
            return  # the rest of a refused request, read and dropped
        super().dataReceived(data)

    def lineReceived(self, line: bytes) -> None:
        if self.refused:
            return
        if self._receivedHeaderSize + len(line) > self.totalHeadersSize:
            self.refuse(431 if self._receivedHeaderSize else 414)
            return
        super().lineReceived(line)

    def lineLengthExceeded(self, line: bytes) -> None:
        if self.refused:
            return
        # Nothing of this request counted yet: the overlong line is its first, the address.
        self.refuse(414 if self._receivedHeaderSize == 0 else 431)

    def refuse(self, status: int) -> None:
        self.refused = True
        self.setTimeout(None)
        reason, page = _page(status)
        log.warning("http: a request too long for the server answered %s", status)
        head = (
            b"HTTP/1.1 %d %s\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (status, reason, len(page))
        )
        self.transport.write(head + page)
        self.transport.loseWriteConnection()
        self.cut_off = self.callLater(DRAIN, self.transport.abortConnection)

    def connectionLost(self, reason) -> None:
        if self.cut_off is not None and self.cut_off.active():
            self.cut_off.cancel()
        super().connectionLost(reason)


def install() -> None:
    """Daphne's HTTP connections from now on are bounded channels."""
    from daphne.http_protocol import HTTPFactory

    HTTPFactory.protocol = BoundedChannel
