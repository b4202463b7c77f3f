"""Corrections that never surprise: what a correction or a deletion will change at the
table, shown before it is made, and a director's restore of what one took away.

`correction_preview` reads only: the page and the API show its answer and ask before the
change (`scoring.services.round_correct`/`round_delete` with `confirm`).
`round_change_restore` puts a correction or a deletion back in one action, with the next
game's rounds it took off (kept in `RoundChange.removed`).

It is built from the steps of the kernel, `scoring.rounds` (the locks, the engine check,
the summary, the next game), as round entry is, so that a restore follows exactly the
rules of any other write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

import engine
from common.errors import ConflictError, UserError
from scoring import rounds as kernel
from scoring.models import Game, Round, RoundChange
from scoring.records import game_check
from tournaments.permissions import can_direct
from tournaments.signals import seats_changed_on_commit


def _winners(output: engine.Verdict) -> list[str]:
    winner = output["winner"]
    if not output["finished"]:
        return []
    return [winner] if isinstance(winner, str) else list(winner or [])


def _names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class Impact:
    """What a correction (or deletion) of round `number` of game `game` will change."""

    game: int
    number: int
    deleting: bool
    finished_before: bool
    finished_after: bool
    winners_before: list[str]
    winners_after: list[str]
    next_game: kernel.NextGamePlan = field(default_factory=lambda: kernel.NextGamePlan("none"))

    @property
    def reopens(self) -> bool:
        return self.finished_before and not self.finished_after

    @property
    def winner_changes(self) -> bool:
        return self.winners_before != self.winners_after

    @property
    def needs_confirm(self) -> bool:
        """The change does more than fix this round: ask the scorer first."""
        return self.reopens or self.winner_changes or self.next_game.removes

    def lines(self) -> list[str]:
        """What the change does, in plain sentences, most important first."""
        lines: list[str] = []
        if self.reopens:
            lines.append(
                gettext("Game %(game)s is open again: nobody has won it yet, so play goes on.")
                % {"game": self.game}
            )
        elif self.winner_changes and self.finished_after:
            before = _names(self.winners_before) or gettext("nobody")
            lines.append(
                gettext("Game %(game)s is won by %(after)s instead of %(before)s.")
                % {"game": self.game, "after": _names(self.winners_after), "before": before}
            )
        plan = self.next_game
        if plan.action == "start":
            lines.append(
                gettext("Game %(game)s starts with %(dealer)s.")
                % {"game": plan.number, "dealer": self._dealer(plan.dealer_after)}
            )
        elif plan.action == "redeal":
            lines.append(
                gettext(
                    "Game %(game)s starts again with %(dealer)s instead of %(before)s "
                    "dealing first."
                )
                % {
                    "game": plan.number,
                    "dealer": self._dealer(plan.dealer_after),
                    "before": plan.dealer_before,
                }
            )
        elif plan.action == "withdraw":
            lines.append(
                gettext("Game %(game)s, set up for the old winner, is taken off.")
                % {"game": plan.number}
            )
        if plan.removes and plan.rounds:
            count = len(plan.rounds)
            lines.append(
                (
                    gettext(
                        "The 1 round entered in game %(game)s (round 1) goes: they stay in "
                        "the history and a director can restore them."
                    )
                    if count == 1
                    else gettext(
                        "The %(count)s rounds entered in game %(game)s (rounds 1 to %(count)s) "
                        "go: they stay in the history and a director can restore them."
                    )
                )
                % {"count": count, "game": plan.number}
            )
        return lines

    @staticmethod
    def _dealer(name: str | None) -> str:
        if name:
            return gettext("%(player)s dealing first") % {"player": name}
        return gettext("a new high-card draw for the first dealer")


def correction_preview(*, game_id: int, number: int, data: Mapping[str, Any] | None) -> Impact:
    """What correcting round `number` to `data` (or deleting it, with None) would change.

    Nothing is written. A change the engine refuses raises the same `UserError` as the
    change itself would.
    """
    game = Game.objects.select_related("table__sitting").get(pk=game_id)
    stored = list(game.rounds.all())
    if not any(r.number == number for r in stored):
        raise UserError(
            "no_such_round",
            gettext("Game %(game_number)s has no round %(number)s.")
            % {"game_number": game.number, "number": number},
        )
    before = game_check(game)
    if data is None:
        rounds = [r.data for r in stored if r.number != number]
        verb = "deleted"
    else:
        cleaned = kernel.clean_round(data, rules_id=game.rules_id)
        rounds = [cleaned if r.number == number else r.data for r in stored]
        verb = "corrected"
    after = kernel.recheck(game, rounds, changed=number, verb=verb)
    return Impact(
        game=game.number,
        number=number,
        deleting=data is None,
        finished_before=before["finished"],
        finished_after=after["finished"],
        winners_before=_winners(before),
        winners_after=_winners(after),
        next_game=kernel.plan_next_game(game, after),
    )


def restorable(change: RoundChange) -> bool:
    return change.action in (RoundChange.Action.EDIT, RoundChange.Action.DELETE) and (
        change.restored_at is None
    )


@transaction.atomic
def round_change_restore(*, change_id: int, actor: kernel.Who) -> RoundChange:
    """Put back what a correction or a deletion changed: the round as it was, and the
    rounds of the next game it took off. A director's action; the whole game (and the
    next one) is checked again, and the restore is itself kept in the history."""
    game, change = _lock_restorable(change_id, actor)
    who = kernel.author_of(actor, game)
    stored = list(game.rounds.all())
    current = next((r for r in stored if r.number == change.round_number), None)
    rounds = _rounds_after_restore(game, change, stored)
    output = kernel.recheck(game, rounds, changed=change.round_number, verb="restored")
    _put_back(game, change, stored)
    kernel.store_outcome(game, output, rounds=len(rounds))
    try:
        kernel.sync_next_game(game, output, confirm=False)
    except UserError as e:
        raise type(e)(
            e.code,
            gettext(
                "Game %(game)s has rounds entered since this change and would have "
                "to go; a restore never takes rounds off. Correct or delete them first."
            )
            % {"game": game.number + 1},
        ) from None
    if change.removed and change.removed.get("rounds"):
        _restore_next_game(game, change.removed, who)
    change.restored_at = timezone.now()
    change.save(update_fields=["restored_at"])
    kernel.audit_director_change(
        who,
        actor,
        game,
        "round.restore",
        f"Restored round {change.round_number} (undoing its "
        f"{'correction' if change.action == RoundChange.Action.EDIT else 'deletion'})",
    )
    # The table's phones and watchers see the scores again.
    seats_changed_on_commit(game.table.sitting.session_id, tables=[game.table_id])
    return RoundChange.objects.create(
        game=game,
        round_number=change.round_number,
        action=RoundChange.Action.RESTORE,
        before=current.data if current is not None else None,
        after=change.before,
        user=who.user,
        scorer_link=who.link,
        # Stored history, in English whatever the language of the request.
        note=f"put back the {_english_action(change)} change",
    )


def _english_action(change: RoundChange) -> str:
    with translation.override("en"):
        return str(change.get_action_display()).lower()


def _lock_restorable(change_id: int, actor: kernel.Who) -> tuple[Game, RoundChange]:
    change = RoundChange.objects.select_related("game__table__sitting__session").get(pk=change_id)
    if not can_direct(actor, change.game.table.sitting.session.club_id):
        raise PermissionDenied(gettext("Only a director of this club may restore a change."))
    game = kernel.lock_for_change(change.game_id)
    change = RoundChange.objects.select_for_update().get(pk=change_id)
    if not restorable(change):
        raise ConflictError(
            "not_restorable",
            (
                gettext("This change was restored already.")
                if change.restored_at
                else gettext("Only a correction or a deletion can be restored.")
            ),
        )
    return game, change


def _rounds_after_restore(
    game: Game, change: RoundChange, stored: list[Round]
) -> list[dict[str, Any]]:
    number, data = change.round_number, dict(change.before or {})
    if change.action == RoundChange.Action.EDIT:
        if not any(r.number == number for r in stored):
            raise UserError(
                "no_such_round",
                gettext(
                    "Game %(game_number)s has no round %(number)s any more; it cannot be restored."
                )
                % {"game_number": game.number, "number": number},
            )
        return [data if r.number == number else r.data for r in stored]
    if number > len(stored) + 1:
        count = f"{len(stored)} round{'s' if len(stored) != 1 else ''}"
        raise UserError(
            "no_such_round",
            gettext(
                "Game %(game_number)s has only %(count)s now; round %(number)s cannot be put back."
            )
            % {"game_number": game.number, "count": count, "number": number},
        )
    rounds = [r.data for r in stored]
    rounds.insert(number - 1, data)
    return rounds


def _put_back(game: Game, change: RoundChange, stored: list[Round]) -> None:
    """Write the restored round: the old data of a corrected round, or a deleted round
    back at its number with the later rounds moving down one."""
    number, data = change.round_number, dict(change.before or {})
    if change.action == RoundChange.Action.EDIT:
        target = next(r for r in stored if r.number == number)
        target.data = data
        target.save(update_fields=["data", "updated_at"])
        return
    # From the last round back, so that no two rows ever share a number.
    for later in sorted(stored, key=lambda r: -r.number):
        if later.number >= number:
            later.number += 1
            later.save(update_fields=["number"])
    Round.objects.create(game=game, number=number, data=data, entered_by=None)


def _restore_next_game(game: Game, removed: Mapping[str, Any], who: Any) -> None:
    """Enter again the rounds of the next game that a correction took off."""
    number = removed["game"]
    next_game = Game.objects.filter(table=game.table, number=number).first()
    if next_game is None or next_game.first_dealer.name != removed.get("first_dealer"):
        raise ConflictError(
            "next_game_changed",
            gettext(
                "Game %(number)s no longer starts as it did (its first dealer changed), "
                "so its rounds cannot be put back."
            )
            % {"number": number},
        )
    if next_game.round_count:
        raise ConflictError(
            "next_game_started",
            gettext(
                "Game %(number)s has rounds entered since; delete them first to restore "
                "the ones taken off."
            )
            % {"number": number},
        )
    rounds = [dict(r) for r in removed["rounds"]]
    output = kernel.recheck(next_game, rounds, changed=1, verb="restored")
    for i, data in enumerate(rounds, start=1):
        Round.objects.create(game=next_game, number=i, data=data, entered_by=None)
        RoundChange.objects.create(
            game=next_game,
            round_number=i,
            action=RoundChange.Action.RESTORE,
            after=data,
            user=who.user,
            note=f"restored with game {game.number}",
        )
    kernel.store_outcome(next_game, output, rounds=len(rounds))
    kernel.sync_next_game(next_game, output, confirm=False)
