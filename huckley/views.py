"""The error page of last resort: JSON under /api/, the usual page elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's handler500. An API client reads JSON even from a bug (`docs/api.md`: every
    answer is JSON with a code), so it gets the API's error shape; pages keep the page."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "code": "server_error",
                "message": gettext(
                    "Something went wrong on the server; it has been logged. Try again in a moment."
                ),
            },
            status=500,
        )
    return defaults.server_error(request)
