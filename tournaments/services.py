"""Writes for the tournament format: creating a session, seating it, moving players,
arrivals, withdrawals, rebalancing and finishing.

Each service is keyword-only and atomic. Services that change a session lock its row
first (and then, where needed, its games in id order), so that two directors or a
director and a scorer cannot interleave. The format itself is decided by the pure
functions in `tournaments.format`; the rules that are reads (the current sitting, the
ranking, the ladders) by `tournaments.selectors`.

Several rules are asked before a write as well as by it: `movement_undo_refusal` says
whether the last movement can be undone (the page shows its button only then, and
`sitting_undo_movement` refuses with the same error), and `PUBLIC_BY_DEFAULT` is the
visibility of a new session for the page, the API and this module alike.

Why one module of about 650 lines: it is one thing, the life of a session (create, seat,
move, rebalance, finish), and its writes share the one locking discipline and the
helpers below (`_lock_session`, `_sitting_create`, `_refresh_unstarted_game`). The pages,
the API, the simulation and the tests all call `tournaments.services.<name>`.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date as Date

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

import engine
from huckley.celery import enqueue_on_commit
from huckley.errors import ConflictError, UserError
from ratings import selectors as rating_selectors
from scoring import services as scoring
from scoring.models import Game
from tournaments import format as fmt
from tournaments import selectors, tasks
from tournaments.models import (
    BigLoserAward,
    Club,
    Placing,
    Player,
    ScorerLink,
    Season,
    Seating,
    Session,
    SessionPlayer,
    SessionStanding,
    SitOut,
    Sitting,
    Table,
)
from tournaments.permissions import User, account

# A new session is public unless the director says otherwise (docs/tournament.md).
PUBLIC_BY_DEFAULT = Session.PUBLIC_BY_DEFAULT


#: Unicode categories a name may not contain: control characters (a bell, an escape),
#: format characters (bidi overrides such as U+202E that turn the text around it, and
#: invisible ones such as the zero-width space that make two names look alike), surrogates,
#: private-use and unassigned code points. Line and paragraph separators are whitespace and
#: are folded into spaces like the rest.
_FORBIDDEN_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


#: The zero-width non-joiner and joiner are spelling in Persian, Arabic and Indic names
#: ("نیلو‌فر"): allowed between two letters, refused anywhere else.
_JOINERS = frozenset({"\u200c", "\u200d"})


def _joins_letters(name: str, i: int) -> bool:
    def letter(j: int) -> bool:
        return 0 <= j < len(name) and unicodedata.category(name[j])[0] in {"L", "M"}

    return letter(i - 1) and letter(i + 1)


def _refuse_hidden_characters(name: str) -> None:
    for i, char in enumerate(name):
        if char in _JOINERS and _joins_letters(name, i):
            continue
        if unicodedata.category(char) in _FORBIDDEN_IN_NAMES:
            what = unicodedata.name(char, "").lower() or "control character"
            shown = name.encode("ascii", "backslashreplace").decode()[:40]
            raise UserError(
                "name_hidden_character",
                f"The name “{shown}” contains an invisible or control character "
                f"(U+{ord(char):04X}, {what}). Type the name again with letters, digits, "
                "spaces and punctuation only.",
            )


def _clean_names(names: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for raw in names:
        name = " ".join(raw.split())
        if not name:
            continue
        _refuse_hidden_characters(name)
        if len(name) > 60:
            raise UserError("name_too_long", f"“{name[:20]}…” is longer than 60 characters.")
        seen.setdefault(name.casefold(), name)
    return list(seen.values())


def players_get_or_create(*, club: Club, names: Sequence[str]) -> list[Player]:
    """Players of the club by name, creating the ones the club does not know yet.
    Names match regardless of case and extra spaces; an inactive player named is active
    again."""
    wanted = _clean_names(names)
    known = {p.name.casefold(): p for p in Player.objects.filter(club=club)}
    new = Player.objects.bulk_create(
        [Player(club=club, name=name) for name in wanted if name.casefold() not in known]
    )
    if any(p.pk is None for p in new):  # a backend that returns no ids from bulk_create
        new = list(Player.objects.filter(club=club, name__in=[p.name for p in new]))
    known.update((p.name.casefold(), p) for p in new)
    chosen = [known[name.casefold()] for name in wanted]
    # Typing the name of someone marked inactive means they are back: active again.
    if back := [p.pk for p in chosen if not p.active]:
        Player.objects.filter(pk__in=back).update(active=True)
        for p in chosen:
            p.active = True
    return chosen


def _format_for(session: Session) -> fmt.FormatRules:
    try:
        return fmt.format_for(session.rules_id)
    except fmt.FormatError as e:
        raise UserError(e.code, str(e)) from None


@transaction.atomic
def session_create(
    *,
    club: Club,
    season: Season,
    name: str,
    date: Date,
    rules_id: str,
    games_per_sitting: int,
    player_ids: Sequence[int] = (),
    new_names: Sequence[str] = (),
    seed: int | None = None,
    is_public: bool = PUBLIC_BY_DEFAULT,
    double_entry: bool = False,
    seeding: str = Session.Seeding.RANDOM,
    user: User,
) -> Session:
    if season.club_id != club.pk:
        raise UserError(
            "season_not_in_club", "That season belongs to another club.", field="season"
        )
    if season.closed_at is not None:
        raise UserError(
            "season_closed",
            f"The season {season.name} is closed; pick an open one.",
            field="season",
        )
    if rules_id not in fmt.FORMATS or rules_id not in engine.RULES:
        raise UserError("unknown_rules", f"Unknown rules “{rules_id}”.", field="rules_id")
    if games_per_sitting not in (2, 3):
        raise UserError(
            "games_per_sitting", "A sitting is 2 or 3 games.", field="games_per_sitting"
        )
    _check_seeding(seeding)
    if not name.strip():
        raise UserError("name_required", "Give the session a name.", field="name")
    if len(name.strip()) > 120:
        raise UserError("name_too_long", "A session name has at most 120 characters.", field="name")
    players = list(Player.objects.filter(club=club, pk__in=player_ids))
    if len(players) != len(set(player_ids)):
        raise UserError("unknown_player", "Some of the chosen players are not in this club.")
    players += players_get_or_create(club=club, names=new_names)
    session = Session.objects.create(
        club=club,
        season=season,
        name=name.strip(),
        date=date,
        rules_id=rules_id,
        games_per_sitting=games_per_sitting,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
        is_public=is_public,
        double_entry=double_entry,
        seeding=seeding,
        created_by=account(user),
    )
    SessionPlayer.objects.bulk_create(
        [SessionPlayer(session=session, player=p) for p in {p.pk: p for p in players}.values()]
    )
    return session


def _check_seeding(seeding: str) -> None:
    if seeding not in Session.Seeding.values:
        known = ", ".join(Session.Seeding.values)
        raise UserError(
            "unknown_seeding", f"Unknown seeding “{seeding}”; use one of: {known}.", field="seeding"
        )


def _lock_session(session_id: int) -> Session:
    return Session.objects.select_for_update().select_related("club", "season").get(pk=session_id)


@transaction.atomic
def session_update_settings(
    *,
    session_id: int,
    games_per_sitting: int,
    is_public: bool,
    double_entry: bool,
    seeding: str | None = None,
    user: User,
) -> Session:
    """The sitting length can change until the next sitting starts and applies from then;
    visibility and double entry apply at once; the seeding until the session starts."""
    session = _lock_session(session_id)
    if seeding is not None and seeding != session.seeding:
        _check_seeding(seeding)
        if session.status != Session.Status.SETUP:
            raise UserError(
                "session_started",
                "The first sitting is already seated; the seeding can no longer change.",
                field="seeding",
            )
        session.seeding = seeding
    if games_per_sitting not in (2, 3):
        raise UserError(
            "games_per_sitting", "A sitting is 2 or 3 games.", field="games_per_sitting"
        )
    if session.status == Session.Status.FINISHED and games_per_sitting != session.games_per_sitting:
        raise UserError("session_finished", "This session is finished.")
    session.games_per_sitting = games_per_sitting
    session.is_public = is_public
    session.double_entry = double_entry
    session.save(update_fields=["games_per_sitting", "is_public", "double_entry", "seeding"])
    return session


@transaction.atomic
def scorer_link_create(*, table_id: int, user: User) -> ScorerLink:
    """A new scorer link for a table of the running sitting."""
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    session = Session.objects.select_for_update().get(pk=table.sitting.session_id)
    if session.status != Session.Status.RUNNING or table.sitting.moved_at is not None:
        raise UserError(
            "sitting_closed", "Scorer links are only for the tables of the current sitting."
        )
    return ScorerLink.objects.create(
        table=table,
        token=secrets.token_urlsafe(24),
        created_by=account(user),
    )


@transaction.atomic
def scorer_link_revoke(*, table_id: int, user: User) -> int:
    """Revoke every live link of a table; whoever holds one can no longer enter results."""
    return ScorerLink.objects.filter(table_id=table_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


@dataclass(frozen=True)
class ScorerLinkReplaced:
    link: ScorerLink
    revoked: int


@transaction.atomic
def scorer_link_replace(*, table_id: int, user: User) -> ScorerLinkReplaced:
    """Hand out a new scorer link in place of the table's live ones, all or nothing: if
    the new link is refused, the old ones keep working."""
    revoked = scorer_link_revoke(table_id=table_id, user=user)
    link = scorer_link_create(table_id=table_id, user=user)
    return ScorerLinkReplaced(link=link, revoked=revoked)


@transaction.atomic
def session_add_players(
    *, session_id: int, player_ids: Sequence[int] = (), new_names: Sequence[str] = (), user: User
) -> list[SessionPlayer]:
    """Add players to the roster. Before the start they wait to be checked in; once the
    session runs they are late arrivals and join the bottom table (format rule 7)."""
    session = _lock_session(session_id)
    if session.status == Session.Status.FINISHED:
        raise UserError("session_finished", "This session is finished.")
    if session.status == Session.Status.CANCELLED:
        raise UserError("session_cancelled", "This session is cancelled.")
    players = list(Player.objects.filter(club=session.club, pk__in=player_ids))
    players += players_get_or_create(club=session.club, names=new_names)
    if not players:
        raise UserError("no_players", "Pick a player or type a new name.")
    added = []
    running = session.status == Session.Status.RUNNING
    sitting = selectors.current_sitting(session) if running else None
    Session.board_changed(session.pk)
    for player in players:
        entry, created = SessionPlayer.objects.get_or_create(session=session, player=player)
        if not created and entry.withdrawn_at is None and (entry.checked_in or not running):
            raise UserError(
                "already_on_roster", f"{player.name} is already playing in this session."
            )
        entry.checked_in = True if running else entry.checked_in
        entry.arrived_late = running
        entry.withdrawn_at = None
        entry.save()
        added.append(entry)
        if sitting is not None:
            rules = _format_for(session)
            if rules.split_min == rules.split_max:
                # Tables of a fixed size cannot take one more: the late arrival sits out
                # this sitting and joins the rotation from the next.
                Seating.objects.filter(sitting=sitting, player=player).delete()
                SitOut.objects.get_or_create(sitting=sitting, player=player)
            else:
                _seat_at_bottom(sitting=sitting, player=player)
    return added


def _seat_at_bottom(*, sitting: Sitting, player: Player) -> None:
    bottom = sitting.tables.order_by("-rank").first()
    assert bottom is not None
    existing = Seating.objects.filter(sitting=sitting, player=player).first()
    next_seat = (bottom.seatings.aggregate(m=Max("seat"))["m"] or 0) + 1
    if existing is not None:
        # A player who withdrew and came back takes a new seat at the bottom table.
        existing.table, existing.seat, existing.left_at = bottom, next_seat, None
        existing.save(update_fields=["table", "seat", "left_at"])
    else:
        Seating.objects.create(sitting=sitting, table=bottom, player=player, seat=next_seat)
    _refresh_unstarted_game(bottom)


def _refresh_unstarted_game(table: Table) -> None:
    current = Game.objects.filter(table=table).order_by("-number").first()
    if current is not None and current.round_count == 0 and current.status == Game.Status.PLAYING:
        scoring.game_refresh_players(game=current)


@transaction.atomic
def session_check_in(
    *, session_id: int, player_ids: Sequence[int] | None, checked_in: bool, user: User
) -> int:
    """Check players in (or take it back); `player_ids=None` means the whole roster. All or
    nothing: if one of them is not on the roster, nobody changes."""
    session = _lock_session(session_id)
    if session.status == Session.Status.CANCELLED:
        raise UserError("session_cancelled", "This session is cancelled.")
    if session.status != Session.Status.SETUP:
        raise UserError(
            "session_started",
            "The session has started: add a late arrival or withdraw a player instead.",
        )
    entries = SessionPlayer.objects.filter(session=session)
    if player_ids is not None:
        wanted = set(player_ids)
        entries = entries.filter(player_id__in=wanted)
        if entries.count() != len(wanted):
            raise UserError("not_on_roster", "That player is not on this session's roster.")
    return entries.update(checked_in=checked_in)


def last_season_big_loser(session: Session) -> Player | None:
    previous = (
        Season.objects.filter(club=session.club, starts_on__lt=session.season.starts_on)
        .order_by("-starts_on")
        .first()
    )
    if previous is None:
        return None
    award = BigLoserAward.objects.filter(season=previous).select_related("player").first()
    return award.player if award else None


@transaction.atomic
def session_start(*, session_id: int, user: User) -> Sitting:
    """Split the checked-in players into ranked tables and start the first games."""
    session = _lock_session(session_id)
    if session.status == Session.Status.CANCELLED:
        raise UserError("session_cancelled", "This session is cancelled.")
    if session.status != Session.Status.SETUP:
        raise ConflictError("session_started", "This session has already started.")
    rules = _format_for(session)
    entries = list(
        SessionPlayer.objects.filter(session=session, checked_in=True, withdrawn_at__isnull=True)
    )
    ids = sorted(e.player_id for e in entries)
    big_loser = last_season_big_loser(session)
    big_loser_id = big_loser.pk if big_loser and big_loser.pk in ids else None
    try:
        # The Big Loser's place is the bottom table, so they sit out last of all.
        sitting_out = fmt.choose_sit_outs(
            ids,
            fmt.sit_out_count(len(ids), rules),
            sat_out={big_loser_id: len(ids)} if big_loser_id else {},
            rng=fmt.make_rng(session.seed, "sit-out", 1),
        )
        seated = [pid for pid in ids if pid not in sitting_out]
        if session.seeding == Session.Seeding.RANDOM:
            tables = fmt.split(seated, fmt=rules, seed=session.seed, big_loser=big_loser_id)
        else:
            tables = fmt.seeded_split(
                seated,
                fmt=rules,
                seed=session.seed,
                # A player with no rating yet counts as a newcomer (ordinal 0).
                strength=rating_selectors.ordinals(seated, session.rules_id),
                balanced=session.seeding == Session.Seeding.BALANCED,
                big_loser=big_loser_id,
            )
    except fmt.FormatError as e:
        raise UserError(e.code, str(e)) from None
    sitting = _sitting_create(session=session, number=1, tables=tables, sitting_out=sitting_out)
    session.status = Session.Status.RUNNING
    session.started_at = timezone.now()
    session.big_loser_id = big_loser_id
    session.save(update_fields=["status", "started_at", "big_loser"])
    return sitting


def _sitting_create(
    *,
    session: Session,
    number: int,
    tables: Sequence[Sequence[int]],
    sitting_out: Sequence[int] = (),
) -> Sitting:
    sitting = Sitting.objects.create(
        session=session, number=number, games_per_sitting=session.games_per_sitting
    )
    SitOut.objects.bulk_create(SitOut(sitting=sitting, player_id=pid) for pid in sitting_out)
    table_rows = Table.objects.bulk_create(
        [Table(sitting=sitting, rank=rank) for rank in range(1, len(tables) + 1)]
    )
    Seating.objects.bulk_create(
        Seating(sitting=sitting, table=table, player_id=pid, seat=seat)
        for table, seated in zip(table_rows, tables, strict=True)
        for seat, pid in enumerate(seated, start=1)
    )
    if not all(t.pk for t in table_rows):  # bulk_create returns no ids on some backends
        table_rows = list(sitting.tables.order_by("rank"))
    for table in table_rows:
        table.sitting = sitting
    scoring.tables_start_first_games(tables=table_rows, session=session)
    Session.board_changed(session.pk)
    return sitting


@dataclass(frozen=True)
class MovementPreview:
    sitting: Sitting
    tables: list[tuple[Table, list[fmt.Placing[int]]]]
    moves: list[fmt.Move[int]]
    names: dict[int, str]


def movement_preview(*, sitting: Sitting) -> MovementPreview:
    """Each table's order over the sitting, with its tie-breaks, and the move it earns.
    Refused while a table still has games to play."""
    session = sitting.session
    rules = _format_for(session)
    progress = selectors.sitting_progress(sitting)
    unfinished = [p.table.rank for p in progress if not p.finished]
    if unfinished:
        listed = ", ".join(str(r) for r in unfinished)
        raise UserError(
            "sitting_unfinished",
            f"Table {listed} still {'has' if len(unfinished) == 1 else 'have'} games to play.",
        )
    order = selectors.sitting_order(sitting, rules, [p.table for p in progress])
    tables = {p.table.pk: p.table for p in progress}
    ordered = [(tables[t.table_id], t.placings) for t in order.tables]
    moves = fmt.movement([placings for _, placings in ordered])
    return MovementPreview(sitting=sitting, tables=ordered, moves=moves, names=order.names)


@transaction.atomic
def sitting_move_players(*, session_id: int, sitting_number: int, user: User) -> Sitting:
    """Confirm the movement after a sitting: record every placing and start the next
    sitting with seats drawn at random."""
    session = _lock_session(session_id)
    if session.status != Session.Status.RUNNING:
        raise UserError("session_not_running", "This session is not running.")
    sitting = selectors.require_current_sitting(session)
    if sitting.number != sitting_number or sitting.moved_at is not None:
        raise ConflictError(
            "movement_already_confirmed",
            f"Sitting {sitting_number} has already been moved on; reload the page.",
        )
    list(Game.objects.select_for_update().filter(table__sitting=sitting).order_by("pk"))
    preview = movement_preview(sitting=sitting)
    by_player = {m.player: m for m in preview.moves}
    Placing.objects.bulk_create(
        Placing(
            sitting=sitting,
            table=table,
            player_id=pl.player,
            place=pl.place,
            score=pl.result.score,
            games_won=pl.result.games_won,
            hooks=pl.result.hooks,
            last_game_score=pl.result.last_game_score,
            decided_by=pl.decided_by or "",
            direction=by_player[pl.player].direction,
            to_rank=by_player[pl.player].to_rank,
            reason=by_player[pl.player].reason[:300],
        )
        for table, placings in preview.tables
        for pl in placings
    )
    sitting.moved_at = timezone.now()
    sitting.save(update_fields=["moved_at"])
    tables = fmt.seat_tables(
        preview.moves,
        table_count=len(preview.tables),
        rng=fmt.make_rng(session.seed, "seats", sitting.number + 1),
    )
    tables, sitting_out = _rotate_sit_outs(session, sitting, tables)
    return _sitting_create(
        session=session, number=sitting.number + 1, tables=tables, sitting_out=sitting_out
    )


def _rotate_sit_outs(
    session: Session, sitting: Sitting, tables: list[list[int]]
) -> tuple[list[list[int]], list[int]]:
    """Who sits out the next sitting, in turn (docs/format.md rule 8): those who sat out least.
    The players coming back take the seats of those going out."""
    rules = _format_for(session)
    # A withdrawal deletes the player's sit-out, so these are all still playing.
    waiting = list(SitOut.objects.filter(sitting=sitting).values_list("player_id", flat=True))
    seated = [pid for table in tables for pid in table]
    everyone = seated + waiting
    count = fmt.sit_out_count(len(everyone), rules) if everyone else 0
    if not count and not waiting:
        return tables, []
    counts = dict(
        SitOut.objects.filter(sitting__session=session)
        .values_list("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    rng = fmt.make_rng(session.seed, "sit-out", sitting.number + 1)
    chosen = fmt.choose_sit_outs(everyone, count, sat_out=counts, rng=rng)
    returning = sorted(pid for pid in waiting if pid not in chosen)
    rng.shuffle(returning)
    result = []
    for table in tables:
        kept = []
        for pid in table:
            if pid in chosen:
                if returning:
                    kept.append(returning.pop())
            else:
                kept.append(pid)
        result.append(kept)
    # Any still waiting for a seat join the bottom table; a rebalance then fixes sizes.
    result[-1].extend(returning)
    return [t for t in result if t], chosen


def movement_undo_refusal(session: Session, latest: Sitting | None) -> UserError | None:
    """Why the last movement cannot be undone now, or None when it can: only in a running
    session, after a movement, while no game of the new sitting has a round. `latest` is
    `selectors.current_sitting(session)`, which the caller has read already. The page
    offers the undo only when this is None; `sitting_undo_movement` raises it."""
    if session.status != Session.Status.RUNNING:
        return UserError("session_not_running", "This session is not running.")
    if latest is None:
        return UserError("session_not_started", "This session has not started yet.")
    if latest.number == 1:
        return UserError("nothing_to_undo", "No movement has been confirmed yet.")
    if Game.objects.filter(table__sitting=latest, round_count__gt=0).exists():
        return UserError(
            "new_sitting_started",
            f"Sitting {latest.number} already has results entered; "
            "delete them first if the movement must be undone.",
        )
    return None


def movement_can_undo(session: Session, latest: Sitting | None) -> bool:
    return movement_undo_refusal(session, latest) is None


@transaction.atomic
def sitting_undo_movement(*, session_id: int, user: User) -> Sitting:
    """Take back the last movement while no game of the new sitting has a round."""
    session = _lock_session(session_id)
    latest = selectors.current_sitting(session)
    if latest is not None:
        # Lock the new sitting's games so that no round slips in between check and delete.
        list(Game.objects.select_for_update().filter(table__sitting=latest).order_by("pk"))
    refusal = movement_undo_refusal(session, latest)
    if refusal is not None:
        raise refusal
    assert latest is not None
    previous = session.sittings.get(number=latest.number - 1)
    latest.delete()
    Placing.objects.filter(sitting=previous).delete()
    previous.moved_at = None
    previous.save(update_fields=["moved_at"])
    Session.board_changed(session.pk)
    return previous


def _game_under_way(seating: Seating) -> Game | None:
    """The game at the player's table that has started and not ended, if they play in it."""
    game = Game.objects.filter(table=seating.table).order_by("-number").first()
    if game is None or game.status != Game.Status.PLAYING or not game.round_count:
        return None
    return game if game.game_players.filter(player_id=seating.player_id).exists() else None


