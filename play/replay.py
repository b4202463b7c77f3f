"""A finished round, card by card, for its game's page (docs/tournament.md, "Online
play": replaying a round).

A round whose record carries its cards (`play.hands` and `play.tricks`, as every round
played online does, docs/game-record.md) can be shown again one card at a time: the
hands as play began, what was said before (announcements, draws, bids, trump), then each
card in the order played, with who played it and who took each trick. The round is over
and stored: its hands are public in the record, so nothing here is hidden information.

Who played each card follows from the hands: the players in play play in seat order from
the trick's leader, and the next trick's leader is the winner of the trick before. Where
two players hold equal cards (Ten-Point Buck's cards are values, not unique), the
engine's own trick rule names the winner. A record this reading cannot follow (a card
not in the hand it should come from) has no replay: the page lists the tricks as stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, ngettext, pgettext_lazy

from engine.games.ten_point_buck.play import trick_winner as ten_point_winner

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: dict[str, StrOrPromise] = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
}


def card_label(code: str) -> str:
    """A card as the page writes it: ``QS`` is Q♠, ``TD`` 10♦, Bluke's ``BH`` the Hi
    Bluke, Ten-Point Buck's ``7w`` a white 7."""
    if code == "BH":
        return "Hi Bluke"
    if code == "BL":
        return "Lo Bluke"
    if code.endswith("w"):
        return f"{code[:-1]} white"
    if len(code) >= 2 and code[-1] in SUITS:
        rank = code[:-1]
        return f"{'10' if rank == 'T' else rank}{SUITS[code[-1]]}"
    return code


@dataclass
class Replay:
    """One round's replay: `start` the hands as play began, `before` what happened before
    play in words, `tricks` each trick's cards as (player, card) with its winner."""

    number: int
    players: list[str]
    start: dict[str, list[str]]
    before: list[str]
    tricks: list[list[tuple[str, str]]] = field(default_factory=list)
    winners: list[str | None] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """What `static/replay.js` steps through: one step per card."""
        cards = {c for hand in self.start.values() for c in hand}
        return {
            "round": self.number,
            "players": self.players,
            "hands": self.start,
            "labels": {c: card_label(c) for c in sorted(cards)},
            "steps": [
                {
                    "trick": t + 1,
                    "player": player,
                    "card": card,
                    "winner": self.winners[t] if i == len(trick) - 1 else None,
                }
                for t, trick in enumerate(self.tricks)
                for i, (player, card) in enumerate(trick)
            ],
        }


def round_replay(
    rules_id: str, number: int, seats: Sequence[str], data: Mapping[str, Any]
) -> Replay | None:
    """The replay of one stored round (`data`, a round of the game record) at a table
    whose players are `seats` in seat order; None when the round carries no cards or they
    cannot be followed."""
    play = data.get("play")
    if not isinstance(play, Mapping):
        return None
    hands, tricks = play.get("hands"), play.get("tricks")
    if not isinstance(hands, Mapping) or not isinstance(tricks, list) or not tricks:
        return None
    in_play = [p for p in seats if p in hands]
    if len(in_play) != len(hands) or len(in_play) < 2:
        return None
    remaining = {p: list(hands[p]) for p in in_play}
    leader = _first_leader(seats, in_play, str(data.get("dealer", "")))
    replay = Replay(
        number=number,
        players=in_play,
        start={p: list(hands[p]) for p in in_play},
        before=_before_play(data),
    )
    for t, cards in enumerate(tricks):
        if not isinstance(cards, list) or len(cards) != len(in_play):
            return None
        first = in_play.index(leader)
        order = in_play[first:] + in_play[:first]
        trick = []
        for player, card in zip(order, cards, strict=True):
            if card not in remaining[player]:
                return None
            remaining[player].remove(card)
            trick.append((player, card))
        winner = _winner(rules_id, trick, tricks[t + 1] if t + 1 < len(tricks) else None, remaining)
        replay.tricks.append(trick)
        replay.winners.append(winner)
        if winner is None and t + 1 < len(tricks):
            return None
        leader = winner or leader
    _last_from_counts(replay, data)
    return replay


