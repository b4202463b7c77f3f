"""Writes that change who sits where once a session runs: the movement after a sitting
(`sitting_move_players`, with its preview and its undo) and the smallest rebalance when
tables have become uneven. A withdrawal, and its substitute, is in `workflow.session.withdrawals`;
a new sitting is seated by `workflow.session.start_finish.sitting_create`, as at the start.

Each is keyword-only and atomic and takes the session's lock first, exclusively
(`scoring.locks.lock_session`), as the session's other writes in
`workflow.session.services` and `workflow.session.start_finish` do; the format decides
(`tournaments.format`), these only write what it decided. Whether a movement can be
undone is asked before the write as well as by it: `movement_undo_refusal` is what the
page shows and what `sitting_undo_movement` refuses with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from common.backups import backup_on_commit
from common.errors import ConflictError, UserError
from common.tasks import enqueue_on_commit
from scoring import locks
from scoring.models import Game
from scoring.tables import table_start_game
from tournaments import audit, pagecache
from tournaments import format as fmt
from tournaments.models import (
    Placing,
    Seating,
    Session,
    SitOut,
    Sitting,
    Table,
)
from tournaments.permissions import Caller, require_director
from tournaments.signals import seats_changed_on_commit
from workflow.club import seating_wishes
from workflow.session import robots, selectors, services, start_finish, tasks, withdrawals
from workflow.tables import links as table_links


@dataclass(frozen=True)
class MovementPreview:
    sitting: Sitting
    tables: list[tuple[Table, list[fmt.Placing[int]]]]
    moves: list[fmt.Move[int]]
    names: dict[int, str]
    # When a player does not move: the next sitting as the movement will seat it (its
    # tables in rank order, who sits out) and what the fixed tables do ("Ann stays at
    # table 5, which hosts rank 2 this sitting"); else empty.
    next_tables: list[list[int]] = field(default_factory=list)
    sitting_out: list[int] = field(default_factory=list)
    table_notes: list[str] = field(default_factory=list)
    #: The physical table of each rank of the next sitting (index 0: rank 1).
    next_numbers: list[int] = field(default_factory=list)
    #: The robots each table of `next_tables` seats after its players.
    next_robots: list[int] = field(default_factory=list)


def movement_preview(*, sitting: Sitting) -> MovementPreview:
    """Each table's order over the sitting, with its tie-breaks, and the move it earns.
    Refused while a table still has games to play."""
    session = sitting.session
    rules = fmt.format_for(session.rules_id)
    progress = selectors.sitting_progress(sitting)
    unfinished = [p.table.rank for p in progress if not p.finished]
    if unfinished:
        listed = ", ".join(str(r) for r in unfinished)
        raise ConflictError(
            "sitting_unfinished",
            ngettext(
                "Table %(listed)s still has games to play.",
                "Table %(listed)s still have games to play.",
                len(unfinished),
            )
            % {"listed": listed},
        )
    order = selectors.sitting_order(sitting, rules, [p.table for p in progress])
    tables = {p.table.pk: p.table for p in progress}
    ordered = [(tables[t.table_id], t.placings) for t in order.tables]
    moves = fmt.movement([placings for _, placings in ordered])
    preview = MovementPreview(sitting=sitting, tables=ordered, moves=moves, names=order.names)
    if not seating_wishes.fixed_tables(session):
        # Nobody is fixed to a table: rank r plays at table r, and the next sitting is
        # seated when the movement is confirmed.
        preview.next_numbers.extend(range(1, len(ordered) + 1))
        return preview
    next_tables, sitting_out, next_robots = _next_sitting(preview)
    numbering = seating_wishes.table_numbering(session=session, tables=next_tables)
    preview.next_tables.extend(next_tables)
    preview.sitting_out.extend(sitting_out)
    preview.next_robots.extend(next_robots)
    preview.table_notes.extend(numbering.notes)
    preview.next_numbers[:] = numbering.numbers
    return preview


def _next_sitting(preview: MovementPreview) -> tuple[list[list[int]], list[int], list[int]]:
    """The next sitting's tables (rank order, seat order), who sits it out and the robots
    each table seats after its players: the seats drawn, the sit-outs in turn, the tables
    evened where one cannot play. In a session that fills with robots nobody sits out and
    the robots fill the tables short of the game's size (`format.robot_fill`); the robots
    of the sitting just played were never in its order, so none moves on merit."""
    sitting = preview.sitting
    session = sitting.session
    rules = fmt.format_for(session.rules_id)
    tables = fmt.seat_tables(
        preview.moves,
        table_count=len(preview.tables),
        rng=fmt.make_rng(session.seed, "seats", sitting.number + 1),
    )
    fill = robots.fills_with_robots(session)
    tables, sitting_out = _rotate_sit_outs(session, sitting, tables, fill=fill)
    if fill:
        seating = fmt.robot_fill(tables, rules)
        return seating.tables, sitting_out, seating.robots
    return playable_tables(tables, rules), sitting_out, []


def movement_refusal(session: Session) -> ConflictError | None:
    """Why no movement can be confirmed in this session now (it is not running: not yet
    started, finished or cancelled), or None. The movement page offers Confirm only when
    it is None; `sitting_move_players` raises it."""
    if session.status == Session.Status.RUNNING:
        return None
    if session.status == Session.Status.FINISHED:
        return ConflictError(
            "session_not_running",
            gettext("This session is finished: there is no movement to confirm."),
        )
    return ConflictError("session_not_running", gettext("This session is not running."))


@transaction.atomic
def sitting_move_players(*, session_id: int, sitting_number: int, user: Caller) -> Sitting:
    """Confirm the movement after a sitting: record every placing and start the next
    sitting with seats drawn at random."""
    # Exclusive: it waits for every round being stored in the session, and none starts
    # until it commits (scoring.locks).
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("move its players"))
    refusal = movement_refusal(session)
    if refusal is not None:
        raise refusal
    sitting = selectors.require_current_sitting(session)
    if sitting.number != sitting_number or sitting.moved_at is not None:
        raise ConflictError(
            "movement_already_confirmed",
            gettext("Sitting %(sitting_number)s has already been moved on; reload the page.")
            % {"sitting_number": sitting_number},
        )
    preview = movement_preview(sitting=sitting)
    by_player = {m.player: m for m in preview.moves}
    Placing.objects.bulk_create(
        start_finish.placing_row(
            sitting=sitting,
            table_id=table.pk,
            placing=pl,
            direction=by_player[pl.player].direction,
            to_rank=by_player[pl.player].to_rank,
            reason=by_player[pl.player].reason,
        )
        for table, placings in preview.tables
        for pl in placings
    )
    sitting.moved_at = timezone.now()
    sitting.save(update_fields=["moved_at"])
    # The next sitting as the preview showed it (seats, sit-outs, evened tables, robots).
    tables, sitting_out, places = (
        (preview.next_tables, preview.sitting_out, preview.next_robots)
        if preview.next_tables
        else _next_sitting(preview)
    )
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="movement.confirm",
        summary=f"Confirmed the movement after sitting {sitting.number} "
        f"({len(preview.moves)} players moved)",
        details={"sitting": sitting.number, "players": len(preview.moves)},
    )
    backup_on_commit("movement")
    # Their new table, by email, to the sign-ups who asked (workflow.front.registration_mail).
    enqueue_on_commit(tasks.assignment_emails, session.pk, sitting.number + 1)
    return start_finish.sitting_create(
        session=session,
        number=sitting.number + 1,
        tables=robots.seat_robots(session=session, tables=tables, robots=places),
        sitting_out=sitting_out,
    )


def playable_tables(tables: list[list[int]], rules: fmt.FormatRules) -> list[list[int]]:
    """The next sitting's tables, each of a size the game plays at. After withdrawals the
    movement can leave a table too small (Huckley Buck's 3, 4, 3 move to 4, 2, 4: a table
    of two cannot start its game) or too large; the fewest moves of the rebalancing
    (docs/format.md rule 7) are then made before anyone sits down, instead of seating a
    size the game's rules do not allow and waiting for the director to notice."""
    if all(rules.play_min <= len(table) <= rules.play_max for table in tables):
        return tables
    try:
        return [list(table) for table in fmt.rebalance_plan(tables, rules).tables if table]
    except fmt.FormatError:
        return tables  # no seating fits (too few players): the manage page says so


