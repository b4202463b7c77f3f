"""The language a request is served in, among the shipped ones (`settings.LANGUAGES`):

1. a person's own choice (the picker at the foot of each page posts to Django's
   `set_language`, which keeps it in the language cookie) wins;
2. else, on a club's pages and on those of its sessions, tables, players and seasons,
   the club's language (`Club.language`, set by its directors);
3. else the browser's Accept-Language, else `settings.LANGUAGE_CODE` (en-us).

The API skips step 2: its messages follow the caller's own choice or Accept-Language,
and its codes are English whatever the language.

`huckley.languages.LanguageMiddleware` takes steps 1 and 3 for every request (`begin`);
step 2 is taken by the page once it has read its club, where it reads it anyway
(`use_club_language`, called beside the club's time zone in `web.views.common`), so
that knowing the club costs no query of its own. `serving.pages` keys the public's
stored pages by what the request asks for (`asked`) and by the session's generation,
which moves when the club's language changes: nobody is sent a page built in someone
else's language. Only the shipped codes come out of here: a stored page has as many
copies as there are languages, never one per header a browser sends.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.formats import get_format
from django.utils.translation.trans_real import parse_accept_lang_header

#: Whether the request being served takes its club's language (step 2): not when the
#: person chose their own, nor on the API, nor outside a request.
_CLUB_DECIDES: ContextVar[bool] = ContextVar("huckley_club_decides", default=False)


def shipped() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def supported(code: str) -> str | None:
    """The shipped language for `code`: itself, else the first shipped variant of its
    language ("en" and "en-au" are "en-us", "es-mx" is "es"); None when none is shipped."""
    code = code.strip().lower().replace("_", "-")
    codes = shipped()
    if code in codes:
        return code
    generic = code.split("-")[0]
    if generic in codes:
        return generic
    return next((c for c in codes if c.startswith(f"{generic}-")), None)


def chosen(request: HttpRequest) -> str | None:
    """The language the person chose for themselves (the picker), if it is shipped."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return cookie.lower() if cookie.lower() in shipped() else None


def accepted(request: HttpRequest) -> str | None:
    """The first shipped language of the browser's Accept-Language, if any."""
    return _accepted(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))


def of_socket(scope: dict[str, Any], club: str) -> str:
    """The language of a WebSocket's words (its refusals), by the rule above: the
    person's own choice (the language cookie its page sent), else the club's, else the
    browser's Accept-Language, else the default."""
    headers = {name.lower(): value for name, value in scope.get("headers") or []}
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    own = cookies.get(settings.LANGUAGE_COOKIE_NAME, "").lower()
    if own in shipped():
        return own
    if club in shipped():
        return club
    browser = _accepted(headers.get(b"accept-language", b"").decode("latin-1"))
    return browser or settings.LANGUAGE_CODE


def _accepted(header: str) -> str | None:
    for code, _quality in parse_accept_lang_header(header[:255]):
        if code == "*":
            break
        found = supported(code)
        if found is not None:
            return found
    return None


def asked(request: HttpRequest) -> str:
    """Everything of the request that its language depends on, besides the club's: the
    person's choice, which wins, else the browser's. The same key for two requests means
    the same language on the same page; "" when the request asks for nothing (then the
    club's language, or the default)."""
    own = chosen(request)
    if own:
        return f"chosen:{own}"
    browser = accepted(request)
    return f"accepted:{browser}" if browser else ""


def begin(request: HttpRequest) -> tuple[str, Token[bool]]:
    """The request's language before its club is known (steps 1 and 3), and the token
    that `end` takes back once the response is made."""
    own = chosen(request)
    api = request.path_info.startswith("/api/")
    token = _CLUB_DECIDES.set(own is None and not api)
    return own or accepted(request) or settings.LANGUAGE_CODE, token


def end(token: Token[bool]) -> None:
    _CLUB_DECIDES.reset(token)


def use_club_language(code: str) -> None:
    """A page of a club: its words, dates and numbers in the club's language from now on,
    unless the person chose their own (or this is the API, or no request)."""
    if _CLUB_DECIDES.get() and code in shipped():
        translation.activate(code)


def use_document_language(request: HttpRequest, club: str) -> None:
    """A document printed for a club's room (a PDF, under /api/ too): the person's own
    choice, else the club's language, whatever the browser's."""
    code = chosen(request) or (club if club in shipped() else None)
    if code is not None:
        translation.activate(code)


def money_marks() -> dict[str, str]:
    """The active language's decimal and thousands marks, for
    `tournaments.format.format_money` (pure: it takes them as arguments)."""
    return {
        "decimal": str(get_format("DECIMAL_SEPARATOR")),
        "thousands": str(get_format("THOUSAND_SEPARATOR")),
    }
