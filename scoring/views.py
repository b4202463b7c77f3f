"""The table's pages: the score sheet of a game, round entry, correction and deletion."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from huckley.errors import UserError
from huckley.retry import repeatable
from scoring import services
from scoring.games import RoundForm, family_for, in_seat_order
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tournaments.models import Table
from tournaments.permissions import (
    Actor,
    actor_from_request,
    can_direct,
    can_score,
    can_view_session,
)


def _game_qs() -> Any:
    return Game.objects.select_related(
        "table__sitting__session__club", "first_dealer"
    ).prefetch_related(
        Prefetch("game_players", queryset=GamePlayer.objects.order_by("seat")),
        Prefetch("rounds", queryset=Round.objects.order_by("number")),
    )


def _compact(data: Any, players: Sequence[str] = ()) -> str:
    """A round as one short line for the history: what the scorer entered."""
    if not isinstance(data, dict):
        return ""
    parts = []
    for key, value in data.items():
        if isinstance(value, dict):
            value = in_seat_order(value, players)
        elif isinstance(value, list):
            value = ", ".join(
                f"{v.get('player')} {v.get('kind')}" if isinstance(v, dict) else str(v)
                for v in value
            )
        parts.append(f"{key}: {value}")
    return "; ".join(parts)


def _sheet(game: Game) -> dict[str, Any]:
    """The score sheet: one row per round with points, running scores and hooks."""
    output = services.game_check(game)
    family = family_for(game.rules_id)
    players = [gp.name for gp in game.game_players.all()]
    rows = []
    for stored, scored in zip(game.rounds.all(), output["rounds"], strict=False):
        rows.append(
            {
                "number": stored.number,
                "dealer": scored["dealer"],
                "data": stored.data,
                "details": family.round_details(stored.data, players),
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
        )
    winner = output["winner"]
    winners = [winner] if isinstance(winner, str) else (winner or [])
    return {
        "players": players,
        "rows": rows,
        "output": output,
        "winners": winners,
        "legend": family.legend,
        "totals": [{"score": output["scores"].get(p, 0), "won": p in winners} for p in players],
    }


def _can_score(actor: Actor, game: Game) -> None:
    if not can_score(actor, game.table):
        raise PermissionDenied(
            "Only a director or the holder of this table's scorer link may enter results."
        )


def table_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The current game at a table, or the game chosen with ?game=N, with the entry form."""
    table = get_object_or_404(Table.objects.select_related("sitting__session__club"), pk=pk)
    actor = actor_from_request(request)
    if not (can_view_session(actor, table.sitting.session) or can_score(actor, table)):
        raise Http404("No such table.")
    games = list(Game.objects.filter(table=table).order_by("number").values_list("number", "pk"))
    if not games:
        return render(request, "scoring/table.html", {"table": table, "games": [], "game": None})
    wanted = request.GET.get("game")
    chosen = dict(games).get(int(wanted)) if wanted and wanted.isdigit() else None
    game = _game_qs().get(pk=chosen or games[-1][1])
    return _render_game(request, game, games, form=None)


def _render_game(
    request: HttpRequest, game: Game, games: list[tuple[int, int]], form: RoundForm | None
) -> HttpResponse:
    sheet = _sheet(game)
    # The change history's times in the club's time zone (reset after the response by
    # huckley.middleware.TimeZoneResetMiddleware).
    timezone.activate(game.table.sitting.session.club.zone())
    actor = actor_from_request(request)
    may_score = can_score(actor, game.table)
    open_for_entry = (
        game.status == Game.Status.PLAYING
        and game.table.sitting.moved_at is None
        and game.table.sitting.session.status == "running"
    )
    if form is None and may_score and open_for_entry:
        form = family_for(game.rules_id).form(
            players=sheet["players"],
            initial={"number": game.round_count + 1, "dealer": sheet["output"]["next_dealer"]},
        )
    status = 400 if form is not None and form.is_bound and form.errors else 200
    return render(
        request,
        "scoring/table.html",
        {
            "table": game.table,
            "session": game.table.sitting.session,
            "game": game,
            "games": games,
            "sheet": sheet,
            "form": form,
            "may_score": may_score,
            "open_for_entry": open_for_entry,
            "may_direct": can_direct(actor, game.table.sitting.session.club_id),
            "pending": list(
                PendingRound.objects.filter(game=game, number=game.round_count + 1).select_related(
                    "entered_by"
                )
            )
            if may_score
            else [],
            "device": actor.device,
            # Finished games stay correctable until the sitting's movement is confirmed.
            "may_fix": may_score
            and game.table.sitting.moved_at is None
            and game.table.sitting.session.status == "running",
            "changes": [
                {
                    "change": c,
                    "before": _compact(c.before, sheet["players"]),
                    "after": _compact(c.after, sheet["players"]),
                }
                for c in RoundChange.objects.filter(game=game).select_related(
                    "user", "scorer_link"
                )[:20]
            ]
            if may_score
            else [],
        },
        status=status,
    )


