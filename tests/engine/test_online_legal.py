"""Every entry of `legal` is a move a phone can send as it is (docs/api.md, "Online play"):
before play each entry, handed to `apply` unchanged, is taken; in play each card code,
sent as ``{"action": "play", "card": code}``, is. A choice of many forms (the draw's
discard) carries a legal default the player may change, and hint keys (``min_discard``,
``max_discard``) that `apply` ignores.

The property deals each game at random (table size, dealer, round number, options) and
walks the round with random legal moves; at every state it applies each entry of `legal`
to a copy of the round. The worked examples are the IHBA dealer keeping the upcard and
the draw's defaults.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import online
from engine.games.bluke.rounds import hand_sizes
from engine.online import END, PLAY, MoveRefused, OnlineRound, RoundStart
from tests.engine.online_helpers import defaults, shuffled_deal
from tests.engine.online_huckley_helpers import scripted
from tests.engine.online_huckley_helpers import start as huckley_start

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
#: Each game played online, the table sizes it plays at here and the options tried.
TABLES: dict[str, tuple[range, dict[str, list[Any]]]] = {
    "huckley-buck": (range(3, 8), {"dealer_may_drop": [True, False]}),
    "hucklebuck": (range(3, 8), {"dealer_may_drop": [True, False]}),
    "buck-euchre": (range(4, 5), {"club_upcard_to_dealer": [False, True]}),
    "bluke": (range(2, 7), {"allow_zero_bid": [False, True], "max_cards": [0, 3]}),
    "bluke-nj": (range(2, 7), {"allow_zero_bid": [False, True], "max_cards": [0, 3]}),
    "ten-point-buck": (range(3, 6), {}),
}


def test_every_game_played_online_is_tried() -> None:
    assert set(TABLES) == {r for r in engine.RULES if online.playable(r)}


def sendable(rnd: OnlineRound, entry: Any) -> Any:
    """The move a phone sends for `entry`: in play a card code names its card."""
    return {"action": "play", "card": entry} if rnd.phase == PLAY else entry


def every_entry_is_taken(rnd: OnlineRound, player: str) -> None:
    """Each entry of `legal`, applied exactly as it is to a copy of `rnd`, is taken: the
    copy moves on, and the entry is as it was (apply writes nothing into it)."""
    legal = rnd.legal(player)
    assert legal, f"{player} is to act with nothing legal in {rnd.phase}"
    before = rnd.to_json()
    for entry in legal:
        move = sendable(rnd, entry)
        sent = json.dumps(move, sort_keys=True)
        copy = type(rnd).from_json(before)
        try:
            copy.apply(player, move)
        except MoveRefused as refused:
            raise AssertionError(
                f"{rnd.start.rules_id}, {rnd.phase}: {sent} is offered but refused "
                f"({refused.code}: {refused.message})"
            ) from None
        assert json.dumps(move, sort_keys=True) == sent
        assert copy.to_json() != before, f"{sent} was taken and changed nothing"
    assert rnd.to_json() == before


def changed_default(rnd: OnlineRound, player: str, entry: Any, rng: random.Random) -> Any:
    """`entry` as a player may change it: a draw's discard replaced by any cards of the
    hand, as many as the hints allow."""
    if rnd.phase != "draw":
        return entry
    hand = rnd.view(player)["hand"]
    low = entry.get("min_discard", 0)
    high = min(entry["max_discard"], len(hand))
    return {**entry, "discard": rng.sample(hand, rng.randint(low, high))}


def random_start(rules: str, rng: random.Random) -> RoundStart:
    """A round's start at a random table size, dealer, round number and options."""
    sizes, choices = TABLES[rules]
    players = PLAYERS[: rng.choice(sizes)]
    options = defaults(rules) | {name: rng.choice(values) for name, values in choices.items()}
    number = 1
    if rules.startswith("bluke"):  # a hand of the schedule, so a size of hand
        schedule = hand_sizes(len(players), rules == "bluke-nj", options["max_cards"])
        number = rng.randint(1, len(schedule))
    first = 25 if rules == "buck-euchre" else 0
    return RoundStart(
        rules_id=rules,
        players=players,
        dealer=rng.choice(players),
        number=number,
        options=options,
        scores=dict.fromkeys(players, first),
    )


@pytest.mark.parametrize("rules", sorted(TABLES))
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_entry_of_legal_is_taken_as_it_is(rules: str, seed: int) -> None:
    """Dealt at random and played by random legal moves, each sent as offered or with
    its default changed as the hints allow: at every state, every entry of `legal` for
    the player to act is a move the round takes."""
    rng = random.Random(seed)
    rnd = shuffled_deal(random_start(rules, rng), rng)
    for _ in range(2000):
        who = rnd.to_act()
        if who is None:
            assert rnd.phase == END
            return
        every_entry_is_taken(rnd, who)
        entry = rng.choice(rnd.legal(who))
        if rng.random() < 0.5:
            entry = changed_default(rnd, who, entry, rng)
        rnd.apply(who, sendable(rnd, entry))
    raise AssertionError("the round did not end")


