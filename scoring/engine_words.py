"""The engine's refusals in the reader's language, keyed by the engine's code.

The engine is pure Python and words its problems (a round it refuses, docs/engine.md
"Errors") and its refused moves (`engine.online.MoveRefused`) in English, built from the
round's own names and numbers. This table gives each code a sentence that Django
translates; the round, the player and the field the engine names go into it. Where the
active language has no translation of a code's sentence (English, or a code added to the
engine later), the engine's own words are shown unchanged, so English pages read exactly
as the engine wrote them. The engine's codes never change: the API's `errors` keep them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop

#: A refused round, by the engine's code (`engine.base.problem`).
PROBLEMS: dict[str, str] = {
    "bad_card": gettext_noop("A card in the round is not a card; write cards like JC or 9H."),
    "bad_field": gettext_noop("A value in the round is not one the game takes."),
    "bad_option": gettext_noop("An option of the game has a value it does not take."),
    "bad_players": gettext_noop("The players must be listed by name in seat order (clockwise)."),
    "bad_round": gettext_noop("A round must be a set of the game's fields."),
    "bad_rounds": gettext_noop("The rounds must be a list, oldest first."),
    "bid_missing": gettext_noop("A player has no bid; every player bids on every hand."),
    "bid_out_of_range": gettext_noop("A bid is outside what the game allows."),
    "bids_missing": gettext_noop("No bids are entered for this round; enter each player's bid."),
    "calls_mismatch": gettext_noop("The bidding entered does not fit the hand."),
    "card_not_in_hand": gettext_noop(
        "A card of a trick is not in the hand of the player it falls to."
    ),
    "dealer_cannot_drop": gettext_noop("The dealer may not drop in this game."),
    "declarer_cannot_drop": gettext_noop("The declarer cannot drop: the declarer plays the hand."),
    "declarer_missing": gettext_noop(
        "Trump was named, so someone is declarer: enter the declarer."
    ),
    "declarer_without_trump": gettext_noop(
        "The hand is entered as no trump, so nobody is declarer; remove the declarer, or "
        "enter the suit that was named."
    ),
    "dirty_clubs_declarer": gettext_noop(
        "The upcard is a club, so clubs are trump without bidding (dirty clubs) and nobody "
        "is declarer; remove the declarer."
    ),
    "dirty_clubs_trump": gettext_noop(
        "The upcard is a club, so clubs are trump (dirty clubs); trump must be clubs."
    ),
    "discard_in_hand": gettext_noop(
        "The discard is in a player's hand; a discarded card is out of play."
    ),
    "discard_not_allowed": gettext_noop(
        "The dealer did not take the upcard in this hand, so discarded nothing; remove the discard."
    ),
    "discard_upcard": gettext_noop(
        "The discard is the upcard, which the dealer takes into the hand; the dealer "
        "discards another card."
    ),
    "doe_bonus_points": gettext_noop("The Doe bonus does not fit the card points entered."),
    "drop_not_allowed": gettext_noop("Nobody may drop at a table of this size."),
    "duplicate_card": gettext_noop("A card appears more often than the deck has it."),
    "duplicate_player": gettext_noop(
        "A player is listed twice; give each player a different name."
    ),
    "game_over": gettext_noop("The game was over before this round; it belongs to a new game."),
    "hand_size": gettext_noop("A hand has the wrong number of cards."),
    "misdeal_with_tricks": gettext_noop(
        "The round is marked as a misdeal, so no tricks were played; clear the tricks, or "
        "untick misdeal."
    ),
    "missing_first_dealer": gettext_noop(
        "Say who dealt first: the winner of the high-card draw, or of the last game at this table."
    ),
    "missing_upcard": gettext_noop(
        "The cards played are given but not the upcard; enter the upcard."
    ),
    "no_player_in_play": gettext_noop(
        "Nobody is left in the hand to take the tricks; if the cards were thrown in, mark "
        "the round as a misdeal."
    ),
    "no_upcard": gettext_noop(
        "Every card is dealt in this hand, so no card is turned up; remove the upcard."
    ),
    "not_an_object": gettext_noop("A game record is a JSON object with rules, players and rounds."),
    "not_in_pack": gettext_noop("A card is not in this game's pack."),
    "penalty_kind_conflict": gettext_noop(
        "This penalty needs a round that was played, not a misdeal."
    ),
    "penalty_not_in_rules": gettext_noop("This game has no penalties; remove them."),
    "penalty_on_dropped_player": gettext_noop(
        "A player who dropped has no hand to be penalized; remove the penalty."
    ),
    "play_mismatch": gettext_noop("The cards played do not fit the rest of the round entered."),
    "player_count": gettext_noop("This game is not played by that number of players."),
    "points_missing": gettext_noop(
        "No points are entered for this round; enter the card points each player captured."
    ),
    "points_total": gettext_noop("The card points do not add up to what the deck holds."),
    "renege": gettext_noop("A card played in a trick is a renege."),
    "too_many_out": gettext_noop("Too many players dropped for a table of this size."),
    "trick_winners_count": gettext_noop(
        "The trick order must name the winner of every trick, in order."
    ),
    "trick_winners_mismatch": gettext_noop(
        "The trick order does not give the tricks entered; make the two agree."
    ),
    "trick_winners_required": gettext_noop(
        "More than one player can reach the target in this round: enter the trick order, "
        "who won each trick in order."
    ),
    "tricks_for_dropped_player": gettext_noop("A player who drops takes no tricks."),
    "tricks_for_penalized_player": gettext_noop(
        "A penalized player's hand went out of play; enter the tricks as replayed without it."
    ),
    "tricks_missing": gettext_noop(
        "No tricks are entered for this round; enter how many tricks each player who stayed "
        "in took (or mark the round as a misdeal)."
    ),
    "tricks_not_cards": gettext_noop("The tricks do not add up to the cards dealt to each player."),
    "tricks_not_five": gettext_noop("The tricks do not add up to the tricks of a hand."),
    "trump_missing": gettext_noop(
        "Enter trump: the suit that was ordered up or named, or none if every player "
        "passed both bidding rounds."
    ),
    "undeclared_draw_not_dealer": gettext_noop(
        "Only the dealer can be penalized for not announcing the draw."
    ),
    "unknown_option": gettext_noop("The game has no option of that name."),
    "unknown_penalty": gettext_noop("That is not a kind of penalty."),
    "unknown_player": gettext_noop("A name in the round is not a player of this game."),
    "unknown_rules": gettext_noop("The engine does not know these rules."),
    "unsupported_format": gettext_noop("The engine does not read this format of game record."),
    "unused_field": gettext_noop("A field is filled in that this round does not use; clear it."),
    "upcard_in_hand": gettext_noop("A hand holds the upcard where it should not."),
    "upcard_not_taken": gettext_noop(
        "The dealer took the upcard, so the dealer's hand should hold it."
    ),
    "wrong_cards": gettext_noop("This round deals another number of cards to each player."),
    "wrong_dealer": gettext_noop("This round is dealt by another player."),
    "wrong_hands": gettext_noop("The cards played have no hand for a player."),
    "wrong_trick_count": gettext_noop("The cards played list the wrong number of tricks."),
    "wrong_trick_size": gettext_noop("A trick has the wrong number of cards."),
}

#: A refused move at an online table, by the engine's code (`engine.online.MoveRefused`).
MOVES: dict[str, str] = {
    "bad_move": gettext_noop("That move is not one the game takes now."),
    "bid_out_of_range": gettext_noop("You cannot make that bid now."),
    "cannot_drop": gettext_noop("You cannot drop now."),
    "cannot_take_upcard": gettext_noop("You cannot take the upcard now."),
    "discard_upcard": gettext_noop(
        "That is the upcard you took: the dealer takes the upcard and discards another card."
    ),
    "must_discard": gettext_noop("To keep the upcard, discard at least one card for it."),
    "must_follow": gettext_noop("You must follow suit: play a card of the suit led."),
    "must_kill": gettext_noop("You must beat the best card of the trick if you can."),
    "must_trump": gettext_noop("You have none of the suit led, so you must trump."),
    "not_in_hand": gettext_noop("That card is not in your hand."),
    "not_your_turn": gettext_noop("It is not your turn."),
    "rank_rule": gettext_noop(
        "A card of that rank is already in the trick: play another card while you can."
    ),
    "too_many_discards": gettext_noop(
        "You may not discard that many: the pack has too few cards left."
    ),
    "wrong_suit": gettext_noop("That suit cannot be named now."),
}


def _translated(table: Mapping[str, str], code: str) -> str | None:
    """The code's sentence in the active language, or None where it has none."""
    sentence = table.get(code)
    if sentence is None:
        return None
    translated = gettext(sentence)
    return None if translated == sentence else translated


def problem_message(problem: Mapping[str, Any]) -> str:
    """One of the engine's round problems as the reader reads it: the engine's words in
    English, the code's sentence (after its round) in a language that translates it."""
    english = str(problem.get("message", ""))
    sentence = _translated(PROBLEMS, str(problem.get("code")))
    if sentence is None:
        return english
    number = problem.get("round")
    if number is None:
        return sentence
    return gettext("Round %(round)s: %(message)s") % {"round": number, "message": sentence}


def problems_in_words(problems: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The engine's problems with their `message` in the reader's language, codes, rounds,
    fields and players kept (the API's `errors`)."""
    return [{**p, "message": problem_message(p)} for p in problems]


def move_message(code: str, english: str) -> str:
    """A refused move as the player reads it: the engine's words, or the code's sentence
    in a language that translates it."""
    return _translated(MOVES, code) or english
