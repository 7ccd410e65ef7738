"""The rules of every game, the awards' too, are pure Python: importing them loads nothing of
Django or Channels, so they run (and are tested) without a server, a database or settings."""

from __future__ import annotations

import subprocess
import sys

from config.settings import BASE_DIR

PURE = [
    "apps.core.protocol",
    "apps.parties.rules.table",
    "apps.parties.rules.night",
    "apps.parties.rules.simulator",
    "apps.prizes.rules.settlement",
    "apps.prizes.presenter",
    "apps.games.bonje.rules",
    "apps.games.mbogo.rules",
    "apps.games.dschungel.rules",
]


def test_the_rules_import_nothing_of_django_or_channels():
    code = (
        "import importlib, sys\n"
        f"for name in {PURE!r}: importlib.import_module(name)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'channels'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
