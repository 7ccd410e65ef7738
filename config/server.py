"""Daphne, on uvloop's event loop where it is installed.

Every socket's work passes through the event loop (daphne's Twisted reactor runs on asyncio's
loop). Where the servers are busiest, ``make bench`` at 250 tables on four processes, uvloop's
loop (written in C) answered 152-157 taps a second instead of 136-147, at 9.1-9.2 ms of CPU
per tap instead of 9.8-10.5; at 12 to 100 tables on one process the two loops differ less
than one run from the next. Daphne makes its loop as its server module is imported,
and Django imports that module as it loads the apps, so the loop's kind is chosen before
either: here for ``python -m config.server`` (daphne's own command line, on uvloop), and in
manage.py for ``make run``. Without uvloop (Windows) daphne runs on asyncio's own loop.
"""

from __future__ import annotations

import asyncio
import sys


def use_uvloop() -> bool:
    """Make the event loops made from now on uvloop's; whether it could."""
    try:
        import uvloop
    except ImportError:
        return False
    if "daphne.server" in sys.modules:
        # Too late: its loop is made. Say so rather than serve on a loop nobody chose.
        raise RuntimeError("use_uvloop() must run before daphne.server is imported")
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main(argv: list[str]) -> None:
    """``python -m config.server -b 127.0.0.1 -p 8001 config.asgi:application``: daphne's
    command line, arguments and all."""
    use_uvloop()
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
