"""The kernel of storing a round: what every change to a game's rounds does, whoever
makes it. Round entry (`scoring.services`) and corrections and restores
(`scoring.corrections`) are built from these steps, in this order:

1. `lock_for_change`: the game's rows locked in the lock order (`scoring.locks`), and
   refused by `entry_refusal` if the game is no longer open;
2. `author_of`: who makes the change (the account, the table's scorer link, the device,
   and whether they direct the club);
3. `clean_round`: the round as it will be stored, refused if no rule reads a field of it
   or it is too large;
4. `recheck`: the whole game, as it would be, checked by the engine; a round the engine
   refuses is a `UserError` that names the round at fault;
5. `sync_next_game`: the next game at the table follows from this one (`plan_next_game`);
6. `store_outcome`: the game's summary rows (scores, hooks, winner, status) in step with
   the verdict, the ratings told and the session's pages marked stale, last of all (it
   writes the session's row, which every round of the session waits for).

Each step runs inside the caller's transaction. The locks a round takes leave the rounds
of the session's other tables free to run at the same time; the one step they take in
turn is the short write of the session's page versions at the end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User as Account
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext_lazy

import engine
from common import rows
from common.errors import ConflictError, UserError
from scoring import engine_words, locks
from scoring.models import Game, GamePlayer, Round
from scoring.records import game_record
from scoring.signals import game_result_changed
from scoring.tables import table_start_game
from tournaments import audit, pagecache
from tournaments.models import ScorerLink, Session, Table
from tournaments.permissions import Actor, User, as_actor, can_direct, live_links, not_a_scorer

Who = Actor | User


def entry_refusal(game: Game) -> UserError | None:
    """Why the rounds of `game` can no longer change, in words that say what to do, or
    None while they can: its session runs and its sitting has not moved on. The score
    sheet offers entry and corrections only when this is None; every write refuses with
    it, after taking its locks."""
    sitting = game.table.sitting
    if sitting.session.status != Session.Status.RUNNING:
        return ConflictError(
            "session_not_running",
            gettext("This session is not running; results can no longer change."),
        )
    if sitting.moved_at is not None:
        return ConflictError(
            "sitting_closed",
            gettext(
                "Players have moved on from sitting %(sitting_number)s. The director "
                "can undo the movement to correct a result."
            )
            % {"sitting_number": sitting.number},
        )
    return None


def lock_for_change(game_id: int) -> Game:
    """The game, about to change: its session locked shared, then its table, then the
    game (`scoring.locks`), and checked open for entry only once they are held, so that a
    movement that committed meanwhile is seen."""
    where = (
        Game.objects.filter(pk=game_id)
        .values_list("table_id", "table__sitting__session_id")
        .first()
    )
    if where is None:
        raise UserError("no_such_game", gettext("That game does not exist."))
    table_id, session_id = where
    locks.share_session(session_id)
    try:
        locks.lock_table(table_id)
        game = locks.lock_game(game_id)
    except (Table.DoesNotExist, Game.DoesNotExist):
        # Taken away while this write waited for the session: an undone movement, a
        # rebalance that closed the table, a correction that re-opened the game before.
        raise UserError("no_such_game", gettext("That game does not exist.")) from None
    refusal = entry_refusal(game)
    if refusal is not None:
        raise refusal
    return game


@dataclass
class Held:
    """A game whose locks the caller already holds, taken in the lock order as
    `lock_for_change` takes them, with the rows it has read under them: a round's end in
    online play (`play.rounds.store_round`) stores the round from these rather than lock
    and read them again. The game is the table's current one (`locks.lock_current_game`),
    so no later game exists."""

    game: Game  # its table, sitting and session read alongside
    game_players: list[GamePlayer]  # by seat, with their players
    rounds: list[Round]  # the stored rounds, by number


def held_open(held: Held, game_id: int) -> Game:
    """`lock_for_change` for a game whose locks the caller holds (`Held`): the same
    refusal when the game is no longer open for entry, with no query."""
    game = held.game
    if game.pk != game_id:
        raise UserError("no_such_game", gettext("That game does not exist."))
    refusal = entry_refusal(game)
    if refusal is not None:
        raise refusal
    return game


@dataclass(frozen=True)
class Author:
    """Who makes a change, as the change history keeps it."""

    user: Account | None
    link: ScorerLink | None
    device: str
    director: bool


def author_of(who: Who, game: Game) -> Author:
    """Who makes a change at the game's table; refused (`tournaments.permissions`) unless
    they may score it: a director of the club, or the holder of the table's live scorer
    link. Every write at a table asks it right after taking its locks."""
    actor = as_actor(who)
    link = None
    if actor.scorer_tokens:
        link = live_links(actor.scorer_tokens).filter(table_id=game.table_id).first()
    director = can_direct(actor, game.table.sitting.session.club_id)
    if not director and link is None:
        raise not_a_scorer()
    return Author(
        user=actor.account, link=link, device=actor.device or "unknown", director=director
    )


def audit_director_change(
    author: Author, caller: Who, game: Game, action: str, summary: str
) -> None:
    """Keep a director's change of a round in the club's audit log (a scorer's change is
    kept in the round's history only: it is not a director's write). Called by the
    correction, the deletion and the restore inside their transaction."""
    if not author.director or caller is None:
        return
    table = game.table
    session = table.sitting.session
    audit.record(
        caller,
        club=session.club_id,
        session=session,
        action=action,
        summary=f"{summary} of game {game.number} at table {table.rank} "
        f"(sitting {table.sitting.number})",
        details={"game": game.pk, "game_number": game.number, "table": table.rank},
    )


#: The most a round may weigh as compact JSON. The largest real round (Bluke at 15
#: players with every card played and 60-character names) is about 3,500 characters;
#: this leaves room for long names in any script without storing megabytes.
ROUND_MAX_CHARS = 32_000


def clean_round(data: Mapping[str, Any], *, rules_id: str) -> dict[str, Any]:
    """The round as it will be stored: exactly as entered, once it is an object of the
    game's round fields of a sane size."""
    if not isinstance(data, Mapping):
        raise UserError(
            "round_not_an_object", gettext("A round must be a JSON object of its fields.")
        )
    known = engine.RULES[rules_id].round_fields if rules_id in engine.RULES else ()
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        # The engine would ignore them, but the round is stored, audited and served back
        # as entered: refuse what no rule reads rather than keep it.
        game = engine.RULES[rules_id].name if rules_id in engine.RULES else rules_id
        raise UserError(
            "unknown_round_field",
            # An API client's mistake (the form sends only known fields): the keys, quoted.
            gettext("A %(game)s round has no field %(join)s; its fields are %(join2)s.")
            % {
                "game": game,
                "join": ", ".join(repr(k[:40]) for k in unknown[:5]),
                "join2": ", ".join(repr(k) for k in known),
            },
            field=unknown[0][:40],
        )
    size = len(json.dumps(dict(data), ensure_ascii=False, separators=(",", ":"), default=str))
    if size > ROUND_MAX_CHARS:
        raise UserError(
            "round_too_large",
            gettext(
                "This round is %(size)s characters of data; a round is at most "
                "%(ROUND_MAX_CHARS)s. Check what was entered."
            )
            % {"size": format(size, ","), "ROUND_MAX_CHARS": format(ROUND_MAX_CHARS, ",")},
        )
    # Stored exactly as entered: `null` means something in some games (no trump).
    return dict(data)


