"""Writes for a club's directors: making an account a director, found by username or
email or created on the spot with a one-time link to choose its password
(`director_invite`), and removing one (`director_remove`, never the club's last).

Like the club's other writes (`workflow.club.services`), each service is keyword-only and
atomic, locks the club's row, and refuses anyone who does not direct the club
(`tournaments.permissions.require_director`) before writing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from tournaments import audit
from tournaments.models import Club
from tournaments.permissions import Caller, require_director


@dataclass(frozen=True)
class Invited:
    """The account made a director. When it was created just now, `uid` and `token` make
    the one-time link (`password_reset_confirm`) for its owner to choose a password: the
    token stops working once a password is set."""

    user: Any
    created: bool
    uid: str = ""
    token: str = ""


def _account(login: str) -> Any:
    accounts = get_user_model()._default_manager
    login = login.strip()
    if not login:
        raise UserError(
            "login_required", gettext("Give a username or an email address."), field="login"
        )
    found = list(accounts.filter(models.Q(username__iexact=login) | models.Q(email__iexact=login)))
    if len(found) > 1:
        raise UserError(
            "login_ambiguous",
            gettext("Several accounts match “%(login)s”; give the username instead.")
            % {"login": login},
            field="login",
        )
    return found[0] if found else None


@transaction.atomic
def director_invite(*, club_id: int, login: str, create: bool = False, user: Caller) -> Invited:
    """Make an account a director of the club, found by username or email. With
    `create`, an unknown username becomes a new account without a password, and the
    inviter gets a one-time link for its owner to set one."""
    club = Club.objects.select_for_update().get(pk=club_id)
    require_director(user, club, to=gettext_noop("invite its directors"))
    account = _account(login)
    created = False
    if account is None:
        if not create:
            raise UserError(
                "unknown_account",
                gettext(
                    "No account is called “%(strip)s”. Tick “create the account” to make "
                    "one, or check the spelling."
                )
                % {"strip": login.strip()},
                field="login",
            )
        account = _create_account(login.strip())
        created = True
    elif club.directors.filter(pk=account.pk).exists():
        raise ConflictError(
            "already_director",
            gettext("%(get_username)s already directs %(club)s.")
            % {"get_username": account.get_username(), "club": club.name},
        )
    club.directors.add(account)
    audit.record(
        user,
        club=club,
        action="director.invite",
        summary=f"Made {account.get_username()} a director"
        + (" (a new account)" if created else ""),
        details={
            "account": {"id": account.pk, "username": account.get_username()},
            "created": created,
        },
    )
    if not created:
        return Invited(user=account, created=False)
    return Invited(
        user=account,
        created=True,
        uid=urlsafe_base64_encode(force_bytes(account.pk)),
        token=default_token_generator.make_token(account),
    )


def _create_account(login: str) -> Any:
    model = get_user_model()
    email = login if "@" in login else ""
    username = login.split("@")[0] if email else login
    account = model(username=username, email=email)
    try:
        account.full_clean(exclude=["password"])
    except ValidationError as e:
        message = " ".join(" ".join(v) for v in e.message_dict.values())
        raise UserError("bad_username", message, field="login") from None
    account.set_unusable_password()
    account.save()
    return account


@transaction.atomic
def director_remove(*, club_id: int, user_id: int, user: Caller) -> None:
    club = Club.objects.select_for_update().get(pk=club_id)
    require_director(user, club, to=gettext_noop("remove its directors"))
    directors = list(club.directors.order_by("pk"))
    account = next((d for d in directors if d.pk == user_id), None)
    if account is None:
        raise UserError("not_a_director", gettext("That account does not direct this club."))
    if len(directors) == 1:
        raise ConflictError(
            "last_director",
            gettext(
                "%(get_username)s is the club's only director: invite another director "
                "first, so that someone can still run the club."
            )
            % {"get_username": account.get_username()},
        )
    club.directors.remove(account)
    audit.record(
        user,
        club=club,
        action="director.remove",
        summary=f"Removed {account.get_username()} from the directors",
        details={"account": {"id": account.pk, "username": account.get_username()}},
    )
