"""Request middleware of the product's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
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


class StyledMethodNotAllowedMiddleware:
    """A form's address opened by itself (GET on a POST-only view) answers 405 with an empty
    body: show a page in the visitor's language with a way on instead. htmx and other
    scripted requests keep the bare answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and not response.content
            and request.method in ("GET", "HEAD")
            and not request.headers.get("HX-Request")
        ):
            styled = render(request, "405.html", status=405)
            styled["Allow"] = response.get("Allow", "")
            return styled
        return response
