"""A JSON 404 for any path under /api/ that names no endpoint (a plain Django view, so
it is not part of the schema)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {"code": "not_found", "message": gettext("No such API endpoint.")}, status=404
    )