#: What was done to a round, as a refusal says it was not done ("Round 3 was not entered").
VERBS = {
    "entered": pgettext_lazy("a round was not …", "entered"),
    "corrected": pgettext_lazy("a round was not …", "corrected"),
    "deleted": pgettext_lazy("a round was not …", "deleted"),
    "restored": pgettext_lazy("a round was not …", "restored"),
}


def _refusal(output: engine.Verdict, *, changed: int, verb: str) -> UserError:
    errors = engine_words.problems_in_words(list(output["errors"]))
    where = errors[0].get("round") if errors else None
    text = "; ".join(e["message"] for e in errors)
    if verb == "deleted" and where is not None:
        return UserError(
            "later_round_invalid",
            gettext(
                "Round %(changed)s was not deleted: the game would then go wrong at "
                "round %(where)s (counting after the deletion): %(text)s"
            )
            % {"changed": changed, "where": where, "text": text},
            details=errors,
        )
    if where is None or where == changed:
        return UserError(
            "round_invalid",
            gettext("Round %(changed)s was not %(verb)s: %(text)s")
            % {"changed": changed, "verb": VERBS.get(verb, verb), "text": text},
            details=errors,
        )
    return UserError(
        "later_round_invalid",
        gettext(
            "Round %(changed)s was not %(verb)s: round %(where)s would then be "
            "wrong (%(text)s). Correct round %(where)s first, or delete it."
        )
        % {"changed": changed, "verb": VERBS.get(verb, verb), "where": where, "text": text},
        details=errors,
    )


def recheck(
    game: Game,
    rounds: list[dict[str, Any]],
    *,
    changed: int,
    verb: str,
    game_players: list[GamePlayer] | None = None,
) -> engine.Verdict:
    """The engine's verdict on the game with `rounds` instead of its stored ones; a
    `UserError` naming round `changed` and what was done to it (`verb`) if it is not
    valid. `game_players`: the game's players with their players, when read already."""
    output = engine.check(game_record(game, rounds=rounds, game_players=game_players))
    if not output["valid"]:
        raise _refusal(output, changed=changed, verb=verb)
    return output


