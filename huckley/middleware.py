"""Turns a user-fixable error that escaped a view into a 400/409 page, never a 500; puts
the time zone back after a club's page used its own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from common.errors import UserError


class UserErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, UserError):
            return render(request, "error.html", {"error": exception}, status=exception.status)
        return None


class TimeZoneResetMiddleware:
    """A club's pages activate the club's time zone for their request
    (`web.views.common.use_time_zone`); the activation is per thread, so it is
    undone here before the thread serves anyone else."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