def _rotate_sit_outs(
    session: Session, sitting: Sitting, tables: list[list[int]], *, fill: bool = False
) -> tuple[list[list[int]], list[int]]:
    """Who sits out the next sitting, in turn (docs/format.md rule 8): those who sat out least.
    The players coming back take the seats of those going out. With `fill` (robots fill
    seats) nobody sits out: those who sat out come back to the bottom table."""
    rules = fmt.format_for(session.rules_id)
    # A withdrawal deletes the player's sit-out, so these are all still playing.
    waiting = list(SitOut.objects.filter(sitting=sitting).values_list("player_id", flat=True))
    seated = [pid for table in tables for pid in table]
    everyone = seated + waiting
    count = fmt.sit_out_count(len(everyone), rules) if everyone and not fill else 0
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
        return ConflictError("session_not_running", gettext("This session is not running."))
    if latest is None:
        return ConflictError("session_not_started", gettext("This session has not started yet."))
    if latest.number == 1:
        return ConflictError("nothing_to_undo", gettext("No movement has been confirmed yet."))
    if Game.objects.filter(table__sitting=latest, round_count__gt=0).exists():
        return ConflictError(
            "new_sitting_started",
            gettext(
                "Sitting %(latest_number)s already has results entered; delete them "
                "first if the movement must be undone."
            )
            % {"latest_number": latest.number},
        )
    return None


