"""Words in the viewer's language for the pure modules (the games' rules, the settlement),
which may not import Django: the same catalogues as Django's (locale/<lang>/LC_MESSAGES/
django.mo, then each app's own apps/<app>/locale/; GNU gettext files) read with the standard
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

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
APPS_DIR = Path(__file__).resolve().parents[1]  # each app's own locale/, as Django reads them
LANGUAGES = ("en", "nl", "de")
DEFAULT = "en"

_language: ContextVar[str] = ContextVar("bunko_language", default=DEFAULT)


@cache
def _catalogue(language: str) -> stdlib_gettext.NullTranslations:
    """The project's catalogue, then every app's own (makemessages files an app's sentences
    in the app's locale/ when it has one), as Django merges them."""
    catalogue = stdlib_gettext.translation(
        "django", localedir=str(LOCALE_DIR), languages=[language], fallback=True
    )
    for folder in sorted(APPS_DIR.glob("*/locale")):
        catalogue.add_fallback(
            stdlib_gettext.translation(
                "django", localedir=str(folder), languages=[language], fallback=True
            )
        )
    return catalogue


def current() -> str:
    return _language.get()


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
