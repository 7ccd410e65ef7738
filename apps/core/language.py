"""Each viewer's language: a phone's own choice (the language cookie, else what the browser
asks for), the night's big screen the host's. Pages get it from Django's LocaleMiddleware;
sockets from ``language_of_scope`` and ``speak``, which also sets it for the pure modules
(apps.core.i18n)."""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from apps.core import i18n


def supported(code: str | None) -> str | None:
    """``code`` as one of the product's languages ("de-AT" is "de"), or None."""
    if not code:
        return None
    base = code.strip().lower().replace("_", "-").split("-")[0]
    return base if base in i18n.LANGUAGES else None


def browser_language(accept: str | None) -> str | None:
    """The product's language a browser's Accept-Language asks for most, as Django's
    LocaleMiddleware picks it; None when it asks for none of them."""
    for code, _quality in parse_accept_lang_header(accept or ""):
        if code == "*":
            break
        if language := supported(code):
            return language
    return None


def language_of_scope(scope: dict) -> str:
    """A socket's viewer's language: the cookie the language picker set, else the browser's
    Accept-Language read as a page's is (``browser_language``, weights and all), else
    English."""
    chosen = supported(scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME))
    if chosen:
        return chosen
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin1")
    return browser_language(accept) or i18n.DEFAULT


def speak_from_now_on(language: str) -> None:
    """``speak`` for the rest of the calling task: a socket's own task, which handles every
    message of that socket and nothing else. Setting the language once, instead of around
    each message, spares a thousand phones' news two context switches each (at 250
    tables, a twentieth of the servers' work)."""
    language = supported(language) or i18n.DEFAULT
    translation.activate(language)
    i18n.use(language)


@contextmanager
def speak(language: str):
    """Django's translations and the pure modules' in ``language`` inside the block."""
    language = supported(language) or i18n.DEFAULT
    with translation.override(language), i18n.speaking(language):
        yield