@transaction.atomic
def session_withdraw(*, session_id: int, player_id: int, user: User) -> None:
    """A player leaves between games; the finished games still count."""
    session = _lock_session(session_id)
    entry = SessionPlayer.objects.filter(session=session, player_id=player_id).first()
    if entry is None:
        raise UserError("not_on_roster", "That player is not on this session's roster.")
    if entry.withdrawn_at is not None:
        raise UserError("already_withdrawn", f"{entry.player.name} has already withdrawn.")
    if session.status == Session.Status.SETUP:
        entry.delete()
        return
    if session.status != Session.Status.RUNNING:
        raise UserError("session_not_running", "This session is not running.")
    sitting = selectors.require_current_sitting(session)
    SitOut.objects.filter(sitting=sitting, player_id=player_id).delete()
    seating = Seating.objects.filter(sitting=sitting, player_id=player_id).first()
    if seating is not None and seating.left_at is None:
        game = _game_under_way(seating)
        if game is not None:
            raise UserError(
                "withdrawal_mid_game",
                f"{entry.player.name} is in the middle of game {game.number} at table "
                f"{seating.table.rank}. Withdraw them when that game ends.",
            )
        seating.left_at = timezone.now()
        seating.save(update_fields=["left_at"])
        _refresh_unstarted_game(seating.table)
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    Session.board_changed(session.pk)


