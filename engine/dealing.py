"""Who deals first: the high-card draw, and the winner of the last game (ruling 7); and
the shuffle of a duplicate deal, the same at every table that plays it."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import EngineUsageError
from engine.cards import CARD_NAMES, DECK_SIZE, RANK_OF

#: IHBA, PRELIMINARIES: each player draws "not one of the four at either end".
_ENDS = 4


def draw_first_dealer(players: Sequence[str], *, seed: int) -> tuple[str, dict[str, str]]:
    """The high-card draw for the first dealer, replayable from `seed`.

    Each player, in seat order, draws a card from a shuffled pack spread face down,
    leaving the four at either end. The highest rank deals; players tied for the highest
    draw again, until one is highest. Returns the dealer and, for each player, the cards
    they drew, space-separated in the order drawn (the last one counted).
    """
    names = list(players)
    if not names or len(set(names)) != len(names) or not all(isinstance(p, str) for p in names):
        raise EngineUsageError("draw_first_dealer needs distinct player names")
    if len(names) > DECK_SIZE - 2 * _ENDS:
        raise EngineUsageError(f"too many players to draw cards: {len(names)}")
    rng = random.Random(seed)
    drawn: dict[str, list[str]] = {name: [] for name in names}
    contenders = names
    while True:
        deck = list(range(DECK_SIZE))
        # Forward Fisher-Yates over rng.random() (not random.shuffle, so that a stored
        # seed replays the same draw on every Python version), stopped once the cards
        # the players draw are in place.
        for i in range(_ENDS + len(contenders)):
            j = i + int(rng.random() * (DECK_SIZE - i))
            deck[i], deck[j] = deck[j], deck[i]
        ranks = {}
        for k, name in enumerate(contenders):
            card = deck[_ENDS + k]
            drawn[name].append(CARD_NAMES[card])
            ranks[name] = RANK_OF[card]
        high = max(ranks.values())
        contenders = [name for name in contenders if ranks[name] == high]
        if len(contenders) == 1:
            return contenders[0], {name: " ".join(cards) for name, cards in drawn.items()}


def next_game_first_dealer(output: Mapping[str, Any]) -> str | None:
    """Who deals first in the next game at the table: the winner of this one (ruling 7).

    `output` is what `check` returned for the game. None when the game is not a valid,
    finished game with one winner; the table then draws high card again.
    """
    if not isinstance(output, Mapping) or not output.get("valid") or not output.get("finished"):
        return None
    winner = output.get("winner")
    return winner if isinstance(winner, str) else None


def keyed_shuffle(cards: Sequence[str], *, key: bytes, board: str) -> list[str]:
    """`cards` shuffled as the secret `key` and the name of the `board` say: the same
    order for the same key and board, at every table and on every Python version.

    A Fisher-Yates shuffle whose every draw is an HMAC-SHA256 of the board and the step
    under the key, so no one without the key can tell one board's order from another's
    (a duplicate sitting keeps its key secret, docs/tournament.md "Duplicate deals").
    The modulo's bias is below 2**-240 for a pack of 52.
    """
    if not key:
        raise EngineUsageError("keyed_shuffle needs a key")
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        digest = hmac.new(key, f"{board}/{i}".encode(), hashlib.sha256).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order
