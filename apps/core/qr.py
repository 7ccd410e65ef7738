"""QR codes for join links: SVG for pages and the big screen, text for the terminal."""

from __future__ import annotations

import io

import segno


def qr_svg(data: str, scale: int = 6) -> str:
    """An inline SVG (dark modules on light, with a quiet zone) that phones scan easily."""
    buffer = io.BytesIO()
    segno.make(data, error="m").save(
        buffer, kind="svg", scale=scale, dark="#111", light="#fff", xmldecl=False, svgns=True
    )
    return buffer.getvalue().decode()


def qr_terminal(data: str) -> str:
    """The QR code drawn with block characters, for `make run`'s terminal."""
    buffer = io.StringIO()
    segno.make(data, error="m").terminal(out=buffer, compact=True)
    return buffer.getvalue()
