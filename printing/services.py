"""The printing's one write: the paper a club prints on unless a director picks another
(docs/tournament.md, Printing)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from common.errors import UserError
from tournaments import audit
from tournaments.models import Club
from tournaments.permissions import Caller, require_director

PAPERS = {"a4": "A4", "letter": "Letter"}


def paper_refusal() -> UserError:
    """The one refusal of a paper that is neither, for the API and the page alike."""
    return UserError(
        "paper_unknown",
        gettext("Choose the paper: a4 or letter (for example ?paper=letter)."),
        field="paper",
    )


@transaction.atomic
def club_paper_set(*, club_id: int, paper: str, user: Caller) -> Club:
    """Make `paper` (`a4` or `letter`, any case) the club's default for printed sheets."""
    require_director(user, club_id, to=gettext_noop("choose its paper"))
    paper = paper.strip().lower()
    if paper not in PAPERS:
        raise paper_refusal()
    club = Club.objects.select_for_update().get(pk=club_id)
    before = club.paper
    club.paper = paper
    club.save(update_fields=["paper"])
    audit.settings_changed(user, club, {"paper": before}, {"paper": paper}, {})
    return club
