"""What lets the table's pages work without a network (docs/tournament.md, "Scoring
without a network"): the service worker, served from the site root so that its scope is
the whole site, and the web app manifest that makes the site installable on a phone's
home screen. Both are public and the same for everyone."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.http import require_safe

#: The colour of the site's header, for the phone's status bar and splash screen.
THEME_COLOUR = "#1d5e3a"
BACKGROUND_COLOUR = "#fbfaf7"


def _static_text(name: str) -> str:
    found = finders.find(name)
    if isinstance(found, str):
        return Path(found).read_text(encoding="utf-8")
    with staticfiles_storage.open(name) as stored:  # collected, outside the source tree
        text: bytes = stored.read()
    return text.decode("utf-8")


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/sw.js at /sw.js. Asked again on every visit (no-cache), so a new version
    reaches the phones at once; `Service-Worker-Allowed` says the root is its scope."""
    response = HttpResponse(_static_text("sw.js"), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the name, the icons, where the app opens, standalone."""
    icons = [
        {"src": static(f"icons/huckley-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    icons.append({"src": static("icons/huckley.svg"), "sizes": "any", "type": "image/svg+xml"})
    response = JsonResponse(
        {
            "name": "Huckley",
            "short_name": "Huckley",
            "description": "Tournaments of Huckley Buck and its family of card games.",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "icons": icons,
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "max-age=3600"
    return response
