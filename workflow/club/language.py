"""The club's language: the one write that chooses it, for the API and the club's page
alike (docs/tournament.md, "Languages"). The language a request is served in is decided
by `huckley.languages`."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from common import languages
from common.errors import UserError
from tournaments import audit
from tournaments.models import Club
from tournaments.permissions import Caller, require_director


@transaction.atomic
def club_language_set(*, club_id: int, language: str, user: Caller) -> Club:
    """Serve the club's pages in `language`, one of the shipped codes (settings.LANGUAGES),
    with its dates and numbers. Moves the generation of the club's sessions (the club's
    save does), so no page stored in the old language is served again."""
    club = Club.objects.select_for_update().get(pk=club_id)
    require_director(user, club, to="choose its language")
    code = language.strip().lower()
    shipped = languages.shipped()
    if code not in shipped:
        raise UserError(
            "language_unknown",
            gettext("“%(language)s” is not a language Huckley ships; choose one of %(codes)s.")
            % {"language": language, "codes": ", ".join(shipped)},
            field="language",
        )
    before = club.language
    club.language = code
    club.save(update_fields=["language"])
    audit.settings_changed(
        user, club, {"language": before}, {"language": code}, {"language": "language"}
    )
    return club