def _first_leader(seats: Sequence[str], in_play: Sequence[str], dealer: str) -> str:
    """The first player in play on the dealer's left (the dealer last)."""
    start = seats.index(dealer) if dealer in seats else len(seats) - 1
    for step in range(1, len(seats) + 1):
        player = seats[(start + step) % len(seats)]
        if player in in_play:
            return player
    return in_play[0]


def _winner(
    rules_id: str,
    trick: list[tuple[str, str]],
    following: Any,
    remaining: Mapping[str, list[str]],
) -> str | None:
    """Who took `trick`: by the engine's rule in Ten-Point Buck, else the one player who
    holds the first card of the next trick (None for the last trick: see the counts)."""
    if rules_id == "ten-point-buck":
        return trick[ten_point_winner([card for _, card in trick])][0]
    if not isinstance(following, list) or not following:
        return None
    holders = [p for p, hand in remaining.items() if following[0] in hand]
    return holders[0] if len(holders) == 1 else None


def _last_from_counts(replay: Replay, data: Mapping[str, Any]) -> None:
    """The last trick's winner where the record says it: its `trick_winners`, or the one
    player whose count of tricks (`tricks`) is one more than the tricks named so far."""
    if not replay.winners or replay.winners[-1] is not None:
        return
    named = data.get("trick_winners")
    if isinstance(named, list) and len(named) == len(replay.tricks):
        replay.winners[-1] = str(named[-1])
        return
    counts = data.get("tricks")
    if not isinstance(counts, Mapping):
        return
    so_far = {p: replay.winners[:-1].count(p) for p in replay.players}
    short = [p for p in replay.players if counts.get(p, 0) == so_far[p] + 1]
    if len(short) == 1:
        replay.winners[-1] = short[0]


def _before_play(data: Mapping[str, Any]) -> list[str]:
    """What happened before the first card, in words: the upcard and trump, who stayed in
    or dropped, the draws, the calls and bids."""
    lines = []
    play = data["play"]
    if data.get("upcard"):
        lines.append(gettext("Upcard: %(card)s.") % {"card": card_label(str(data["upcard"]))})
    if isinstance(data.get("trump"), str) and data["trump"] in SUIT_NAMES:
        lines.append(gettext("Trump: %(suit)s.") % {"suit": SUIT_NAMES[data["trump"]]})
    said = play.get("announcements") or []
    if said:
        announced = ", ".join(f"{a['player']} {a['call']}" for a in said)
        lines.append(gettext("Announced: %(calls)s.") % {"calls": announced})
    if data.get("out"):
        lines.append(
            gettext("Dropped: %(players)s.") % {"players": ", ".join(map(str, data["out"]))}
        )
    for draw in play.get("draws") or []:
        if draw.get("discard"):
            gave = " ".join(card_label(c) for c in draw["discard"])
            took = " ".join(card_label(c) for c in draw.get("drew", []))
            lines.append(
                gettext("%(player)s discarded %(gave)s and drew %(took)s.")
                % {"player": draw["player"], "gave": gave, "took": took}
            )
        else:
            lines.append(gettext("%(player)s stood pat.") % {"player": draw["player"]})
    calls = data.get("calls") or []
    if calls:
        words = []
        for call in calls:
            suit = SUIT_NAMES.get(str(call.get("suit", "")), "")
            words.append(f"{call['player']} {call['action']}" + (f" {suit}" if suit else ""))
        lines.append(gettext("Calls: %(calls)s.") % {"calls": ", ".join(words)})
    bids = data.get("bids")
    if isinstance(bids, Mapping) and bids:
        listed = ", ".join(f"{p} {b}" for p, b in bids.items())
        lines.append(gettext("Bids: %(bids)s.") % {"bids": listed})
    robots = play.get("robots") or []
    for mark in robots:
        moves = mark.get("moves", 0)
        lines.append(
            ngettext(
                "A robot played %(moves)s move for %(player)s.",
                "A robot played %(moves)s moves for %(player)s.",
                moves,
            )
            % {"moves": moves, "player": mark["player"]}
        )
    return lines


def game_replays(
    rules_id: str, seats: Sequence[str], rounds: Sequence[tuple[int, Mapping[str, Any]]]
) -> list[Replay]:
    """The replays of a game's stored rounds (each as its number and its data) that carry
    their cards, in round order."""
    found = []
    for number, data in rounds:
        replay = round_replay(rules_id, number, seats, data)
        if replay is not None:
            found.append(replay)
    return found
