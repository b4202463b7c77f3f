"""What a request asks for by itself among the shipped languages (`settings.LANGUAGES`):
a person's own choice (the language cookie that Django's `set_language` view sets) and
the browser's Accept-Language.

The language a request is served in is decided in one place, `huckley.languages`, which
adds the club's language between the two; `serving.pages` keys the public's stored pages
by what is read here (`asked`), so that nobody is sent a page built in someone else's
language. Only the shipped codes come out of here: a stored page has as many copies as
there are languages, never one per header a browser sends.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation.trans_real import parse_accept_lang_header


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
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
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
    the same language on the same page."""
    own = chosen(request)
    return f"chosen:{own}" if own else f"accepted:{accepted(request) or ''}"
