"""The way of a Bunko tap, traced: which of the project's modules run from the moment a phone
sends a tap until the table's other phones have drawn it (docs/architecture.md, "One
pipeline")."""

from __future__ import annotations

import sys

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from tests.parties.test_party_consumer import next_of_type, night, phone

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = str(settings.BASE_DIR / "apps") + "/"


def module_of(filename: str) -> str | None:
    if not filename.startswith(ROOT):
        return None
    return filename[len(ROOT) - len("apps/") :].removesuffix(".py")


class Trace:
    """The project's modules whose functions were called, in the order first seen."""

    def __init__(self) -> None:
        self.modules: dict[str, None] = {}
        self.calls: dict[tuple[str, str], None] = {}  # (caller, callee), across other code

    def __call__(self, frame, event, arg):
        if event == "call":
            module = module_of(frame.f_code.co_filename)
            if module is not None:
                self.modules.setdefault(module)
                caller = frame.f_back
                while caller is not None and module_of(caller.f_code.co_filename) is None:
                    caller = caller.f_back
                if caller is not None and (name := module_of(caller.f_code.co_filename)) != module:
                    self.calls.setdefault((name, module))

    def start(self) -> None:
        sys.setprofile(self)

    @staticmethod
    def stop() -> None:
        sys.setprofile(None)


async def traced_tap(django_user_model) -> list[str]:
    party, tokens, tables = await night(django_user_model)
    phones = [await phone(party, tokens[n]) for n in tables[1]]
    trace = Trace()
    # The tap's database work runs in asgiref's one thread for sync code: trace it there too.
    await sync_to_async(trace.start)()
    trace.start()
    try:
        await phones[0].send_json_to(
            {
                "type": "action",
                "id": "roll-off-01",
                "act": {"type": "rolloff", "table": "1", "round": "1"},
            }
        )
        await next_of_type(phones[0], "ack", timeout=60)
        for other in phones[1:]:
            await next_of_type(other, "fragments", timeout=60)
    finally:
        Trace.stop()
        await sync_to_async(Trace.stop)()
    for communicator in phones:
        await communicator.disconnect()
    return trace


# The stations of a Bunko tap, in order (docs/architecture.md, "One pipeline"). A station
# takes the tap and hands it on; a package behind a seam counts as one.
STATIONS = {
    "socket envelope": {"apps/core/live"},
    "consumer": {"apps/parties/consumers"},
    "service": {"apps/parties/services/tables"},
    "store": {"apps/parties/services/tap_store", "apps/fastpath/*"},
    "rules": {"apps/parties/rules/*"},
    "log and version": {"apps/parties/services/log"},
    "fan-out": {"apps/parties/fanout"},
    "drawing": {
        "apps/parties/render",
        "apps/parties/big_screen",
        "apps/parties/presenter",
        "apps/parties/templatetags/*",
    },
}
# What the stations use on the way, and hand nothing on: the socket's guards, the change
# message, the models, the reads and their caches, and shared helpers.
HELPERS = {
    "apps/core/security",  # the origin check wrapped around every socket
    "apps/core/pace",  # a socket's pace limit
    "apps/core/changes",  # the change message
    "apps/core/errors",
    "apps/core/dice",
    "apps/core/groups",
    "apps/core/i18n",
    "apps/parties/models",
    "apps/parties/selectors/__init__",
    "apps/parties/selectors/tables",
    "apps/parties/selectors/past",
    "apps/parties/selectors/night",
    "apps/parties/caches",
}
PRESENTATION = {
    "apps/parties/fanout",
    "apps/parties/render",
    "apps/parties/big_screen",
    "apps/parties/presenter",
}


def station_of(module: str) -> str | None:
    for name, members in STATIONS.items():
        for member in members:
            if module == member or (member.endswith("/*") and module.startswith(member[:-1])):
                return name
    return None


async def test_a_tap_passes_eight_stations_and_no_service_calls_a_renderer(django_user_model):
    trace = await traced_tap(django_user_model)
    unknown = [m for m in trace.modules if station_of(m) is None and m not in HELPERS]
    assert not unknown, f"on the tap's way but in no station of the architecture page: {unknown}"
    passed = {station_of(m) for m in trace.modules} - {None}
    assert passed == set(STATIONS) and len(STATIONS) <= 8
    into_drawing = [
        (caller, callee)
        for caller, callee in trace.calls
        if caller.startswith("apps/parties/services/") and callee in PRESENTATION
    ]
    assert not into_drawing, into_drawing
