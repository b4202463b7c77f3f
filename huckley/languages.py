"""The request's language, activated for the view and its templates by the rule of
`common.languages` (a person's own choice, then the club's on its pages, then
Accept-Language); and the JavaScript catalogue of each shipped language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.i18n import JavaScriptCatalog

from common import languages


class LanguageMiddleware:
    """Activates the request's own language (or the browser's) for everything after it;
    a club's page switches to the club's when it reads its club
    (`common.languages.use_club_language`). Deactivated after the response, so that it
    never leaks into the next request of the thread."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        language, token = languages.begin(request)
        translation.activate(language)
        try:
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            languages.end(token)
            translation.deactivate()


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
