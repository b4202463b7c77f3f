"""Writes for starting a club without the admin: a new account, its first club, a
player claiming their player record through a director's invitation, and a director
undoing a wrong claim (docs/tournament.md,
"Starting a club" and "Accounts and passwords").

Like the other service modules, each write is keyword-only and atomic, asks
`tournaments.permissions` who is acting before it changes anything, and refuses with a
`UserError` (a stable code, plain words).

An invitation to claim a player is a signed token (Django's `signing`, salted for it,
valid for `CLAIM_MAX_AGE`), not a row: it names the player and the club, and it is good
for one claim because a claimed player refuses every later one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as Account
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, UserError
from common.text import refuse_hidden_characters
from tournaments import audit
from tournaments.models import Club, Player, Season, validate_time_zone
from tournaments.permissions import Caller, User, account, require_director

CLUB_NAME_MAX = 120
SLUG_MAX = 60
CLAIM_SALT = "workflow.player-claim"
CLAIM_MAX_AGE = timedelta(days=7)


def _signed_in(user: User, doing: str) -> Account:
    signed_in = account(user)
    if signed_in is None:
        raise UserError(
            "sign_in_required", gettext("Sign in to %(doing)s.") % {"doing": gettext(doing)}
        )
    return signed_in


# Accounts


@transaction.atomic
def account_create(*, username: str, email: str, password: str) -> Account:
    """A new account, open to anyone (the sign-up page limits how often, by address).
    The password was checked by Django's validators in the form; a username or email
    another account has (in any case) is refused."""
    username = username.strip()
    email = email.strip()
    if not username:
        raise UserError("username_required", gettext("Choose a username."), field="username")
    if not email:
        raise UserError("email_required", gettext("Give an email address."), field="email")
    accounts = get_user_model()._default_manager
    if accounts.filter(username__iexact=username).exists():
        raise ConflictError(
            "username_taken",
            gettext("The username “%(username)s” is taken; choose another.")
            % {"username": username},
            field="username",
        )
    if accounts.filter(email__iexact=email).exists():
        raise ConflictError(
            "email_taken",
            gettext("An account uses this email already: sign in, or reset its password."),
            field="email",
        )
    created = Account.objects.create_user(username=username, email=email, password=password)
    return created


# Clubs


def _club_name(raw: str) -> str:
    refuse_hidden_characters(raw, what=gettext_noop("Club names"), field="name")
    name = " ".join(raw.split())
    if not name:
        raise UserError("club_name_required", gettext("Give the club a name."), field="name")
    if len(name) > CLUB_NAME_MAX:
        raise UserError(
            "club_name_too_long",
            gettext("A club's name has at most %(CLUB_NAME_MAX)s characters.")
            % {"CLUB_NAME_MAX": CLUB_NAME_MAX},
            field="name",
        )
    return name


def club_slug(*, name: str, slug: str) -> str:
    """The club's part of its web address: the one typed, or one made from the name."""
    typed = slug.strip()
    if not typed:
        made = slugify(name)[:SLUG_MAX].strip("-")
        if not made:
            raise UserError(
                "club_slug_required",
                gettext(
                    "Choose the club's web address: letters, digits and hyphens, such as "
                    "tuesday-club."
                ),
                field="slug",
            )
        return made
    if typed != slugify(typed) or len(typed) > SLUG_MAX:
        raise UserError(
            "club_slug_invalid",
            gettext(
                "The web address has lower-case letters, digits and hyphens only, at "
                "most %(SLUG_MAX)s, such as tuesday-club."
            )
            % {"SLUG_MAX": SLUG_MAX},
            field="slug",
        )
    return typed


def _first_season(club: Club) -> Season:
    """A season for the current year, so that the new club can create a session at once."""
    year = timezone.localdate(timezone=club.zone()).year
    return Season.objects.create(
        club=club, name=str(year), starts_on=Date(year, 1, 1), ends_on=Date(year, 12, 31)
    )


@transaction.atomic
def club_create(*, name: str, slug: str, time_zone: str, user: User) -> Club:
    """A new club with its first season; the signed-in user who creates it is its first
    director."""
    founder = _signed_in(user, gettext_noop("create a club"))
    name = _club_name(name)
    slug = club_slug(name=name, slug=slug)
    time_zone = time_zone.strip()
    try:
        validate_time_zone(time_zone)
    except ValidationError as e:
        raise UserError("time_zone_unknown", e.messages[0], field="time_zone") from None
    taken = ConflictError(
        "club_slug_taken",
        gettext("Another club has the address /clubs/%(slug)s/; choose another.") % {"slug": slug},
        field="slug",
    )
    if Club.objects.filter(slug=slug).exists():
        raise taken
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, time_zone=time_zone)
    except IntegrityError:
        # Another club took the slug between the check and the insert.
        raise taken from None
    club.directors.add(founder)
    _first_season(club)
    audit.record(
        founder,
        club=club,
        action="club.create",
        summary=f"Opened the club {club.name}",
        details={"name": club.name, "slug": club.slug, "time_zone": time_zone},
    )
    return club


