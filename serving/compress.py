"""Gzip for the pages rendered per request (a signed-in director's 100+ KiB pages, the
API's lists), by the same reading of Accept-Encoding as the public's stored pages, which
arrive here already compressed (`tournaments.pagecache`).

Django's GZipMiddleware compresses when "gzip" appears anywhere in the header, so
"gzip;q=0" (gzip refused) would still get gzip; this one honours the refusal. Django's
own mitigation of BREACH (random bytes in the gzip header) is kept.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware

#: Bytes below which a page goes uncompressed (the stored pages use the same bound, so a
#: page has the same encoding whichever way it is answered).
GZIP_FROM = 1024


def accepts_gzip(request: HttpRequest) -> bool:
    """Whether the client takes gzip: listed, and not with a quality of 0."""
    accepted = request.META.get("HTTP_ACCEPT_ENCODING", "")
    return any(
        part.split(";")[0].strip() == "gzip" and "q=0" not in part.replace(" ", "").split(";")[1:]
        for part in accepted.split(",")
    )


class GZipMiddleware(DjangoGZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        small = not response.streaming and len(getattr(response, "content", b"")) <= GZIP_FROM
        if small or not accepts_gzip(request):
            return response
        return super().process_response(request, response)
