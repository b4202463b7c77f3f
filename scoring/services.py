"""Result entry: the one adapter between stored rounds and the rules engine.

Every write builds the game's record from its rows, has the engine check the whole game,
and stores the round together with the game's summary in one transaction, with the game
row locked so that two scorers at one table cannot interleave.

It is one module on purpose (over 400 lines): entering, correcting and deleting a round
and keeping the table's next game in step with it share the lock, the engine check and
the summary; splitting them would spread one transaction's rules over several files.
What a correction will change, and a director's restore, are `scoring.corrections`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User as Account
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

import engine
from common.errors import ConflictError, UserError
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from scoring.signals import game_result_changed
from tournaments import pagecache
from tournaments.format import make_rng
from tournaments.models import ScorerLink, Seating, Session, Table
from tournaments.permissions import Actor, User, as_actor, can_direct, live_links

logger = logging.getLogger(__name__)

Who = Actor | User


@dataclass(frozen=True)
class Entry:
    """What entering a round did: stored it (`round`), or, with double entry, left it
    waiting for a second entry (`pending`). `created` is False when the same round had
    been stored already (a double submit)."""

    round: Round | None
    pending: PendingRound | None = None
    created: bool = True
    # With double entry: another person entered this round differently. Both entries are
    # kept (so this is returned, not raised, to keep the transaction) and shown to both.
    mismatch: str | None = None


@dataclass(frozen=True)
class _Who:
    user: Account | None
    link: ScorerLink | None
    device: str
    director: bool


def _who(who: Who, game: Game) -> _Who:
    actor = as_actor(who)
    user = actor.account
    link = None
    if actor.scorer_tokens:
        link = live_links(actor.scorer_tokens).filter(table_id=game.table_id).first()
    director = can_direct(actor, game.table.sitting.session.club_id)
    return _Who(user=user, link=link, device=actor.device or "unknown", director=director)


def game_record(
    game: Game, *, rounds: Sequence[Mapping[str, Any]] | None = None
) -> engine.GameRecord:
    """The game in the engine's record format (`buck-game/1`)."""
    game_players = list(game.game_players.all())
    first_dealer = next(gp.name for gp in game_players if gp.player_id == game.first_dealer_id)
    if rounds is None:
        rounds = [r.data for r in game.rounds.all()]
    record: engine.GameRecord = {
        "format": "buck-game/1",
        "rules": game.rules_id,
        "players": [gp.name for gp in game_players],
        "first_dealer": first_dealer,
        "options": dict(game.options),
        "rounds": [dict(r) for r in rounds],
    }
    substitutes = [
        {"player": gp.name, "replaced": gp.replaced_name, "after_round": gp.replaced_after_round}
        for gp in game_players
        if gp.replaced_name
    ]
    if substitutes:  # Extension (docs/game-record.md): seats that changed hands mid-game.
        record["substitutes"] = substitutes
    return record


def game_check(game: Game) -> engine.Verdict:
    return engine.check(game_record(game))


def _new_game(
    *,
    table: Table,
    session: Session,
    number: int,
    seated: Sequence[tuple[int, str]],
    winner: str | None = None,
) -> tuple[Game, list[GamePlayer]]:
    """Game `number` at a table, unsaved, for the players `seated` (id, name) in seat order.

    The winner of the previous game deals first (ruling 7); the first game of a sitting,
    or one after a game with no single winner at the table, draws high card from the
    session's seed.
    """
    ids = dict((name, pid) for pid, name in seated)
    game = Game(
        table=table, number=number, rules_id=session.rules_id, options={}, first_dealer_draw={}
    )
    if winner in ids:
        game.first_dealer_id = ids[winner]
        game.first_dealer_source = Game.DealerSource.PREVIOUS_WINNER
    else:
        seed = make_rng(session.seed, "draw", table.sitting.number, table.rank, number)
        dealer, cards = engine.draw_first_dealer(list(ids), seed=seed.getrandbits(32))
        game.first_dealer_id = ids[dealer]
        game.first_dealer_source = Game.DealerSource.DRAW
        game.first_dealer_draw = cards
    players = [
        GamePlayer(game=game, player_id=pid, seat=i, name=name)
        for i, (pid, name) in enumerate(seated, start=1)
    ]
    return game, players


