"""Words in the viewer's language for the pure modules (the games' rules, the settlement),
which may not import Django: the same catalogues as Django's (locale/<lang>/LC_MESSAGES/
django.mo, then each app's own apps/*/locale, GNU gettext files) read with the standard
library, and the language of the moment in a context variable that apps.core.language sets
beside Django's own.

Mark a sentence with ``_("…")`` (``ngettext`` for counts) and format it after translating:
``_("Only {names} roll for {category}.").format(...)``. ``N_`` marks a sentence kept as data
and translated where it is shown."""

from __future__ import annotations

import gettext as stdlib_gettext
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = ROOT / "locale"
LANGUAGES = ("en", "nl", "de")
DEFAULT = "en"

_language: ContextVar[str] = ContextVar("bunko_language", default=DEFAULT)


def locale_dirs() -> list[Path]:
    """The project's catalogue first, then the apps' (as Django ranks LOCALE_PATHS before the
    apps), so a game's rules find their sentences in the game's own catalogue."""
    return [LOCALE_DIR, *sorted(ROOT.glob("apps/*/locale")), *sorted(ROOT.glob("apps/*/*/locale"))]


@cache
def _catalogue(language: str) -> stdlib_gettext.NullTranslations:
    chain = stdlib_gettext.NullTranslations()
    for directory in reversed(locale_dirs()):
        found = stdlib_gettext.translation(
            "django", localedir=str(directory), languages=[language], fallback=True
        )
        # Each catalogue falls back on the next one; the last on the English message.
        if type(found) is not stdlib_gettext.NullTranslations:
            found.add_fallback(chain)
            chain = found
    return chain


def current() -> str:
    return _language.get()


def use(language: str) -> None:
    """Sentences made from now on in the calling task (or thread) are in ``language``."""
    _language.set(language if language in LANGUAGES else DEFAULT)


@contextmanager
def speaking(language: str):
    """Sentences made inside are in ``language`` (one of LANGUAGES; else English)."""
    token = _language.set(language if language in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _language.reset(token)


def _(message: str) -> str:
    language = _language.get()
    return message if language == DEFAULT else _catalogue(language).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    language = _language.get()
    if language == DEFAULT:
        return singular if count == 1 else plural
    return _catalogue(language).ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 (the usual name of gettext_noop)
    return message
