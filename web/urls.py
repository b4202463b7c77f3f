"""Every page's URL, included once by huckley/urls.py.

Each audience has its URLs in a module of its own: `urls_public` (no account),
`urls_director`, `urls_scorer` and `urls_player`, as its views are in modules of their
own under `web/views/`. Here they are grouped under the URL namespaces that templates,
redirects and printed links name (`tournaments:`, `scoring:`, `ratings:`, `exchange:`,
`printing:`): every URL keeps its path and its name.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from web import urls_director, urls_player, urls_public, urls_scorer

AUDIENCES = (urls_public, urls_scorer, urls_player, urls_director)

# The order in which the namespaces are tried; no two of their paths overlap.
NAMESPACES = ("exchange", "printing", "scoring", "tournaments", "ratings")


def _routes(namespace: str) -> list[URLPattern]:
    return [route for audience in AUDIENCES for route in audience.ROUTES.get(namespace, [])]


urlpatterns: list[URLResolver] = [
    path("", include((_routes(namespace), namespace))) for namespace in NAMESPACES
]