def _seated(tables: Sequence[Table]) -> dict[int, list[tuple[int, str]]]:
    rows = (
        Seating.objects.filter(table__in=tables, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "player_id", "player__name")
    )
    seated: dict[int, list[tuple[int, str]]] = {t.pk: [] for t in tables}
    for table_id, player_id, name in rows:
        seated[table_id].append((player_id, name))
    return seated


def table_start_game(*, table: Table, number: int, previous: Game | None = None) -> Game:
    """Start game `number` at a table with the players seated there now."""
    winner = engine.next_game_first_dealer(game_check(previous)) if previous else None
    game, players = _new_game(
        table=table,
        session=table.sitting.session,
        number=number,
        seated=_seated([table])[table.pk],
        winner=winner,
    )
    game.save()
    GamePlayer.objects.bulk_create(players)
    return game


def tables_start_first_games(*, tables: Sequence[Table], session: Session) -> None:
    """Game 1 at every table of a new sitting, in a fixed number of queries whatever the
    number of tables (a festival seats 250 at once)."""
    seated = _seated(tables)
    made = [
        _new_game(table=t, session=session, number=1, seated=seated[t.pk])
        for t in tables
        if seated[t.pk]
    ]
    Game.objects.bulk_create([game for game, _ in made])
    GamePlayer.objects.bulk_create([gp for _, players in made for gp in players])


def game_refresh_players(*, game: Game) -> None:
    """Re-seat a game that has no round yet after an arrival, withdrawal or move."""
    if game.round_count:
        raise ConflictError(
            "game_in_progress", f"Game {game.number} has rounds entered; its players are fixed."
        )
    table, number = game.table, game.number
    game.delete()
    if Seating.objects.filter(table=table, left_at__isnull=True).exists():
        table_start_game(table=table, number=number)


