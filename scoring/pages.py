"""What the table's pages show, built from rows for `web.views.sheet` (which stay thin): the
score sheet, the status of the game (who deals, the scores so far), pending entries
side by side, and the change history."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext

from scoring import compare, corrections, records, rounds, services
from scoring.games import GameFamily, RoundForm, family_for, in_seat_order
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tournaments.permissions import Actor, can_direct, can_score


def game_qs() -> Any:
    return Game.objects.select_related(
        "table__sitting__session__club", "first_dealer"
    ).prefetch_related(
        # With the players: the game record names its robots (`records.game_record`).
        Prefetch(
            "game_players", queryset=GamePlayer.objects.order_by("seat").select_related("player")
        ),
        Prefetch("rounds", queryset=Round.objects.order_by("number")),
    )


def players_of(game: Game) -> list[str]:
    return [gp.name for gp in game.game_players.all()]


def compact(data: Any, players: Sequence[str], family: GameFamily) -> str:
    """A round as one short line for the history, in the form's words: what was entered."""
    if not isinstance(data, dict):
        return ""
    parts = []
    for key, value in data.items():
        text = in_seat_order(value, players) if isinstance(value, dict) else compare.text(value)
        parts.append(f"{compare.label(family, key)}: {text}")
    return "; ".join(parts)


