"""The committed catalogues hold every sentence of the product, translated, and the compiled
.mo files say what their .po files say: makemessages runs on a copy of the sources (so the
working tree is never touched) and its result is compared with what is committed."""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("apps", "templates", "locale", "config")
LANGUAGES = ("nl", "de")

pytestmark = pytest.mark.skipif(
    shutil.which("msgfmt") is None or shutil.which("xgettext") is None,
    reason="GNU gettext is not installed (make test installs it)",
)


def _locale_dirs(root: Path) -> list[Path]:
    return [root / "locale", *sorted((root / "apps").glob("*/locale"))]


def _catalogues(root: Path) -> list[Path]:
    return [po for d in _locale_dirs(root) if d.is_dir() for po in sorted(d.glob("*/*/*.po"))]


def _entries(po: Path) -> dict[tuple[str, str], tuple[bool, bool]]:
    """Each live entry of a .po file: (msgctxt, msgid) → (translated, fuzzy). The header and
    the obsolete entries (#~) are left out."""
    found: dict[tuple[str, str], tuple[bool, bool]] = {}
    entry: dict = {}
    field = None

    def close():
        if entry.get("msgid") and not entry.get("obsolete"):
            translated = all(entry.get(k) for k in entry if k.startswith("msgstr"))
            key = (entry.get("msgctxt", ""), entry["msgid"])
            found[key] = (translated, "fuzzy" in entry.get("flags", ()))
        entry.clear()

    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            close()
            field = None
        elif line.startswith("#~"):
            entry["obsolete"] = True
        elif line.startswith("#,"):
            entry["flags"] = {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field] += ast.literal_eval(line)
        else:
            field, _, text = line.partition(" ")
            entry[field] = ast.literal_eval(text)
    return found


def _messages(mo: Path) -> dict:
    with mo.open("rb") as f:
        return gettext.GNUTranslations(f)._catalog


def _python() -> list[str]:
    return [sys.executable, "manage.py"]


def test_every_sentence_is_in_every_catalogue_and_translated(tmp_path):
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    domains = ["django"]
    if any("gettext(" in js.read_text() for js in (ROOT / "apps").glob("*/static/**/*.js")):
        domains.append("djangojs")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    for domain in domains:
        subprocess.run(
            [*_python(), "makemessages", "-d", domain, *(f"-l{lang}" for lang in LANGUAGES)],
            cwd=tmp_path,
            env=env,
            check=True,
            capture_output=True,
        )

    problems = []
    for fresh in _catalogues(tmp_path):
        relative = fresh.relative_to(tmp_path)
        committed = ROOT / relative
        known = _entries(committed) if committed.exists() else {}
        for (context, msgid), (translated, fuzzy) in _entries(fresh).items():
            if (context, msgid) not in known:
                problems.append(f"{relative}: missing {msgid!r}")
            elif fuzzy:
                problems.append(f"{relative}: fuzzy {msgid!r}")
            elif not translated:
                problems.append(f"{relative}: untranslated {msgid!r}")
    assert not problems, "\n".join(problems)


def test_every_compiled_catalogue_says_what_its_po_file_says(tmp_path):
    catalogues = _catalogues(ROOT)
    assert {po.parts[-3] for po in catalogues} >= set(LANGUAGES)
    problems = []
    for po in catalogues:
        relative = po.relative_to(ROOT)
        mo = po.with_suffix(".mo")
        fresh = tmp_path / str(relative).replace(os.sep, "_")
        checked = subprocess.run(
            ["msgfmt", "--check", "-o", str(fresh.with_suffix(".mo")), str(po)],
            capture_output=True,
            text=True,
        )
        if checked.returncode:
            problems.append(f"{relative}: {checked.stderr.strip()}")
        elif not mo.exists():
            problems.append(f"{relative}: no compiled {mo.name} beside it")
        elif _messages(mo) != _messages(fresh.with_suffix(".mo")):
            problems.append(f"{relative}: {mo.name} is not compiled from it")
    assert not problems, "\n".join(problems)
