"""The trick taken last, in every game's view (`last_trick`, docs/engine.md "Online
rounds"): its number, its cards leader first and who took it, the same for every player
and a watcher, from the moment it is taken until the next one is; a trick under way
changes nothing. One worked deal per game family, its winner worked by hand from the
family's rules (docs/rules*.md)."""

from __future__ import annotations

from engine.online import END
from tests.engine import test_online_bluke as bluke
from tests.engine import test_online_buck_euchre as buck_euchre
from tests.engine import test_online_huckley as huckley
from tests.engine import test_online_ten_point_buck as ten_point_buck


def test_huckley_buck_shows_the_trick_taken_last_with_its_winner() -> None:
    """IHBA THE PLAY: Cy trumps the club lead with 3H and Dee over-trumps with 9H, so Dee
    takes the first trick; every view, a watcher's too, shows it until the next is taken."""
    rnd = huckley.scripted(huckley.start("huckley-buck", 4), huckley.PLAY_HANDS, "8H")
    huckley.stand_pat(rnd)
    assert rnd.view("Ann")["last_trick"] is None
    for player, card in (("Ann", "5C"), ("Bob", "7C"), ("Cy", "3H")):
        rnd.apply(player, {"action": "play", "card": card})
    assert rnd.view(None)["last_trick"] is None  # the trick is not taken yet
    rnd.apply("Dee", {"action": "play", "card": "9H"})
    first = {
        "number": 1,
        "cards": [
            {"player": "Ann", "card": "5C"},
            {"player": "Bob", "card": "7C"},
            {"player": "Cy", "card": "3H"},
            {"player": "Dee", "card": "9H"},
        ],
        "winner": "Dee",
    }
    assert all(rnd.view(p)["last_trick"] == first for p in (None, *rnd.start.players))
    rnd.apply("Dee", {"action": "play", "card": "2H"})
    assert rnd.view("Ann")["last_trick"] == first  # a trick under way changes nothing
    while rnd.phase != END:
        who = rnd.to_act() or ""
        rnd.apply(who, {"action": "play", "card": rnd.legal(who)[0]})
    last = rnd.view("Bob")["last_trick"]
    assert last["number"] == 5
    assert [c["card"] for c in last["cards"]] == rnd.record()["play"]["tricks"][-1]
    assert last["winner"] == rnd.record()["trick_winners"][-1]


def test_buck_euchre_shows_the_trick_taken_last_with_its_winner() -> None:
    """Hearts named by Bob, Dee out: Bob leads the right bower, which takes the trick
    over Cy's nine of trumps and Ann's off-suit nine."""
    rnd = buck_euchre.dealt()
    buck_euchre.passes(rnd, "Bob", "Cy", "Dee", "Ann")
    rnd.apply("Bob", {"action": "trump", "suit": "H"})
    rnd.apply("Cy", {"action": "in"})
    rnd.apply("Dee", {"action": "out"})
    rnd.apply("Ann", {"action": "in"})
    for player, card in (("Bob", "JH"), ("Cy", "9H")):
        rnd.apply(player, {"action": "play", "card": card})
    assert rnd.view("Bob")["last_trick"] is None
    rnd.apply("Ann", {"action": "play", "card": "9D"})
    first = {
        "number": 1,
        "cards": [
            {"player": "Bob", "card": "JH"},
            {"player": "Cy", "card": "9H"},
            {"player": "Ann", "card": "9D"},
        ],
        "winner": "Bob",
    }
    # Dee, who dropped, and a watcher see it as the players do.
    assert all(rnd.view(p)["last_trick"] == first for p in (None, *buck_euchre.TABLE))
    # Spades led: Cy's ace of spades beats Bob's nine; Ann has no spade and no trump.
    for player, card in (("Bob", "9S"), ("Cy", "AS"), ("Ann", "AD")):
        rnd.apply(player, {"action": "play", "card": card})
    second = rnd.view("Dee")["last_trick"]
    assert (second["number"], second["winner"]) == (2, "Cy")


def test_bluke_shows_the_trick_taken_last_with_its_winner() -> None:
    """Spades trump: Ann's Lo Bluke takes the heart lead over Cy's ace of hearts; then Bob's
    Hi Bluke takes the last trick over Cy's trump."""
    rnd = bluke.dealt("bluke", bluke.HI_LO, "7S", 12)
    for player, bid in (("Bob", 2), ("Cy", 1), ("Ann", 1)):
        rnd.apply(player, {"action": "bid", "bid": bid})
    assert rnd.view("Bob")["last_trick"] is None
    for player, card in (("Bob", "5H"), ("Cy", "AH"), ("Ann", "BL")):
        rnd.apply(player, {"action": "play", "card": card})
    first = {
        "number": 1,
        "cards": [
            {"player": "Bob", "card": "5H"},
            {"player": "Cy", "card": "AH"},
            {"player": "Ann", "card": "BL"},
        ],
        "winner": "Ann",
    }
    assert all(rnd.view(p)["last_trick"] == first for p in (None, *bluke.TABLE))
    for player, card in (("Ann", "3H"), ("Bob", "BH"), ("Cy", "2S")):
        rnd.apply(player, {"action": "play", "card": card})
    assert rnd.phase == END
    last = rnd.view(None)["last_trick"]
    assert (last["number"], last["winner"]) == (2, "Bob")
    assert [c["card"] for c in last["cards"]] == ["3H", "BH", "2S"]


def test_ten_point_buck_shows_the_trick_taken_last_with_its_winner() -> None:
    """The highest white takes the trick: Bob's white 2 over Cy's white 1 and Ann's 2; then
    the Doe takes the Buck's trick for Cy."""
    rnd = ten_point_buck.dealt()
    ten_point_buck.bid_all(rnd, {"Bob": 30, "Cy": 25, "Ann": 0})
    assert rnd.view("Ann")["last_trick"] is None
    for player, card in (("Bob", "2w"), ("Cy", "1w"), ("Ann", "2")):
        rnd.apply(player, {"action": "play", "card": card})
    first = {
        "number": 1,
        "cards": [
            {"player": "Bob", "card": "2w"},
            {"player": "Cy", "card": "1w"},
            {"player": "Ann", "card": "2"},
        ],
        "winner": "Bob",
    }
    assert all(rnd.view(p)["last_trick"] == first for p in (None, *ten_point_buck.TABLE))
    for player, card in (("Bob", "10w"), ("Cy", "0w"), ("Ann", "1")):
        rnd.apply(player, {"action": "play", "card": card})
    second = rnd.view("Bob")["last_trick"]
    assert (second["number"], second["winner"]) == (2, "Cy")