@repeatable  # entering a round again with the same numbers stores it once
@require_http_methods(["POST"])
def round_enter(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(_game_qs(), pk=pk)
    actor = actor_from_request(request)
    _can_score(actor, game)
    players = [gp.name for gp in game.game_players.all()]
    form = family_for(game.rules_id).form(request.POST, players=players)
    if form.is_valid():
        number = form.cleaned_data["number"]
        try:
            entry = services.round_submit(
                game_id=game.pk, number=number, data=form.to_round(), actor=actor
            )
        except UserError as e:
            if e.details:
                form.add_engine_errors(e.details)
            else:
                form.add_error(None, e.message)
        else:
            if entry.mismatch:
                messages.error(request, entry.mismatch)
            elif entry.pending is not None:
                messages.info(
                    request,
                    f"Round {number} is saved and waits for a second person at the table "
                    "(or a director) to enter the same numbers.",
                )
            elif not entry.created:
                messages.info(request, f"Round {number} had already been entered.")
            else:
                messages.success(request, _entered_message(game.pk, number))
            return redirect(reverse("scoring:table", args=[game.table_id]))
    games = list(
        Game.objects.filter(table=game.table).order_by("number").values_list("number", "pk")
    )
    game = _game_qs().get(pk=game.pk)
    return _render_game(request, game, games, form=form)


def _entered_message(game_id: int, number: int) -> str:
    game = Game.objects.get(pk=game_id)
    text = f"Round {number} entered."
    if game.status == Game.Status.FINISHED:
        winners = ", ".join(
            game.game_players.filter(won=True).order_by("seat").values_list("name", flat=True)
        )
        text += f" Game {game.number} is won by {winners}."
        following = Game.objects.filter(table_id=game.table_id, number=game.number + 1).first()
        if following is not None:
            text += f" Game {following.number} starts with {following.first_dealer.name} dealing."
        else:
            text += " The table has played all its games of this sitting."
    return text


@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(_game_qs(), pk=pk)
    actor = actor_from_request(request)
    _can_score(actor, game)
    stored = get_object_or_404(Round, game=game, number=number)
    players = [gp.name for gp in game.game_players.all()]
    if request.method == "POST":
        form = family_for(game.rules_id).form(request.POST, players=players)
        if form.is_valid():
            try:
                services.round_correct(
                    game_id=game.pk, number=number, data=form.to_round(), actor=actor
                )
            except UserError as e:
                if e.details and e.code == "round_invalid":
                    form.add_engine_errors(e.details)
                else:
                    form.add_error(None, e.message)
            else:
                messages.success(request, f"Round {number} corrected.")
                return redirect(
                    f"{reverse('scoring:table', args=[game.table_id])}?game={game.number}"
                )
    else:
        form_class = family_for(game.rules_id).form
        initial = form_class.initial_from_round(players, stored.data)
        form = form_class(players=players, initial={**initial, "number": number})
    return render(
        request,
        "scoring/round_edit.html",
        {"game": game, "table": game.table, "number": number, "form": form},
        status=400 if form.is_bound and form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(_game_qs(), pk=pk)
    actor = actor_from_request(request)
    _can_score(actor, game)
    get_object_or_404(Round, game=game, number=number)
    back = f"{reverse('scoring:table', args=[game.table_id])}?game={game.number}"
    if request.method == "POST":
        try:
            services.round_delete(game_id=game.pk, number=number, actor=actor)
        except UserError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, f"Round {number} deleted.")
        return redirect(back)
    return render(
        request,
        "confirm.html",
        {
            "title": f"Delete round {number} of game {game.number}?",
            "body": "Later rounds move up one number and the whole game is checked again. "
            "The deletion is kept in the game's history.",
            "action": "Delete round",
            "danger": True,
            "back": back,
        },
    )
