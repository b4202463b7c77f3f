"""Calling the director from a seat link (docs/tournament.md, "Calling the director"): a
player at an online table has no scorer link and no table card in hand, only the seat
link on their phone. The token says who the player is and so which table they sit at now;
the call itself is `workflow.front.calls.director_call_make`, with its rules (one open
call per table, none once the sitting has moved on or the session is over), made as the
player seated there (`tournaments.permissions.can_call_director`)."""

from __future__ import annotations

from django.utils.translation import gettext

from common.errors import ConflictError
from play import selectors
from tournaments.models import DirectorCall
from tournaments.permissions import Actor
from workflow.front import calls


def seat_call_make(*, token: str, reason: str, text: str) -> DirectorCall:
    """Call the director to the table the seat link's player sits at now; `no_such_seat`
    (404) for a token that is none, `not_seated` when the player has no table now. The
    token is the credential, as for a move: no account or cookie of the request counts."""
    place = selectors.place_of(token)
    if place.table_id is None:
        raise ConflictError(
            "not_seated",
            gettext(
                "You have no table in this sitting, so there is no table to call the "
                "director to: ask the director in person."
            ),
        )
    actor = Actor(device="seat", seat_player_id=place.player_id)
    return calls.director_call_make(table_id=place.table_id, reason=reason, text=text, user=actor)