def store_outcome(
    game: Game,
    output: engine.Verdict,
    *,
    rounds: int,
    game_players: list[GamePlayer] | None = None,
) -> None:
    """Keep the game's summary rows in step with the engine's verdict, and mark the
    session's pages stale. `game_players`: the game's players, when read already.

    Call it last: marking the pages stale updates the session's row (its page versions),
    and that row lock is held until the commit, so every other round of the session
    waits for it there; the later in the transaction, the shorter the wait."""
    winner = output["winner"]
    # One name, a list of names for a shared win, or nobody yet.
    winners = {winner} if isinstance(winner, str) else set(winner or [])
    hooks: dict[str, int] = {}
    for r in output["rounds"]:
        for name in r["hooks"]:
            hooks[name] = hooks.get(name, 0) + 1
    if game_players is None:
        game_players = list(game.game_players.all())
    for gp in game_players:
        gp.score = output["scores"].get(gp.name, 0)
        gp.hooks = hooks.get(gp.name, 0)
        gp.won = gp.name in winners
    _update_totals(game_players)
    game.round_count = rounds
    was_finished = game.status == Game.Status.FINISHED
    if output["finished"]:
        if game.status != Game.Status.FINISHED:
            game.finished_at = timezone.now()
        game.status = Game.Status.FINISHED
    else:
        game.status = Game.Status.PLAYING
        game.finished_at = None
    rows.update(game, ["round_count", "status", "finished_at"])
    if was_finished or output["finished"]:
        session = game.table.sitting.session
        game_result_changed.send(
            sender=Game, game_id=game.pk, club_id=session.club_id, rules_id=game.rules_id
        )
    if output["finished"] != was_finished:
        pagecache.board_changed(game.table.sitting.session_id)
    else:
        pagecache.live_changed(game.table.sitting.session_id)


def _update_totals(game_players: list[GamePlayer]) -> None:
    """The players' `score`, `hooks` and `won` written in one UPDATE: what
    `bulk_update` writes, without building its expressions (a round's end at every
    online table runs it)."""
    if not game_players:
        return
    quote = connection.ops.quote_name
    ids = [gp.pk for gp in game_players]
    sets: list[str] = []
    params: list[Any] = []
    # The fields are their columns (no `db_column`).
    for field, kind in (("score", "integer"), ("hooks", "integer"), ("won", "boolean")):
        whens = " ".join(f"WHEN %s THEN CAST(%s AS {kind})" for _ in game_players)
        sets.append(f"{quote(field)} = CASE {quote('id')} {whens} END")
        for gp in game_players:
            params += [gp.pk, getattr(gp, field)]
    where = ", ".join("%s" for _ in ids)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(GamePlayer._meta.db_table)} SET {', '.join(sets)}"
            f" WHERE {quote('id')} IN ({where})",
            [*params, *ids],
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


def plan_next_game(game: Game, output: engine.Verdict, *, latest: bool = False) -> NextGamePlan:
    """The next game at the table must follow from this one: started when this one ends,
    dealt first by its winner, gone again if this one is re-opened. `latest`: the caller
    holds the table's lock and knows the game is its last (a `Held` game), so none is
    read."""
    next_game = (
        None if latest else Game.objects.filter(table=game.table, number=game.number + 1).first()
    )
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


def sync_next_game(
    game: Game, output: engine.Verdict, *, confirm: bool = False, latest: bool = False
) -> dict[str, Any] | None:
    """Bring the next game at the table in line with this one (`plan_next_game`, which
    reads no next game when `latest`).

    A next game that has rounds goes only with `confirm` (the scorer saw what goes and
    agreed); what goes is returned, for the change history and for a restore.
    """
    plan = plan_next_game(game, output, latest=latest)
    removed = None
    if plan.removes:
        if plan.rounds and not confirm:
            count = len(plan.rounds)
            raise ConflictError(
                "next_game_started",
                ngettext(
                    "This change would alter who won game %(game_number)s, but game "
                    "%(plan_number)s has %(count)s round entered already. Confirm "
                    "the change to take them off (they stay in the game's history and a "
                    "director can restore them).",
                    "This change would alter who won game %(game_number)s, but game "
                    "%(plan_number)s has %(count)s rounds entered already. Confirm "
                    "the change to take them off (they stay in the game's history and a "
                    "director can restore them).",
                    count,
                )
                % {"game_number": game.number, "plan_number": plan.number, "count": count},
            )
        removed = {
            "game": plan.number,
            "first_dealer": plan.dealer_before,
            "rounds": list(plan.rounds),
        }
        Game.objects.filter(table=game.table, number=game.number + 1).delete()
    if plan.action in ("start", "redeal"):
        table_start_game(table=game.table, number=game.number + 1, previous=game, verdict=output)
    return removed
