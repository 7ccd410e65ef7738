"""Request middleware of the product's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from apps.core import i18n


class SpeakingMiddleware:
    """After Django's LocaleMiddleware: the pure modules (the rules' sentences) speak the
    request's language too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with i18n.speaking(translation.get_language() or i18n.DEFAULT):
            return self.get_response(request)
