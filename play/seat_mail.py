"""The email of a player's seat link (`play.director.seat_links_email`): run by the Celery
task `play.tasks.seat_link_email` after the director's request committed. Each sending
claims its (request, player) pair in the cache first, so a task run twice sends once."""

from __future__ import annotations

from django.core.cache import cache
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext

from play.models import SeatLink
from workflow.session.mail import night

#: How long a sending's claim is kept: far longer than Celery retries a task.
CLAIM_SECONDS = 7 * 24 * 3600


def seat_path(token: str) -> str:
    """A seat link's path: `/play/<seat_token>/`, the address the issue fixes (the
    phone's page, `web.views.play`, sits above this layer)."""
    return f"/play/{token}/"


def seat_url(site: str, token: str) -> str:
    return site.rstrip("/") + seat_path(token)


def seat_link_emails(session_id: int, player_ids: list[int], site: str, nonce: str) -> int:
    """Email each of `player_ids` their seat link of the session (those with an address
    and a link); returns how many were sent by this run."""
    links = SeatLink.objects.filter(session_id=session_id, player_id__in=player_ids).select_related(
        "player", "session__club"
    )
    sent = 0
    for link in links:
        email = link.player.email
        if not email or not cache.add(f"seat-mail:{nonce}:{link.player_id}", 1, CLAIM_SECONDS):
            continue
        session = link.session
        # In the club's language once clubs have one (issue 32); English until then.
        with translation.override(getattr(session.club, "language", None) or None):
            send_mail(
                gettext("Your seat online: %(session)s") % {"session": session.name},
                gettext(
                    "%(player)s, %(night)s is played online.\n\n"
                    "Your personal seat link, for your phone or computer: %(url)s\n\n"
                    "It takes you to your table after every movement. Keep it to yourself: "
                    "it is your seat.\n"
                )
                % {
                    "player": link.player.name,
                    "night": night(session),
                    "url": seat_url(site, link.token),
                },
                None,
                [email],
            )
        sent += 1
    return sent
