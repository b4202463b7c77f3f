"""A substitute takes a seat in the middle of a game (docs/tournament.md, "Withdrawals").

The seat keeps its place, its score and every round played; only the name changes. The
stored rounds (and any pending double entry) are rewritten from the old name to the new
one, the game's seat says whom it replaced and after which round, and the engine checks
the renamed game: its verdict must be the old one with the new name, or nothing is
written. The game record stays a valid `buck-game/1` record, with the `substitutes`
extension (docs/game-record.md).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

import engine
from common.errors import UserError
from scoring.models import Game, GamePlayer, PendingRound, Round
from scoring.records import game_check
from tournaments import pagecache
from tournaments.models import Player

# Round fields that hold cards or suits, never a player's name.
_CARD_FIELDS = frozenset({"upcard", "trump", "cards"})


def _renamed(value: Any, old: str, new: str) -> Any:
    """`value` (a round, or part of one) with the player `old` called `new`: as a key (tricks,
    bids, points, hands) and as a value (dealer, out, trick winners, penalties, declarer).
    Cards are left alone, so a player called "AS" does not rename the ace of spades."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if not isinstance(value, dict):
        return value
    result: dict[str, Any] = {}
    for key, item in value.items():
        name = new if key == old else key
        if key in _CARD_FIELDS or (key == "tricks" and isinstance(item, list)):
            result[name] = item
        elif key == "hands" and isinstance(item, dict):
            result[name] = {(new if k == old else k): cards for k, cards in item.items()}
        else:
            result[name] = _renamed(item, old, new)
    return result


def _as(verdict: engine.Verdict, old: str, new: str) -> dict[str, Any]:
    """What must not change when a seat changes hands: validity, scores, the end, the winner."""
    return {
        "valid": verdict["valid"],
        "scores": _renamed(dict(verdict["scores"]), old, new),
        "finished": verdict["finished"],
        "winner": _renamed(verdict["winner"], old, new),
        "next_dealer": _renamed(verdict["next_dealer"], old, new),
    }


def game_substitute(*, game: Game, player_id: int, substitute: Player) -> GamePlayer:
    """`substitute` takes the seat of `player_id` in `game` from the next round on. The
    caller has locked the game and checked who may do this."""
    seat = game.game_players.filter(player_id=player_id).first()
    if seat is None:
        raise UserError(
            "not_in_game",
            gettext("That player does not play game %(game_number)s.")
            % {"game_number": game.number},
        )
    if game.game_players.filter(player_id=substitute.pk).exists():
        raise UserError(
            "substitute_in_game",
            gettext("%(substitute)s already plays game %(game_number)s; choose someone else.")
            % {"substitute": substitute.name, "game_number": game.number},
        )
    if game.game_players.filter(name=substitute.name).exists():
        raise UserError(
            "substitute_name_taken",
            gettext(
                "Someone at game %(game_number)s already plays as “%(substitute)s”; "
                "choose someone else or type the substitute's full name."
            )
            % {"game_number": game.number, "substitute": substitute.name},
        )
    old, new = seat.name, substitute.name
    before = _as(game_check(game), old, new)
    rows: list[Round | PendingRound] = [*game.rounds.all(), *game.pending_rounds.all()]
    for row in rows:
        row.data = _renamed(row.data, old, new)
        row.save(update_fields=["data"])
    seat.replaced_id = seat.player_id
    seat.replaced_name = old
    seat.replaced_after_round = game.round_count
    seat.player = substitute
    seat.name = new
    seat.save(update_fields=["player", "name", "replaced", "replaced_name", "replaced_after_round"])
    if game.first_dealer_id == player_id:
        game.first_dealer = substitute
        game.save(update_fields=["first_dealer"])
    if _as(game_check(game), new, new) != before:
        # A name that also appears as something else in a round would change the game;
        # never store that (the caller's transaction is rolled back).
        raise UserError(
            "substitute_name_clash",
            gettext(
                "“%(new)s” cannot take the seat: the name clashes with the game's own "
                "data. Type the substitute's name in a different form."
            )
            % {"new": new},
        )
    pagecache.board_changed(game.table.sitting.session_id)
    return seat
