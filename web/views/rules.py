"""The rules of each game, short, for the players (`/rules/<rules_id>/`): the cards, the
deal, what is said before play, which card may be played, who takes a trick, the score
and who wins, at the game's usual settings. A seat page links its game's page, so a player
at an online table is one tap from the rules. The rules as the engine enforces them, with
their sources and every ruling, are docs/rules.md and its sister pages; a page here says
the same in fewer words (one template per rules id, `templates/rules/`)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

import engine


@require_GET
def game_rules(request: HttpRequest, rules_id: str) -> HttpResponse:
    """One game's rules in short; 404 for a rules id the engine does not know."""
    info = engine.RULES.get(rules_id)
    if info is None:
        raise Http404("No such game.")
    others = [(other.id, other.name) for other in engine.RULES.values() if other.id != info.id]
    return render(
        request,
        f"rules/{info.id}.html",
        {"info": info, "options": info.defaults, "others": sorted(others, key=lambda o: o[1])},
    )