def rebalance_proposal(*, session: Session) -> list[fmt.Rebalance[int]]:
    sitting = selectors.require_current_sitting(session)
    rules = _format_for(session)
    tables = selectors.sitting_active_tables(sitting)
    try:
        return fmt.rebalance([ids for _, ids in tables], rules)
    except fmt.FormatError as e:
        raise UserError(e.code, str(e)) from None


@transaction.atomic
def session_rebalance(
    *, session_id: int, expected: Sequence[tuple[int, int, int]], user: User
) -> int:
    """Apply the proposed moves the director saw. If the tables changed since, the
    proposal is refused so that the director looks again."""
    session = _lock_session(session_id)
    if session.status != Session.Status.RUNNING:
        raise UserError("session_not_running", "This session is not running.")
    proposal = rebalance_proposal(session=session)
    current = [(m.player, m.from_rank, m.to_rank) for m in proposal]
    if list(map(tuple, expected)) != current:
        raise ConflictError(
            "proposal_changed", "The tables changed since the proposal was shown; look again."
        )
    sitting = selectors.require_current_sitting(session)
    tables = {t.rank: t for t in sitting.tables.all()}
    for move in proposal:
        seating = Seating.objects.select_related("table", "player").get(
            sitting=sitting, player_id=move.player
        )
        game = _game_under_way(seating)
        if game is not None:
            raise UserError(
                "move_mid_game",
                f"{seating.player.name} is in the middle of game {game.number} at table "
                f"{seating.table.rank}; rebalance when that game ends.",
            )
        source = seating.table
        if move.to_rank not in tables:
            tables[move.to_rank] = Table.objects.create(sitting=sitting, rank=move.to_rank)
        target = tables[move.to_rank]
        seating.table = target
        seating.seat = (target.seatings.aggregate(m=Max("seat"))["m"] or 0) + 1
        seating.save(update_fields=["table", "seat"])
        _refresh_unstarted_game(source)
        if not Game.objects.filter(table=target).exists():
            scoring.table_start_game(table=target, number=1)
        else:
            _refresh_unstarted_game(target)
    # A table left with nobody seated is closed.
    for table in sitting.tables.all():
        if (
            not table.seatings.filter(left_at__isnull=True).exists()
            and not table.games.filter(round_count__gt=0).exists()
        ):
            table.delete()
    Session.board_changed(session.pk)
    return len(proposal)


