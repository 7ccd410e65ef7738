"""The pure modules read the project's catalogue first and then each app's own."""

from __future__ import annotations

import struct

import pytest

from apps.core import i18n


def write_mo(path, messages: dict[str, str]) -> None:
    """A GNU .mo file with ``messages`` (the format the standard library reads)."""
    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(messages)
    ids = b"".join(key.encode() + b"\0" for key in keys)
    strs = b"".join(messages[key].encode() + b"\0" for key in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets, position = [], 0
    for key in keys:
        offsets += [len(key.encode()), start + position]
        position += len(key.encode()) + 1
    translated, position = [], 0
    for key in keys:
        translated += [len(messages[key].encode()), start + len(ids) + position]
        position += len(messages[key].encode()) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        header
        + struct.pack(f"{len(offsets)}i", *offsets)
        + struct.pack(f"{len(translated)}i", *translated)
        + ids
        + strs
    )


@pytest.fixture
def catalogues(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "ROOT", tmp_path)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n._catalogue.cache_clear()
    yield tmp_path
    i18n._catalogue.cache_clear()


def test_a_game_sentence_comes_from_its_apps_catalogue_and_the_project_one_wins(catalogues):
    mo = "LC_MESSAGES/django.mo"
    write_mo(catalogues / "locale/de" / mo, {"Roll": "Würfeln", "Pass": "Weiter"})
    write_mo(catalogues / "apps/games/locale/de" / mo, {"Pass": "Passen", "Stable": "Stall"})
    write_mo(catalogues / "apps/games/bonje/locale/de" / mo, {"Card": "Karte"})
    with i18n.speaking("de"):
        assert i18n._("Roll") == "Würfeln"
        assert i18n._("Pass") == "Weiter"
        assert i18n._("Stable") == "Stall"
        assert i18n._("Card") == "Karte"
        assert i18n._("Unknown") == "Unknown"
    with i18n.speaking("nl"):
        assert i18n._("Stable") == "Stable"