# Claiming a player


@dataclass(frozen=True)
class Invitation:
    """What an invitation link says: which player of which club it claims."""

    player: Player
    token: str


def player_invitation(*, player_id: int, user: Caller) -> Invitation:
    """A one-time link for the person behind a player record to link it to their account.
    Only a director of the player's club may make one; it writes nothing."""
    player = Player.objects.select_related("club").get(pk=player_id)
    require_director(user, player.club, to=gettext_noop("invite its players"))
    if player.user_id is not None:
        raise ConflictError(
            "player_linked",
            gettext("%(player)s is linked to an account already; no link needed.")
            % {"player": player.name},
        )
    token = signing.dumps({"player": player.pk, "club": player.club_id}, salt=CLAIM_SALT)
    return Invitation(player=player, token=token)


def invitation_read(token: str) -> Invitation:
    """The player an invitation link names, or a refusal: expired, damaged, or the player
    gone."""
    try:
        payload = signing.loads(token, salt=CLAIM_SALT, max_age=CLAIM_MAX_AGE)
    except signing.SignatureExpired:
        raise UserError(
            "claim_expired",
            gettext(
                "This link has expired (a link lasts %(days)s days); ask your club's "
                "director for a new one."
            )
            % {"days": CLAIM_MAX_AGE.days},
        ) from None
    except signing.BadSignature:
        raise UserError(
            "claim_invalid",
            gettext(
                "This link is not valid: check that it was copied whole, or ask your "
                "club's director for a new one."
            ),
        ) from None
    player = (
        Player.objects.select_related("club", "user")
        .filter(pk=payload.get("player"), club_id=payload.get("club"))
        .first()
    )
    if player is None:
        raise UserError(
            "claim_player_gone",
            gettext(
                "The player this link names is no longer in the club; ask your club's director."
            ),
        )
    return Invitation(player=player, token=token)


def claim_refusal(player: Player, claimant: Account) -> UserError | None:
    """Why `claimant` may not claim `player` now, or None."""
    if player.user_id == claimant.pk:
        return ConflictError(
            "claim_done", gettext("Your account is %(player)s's already.") % {"player": player.name}
        )
    if player.user_id is not None:
        return ConflictError(
            "player_claimed",
            gettext(
                "%(player)s is linked to another account already. If that is wrong, ask "
                "your club's director."
            )
            % {"player": player.name},
        )
    other = Player.objects.filter(club_id=player.club_id, user=claimant).first()
    if other is not None:
        return ConflictError(
            "account_has_player",
            gettext(
                "Your account is %(other)s at %(club)s already: one account is one "
                "player of a club. If that is wrong, ask your club's director."
            )
            % {"other": other.name, "club": player.club.name},
        )
    return None


@transaction.atomic
def player_claim(*, token: str, user: User) -> Player:
    """Link the player an invitation names to the signed-in account."""
    claimant = _signed_in(user, gettext_noop("claim your player record"))
    invited = invitation_read(token).player
    # The club first, then the player: two claims by one account in one club queue here.
    Club.objects.select_for_update().get(pk=invited.club_id)
    player = Player.objects.select_for_update().select_related("club").get(pk=invited.pk)
    refusal = claim_refusal(player, claimant)
    if refusal is not None:
        raise refusal
    player.user = claimant
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def player_unlink(*, player_id: int, user: Caller) -> Player:
    """Undo a claim (the wrong person claimed the record, or an account changed hands):
    the player keeps every game, and can be invited again."""
    player = Player.objects.select_for_update().select_related("club").get(pk=player_id)
    require_director(user, player.club, to=gettext_noop("unlink its players"))
    if player.user_id is None:
        raise ConflictError(
            "player_not_linked",
            gettext("%(player)s is linked to no account.") % {"player": player.name},
        )
    was = player.user.get_username() if player.user else ""
    player.user = None
    player.save(update_fields=["user"])
    audit.record(
        user,
        club=player.club,
        action="player.unlink",
        summary=f"Unlinked {player.name} from the account {was}",
        details={"player": {"id": player.pk, "name": player.name}, "account": was},
    )
    return player