@transaction.atomic
def session_finish(*, session_id: int, early: bool = False, user: User) -> Session:
    """Finish the session and keep its standings for the season ladder. Ending before
    every game is finished needs `early=True`; unfinished games do not count."""
    session = _lock_session(session_id)
    if session.status != Session.Status.RUNNING:
        raise UserError("session_not_running", "Only a running session can be finished.")
    sitting = selectors.require_current_sitting(session)
    unfinished = [p for p in selectors.sitting_progress(sitting) if not p.finished]
    if unfinished and not early:
        raise UserError(
            "sitting_unfinished",
            "Some tables still have games to play. Confirm that you want to end the session early.",
        )
    standings = selectors.session_standings(session)
    SessionStanding.objects.bulk_create(
        SessionStanding(
            session=session,
            player_id=row.player_id,
            position=row.position,
            points=row.points,
            games_played=row.games_played,
            games_won=row.games_won,
            hooks=row.hooks,
        )
        for row in standings
    )
    session.status = Session.Status.FINISHED
    session.finished_at = timezone.now()
    session.ended_early = bool(unfinished)
    session.save(update_fields=["status", "finished_at", "ended_early"])
    Session.live_changed(session.pk)
    season_id = session.season_id
    enqueue_on_commit(tasks.season_standings_refresh, season_id)
    return session


@transaction.atomic
def big_loser_award(*, season_id: int, player_id: int, note: str = "", user: User) -> BigLoserAward:
    season = Season.objects.select_for_update().get(pk=season_id)
    player = Player.objects.filter(club=season.club_id, pk=player_id).first()
    if player is None:
        raise UserError("unknown_player", "That player is not in this club.", field="player")
    award, _ = BigLoserAward.objects.update_or_create(
        season=season,
        defaults={
            "player": player,
            "note": note,
            "awarded_by": account(user),
        },
    )
    return award
