"""The bench's URLs: the product's, plus the bare view that sets the floor.

The bare view answers "ok" through the same middleware as every page, so a page's
requests/s divided by the bare view's, measured in the same run, says how close to the
floor the page is, whatever else the machine is doing. It exists only here, never in the
product's URLs.
"""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def ok(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/ok/", ok),
    path("", include("huckley.urls")),
]
