"""Round entry: entering, correcting and deleting a round at a table, each one
transaction built from the steps of the kernel (`scoring.rounds`): the game locked in
the lock order, the whole game checked by the engine, the round stored with the game's
summary, the next game at the table kept in step. With double entry, a scorer's round
waits for a second person to enter the same numbers (`PendingRound`).

What a correction will change, and a director's restore, are `scoring.corrections`;
starting games at the tables, `scoring.tables`; the game record, `scoring.records`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User as Account
from django.db import transaction
from django.utils.translation import gettext, ngettext

import engine
from common import rows
from common.errors import ConflictError, UserError
from scoring import rounds as kernel
from scoring.models import Game, PendingRound, Round, RoundChange
from tournaments.models import ScorerLink
from tournaments.permissions import ONLINE, Actor
from tournaments.signals import seats_changed_on_commit

#: The note of a round the players played on their phones (the `ONLINE` actor): nobody
#: typed it in, and the score sheet's history says so in words of its own.
PLAYED_ONLINE = "played online"

Who = kernel.Who


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
    # The engine's verdict on the game with the round stored (None when none was).
    verdict: engine.Verdict | None = None


def round_submit(
    *,
    game_id: int,
    number: int,
    data: Mapping[str, Any],
    actor: Who,
    entry_key: str = "",
    held: kernel.Held | None = None,
) -> Entry:
    """Enter round `number` of a game.

    Entering the same round twice (a double submit or a retry) returns the stored round
    with `created=False`; so does a resend with the `entry_key` of a stored round (the
    scorer's page sends one with every round, and resends a round it kept while the
    network was down), even if that round was corrected since. A different round under a
    taken number is a conflict. With double entry on, a scorer's round waits until a
    second person at the table (or a director) enters the same numbers; different
    numbers are a conflict shown to both.

    `held`: the caller holds the game's locks and has read its rows (online play's
    round's end, `play.rounds.store_round`): the same checks run on them, read once,
    and with no savepoint (a refusal undoes the caller's whole change).
    """
    with transaction.atomic(savepoint=held is None):
        if held is None:
            game = kernel.lock_for_change(game_id)
            stored = list(game.rounds.all())
            game_players = list(game.game_players.select_related("player"))
        else:
            game = kernel.held_open(held, game_id)
            stored, game_players = held.rounds, held.game_players
        who = kernel.author_of(actor, game)
        cleaned = kernel.clean_round(data, rules_id=game.rules_id)
        if entry_key:
            sent = next((r for r in stored if r.entry_key == entry_key), None)
            if sent is not None:
                return Entry(round=sent, created=False)
        if number != game.round_count + 1:
            existing = next((r for r in stored if r.number == number), None)
            if existing is not None and existing.data == cleaned:
                return Entry(round=existing, created=False)
            entered = ngettext("%(count)d round", "%(count)d rounds", game.round_count) % {
                "count": game.round_count
            }
            raise ConflictError(
                "round_number_taken" if existing else "round_number_out_of_order",
                gettext(
                    "Round %(number)s cannot be entered: this game has %(entered)s, so the next "
                    "one is round %(next)s. Reload the score sheet."
                )
                % {"number": number, "entered": entered, "next": game.round_count + 1},
            )
        if not (isinstance(actor, Actor) and actor.is_system):  # the phones (ONLINE), a script
            _refuse_online(game, gettext("type round %(number)s in") % {"number": number})
        rounds = [r.data for r in stored] + [cleaned]
        output = kernel.recheck(
            game, rounds, changed=number, verb="entered", game_players=game_players
        )
        note = ""
        if actor is ONLINE:
            # Dealt and played card by card on the players' phones (the app `play`): the
            # engine checked every move, so double entry has nothing to compare.
            note = PLAYED_ONLINE
        elif game.table.sitting.session.double_entry:
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
                    mismatch = gettext(
                        "Round %(number)s was entered differently by %(who)s. Compare both "
                        "entries on the score sheet and enter the right numbers again."
                    ) % {
                        "number": number,
                        "who": _describe(others[0].entered_by, others[0].scorer_link),
                    }
                return Entry(round=None, pending=mine, mismatch=mismatch)
        # Online play's round's end runs this at every round of every table: the three
        # writes in SQL written once (`common.rows`), as the ORM would make them.
        saved = Round(
            game=game, number=number, data=cleaned, entered_by=who.user, entry_key=entry_key
        )
        rows.insert(saved)
        rows.delete(PendingRound, game_id=game.pk, number=number)
        rows.insert(
            RoundChange(
                game=game,
                round_number=number,
                action=RoundChange.Action.ENTER,
                after=cleaned,
                user=who.user,
                scorer_link=who.link,
                note=note,
            )
        )
        kernel.sync_next_game(game, output, latest=held is not None)
        kernel.store_outcome(game, output, rounds=len(rounds), game_players=game_players)
        return Entry(round=saved, verdict=output)


def _refuse_online(game: Game, doing: str) -> None:
    """`table_online` (409): the game's table plays online and the game is under way, so
    its rounds come from the phones, card by card; a round typed in, or one deleted (which
    would renumber the round being played), would overwrite the hand in play. A finished
    round may still be corrected (`round_correct`)."""
    table = game.table
    if table.online and game.status != Game.Status.FINISHED:
        raise ConflictError(
            "table_online",
            gettext(
                "Table %(table_number)s plays online: its rounds come from the players' "
                "phones as they play, so you cannot %(doing)s here. To enter it on "
                "paper, switch the table to paper first (the manage page, Online play); "
                "the hand on the phones is then set aside and played with real cards."
            )
            % {"table_number": table.number, "doing": doing},
        )


def _describe(user: Account | None, link: ScorerLink | None) -> str:
    if user is not None:
        return user.get_username()
    return gettext("the table's scorer link") if link is not None else gettext("someone")


@transaction.atomic
def round_correct(
    *, game_id: int, number: int, data: Mapping[str, Any], actor: Who, confirm: bool = False
) -> Round:
    """Replace what a round says; the whole game is checked again.

    A correction that changes who won takes the next game at the table with it; if that
    game has rounds, only with `confirm` (see `scoring.corrections.correction_preview`
    for what a correction will change), and they are kept in the change history.
    """
    game = kernel.lock_for_change(game_id)
    who = kernel.author_of(actor, game)
    cleaned = kernel.clean_round(data, rules_id=game.rules_id)
    stored = list(game.rounds.all())
    target = next((r for r in stored if r.number == number), None)
    if target is None:
        raise UserError(
            "no_such_round",
            gettext("Game %(game_number)s has no round %(number)s.")
            % {"game_number": game.number, "number": number},
        )
    rounds = [cleaned if r.number == number else r.data for r in stored]
    output = kernel.recheck(game, rounds, changed=number, verb="corrected")
    before = target.data
    if before == cleaned:
        return target
    target.data = cleaned
    target.save(update_fields=["data", "updated_at"])
    removed = kernel.sync_next_game(game, output, confirm=confirm)
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
    kernel.audit_director_change(who, actor, game, "round.correct", f"Corrected round {number}")
    kernel.store_outcome(game, output, rounds=len(rounds))
    _corrected(game)
    return target


@transaction.atomic
def round_delete(*, game_id: int, number: int, actor: Who, confirm: bool = False) -> None:
    """Delete a round; later rounds move up one number and the game is checked again.
    The next game at the table follows as with `round_correct`."""
    game = kernel.lock_for_change(game_id)
    who = kernel.author_of(actor, game)
    if not (isinstance(actor, Actor) and actor.is_system):
        _refuse_online(game, gettext("delete round %(number)s") % {"number": number})
    stored = list(game.rounds.all())
    target = next((r for r in stored if r.number == number), None)
    if target is None:
        raise UserError(
            "no_such_round",
            gettext("Game %(game_number)s has no round %(number)s.")
            % {"game_number": game.number, "number": number},
        )
    rounds = [r.data for r in stored if r.number != number]
    output = kernel.recheck(game, rounds, changed=number, verb="deleted")
    target.delete()
    for later in stored:
        if later.number > number:
            later.number -= 1
            later.save(update_fields=["number"])
    removed = kernel.sync_next_game(game, output, confirm=confirm)
    RoundChange.objects.create(
        game=game,
        round_number=number,
        action=RoundChange.Action.DELETE,
        before=target.data,
        user=who.user,
        scorer_link=who.link,
        removed=removed,
    )
    kernel.audit_director_change(who, actor, game, "round.delete", f"Deleted round {number}")
    kernel.store_outcome(game, output, rounds=len(rounds))
    _corrected(game)


def _corrected(game: Game) -> None:
    """A stored round changed: the table's phones and watchers see the scores again
    (`tournaments.signals.seats_changed`)."""
    seats_changed_on_commit(game.table.sitting.session_id, tables=[game.table_id])