def _lock_game(game_id: int) -> Game:
    try:
        game = (
            Game.objects.select_for_update()
            .select_related("table__sitting__session")
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise UserError("no_such_game", "That game does not exist.") from None
    sitting = game.table.sitting
    if sitting.session.status != Session.Status.RUNNING:
        raise ConflictError(
            "session_not_running", "This session is not running; results can no longer change."
        )
    if sitting.moved_at is not None:
        raise ConflictError(
            "sitting_closed",
            f"Players have moved on from sitting {sitting.number}. "
            "The director can undo the movement to correct a result.",
        )
    return game


def _refuse(output: engine.Verdict, *, changed: int, verb: str) -> UserError:
    errors = list(output["errors"])
    where = errors[0].get("round") if errors else None
    if verb == "deleted" and where is not None:
        text = "; ".join(e["message"] for e in errors)
        return UserError(
            "later_round_invalid",
            f"Round {changed} was not deleted: the game would then go wrong at round {where} "
            f"(counting after the deletion): {text}",
            details=errors,
        )
    if where is None or where == changed:
        text = "; ".join(e["message"] for e in errors)
        return UserError("round_invalid", f"Round {changed} was not {verb}: {text}", details=errors)
    text = "; ".join(e["message"] for e in errors)
    return UserError(
        "later_round_invalid",
        f"Round {changed} was not {verb}: round {where} would then be wrong ({text}). "
        f"Correct round {where} first, or delete it.",
        details=errors,
    )


def _store_outcome(game: Game, output: engine.Verdict, *, rounds: int) -> None:
    """Keep the game's summary rows in step with the engine's verdict."""
    winner = output["winner"]
    # One name, a list of names for a shared win, or nobody yet.
    winners = {winner} if isinstance(winner, str) else set(winner or [])
    hooks: dict[str, int] = {}
    for r in output["rounds"]:
        for name in r["hooks"]:
            hooks[name] = hooks.get(name, 0) + 1
    game_players = list(game.game_players.all())
    for gp in game_players:
        gp.score = output["scores"].get(gp.name, 0)
        gp.hooks = hooks.get(gp.name, 0)
        gp.won = gp.name in winners
    GamePlayer.objects.bulk_update(game_players, ["score", "hooks", "won"])
    game.round_count = rounds
    was_finished = game.status == Game.Status.FINISHED
    if output["finished"] != was_finished:
        pagecache.board_changed(game.table.sitting.session_id)
    else:
        pagecache.live_changed(game.table.sitting.session_id)
    if output["finished"]:
        if game.status != Game.Status.FINISHED:
            game.finished_at = timezone.now()
        game.status = Game.Status.FINISHED
    else:
        game.status = Game.Status.PLAYING
        game.finished_at = None
    game.save(update_fields=["round_count", "status", "finished_at"])
    if was_finished or output["finished"]:
        session = game.table.sitting.session
        game_result_changed.send(
            sender=Game, game_id=game.pk, club_id=session.club_id, rules_id=game.rules_id
        )


@dataclass(frozen=True)
class NextGamePlan:
    """What a change to a game does to the next game at the table.

    `action`: "none" (there is none and none starts), "keep", "start" (this game ends, so
    the next one starts), "redeal" (the next game goes and starts again with the new
    winner dealing) or "withdraw" (this game is open again, so the next one goes).
    """

    action: str
    number: int | None = None
    dealer_before: str | None = None
    # The new first dealer; None with "start"/"redeal" means a high-card draw decides.
    dealer_after: str | None = None
    #: The rounds of the next game that would go with it.
    rounds: tuple[dict[str, Any], ...] = ()

    @property
    def removes(self) -> bool:
        return self.action in ("redeal", "withdraw")


def plan_next_game(game: Game, output: engine.Verdict) -> NextGamePlan:
    """The next game at the table must follow from this one: started when this one ends,
    dealt first by its winner, gone again if this one is re-opened."""
    next_game = Game.objects.filter(table=game.table, number=game.number + 1).first()
    more = game.number < game.table.sitting.games_per_sitting
    new_dealer = engine.next_game_first_dealer(output) if output["finished"] else None
    if next_game is None:
        if output["finished"] and more:
            return NextGamePlan("start", game.number + 1, dealer_after=new_dealer)
        return NextGamePlan("none")
    current = next(
        (
            gp.name
            for gp in next_game.game_players.all()
            if gp.player_id == next_game.first_dealer_id
        ),
        None,
    )
    if output["finished"] and (
        next_game.first_dealer_source != Game.DealerSource.PREVIOUS_WINNER or new_dealer == current
    ):
        return NextGamePlan("keep", next_game.number, current, current)
    return NextGamePlan(
        "redeal" if output["finished"] and more else "withdraw",
        next_game.number,
        dealer_before=current,
        dealer_after=new_dealer,
        rounds=tuple(dict(r.data) for r in next_game.rounds.order_by("number")),
    )


def _sync_next_game(
    game: Game, output: engine.Verdict, *, confirm: bool = False
) -> dict[str, Any] | None:
    """Bring the next game at the table in line with this one (`plan_next_game`).

    A next game that has rounds goes only with `confirm` (the scorer saw what goes and
    agreed); what goes is returned, for the change history and for a restore.
    """
    plan = plan_next_game(game, output)
    removed = None
    if plan.removes:
        if plan.rounds and not confirm:
            count = len(plan.rounds)
            raise ConflictError(
                "next_game_started",
                f"This change would alter who won game {game.number}, but game "
                f"{plan.number} has {count} round{'s' if count != 1 else ''} entered "
                "already. Confirm the change to take them off (they stay in the game's "
                "history and a director can restore them).",
            )
        removed = {
            "game": plan.number,
            "first_dealer": plan.dealer_before,
            "rounds": list(plan.rounds),
        }
        Game.objects.filter(table=game.table, number=game.number + 1).delete()
    if plan.action in ("start", "redeal"):
        table_start_game(table=game.table, number=game.number + 1, previous=game)
    return removed


def _recheck(
    game: Game, rounds: list[dict[str, Any]], *, changed: int, verb: str
) -> engine.Verdict:
    output = engine.check(game_record(game, rounds=rounds))
    if not output["valid"]:
        raise _refuse(output, changed=changed, verb=verb)
    return output


#: The most a round may weigh as compact JSON. The largest real round (Bluke at 15
#: players with every card played and 60-character names) is about 3,500 characters;
#: this leaves room for long names in any script without storing megabytes.
ROUND_MAX_CHARS = 32_000


def _clean(data: Mapping[str, Any], *, rules_id: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise UserError("round_not_an_object", "A round must be a JSON object of its fields.")
    known = engine.RULES[rules_id].round_fields if rules_id in engine.RULES else ()
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        # The engine would ignore them, but the round is stored, audited and served back
        # as entered: refuse what no rule reads rather than keep it.
        game = engine.RULES[rules_id].name if rules_id in engine.RULES else rules_id
        raise UserError(
            "unknown_round_field",
            # An API client's mistake (the form sends only known fields): the keys, quoted.
            f"A {game} round has no field {', '.join(repr(k[:40]) for k in unknown[:5])}; "
            f"its fields are {', '.join(repr(k) for k in known)}.",
            field=unknown[0][:40],
        )
    size = len(json.dumps(dict(data), ensure_ascii=False, separators=(",", ":"), default=str))
    if size > ROUND_MAX_CHARS:
        raise UserError(
            "round_too_large",
            f"This round is {size:,} characters of data; a round is at most "
            f"{ROUND_MAX_CHARS:,}. Check what was entered.",
        )
    # Stored exactly as entered: `null` means something in some games (no trump).
    return dict(data)


@transaction.atomic
def round_submit(
    *, game_id: int, number: int, data: Mapping[str, Any], actor: Who, entry_key: str = ""
) -> Entry:
    """Enter round `number` of a game.

    Entering the same round twice (a double submit or a retry) returns the stored round
    with `created=False`; so does a resend with the `entry_key` of a stored round (the
    scorer's page sends one with every round, and resends a round it kept while the
    network was down), even if that round was corrected since. A different round under a
    taken number is a conflict. With double entry on, a scorer's round waits until a
    second person at the table (or a director) enters the same numbers; different
    numbers are a conflict shown to both.
    """
    game = _lock_game(game_id)
    who = _who(actor, game)
    cleaned = _clean(data, rules_id=game.rules_id)
    if entry_key:
        sent = Round.objects.filter(game=game, entry_key=entry_key).first()
        if sent is not None:
            return Entry(round=sent, created=False)
    if number != game.round_count + 1:
        existing = Round.objects.filter(game=game, number=number).first()
        if existing is not None and existing.data == cleaned:
            return Entry(round=existing, created=False)
        entered = ngettext("%(count)d round", "%(count)d rounds", game.round_count) % {
            "count": game.round_count
        }
        raise ConflictError(
            "round_number_taken" if existing else "round_number_out_of_order",
            f"Round {number} cannot be entered: this game has {entered}, so the next one is "
            f"round {game.round_count + 1}. Reload the score sheet.",
        )
    rounds = [r.data for r in game.rounds.all()] + [cleaned]
    output = _recheck(game, rounds, changed=number, verb="entered")
    note = ""
    if game.table.sitting.session.double_entry:
        pending = list(PendingRound.objects.filter(game=game, number=number))
        others = [p for p in pending if p.device != who.device]
        matching = [p for p in others if p.data == cleaned]
        if matching:
            by = _describe(matching[0].entered_by, matching[0].scorer_link)
            note = f"double entry: confirmed the entry of {by}"
        elif who.director and not others:
            note = "entered by a director"
        else:
            mine, _ = PendingRound.objects.update_or_create(
                game=game,
                number=number,
                device=who.device,
                defaults={"data": cleaned, "entered_by": who.user, "scorer_link": who.link},
            )
            mismatch = None
            if others:
                mismatch = (
                    f"Round {number} was entered differently by "
                    f"{_describe(others[0].entered_by, others[0].scorer_link)}. Compare both "
                    "entries on the score sheet and enter the right numbers again."
                )
            return Entry(round=None, pending=mine, mismatch=mismatch)
    saved = Round.objects.create(
        game=game, number=number, data=cleaned, entered_by=who.user, entry_key=entry_key
    )
    PendingRound.objects.filter(game=game, number=number).delete()
    RoundChange.objects.create(
        game=game,
        round_number=number,
        action=RoundChange.Action.ENTER,
        after=cleaned,
        user=who.user,
        scorer_link=who.link,
        note=note,
    )
    _store_outcome(game, output, rounds=len(rounds))
    _sync_next_game(game, output)
    return Entry(round=saved)


def _describe(user: Account | None, link: ScorerLink | None) -> str:
    if user is not None:
        return user.get_username()
    return "the table's scorer link" if link is not None else "someone"


@transaction.atomic
def round_correct(
    *, game_id: int, number: int, data: Mapping[str, Any], actor: Who, confirm: bool = False
) -> Round:
    """Replace what a round says; the whole game is checked again.

    A correction that changes who won takes the next game at the table with it; if that
    game has rounds, only with `confirm` (see `scoring.corrections.correction_preview`
    for what a correction will change), and they are kept in the change history.
    """
    game = _lock_game(game_id)
    who = _who(actor, game)
    cleaned = _clean(data, rules_id=game.rules_id)
    stored = list(game.rounds.all())
    target = next((r for r in stored if r.number == number), None)
    if target is None:
        raise UserError("no_such_round", f"Game {game.number} has no round {number}.")
    rounds = [cleaned if r.number == number else r.data for r in stored]
    output = _recheck(game, rounds, changed=number, verb="corrected")
    before = target.data
    if before == cleaned:
        return target
    target.data = cleaned
    target.save(update_fields=["data", "updated_at"])
    _store_outcome(game, output, rounds=len(rounds))
    removed = _sync_next_game(game, output, confirm=confirm)
    RoundChange.objects.create(
        game=game,
        round_number=number,
        action=RoundChange.Action.EDIT,
        before=before,
        after=cleaned,
        user=who.user,
        scorer_link=who.link,
        removed=removed,
    )
    return target


@transaction.atomic
def round_delete(*, game_id: int, number: int, actor: Who, confirm: bool = False) -> None:
    """Delete a round; later rounds move up one number and the game is checked again.
    The next game at the table follows as with `round_correct`."""
    game = _lock_game(game_id)
    who = _who(actor, game)
    stored = list(game.rounds.all())
    target = next((r for r in stored if r.number == number), None)
    if target is None:
        raise UserError("no_such_round", f"Game {game.number} has no round {number}.")
    rounds = [r.data for r in stored if r.number != number]
    output = _recheck(game, rounds, changed=number, verb="deleted")
    target.delete()
    for later in stored:
        if later.number > number:
            later.number -= 1
            later.save(update_fields=["number"])
    _store_outcome(game, output, rounds=len(rounds))
    removed = _sync_next_game(game, output, confirm=confirm)
    RoundChange.objects.create(
        game=game,
        round_number=number,
        action=RoundChange.Action.DELETE,
        before=target.data,
        user=who.user,
        scorer_link=who.link,
        removed=removed,
    )
