"""A table's scorer (or a director) at the score sheet: entering a round, correcting one
(shown and confirmed before it changes more than its round) and deleting one. Writes go
through `scoring.services` and `scoring.corrections`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import UserError
from common.retry import repeatable
from scoring import corrections, pages, services
from scoring.games import RoundForm, family_for
from scoring.models import Game, Round
from tournaments.permissions import (
    Actor,
    actor_from_request,
)
from web.views.sheet import render_game, require_scorer, sheet_url


def _entered(
    request: HttpRequest,
    game: Game,
    number: int,
    entry: services.Entry,
    entry_key: str,
    *,
    by_fetch: bool = False,
) -> str:
    """Tell the scorer what entering the round did (a message on the next page), and
    return it in a word for the scorer page's queue: `sent`, `same` (already there with
    the same numbers), `waiting` (for a second entry) or `different`."""
    if entry.mismatch:
        messages.error(request, _other_scorer(entry.mismatch))
        return "different"
    if entry.pending is not None:
        if by_fetch:
            # The queue says so, and asks again until the other scorer has entered it:
            # a message each time would pile up for the next page.
            return "waiting"
        messages.info(
            request,
            gettext(
                "Round %(number)s is saved and waits for a second person at the table "
                "(or a director) to enter the same numbers."
            )
            % {"number": number},
        )
        return "waiting"
    if not entry.created:
        mine = bool(entry_key) and entry.round is not None and entry.round.entry_key == entry_key
        messages.info(
            request,
            (
                gettext(
                    "Round %(number)s is already there with the same numbers: this phone had "
                    "sent it."
                )
                if mine
                else gettext("Round %(number)s is already there with the same numbers.")
            )
            % {"number": number},
        )
        return "same"
    messages.success(request, pages.entered_message(game.pk, number))
    return "sent"


def _other_scorer(text: str) -> str:
    """In double entry the other phone at the table is "the other scorer": both phones
    hold the same link, so naming the link tells the scorer nothing."""
    return text.replace(gettext("the table's scorer link"), gettext("the other scorer"))


def _asked_by_scorer_page(request: HttpRequest) -> bool:
    """The scorer page sends its rounds with fetch and this header (static/scorer.js),
    and reads the answer as JSON; a plain form post gets the pages as before."""
    return request.headers.get("X-Requested-With") == "scorer"


def _answer(
    result: str, *, compare: str = "", message: str = "", status: int = 200
) -> JsonResponse:
    return JsonResponse({"result": result, "compare": compare, "message": message}, status=status)


def _form_error(form: RoundForm, error: UserError) -> None:
    if error.details and error.code == "round_invalid":
        form.add_engine_errors(error.details)
    else:
        form.add_error(None, error.message)


@repeatable  # entering a round again with the same numbers (or entry key) stores it once
@require_POST
def round_enter(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(pages.game_qs(), pk=pk)
    actor = actor_from_request(request)
    require_scorer(actor, game)
    form = family_for(game.rules_id).form(request.POST, players=pages.players_of(game))
    by_fetch = _asked_by_scorer_page(request)
    if form.is_valid():
        number = form.cleaned_data["number"]
        entry_key = form.cleaned_data.get("entry_key") or ""
        try:
            entry = services.round_submit(
                game_id=game.pk,
                number=number,
                data=form.to_round(),
                actor=actor,
                entry_key=entry_key,
            )
        except UserError as e:
            if by_fetch and e.code == "round_number_taken":
                # Someone else entered this round, with other numbers.
                return _answer("different", compare=sheet_url(game), message=e.message, status=409)
            _form_error(form, e)
        else:
            result = _entered(request, game, number, entry, entry_key, by_fetch=by_fetch)
            table_url = reverse("scoring:table", args=[game.table_id])
            if by_fetch:
                compare = f"{table_url}#pending" if result == "different" else ""
                return _answer(result, compare=compare)
            return redirect(table_url)
    if by_fetch:
        errors = [str(m) for field in form.errors.values() for m in field]
        return _answer("refused", message=" ".join(errors), status=400)
    return render_game(request, pages.game_qs().get(pk=game.pk), form=form)


def _correct(
    request: HttpRequest, game: Game, number: int, form: RoundForm, actor: Actor
) -> HttpResponse | dict[str, Any]:
    """Preview a valid correction; make it when it changes nothing else or is confirmed.
    Returns the response after the change, or what the page shows to ask first."""
    data = form.to_round()
    seen = pages.fingerprint(data)
    impact = corrections.correction_preview(game_id=game.pk, number=number, data=data)
    if impact.needs_confirm and request.POST.get("confirm") != seen:
        return {"impact": impact, "seen": seen}
    services.round_correct(
        game_id=game.pk, number=number, data=data, actor=actor, confirm=impact.needs_confirm
    )
    messages.success(
        request,
        gettext("Round %(number)s corrected.") % {"number": number}
        + " "
        + " ".join(impact.lines()),
    )
    return redirect(sheet_url(game))


@require_http_methods(["GET", "POST"])
def round_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(pages.game_qs(), pk=pk)
    actor = actor_from_request(request)
    require_scorer(actor, game)
    stored = get_object_or_404(Round, game=game, number=number)
    form_class, players = family_for(game.rules_id).form, pages.players_of(game)
    context: dict[str, Any] = {"game": game, "table": game.table, "number": number}
    if request.method == "POST":
        form = form_class(request.POST, players=players)
        try:
            done = _correct(request, game, number, form, actor) if form.is_valid() else {}
        except UserError as e:
            done = {}
            _form_error(form, e)
        if isinstance(done, HttpResponse):
            return done
        context.update(done)
    else:
        initial = form_class.initial_from_round(players, stored.data)
        form = form_class(players=players, initial={**initial, "number": number})
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "scoring/round_edit.html", {**context, "form": form}, status=status)


def _delete_question(game: Game, number: int) -> dict[str, Any]:
    try:
        impact = corrections.correction_preview(game_id=game.pk, number=number, data=None)
    except UserError as e:
        return {"body": e.message, "action": None}
    return {
        "body": gettext(
            "Later rounds move up one number and the whole game is checked again. "
            "The deletion is kept in the game's history."
        ),
        "lines": impact.lines(),
        "action": gettext("Delete round and make these changes")
        if impact.lines()
        else gettext("Delete round"),
    }


@require_http_methods(["GET", "POST"])
def round_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(pages.game_qs(), pk=pk)
    actor = actor_from_request(request)
    require_scorer(actor, game)
    get_object_or_404(Round, game=game, number=number)
    if request.method == "POST":
        try:
            # The question page showed what the deletion changes: posting it is the yes.
            services.round_delete(game_id=game.pk, number=number, actor=actor, confirm=True)
        except UserError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, gettext("Round %(number)s deleted.") % {"number": number})
        return redirect(sheet_url(game))
    context = {
        "title": gettext("Delete round %(number)s of game %(game_number)s?")
        % {"number": number, "game_number": game.number},
        "danger": True,
    }
    context.update(_delete_question(game, number), back=sheet_url(game))
    return render(request, "confirm.html", context)
