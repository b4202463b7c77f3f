"""The language a request is served in, decided here and nowhere else.

1. A person's own choice (the picker in the footer posts to Django's `set_language`,
   which keeps it in the language cookie) wins.
2. Else, on a club's pages, and on the pages of its sessions, tables, players and
   seasons, the club's language (`Club.language`, set by its directors).
3. Else the browser's Accept-Language, else `settings.LANGUAGE_CODE` (en-us).

The API skips step 2: its messages follow the caller's own choice or Accept-Language, and
its codes are English whatever the language. The public's stored pages
(`serving.pages`) are answered before this middleware runs, so they are keyed by what
the request asks for (`common.languages.asked`) and by the session's generation, which
moves when the club's language changes: each language has its own copy.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.urls import ResolverMatch
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.i18n import JavaScriptCatalog

from common import languages
from tournaments.models import Club

#: The first part of a page's path (after "director/") -> how the club it belongs to is
#: found (a lookup on Club) from which of the URL's arguments. Pages reached by a token (a
#: seat, a sign-up) follow the browser.
_CLUB_OF: dict[str, tuple[str, tuple[str, ...]]] = {
    "clubs": ("slug", ("slug",)),
    "sessions": ("sessions__pk", ("pk", "session_id")),
    "tables": ("sessions__sittings__tables__pk", ("pk", "table_id")),
    "players": ("players__pk", ("pk",)),
    "seasons": ("seasons__pk", ("season_pk",)),
}


def club_language(match: ResolverMatch | None) -> str | None:
    """The language of the club the page belongs to; None for a page of no club."""
    if match is None or not match.route:
        return None
    head = match.route.removeprefix("director/").split("/", 1)[0]
    lookup, names = _CLUB_OF.get(head, ("", ()))
    value = next((match.kwargs[name] for name in names if name in match.kwargs), None)
    if value is None:
        return None
    code = Club.objects.filter(**{lookup: value}).values_list("language", flat=True).first()
    return languages.supported(code) if code else None


def _use(request: HttpRequest, language: str) -> None:
    translation.activate(language)
    # Where Django's own LocaleMiddleware leaves it, for whatever reads it there.
    setattr(request, "LANGUAGE_CODE", translation.get_language())  # noqa: B010


class LanguageMiddleware:
    """Activates the request's language (the rule above) for the view and its templates;
    the club's is known only once the URL is resolved (`process_view`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        own = languages.chosen(request) or languages.accepted(request)
        _use(request, own or settings.LANGUAGE_CODE)
        try:
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            translation.deactivate()

    def process_view(
        self, request: HttpRequest, view: Callable[..., object], args: object, kwargs: object
    ) -> None:
        if languages.chosen(request) or request.path_info.startswith("/api/"):
            return
        club = club_language(request.resolver_match)
        if club is not None:
            _use(request, club)


_CATALOGUE = JavaScriptCatalog.as_view()


def javascript_catalogue(request: HttpRequest, language: str) -> HttpResponseBase:
    """The JavaScript catalogue (`gettext()` in static/*.js) of one shipped language: in
    its URL, so that it is the page's own language (the club's, say) and can be cached
    by the browser like any other file. templates/base.html loads it before the page's
    scripts."""
    if language not in languages.shipped():
        raise Http404("No such language.")
    with translation.override(language):
        response = _CATALOGUE(request)
    patch_cache_control(response, public=True, max_age=3600)
    return response