def fingerprint(data: Mapping[str, Any]) -> str:
    """Ties a confirmation to the round that was previewed."""
    text = json.dumps(dict(data), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _row(
    stored: Round, scored: Mapping[str, Any], players: Sequence[str], *, hidden: bool
) -> dict[str, Any]:
    family = family_for(stored.game.rules_id)
    data = records.without_cards(stored.data) if hidden else stored.data
    return {
        "number": stored.number,
        "dealer": scored["dealer"],
        "data": data,
        "cards_hidden": hidden,
        "details": family.round_details(data, players),
        "cells": [
            {
                "dealer": p == scored["dealer"],
                "points": scored["points"].get(p, 0),
                "score": scored["scores"].get(p, 0),
                "hook": p in scored["hooks"],
                "out": p in (stored.data.get("out") or []),
            }
            for p in players
        ],
    }


def sheet(game: Game, hidden: Collection[int] = ()) -> dict[str, Any]:
    """The score sheet: one row per round with points, running scores and hooks; the
    rounds numbered in `hidden` without their cards (a duplicate deal another table may
    still play, `play.duplicate`)."""
    output = records.game_check(game)
    players = players_of(game)
    winner = output["winner"]
    winners = [winner] if isinstance(winner, str) else (winner or [])
    return {
        "players": players,
        "rows": [
            _row(stored, scored, players, hidden=stored.number in hidden)
            for stored, scored in zip(game.rounds.all(), output["rounds"], strict=False)
        ],
        "output": output,
        "winners": winners,
        "legend": family_for(game.rules_id).legend,
        "cards_hidden": sorted(hidden),
        "totals": [{"score": output["scores"].get(p, 0), "won": p in winners} for p in players],
        "standing": [(p, output["scores"].get(p, 0)) for p in players],
    }


def entry_form(game: Game, data: dict[str, Any]) -> tuple[RoundForm, list[str]]:
    """A fresh entry form for the next round, and what to tell the scorer before it."""
    family = family_for(game.rules_id)
    number = game.round_count + 1
    hint = family.before_entry(game.rules_id, game.options, len(data["players"]), number)
    initial = {
        "number": number,
        "dealer": data["output"]["next_dealer"],
        "entry_key": uuid.uuid4().hex,
        **(hint.initial or {}),
    }
    return family.form(players=data["players"], initial=initial), list(hint.lines)


def _who(pending: PendingRound, device: str | None, *, director: bool) -> str:
    """Who made a pending entry, as the viewer knows them: both phones at a table hold the
    same link, so a phone's entry is "the other scorer" to the other phone (and "a scorer
    at the table" to a director), never "the table's scorer link"."""
    if pending.device == device:
        return gettext("Your entry")
    if pending.entered_by is not None:
        return gettext("Entry by %(who)s") % {"who": pending.entered_by}
    if director:
        return gettext("Entry by a scorer at the table")
    return gettext("Entry by the other scorer")


def pending_entries(
    game: Game, players: Sequence[str], device: str | None, *, director: bool = False
) -> dict[str, Any]:
    """The entries waiting for a second person, and, when they differ, every field where
    they do, side by side."""
    entries = list(
        PendingRound.objects.filter(game=game, number=game.round_count + 1).select_related(
            "entered_by"
        )
    )
    who = [_who(p, device, director=director) for p in entries]
    if len(set(who)) < len(who):  # a director sees two phones' entries: number them
        who = [
            gettext("Entry %(n)s by a scorer at the table") % {"n": n}
            for n in range(1, len(who) + 1)
        ]
    described = [
        {"entry": p, "who": w, "text": compact(p.data, players, family_for(game.rules_id))}
        for p, w in zip(entries, who, strict=True)
    ]
    differences = []
    if len(entries) >= 2:
        family = family_for(game.rules_id)
        differences = compare.differences(family, entries[0].data, entries[1].data, players)
    return {"entries": described, "differences": differences}


def history(game: Game, players: Sequence[str], *, may_restore: bool) -> list[dict[str, Any]]:
    family = family_for(game.rules_id)
    return [
        {
            "change": c,
            "before": compact(c.before, players, family),
            "after": compact(c.after, players, family),
            "removed": c.removed,
            "restorable": may_restore and corrections.restorable(c),
            "online": c.action == RoundChange.Action.ENTER and c.note == services.PLAYED_ONLINE,
        }
        for c in RoundChange.objects.filter(game=game).select_related("user", "scorer_link")[:20]
    ]


def game_page(
    actor: Actor, game: Game, form: RoundForm | None, *, hidden: Collection[int] = ()
) -> dict[str, Any]:
    """Everything the score sheet of one game shows this actor; the rounds numbered in
    `hidden` without their cards."""
    data = sheet(game, hidden)
    may_score = can_score(actor, game.table)
    open_for_entry = rounds.entry_refusal(game) is None
    playing = game.status == Game.Status.PLAYING and open_for_entry
    hints: list[str] = []
    if form is None and may_score and playing:
        form, hints = entry_form(game, data)
    may_direct = can_direct(actor, game.table.sitting.session.club_id)
    may_fix = may_score and open_for_entry
    return {
        "table": game.table,
        "session": game.table.sitting.session,
        "game": game,
        "sheet": data,
        "form": form,
        "hints": hints,
        "may_score": may_score,
        "open_for_entry": playing,
        "may_direct": may_direct,
        "pending": pending_entries(game, data["players"], actor.device, director=may_direct)
        if may_score
        else {},
        "device": actor.device,
        # Finished games stay correctable until the sitting's movement is confirmed.
        "may_fix": may_fix,
        "changes": history(game, data["players"], may_restore=may_fix and may_direct)
        if may_score
        else [],
    }


def entered_message(game_id: int, number: int) -> str:
    game = Game.objects.get(pk=game_id)
    text = gettext("Round %(number)s entered.") % {"number": number}
    if game.status == Game.Status.FINISHED:
        winners = ", ".join(
            game.game_players.filter(won=True).order_by("seat").values_list("name", flat=True)
        )
        text += " " + gettext("Game %(number)s is won by %(winners)s.") % {
            "number": game.number,
            "winners": winners,
        }
        following = Game.objects.filter(table_id=game.table_id, number=game.number + 1).first()
        if following is not None:
            text += " " + gettext("Game %(number)s starts with %(dealer)s dealing.") % {
                "number": following.number,
                "dealer": following.first_dealer.name,
            }
        else:
            text += " " + gettext("The table has played all its games of this sitting.")
    return text
