"""Huckley Buck and Hucklebuck played online, move by move (engine/games/huckley/online.py).

The scripted deals are worked by hand from the texts: THE DEAL, THE ANNOUNCEMENT, THE
DRAW and THE PLAY of the IHBA rules; THE CARDS & THE DEAL, IN OR OUT, DRAW and THE PLAY
of Hucklebuck (docs/rules.md). The record's extensions (announcements, draws) and whole
games played by robots and random legal players are in test_online_huckley_games.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import engine
from engine import online
from engine.online import END, PLAY, MoveRefused, OnlineRound, RoundStart
from tests.engine.online_huckley_helpers import NAMES, RULES, game, start


def scripted(begin: RoundStart, hands: Mapping[str, Sequence[str]], upcard: str) -> OnlineRound:
    """A round whose deal gives each player `hands[name]` and turns `upcard` (the rest of
    the pack in the order of `pack`, top first): the deal is one card at a time from the
    dealer's left (IHBA THE DEAL)."""
    players = begin.players
    n = len(players)
    d = players.index(begin.dealer)
    seats = [(d + k) % n for k in range(1, n + 1)]
    order = [hands[players[seats[i % n]]][i // n] for i in range(5 * n)] + [upcard]
    order += [c for c in online.pack(begin) if c not in order]
    return online.deal(begin, order)


def refused(rnd: OnlineRound, player: str, move: Any, code: str) -> str:
    """`move` is refused with `code` and the round is left as it was."""
    before = rnd.to_json()
    with pytest.raises(MoveRefused) as caught:
        rnd.apply(player, move)
    assert caught.value.code == code, caught.value.message
    assert rnd.to_json() == before
    return caught.value.message


def stand_pat(rnd: OnlineRound) -> None:
    while rnd.phase == "draw":
        rnd.apply(rnd.to_act() or "", {"action": "draw", "discard": []})


# The play example: four players, Dee deals, hearts are trump, everyone stands pat.
PLAY_HANDS = {
    "Ann": ["5C", "AS", "KD", "QD", "JD"],
    "Bob": ["7C", "2C", "3S", "4S", "5S"],
    "Cy": ["3H", "9S", "8S", "7S", "6S"],
    "Dee": ["9H", "2H", "TS", "JS", "QS"],
}


def test_huckley_buck_follow_trump_and_kill_are_forced() -> None:
    """IHBA THE PLAY: follow suit, kill if able; void in a plain lead, trump; over-trump."""
    rnd = scripted(start("huckley-buck", 4), PLAY_HANDS, "8H")
    assert rnd.phase == "draw"  # four players: no announcements
    assert rnd.view("Ann")["upcard"] == "8H"
    stand_pat(rnd)
    assert rnd.phase == PLAY
    assert rnd.to_act() == "Ann"  # left of the dealer leads
    refused(rnd, "Bob", {"action": "play", "card": "7C"}, "not_your_turn")
    rnd.apply("Ann", {"action": "play", "card": "5C"})
    assert rnd.legal("Bob") == ["7C"]
    assert "follow suit" in refused(rnd, "Bob", {"action": "play", "card": "4S"}, "must_follow")
    assert "beat 5C" in refused(rnd, "Bob", {"action": "play", "card": "2C"}, "must_kill")
    rnd.apply("Bob", {"action": "play", "card": "7C"})
    assert rnd.legal("Cy") == ["3H"]
    assert "trump" in refused(rnd, "Cy", {"action": "play", "card": "9S"}, "must_trump")
    rnd.apply("Cy", {"action": "play", "card": "3H"})
    assert rnd.legal("Dee") == ["9H"]
    refused(rnd, "Dee", {"action": "play", "card": "2H"}, "must_kill")
    refused(rnd, "Dee", {"action": "play", "card": "TS"}, "must_trump")
    refused(rnd, "Dee", {"action": "play", "card": "AS"}, "not_in_hand")
    rnd.apply("Dee", {"action": "play", "card": "9H"})
    view = rnd.view("Ann")
    assert view["tricks_won"] == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 1}
    assert view["tricks"] == [
        [
            {"player": "Ann", "card": "5C"},
            {"player": "Bob", "card": "7C"},
            {"player": "Cy", "card": "3H"},
            {"player": "Dee", "card": "9H"},
        ]
    ]
    assert rnd.to_act() == "Dee"  # the winner leads


def test_hucklebuck_only_asks_to_follow_suit() -> None:
    """HB THE PLAY: follow suit if able, otherwise any card."""
    rnd = scripted(start("hucklebuck", 4), PLAY_HANDS, "8H")
    stand_pat(rnd)
    rnd.apply("Ann", {"action": "play", "card": "5C"})
    assert rnd.legal("Bob") == ["2C", "7C"]
    refused(rnd, "Bob", {"action": "play", "card": "4S"}, "must_follow")
    rnd.apply("Bob", {"action": "play", "card": "2C"})
    assert sorted(rnd.legal("Cy")) == sorted(PLAY_HANDS["Cy"])
    rnd.apply("Cy", {"action": "play", "card": "9S"})
    rnd.apply("Dee", {"action": "play", "card": "2H"})
    assert rnd.to_act() == "Dee"  # the only trump wins


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("rules", RULES)
def test_the_drop_limit_at_each_table_size(rules: str, n: int) -> None:
    """Ruling 1 (IHBA THE ANNOUNCEMENT, HB IN OR OUT): no drops at 3 or 4; at 5, 6, 7 at
    most 1, 2, 3 drop, and the draw begins once that many have dropped."""
    rnd = online.deal(start(rules, n), online.pack(start(rules, n)))
    limit = max(0, n - 4)
    if limit == 0:
        assert rnd.phase == "draw"
        assert "table of" in refused(rnd, NAMES[0], {"action": "out"}, "cannot_drop")
        return
    assert rnd.phase == "announce"
    for k in range(limit):
        assert rnd.to_act() == NAMES[k]
        assert rnd.legal(NAMES[k]) == [{"action": "in"}, {"action": "out"}]
        rnd.apply(NAMES[k], {"action": "out"})
    assert rnd.phase == "draw"
    assert rnd.to_act() == NAMES[limit]  # the first player in, left of the dealer
    refused(rnd, NAMES[limit], {"action": "out"}, "cannot_drop")
    assert rnd.view(None)["out"] == NAMES[:limit]


def test_the_limit_counts_only_drops() -> None:
    """Six players: Ann stays in, Bob drops; Cy may still drop, Dee then may not."""
    rnd = online.deal(start("huckley-buck", 6), online.pack(start("huckley-buck", 6)))
    rnd.apply("Ann", {"action": "in"})
    rnd.apply("Bob", {"action": "out"})
    refused(rnd, "Cy", {"action": "pass"}, "bad_move")
    refused(rnd, "Cy", {"action": "draw", "discard": []}, "bad_move")
    rnd.apply("Cy", {"action": "out"})
    assert rnd.phase == "draw"
    assert [rnd.to_act()] == ["Ann"]


def test_the_dealer_may_not_drop_when_the_option_says_so() -> None:
    """Option dealer_may_drop false: the dealer is offered only "in"."""
    begin = start("huckley-buck", 5, dealer_may_drop=False)
    rnd = online.deal(begin, online.pack(begin))
    for name in NAMES[:4]:
        rnd.apply(name, {"action": "in"})
    assert rnd.to_act() == "Eve"
    assert rnd.legal("Eve") == [{"action": "in"}]
    assert "dealer" in refused(rnd, "Eve", {"action": "out"}, "cannot_drop")
    rnd.apply("Eve", {"action": "in"})
    assert rnd.phase == "draw"
    with_option = online.deal(start("huckley-buck", 5), online.pack(begin))
    for name in NAMES[:4]:
        with_option.apply(name, {"action": "in"})
    assert {"action": "out"} in with_option.legal("Eve")


UPCARD_HANDS = {
    "Ann": ["AS", "KS", "QS", "JS", "TS"],
    "Bob": ["AD", "KD", "QD", "JD", "TD"],
    "Cy": ["AC", "KC", "QC", "JC", "TC"],
    "Dee": ["2S", "3S", "4D", "5D", "9H"],
}


def test_the_ihba_dealer_may_keep_the_upcard() -> None:
    """IHBA THE DRAW: keeping the upcard, the dealer discards at least one card and draws
    one fewer from the pack."""
    rnd = scripted(start("huckley-buck", 4), UPCARD_HANDS, "AH")
    rnd.apply("Ann", {"action": "draw", "discard": []})
    refused(
        rnd, "Bob", {"action": "draw", "discard": ["TD"], "take_upcard": True}, "cannot_take_upcard"
    )
    rnd.apply("Bob", {"action": "draw", "discard": ["TD"]})
    rnd.apply("Cy", {"action": "draw", "discard": []})
    assert rnd.view("Dee")["draw"] == {"max_discard": 5, "may_take_upcard": True}
    assert {"action": "draw", "discard": [], "take_upcard": True, "min_discard": 1,
            "max_discard": 5} in rnd.legal("Dee")  # fmt: skip
    refused(rnd, "Dee", {"action": "draw", "discard": [], "take_upcard": True}, "must_discard")
    refused(rnd, "Dee", {"action": "draw", "discard": ["2S"], "take_upcard": "yes"}, "bad_move")
    refused(rnd, "Dee", {"action": "draw", "discard": ["AS"]}, "not_in_hand")
    refused(rnd, "Dee", {"action": "draw", "discard": ["2S", "2S"]}, "bad_move")
    refused(rnd, "Dee", {"action": "draw", "discard": ["XX"]}, "bad_move")
    refused(rnd, "Dee", {"action": "draw", "discard": "2S"}, "bad_move")
    rnd.apply("Dee", {"action": "draw", "discard": ["2S", "3S"], "take_upcard": True})
    hand = rnd.view("Dee")["hand"]
    assert "AH" in hand
    assert "2S" not in hand
    assert len(hand) == 5
    assert rnd.view("Ann")["upcard"] is None  # in the dealer's hand now
    assert rnd.view("Ann")["trump"] == "H"
    assert rnd.view("Ann")["draws"][3] == {"player": "Dee", "discarded": 2, "drew": 2}
    while rnd.phase != END:
        player = rnd.to_act() or ""
        rnd.apply(player, rnd.robot_move(player))
    record = rnd.record()
    dee = record["play"]["draws"][3]
    assert dee["player"] == "Dee"
    assert dee["discard"] == ["2S", "3S"]
    assert dee["drew"][0] == "AH"
    assert "AH" in record["play"]["hands"]["Dee"]
    assert record["play"]["announcements"] == []
    assert engine.check(game("huckley-buck", 4, record))["valid"]


def test_the_hucklebuck_upcard_tops_the_pack() -> None:
    """HB: the upcard is the top card of the draw pile, so the first to exchange draws it;
    nobody keeps it as the dealer's option."""
    rnd = scripted(start("hucklebuck", 4), UPCARD_HANDS, "AH")
    rnd.apply("Ann", {"action": "draw", "discard": []})
    assert rnd.legal("Bob") == [{"action": "draw", "discard": [], "max_discard": 5}]
    rnd.apply("Bob", {"action": "draw", "discard": ["TD", "JD"]})
    assert "AH" in (rnd.view("Bob")["hand"] or [])
    assert rnd.view("Cy")["upcard"] is None
    rnd.apply("Cy", {"action": "draw", "discard": []})
    refused(
        rnd, "Dee", {"action": "draw", "discard": ["2S"], "take_upcard": True}, "cannot_take_upcard"
    )


def test_a_dealer_who_dropped_has_no_upcard_option() -> None:
    """IHBA THE DRAW: the draw runs "until the dealer (or, if he has dropped, the active
    player nearest his right) has drawn"; only the dealer may keep the upcard."""
    begin = start("huckley-buck", 5)
    rnd = online.deal(begin, online.pack(begin))
    for name in NAMES[:4]:
        rnd.apply(name, {"action": "in"})
    rnd.apply("Eve", {"action": "out"})
    assert rnd.view("Eve")["hand"] == []
    assert rnd.view("Ann")["counts"]["Eve"] == 0
    for name in NAMES[:4]:
        assert rnd.to_act() == name
        legal = rnd.legal(name)
        assert legal == [{"action": "draw", "discard": [], "max_discard": 5}]
        rnd.apply(name, legal[0])  # sent as offered, it stands pat
    assert rnd.phase == PLAY
    assert rnd.view(None)["upcard"] == "AH"  # the 26th card of the pack, face up all round
    assert rnd.to_act() == "Ann"


def test_nobody_discards_more_than_the_pack_can_give() -> None:
    """Seven players, nobody drops: 35 dealt and the upcard leave 16 to draw (IHBA)."""
    begin = start("huckley-buck", 7)
    rnd = online.deal(begin, online.pack(begin))
    for name in NAMES[:3]:
        rnd.apply(name, {"action": "in"})
    # Three "in" do not end the announcements: everyone speaks until the limit or the dealer.
    for name in NAMES[3:]:
        rnd.apply(name, {"action": "in"})
    for name in NAMES[:3]:
        rnd.apply(name, {"action": "draw", "discard": rnd.view(name)["hand"]})
    assert rnd.view("Dee")["pack"] == 1
    assert rnd.view("Dee")["draw"]["max_discard"] == 1
    hand = rnd.view("Dee")["hand"]
    assert "at most 1" in refused(
        rnd, "Dee", {"action": "draw", "discard": hand[:2]}, "too_many_discards"
    )
    rnd.apply("Dee", {"action": "draw", "discard": hand[:1]})
    refused(
        rnd, "Eve", {"action": "draw", "discard": rnd.view("Eve")["hand"][:1]}, "too_many_discards"
    )


def test_bad_moves_and_turns_are_refused() -> None:
    rnd = online.deal(start("huckley-buck", 5), online.pack(start("huckley-buck", 5)))
    assert rnd.to_act() == "Ann"
    assert rnd.legal("Bob") == []
    refused(rnd, "Bob", {"action": "in"}, "not_your_turn")
    refused(rnd, "Zed", {"action": "in"}, "not_your_turn")
    for move in (None, [], "in", {}, {"action": 3}, {"action": "play", "card": "2S"}):
        refused(rnd, "Ann", move, "bad_move")
    while rnd.phase != PLAY:
        player = rnd.to_act() or ""
        rnd.apply(player, rnd.robot_move(player))
    player = rnd.to_act() or ""
    refused(rnd, player, {"action": "play"}, "bad_move")
    refused(rnd, player, {"action": "play", "card": 7}, "bad_move")
    refused(rnd, player, {"action": "draw", "discard": []}, "bad_move")
    with pytest.raises(engine.EngineUsageError):
        rnd.record()
    while rnd.phase != END:
        player = rnd.to_act() or ""
        rnd.apply(player, rnd.robot_move(player))
    assert rnd.to_act() is None
    assert rnd.legal("Ann") == []
    assert "over" in refused(rnd, "Ann", {"action": "play", "card": "2S"}, "not_your_turn")


def test_playable_and_the_registry() -> None:
    assert online.playable("huckley-buck")
    assert online.playable("hucklebuck")
    assert not online.playable("no-such-game")
    assert online.online_class("hucklebuck").PHASES == ("announce", "draw")


def test_every_refusal_code_is_documented() -> None:
    """Each code a move or a record's extension can be refused with has a row in
    docs/engine.md."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    source = "".join(
        (root / "engine" / path).read_text()
        for path in ("games/huckley/online.py", "games/_common/online.py")
    )
    found = set(re.findall(r'MoveRefused\(\s*"(\w+)"', source))
    found |= set(re.findall(r'return "(must_\w+)", \(', source))  # the play's reasons
    found |= {"announcement_mismatch", "draw_mismatch"}
    assert {"not_your_turn", "must_kill", "too_many_discards"} <= found
    doc = (root / "docs" / "engine.md").read_text()
    assert sorted(code for code in found if f"`{code}`" not in doc) == []
