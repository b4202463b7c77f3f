"""Who may do what: the one place pages (and later the API) ask.

Directors of a club run its sessions; superusers can do everything. Until scorer access
per table exists, any signed-in user may enter results.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Club, Table

User = AbstractBaseUser | AnonymousUser | None


def can_direct(user: User, club: Club | int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    club_id = club if isinstance(club, int) else club.pk
    return bool(user.directed_clubs.filter(pk=club_id).exists())  # type: ignore[union-attr]


def can_score(user: User, table: Table) -> bool:
    return user is not None and bool(user.is_authenticated)