def movement_can_undo(session: Session, latest: Sitting | None) -> bool:
    return movement_undo_refusal(session, latest) is None


@transaction.atomic
def sitting_undo_movement(*, session_id: int, user: Caller) -> Sitting:
    """Take back the last movement while no game of the new sitting has a round."""
    # Exclusive, so that no round slips in between the check and the delete.
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("undo a movement"))
    latest = selectors.current_sitting(session)
    refusal = movement_undo_refusal(session, latest)
    if refusal is not None:
        raise refusal
    assert latest is not None
    previous = session.sittings.get(number=latest.number - 1)
    latest.delete()
    Placing.objects.filter(sitting=previous).delete()
    previous.moved_at = None
    previous.save(update_fields=["moved_at"])
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="movement.undo",
        summary=f"Undid the movement after sitting {previous.number}",
        details={"sitting": previous.number, "removed_sitting": previous.number + 1},
    )
    pagecache.board_changed(session.pk)
    seats_changed_on_commit(session.pk)
    backup_on_commit("undo-movement")
    return previous


def rebalance_proposal(*, session: Session) -> list[fmt.Rebalance[int]]:
    sitting = selectors.require_current_sitting(session)
    rules = fmt.format_for(session.rules_id)
    tables = selectors.sitting_active_tables(sitting)
    try:
        return fmt.rebalance([ids for _, ids in tables], rules)
    except fmt.FormatError as e:
        raise ConflictError(e.code, str(e)) from None


@transaction.atomic
def session_rebalance(
    *, session_id: int, expected: Sequence[tuple[int, int, int]], user: Caller
) -> int:
    """Apply the proposed moves the director saw. If the tables changed since, the
    proposal is refused so that the director looks again."""
    session = locks.lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("rebalance its tables"))
    if session.status != Session.Status.RUNNING:
        raise ConflictError("session_not_running", gettext("This session is not running."))
    proposal = rebalance_proposal(session=session)
    current = [(m.player, m.from_rank, m.to_rank) for m in proposal]
    if list(map(tuple, expected)) != current:
        raise ConflictError(
            "proposal_changed",
            gettext("The tables changed since the proposal was shown; look again."),
        )
    sitting = selectors.require_current_sitting(session)
    tables = {t.rank: t for t in sitting.tables.all()}
    # The tables each moved player leaves and joins: their other players see it too.
    touched: set[int] = set()
    for move in proposal:
        seating = Seating.objects.select_related("table", "player").get(
            sitting=sitting, player_id=move.player
        )
        game = withdrawals.game_under_way(seating)
        if game is not None:
            raise ConflictError(
                "move_mid_game",
                gettext(
                    "%(player)s is in the middle of game %(game_number)s at table %(rank)s; "
                    "rebalance when that game ends."
                )
                % {
                    "player": seating.player.name,
                    "game_number": game.number,
                    "rank": seating.table.rank,
                },
            )
        source = seating.table
        if move.to_rank not in tables:
            # A new bottom table: the smallest physical number no table of the sitting has.
            used = {t.number for t in tables.values()}
            number = next(n for n in range(1, len(used) + 2) if n not in used)
            tables[move.to_rank] = Table.objects.create(
                sitting=sitting, rank=move.to_rank, number=number, online=session.online
            )
        target = tables[move.to_rank]
        touched |= {source.pk, target.pk}
        seating.table = target
        seating.seat = (target.seatings.aggregate(m=Max("seat"))["m"] or 0) + 1
        seating.save(update_fields=["table", "seat"])
        services.refresh_unstarted_game(source)
        if not Game.objects.filter(table=target).exists():
            table_start_game(table=target, number=1)
        else:
            services.refresh_unstarted_game(target)
    # A table left with nobody seated is closed.
    for table in sitting.tables.all():
        if (
            not table.seatings.filter(left_at__isnull=True).exists()
            and not table.games.filter(round_count__gt=0).exists()
        ):
            table.delete()
    table_links.table_cards_ensure(session=session)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="session.rebalance",
        summary=f"Rebalanced the tables ({len(proposal)} players moved)",
        details={"moves": [list(m) for m in current]},
    )
    pagecache.board_changed(session.pk)
    seats_changed_on_commit(session.pk, players=[m.player for m in proposal], tables=touched)
    return len(proposal)
