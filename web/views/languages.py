"""The club's language, chosen on the club's own page (the API's `PATCH
/api/clubs/{slug}/` calls the same service). A visitor's own choice is Django's
`set_language` (huckley/urls.py); which one a page is served in: `huckley.languages`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation
from django.utils.translation import gettext

from common import languages
from common.errors import UserError
from web.views.common import directed_club
from workflow.club.language import club_language_set


@login_required
def club_language(request: HttpRequest, slug: str) -> HttpResponse:
    """POST: set the club's language; back to the club's page either way."""
    if request.method != "POST":
        return redirect("tournaments:club_home", slug=slug)
    club = directed_club(request, slug)
    try:
        club = club_language_set(
            club_id=club.pk, language=request.POST.get("language", ""), user=request.user
        )
    except UserError as e:
        messages.error(request, e.message)
    else:
        # In the language the club's page comes back in: the new one, unless the director
        # chose their own.
        with translation.override(languages.chosen(request) or club.language):
            messages.success(request, gettext("The club's pages are now in the language chosen."))
    return redirect("tournaments:club_home", slug=club.slug)
