"""Who may do what: the one place the pages and the API ask.

- A director of a club (or a superuser) runs everything of that club.
- A scorer holds a scorer link to one table of one sitting: they may enter and correct
  that table's rounds while the link is live (not revoked, the sitting not moved on, the
  session running). A scorer needs no account; the link's token rides in the browser
  session (pages) or the `X-Scorer-Token` header (API).
- A player signed in with an account linked to a Player sees their own assignments,
  games and history.
- A player at an online table holds a seat link (the app `play` reads its token): they
  may call the director to the table they sit at now, and nothing else of this module.
- The public sees the sessions a director made public.
- The machine's operator (`SYSTEM`: management commands, Celery tasks, the simulation)
  may do what a director may, in every club. It is never built from a request.

Every write service takes who it is from and refuses, before it changes anything, with
`require_director` (or, for results, `can_score`): so a new entry point (a page, an API
view, a command, a task) is safe whichever service it calls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_noop

from tournaments.models import Club, Player, ScorerLink, Seating, Session, Table

#: Who a call is from, as Django and DRF hand it over in `request.user`; None is nobody
#: (an `Actor` with no account), refused like an anonymous visitor. A call with no
#: request behind it acts as `SYSTEM`.
User = AbstractBaseUser | AnonymousUser | None

# `can_direct` keeps the clubs a user directs on the user object under this name: the
# object lives as long as one request, which asks several times.
_DIRECTED_CACHE = "_huckley_directed_clubs"


def account(user: User) -> Account | None:
    """The signed-in account behind `user`, or None for an anonymous visitor or nobody.

    The project keeps Django's own user model (settings name no AUTH_USER_MODEL), so a
    signed-in user is always an `auth.User`; anything else is a programming error.
    """
    if user is None or not user.is_authenticated:
        return None
    if not isinstance(user, Account):
        raise TypeError(f"A signed-in user should be an auth.User, not {type(user).__name__}.")
    return user


SESSION_KEY = "scorer_tokens"
HEADER = "HTTP_X_SCORER_TOKEN"


@dataclass(frozen=True)
class Actor:
    """The person behind a request: an account (maybe anonymous) and any scorer links."""

    user: User = None
    scorer_tokens: frozenset[str] = field(default_factory=frozenset)
    # Tells two people at one table apart for double entry: the account, else the browser
    # session or the API client's token.
    device: str = ""
    # The operator of the machine (`SYSTEM`), never a request's visitor.
    is_system: bool = False
    # The player whose seat link the request holds, once the app `play` has read the
    # token (an online table's phone); None otherwise. Only `can_call_director` reads it.
    seat_player_id: int | None = None

    @property
    def account(self) -> Account | None:
        """The signed-in account, or None."""
        return account(self.user)

    @property
    def is_authenticated(self) -> bool:
        return self.user is not None and bool(self.user.is_authenticated)

    def label(self) -> str:
        if self.is_system:
            return "the system"
        signed_in = self.account
        if signed_in is not None:
            return signed_in.get_username()
        return "scorer link" if self.scorer_tokens else "anonymous"


def actor_from_request(request: HttpRequest) -> Actor:
    tokens = set(request.session.get(SESSION_KEY, [])) if hasattr(request, "session") else set()
    header = request.META.get(HEADER, "").strip()
    if header:
        tokens.add(header)
    user: User = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        device = f"user:{user.pk}"
    elif header:
        # Never store the token itself; two phones sharing one link tell themselves apart
        # with an X-Device-Id of their choosing (double entry needs two people).
        digest = hashlib.sha256(header.encode()).hexdigest()[:16]
        device = f"token:{digest}:{request.META.get('HTTP_X_DEVICE_ID', '')[:40]}"
    else:
        session_key = getattr(getattr(request, "session", None), "session_key", None) or ""
        device = f"browser:{session_key}"
    return Actor(user=user, scorer_tokens=frozenset(tokens), device=device)


#: The operator of the machine: what management commands, Celery tasks and the simulation
#: act as. It directs every club. A write service never takes None for "anyone": a caller
#: with no request behind it says it is the system.
SYSTEM = Actor(device="system", is_system=True)

#: Online play (the app `play`): the server itself storing a round the players played on
#: their phones. The players' seat tokens were checked move by move; the round is stored
#: as the system's, and its history says it was played online.
ONLINE = Actor(device="online", is_system=True)

#: Who a write service is from: a request's user or actor, or `SYSTEM`; never None.
Caller = Actor | AbstractBaseUser | AnonymousUser


def as_actor(who: Actor | User) -> Actor:
    return who if isinstance(who, Actor) else Actor(user=who)


def can_direct(who: Actor | User, club: Club | int) -> bool:
    actor = as_actor(who)
    if actor.is_system:
        return True
    user = actor.account
    if user is None:
        return False
    if user.is_superuser:
        return True
    club_id = club if isinstance(club, int) else club.pk
    directed: set[int] | None = getattr(user, _DIRECTED_CACHE, None)
    if directed is None:
        directed = set(user.directed_clubs.values_list("pk", flat=True))
        setattr(user, _DIRECTED_CACHE, directed)
    return club_id in directed


def require_director(who: Caller, club: Club | int, *, to: str = gettext_noop("run it")) -> None:
    """Refuse anyone who may not direct `club`, in the words "Only a director of this club
    may <to>." Every director write service calls it first, once it has read (and
    locked) the row that says which club the write is for. The refusal is Django's
    `PermissionDenied`, which a page answers with its 403 and the API with its 403 body;
    the pages and the API refuse such callers before calling a service, so their answers
    do not depend on it."""
    if not can_direct(who, club):
        raise PermissionDenied(
            gettext("Only a director of this club may %(to)s.") % {"to": gettext(to)}
        )


def live_links(tokens: Iterable[str]) -> QuerySet[ScorerLink]:
    """Scorer links among `tokens` that still open their table."""
    return ScorerLink.objects.filter(
        token__in=list(tokens),
        revoked_at__isnull=True,
        table__sitting__moved_at__isnull=True,
        table__sitting__session__status=Session.Status.RUNNING,
    )


def can_score(who: Actor | User, table: Table) -> bool:
    """Enter and correct the rounds of this table."""
    actor = as_actor(who)
    if can_direct(actor, table.sitting.session.club_id):
        return True
    return (
        bool(actor.scorer_tokens) and live_links(actor.scorer_tokens).filter(table=table).exists()
    )


def not_a_scorer() -> PermissionDenied:
    """The refusal of a result write by someone who may not score the table: neither a
    director of its club nor the holder of its live scorer link (`can_score`)."""
    return PermissionDenied(
        gettext("Only a director or the holder of this table's scorer link may change its results.")
    )


def require_scorer(who: Caller, table: Table) -> None:
    """Refuse anyone who may not enter or correct the rounds of `table`."""
    if not can_score(who, table):
        raise not_a_scorer()


def can_call_director(who: Actor | User, table: Table) -> bool:
    """Call the director to this table: whoever may score it, and the player of a seat
    link who sits at it now (an online table has no scorer at it, only phones)."""
    actor = as_actor(who)
    if (
        actor.seat_player_id is not None
        and Seating.objects.filter(
            table=table, player_id=actor.seat_player_id, left_at__isnull=True
        ).exists()
    ):
        return True
    return can_score(actor, table)


def require_caller(who: Caller, table: Table) -> None:
    """Refuse anyone who may not call the director to `table`."""
    if not can_call_director(who, table):
        raise PermissionDenied(
            gettext(
                "Only a director, the holder of this table's scorer link or a player seated at "
                "it may call the director to it."
            )
        )


def players_of(who: Actor | User) -> list[Player]:
    user = as_actor(who).account
    if user is None:
        return []
    return list(Player.objects.filter(user=user))


def can_view_session(who: Actor | User, session: Session) -> bool:
    """Tables, find-my-table and standings of a session."""
    if session.is_public:
        return True
    actor = as_actor(who)
    if can_direct(actor, session.club_id):
        return True
    user = actor.account
    if user is not None and session.entries.filter(player__user=user).exists():
        return True
    return bool(actor.scorer_tokens) and (
        live_links(actor.scorer_tokens).filter(table__sitting__session=session).exists()
    )


def visible_sessions(who: Actor | User) -> QuerySet[Session]:
    """Sessions this person may see, for lists (home page, API)."""
    actor = as_actor(who)
    if actor.is_system:
        return Session.objects.all()
    query = Q(is_public=True)
    user = actor.account
    if user is not None:
        if user.is_superuser:
            return Session.objects.all()
        query |= Q(club__directors=user) | Q(entries__player__user=user)
    if actor.scorer_tokens:
        query |= Q(sittings__tables__scorer_links__in=live_links(actor.scorer_tokens))
    return Session.objects.filter(query).distinct()