# --- worked examples: the draw of Huckley Buck and Hucklebuck ------------------------

#: Four players, Dee deals and turns AH: hearts are trump (IHBA THE DEAL).
HANDS = {
    "Ann": ["AS", "KS", "QS", "JS", "TS"],
    "Bob": ["AD", "KD", "QD", "JD", "TD"],
    "Cy": ["AC", "KC", "QC", "JC", "TC"],
    "Dee": ["2H", "3S", "4D", "5D", "9H"],
}
#: The draw's first entry, for everyone: its default discard stands pat.
STAND_PAT = {"action": "draw", "discard": [], "max_discard": 5}


def to_the_dealer(rules: str) -> OnlineRound:
    """The scripted round, Ann, Bob and Cy each having sent their first entry as offered."""
    rnd = scripted(huckley_start(rules, 4), HANDS, "AH")
    for name in ("Ann", "Bob", "Cy"):
        assert rnd.legal(name)[0] == STAND_PAT
        rnd.apply(name, rnd.legal(name)[0])
        assert rnd.view(name)["hand"] == sorted(HANDS[name], key=online.pack(rnd.start).index)
    assert rnd.view(None)["draws"] == [
        {"player": name, "discarded": 0, "drew": 0} for name in ("Ann", "Bob", "Cy")
    ]
    return rnd


def test_the_ihba_dealer_keeps_the_upcard_with_the_entry_as_offered() -> None:
    """IHBA THE DRAW: the dealer's "keep the upcard" entry carries a default discard, the
    lowest plain card (2H is a trump, so 3S), and sent as it is keeps the upcard for it,
    drawing nothing from the pack."""
    rnd = to_the_dealer("huckley-buck")
    keep = {
        "action": "draw",
        "discard": ["3S"],
        "take_upcard": True,
        "min_discard": 1,
        "max_discard": 5,
    }
    assert rnd.legal("Dee") == [STAND_PAT, keep]
    pack = rnd.view("Dee")["pack"]

    rnd.apply("Dee", keep)

    assert rnd.phase == PLAY
    assert rnd.view("Dee")["hand"] == ["2H", "9H", "AH", "4D", "5D"]
    assert rnd.view("Ann")["upcard"] is None
    assert rnd.view("Ann")["pack"] == pack
    assert rnd.view("Ann")["draws"][3] == {"player": "Dee", "discarded": 1, "drew": 1}


def test_the_dealer_may_change_the_default_discard() -> None:
    """The default is a suggestion: two cards discarded for the upcard draw one from the
    pack."""
    rnd = to_the_dealer("huckley-buck")
    keep = rnd.legal("Dee")[1]
    rnd.apply("Dee", {**keep, "discard": ["4D", "5D"]})
    hand = rnd.view("Dee")["hand"] or []
    assert {"2H", "3S", "9H", "AH"} <= set(hand)
    assert not {"4D", "5D"} & set(hand)
    assert rnd.view("Ann")["draws"][3] == {"player": "Dee", "discarded": 2, "drew": 2}


@pytest.mark.parametrize(
    "hints",
    [{}, {"min_discard": 3, "max_discard": 0}, {"min_discard": "many", "max_discard": None}],
    ids=["left out", "contradicting the discard", "not numbers"],
)
def test_the_hints_of_an_entry_are_never_read(hints: dict[str, Any]) -> None:
    """`min_discard` and `max_discard` tell the phone how many cards the discard may
    hold; the move is the same whatever they say, or without them."""
    as_offered = to_the_dealer("huckley-buck")
    as_offered.apply("Dee", as_offered.legal("Dee")[1])
    rnd = to_the_dealer("huckley-buck")
    entry = {k: v for k, v in rnd.legal("Dee")[1].items() if not k.endswith("_discard")}
    rnd.apply("Dee", {**entry, "discard": ["3S"], **hints})
    assert rnd.to_json() == as_offered.to_json()


def test_an_empty_discard_for_the_upcard_is_still_refused() -> None:
    """The rule stands: the default is what makes the entry legal."""
    rnd = to_the_dealer("huckley-buck")
    before = rnd.to_json()
    with pytest.raises(MoveRefused) as refused:
        rnd.apply("Dee", {**rnd.legal("Dee")[1], "discard": []})
    assert refused.value.code == "must_discard"
    assert rnd.to_json() == before


def test_the_hucklebuck_dealer_draws_like_everyone() -> None:
    """Hucklebuck: the upcard tops the pack, so the dealer's one entry is the draw's, and
    its default stands pat; a discard of the player's choosing draws the upcard first."""
    rnd = to_the_dealer("hucklebuck")
    assert rnd.legal("Dee") == [STAND_PAT]
    rnd.apply("Dee", {**STAND_PAT, "discard": ["3S"]})
    assert rnd.view("Dee")["hand"] == ["2H", "9H", "AH", "4D", "5D"]
