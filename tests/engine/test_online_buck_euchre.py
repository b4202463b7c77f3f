"""Buck Euchre played move by move (engine/games/buck_euchre/online.py): the text's
bidding rounds, dirty clubs, the dealer's discard, dropping and the play, every refusal,
and whole games built round by round that the checker accepts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.online import END, PLAY, deal, pack
from tests.engine.online_helpers import (
    NAMES,
    hidden_cards,
    leaks,
    play_game,
    play_out,
    random_player,
    refused,
    robot,
    round_trip,
    shuffled_deal,
    start,
)

RULES = "buck-euchre"
TABLE = ("Ann", "Bob", "Cy", "Dee")
_TABLES = engine.rules_info(RULES).tables
SIZES = range(_TABLES.play_min, _TABLES.play_max + 1)


def order_for(hands: dict[str, list[str]], upcard: str, dealer: str = "Ann") -> list[str]:
    """The pack in the order that deals `hands` (3 then 2 from the dealer's left) and turns
    `upcard` up; the other undealt cards follow."""
    players = list(TABLE)
    d = players.index(dealer)
    seats = [players[(d + k) % 4] for k in range(1, 5)]
    order = [c for p in seats for c in hands[p][:3]] + [c for p in seats for c in hands[p][3:]]
    order.append(upcard)
    order += [c for c in pack(start(RULES, TABLE)) if c not in order]
    return order


#: Bob holds the top hearts, Cy the left bower, Dee every club but the nine, Ann (dealer)
#: the diamonds; QS is turned up, and QS, JS, TS, 9C stay on the stub.
HANDS = {
    "Bob": ["JH", "AH", "KH", "QH", "9S"],
    "Cy": ["JD", "TH", "9H", "AS", "KS"],
    "Dee": ["AC", "KC", "QC", "JC", "TC"],
    "Ann": ["AD", "KD", "QD", "TD", "9D"],
}


def dealt(upcard: str = "QS", **options: object) -> engine.online.OnlineRound:
    return deal(start(RULES, TABLE, options=options), order_for(HANDS, upcard))


def passes(rnd: engine.online.OnlineRound, *who: str) -> None:
    for p in who:
        rnd.apply(p, {"action": "pass"})


def test_the_deal_gives_five_each_and_turns_up_the_next_card() -> None:
    rnd = dealt()
    assert rnd.phase == "order"
    assert rnd.to_act() == "Bob"  # the dealer's left bids first
    assert sorted(rnd.view("Cy")["hand"]) == sorted(HANDS["Cy"])
    assert rnd.view("Cy")["upcard"] == "QS"
    assert rnd.legal("Bob") == [{"action": "trump", "suit": "S"}, {"action": "pass"}]
    assert rnd.legal("Cy") == []


def test_second_round_names_another_suit_then_players_drop_and_must_follow() -> None:
    rnd = dealt()
    # Round one offers only the upcard's suit.
    assert refused(rnd, "Bob", {"action": "trump", "suit": "H"}).code == "wrong_suit"
    passes(rnd, "Bob", "Cy", "Dee", "Ann")
    assert rnd.phase == "name"
    assert rnd.view("Bob")["upcard"] is None  # turned down
    assert {"action": "trump", "suit": "S"} not in rnd.legal("Bob")
    e = refused(rnd, "Bob", {"action": "trump", "suit": "S"})
    assert e.code == "wrong_suit"
    assert "turned down" in e.message
    rnd.apply("Bob", {"action": "trump", "suit": "H"})
    assert rnd.phase == "drop"
    assert rnd.to_act() == "Cy"
    assert rnd.legal("Cy") == [{"action": "in"}, {"action": "out"}]
    assert refused(rnd, "Cy", {"action": "pass"}).code == "bad_move"
    rnd.apply("Cy", {"action": "in"})
    rnd.apply("Dee", {"action": "out"})
    rnd.apply("Ann", {"action": "in"})
    assert rnd.phase == PLAY
    assert rnd.to_act() == "Bob"
    assert rnd.view(None)["counts"]["Dee"] == 0
    rnd.apply("Bob", {"action": "play", "card": "JH"})
    # A trump lead: Cy holds TH, 9H and the left bower JD, a trump.
    assert sorted(rnd.legal("Cy")) == ["9H", "JD", "TH"]
    e = refused(rnd, "Cy", {"action": "play", "card": "AS"})
    assert e.code == "must_follow"
    assert "trump" in e.message
    assert refused(rnd, "Cy", {"action": "play", "card": "AD"}).code == "not_in_hand"
    assert refused(rnd, "Dee", {"action": "play", "card": "AC"}).code == "not_your_turn"
    rnd.apply("Cy", {"action": "play", "card": "9H"})
    rnd.apply("Ann", {"action": "play", "card": "9D"})  # void in trumps: any card
    assert rnd.view(None)["tricks_won"] == {"Bob": 1, "Cy": 0, "Ann": 0}
    rnd.apply("Bob", {"action": "play", "card": "9S"})
    # Spades led: Cy must play AS or KS.
    e = refused(rnd, "Cy", {"action": "play", "card": "JD"})
    assert e.code == "must_follow"
    assert "spades (AS, KS)" in e.message
    play_out(rnd, robot)
    rec = rnd.record()
    assert rec["declarer"] == "Bob"
    assert rec["trump"] == "H"
    assert rec["out"] == ["Dee"]
    first_round = [{"player": p, "action": "pass"} for p in ("Bob", "Cy", "Dee", "Ann")]
    assert rec["calls"][:4] == first_round
    assert rec["calls"][4] == {"player": "Bob", "action": "trump", "suit": "H"}
    assert set(rec["play"]["hands"]) == {"Ann", "Bob", "Cy"}
    verdict = engine.check({"format": "buck-game/1", "rules": RULES, "players": list(TABLE),
                            "first_dealer": "Ann", "rounds": [rec]})  # fmt: skip
    assert verdict["valid"], verdict["errors"]


def test_ordering_up_gives_the_dealer_the_upcard_to_discard_for() -> None:
    rnd = dealt()
    rnd.apply("Bob", {"action": "trump", "suit": "S"})
    assert rnd.phase == "discard"
    assert rnd.to_act() == "Ann"
    assert "QS" in rnd.view("Ann")["hand"]
    assert {"action": "discard", "card": "QS"} not in rnd.legal("Ann")
    assert refused(rnd, "Ann", {"action": "discard", "card": "QS"}).code == "discard_upcard"
    assert refused(rnd, "Ann", {"action": "discard", "card": "AS"}).code == "not_in_hand"
    assert refused(rnd, "Ann", {"action": "discard", "card": "2S"}).code == "bad_move"
    rnd.apply("Ann", {"action": "discard", "card": "9D"})
    assert rnd.phase == "drop"
    assert rnd.to_act() == "Cy"
    assert rnd.view("Cy")["upcard"] is None  # in the dealer's hand now
    for p in ("Cy", "Dee", "Ann"):
        rnd.apply(p, {"action": "in"})
    play_out(rnd, robot)
    rec = rnd.record()
    assert "QS" in rec["play"]["hands"]["Ann"]
    assert rec["discard"] == "9D"
    verdict = engine.check({"format": "buck-game/1", "rules": RULES, "players": list(TABLE),
                            "first_dealer": "Ann", "rounds": [rec]})  # fmt: skip
    assert verdict["valid"], verdict["errors"]


def test_dirty_clubs_skip_the_bidding_and_nobody_drops() -> None:
    rnd = dealt("9C")
    assert rnd.phase == PLAY
    assert rnd.view("Bob")["trump"] == "C"
    assert rnd.view(None)["upcard"] == "9C"  # face up on the stub all hand
    play_out(rnd, robot)
    rec = rnd.record()
    assert rec["declarer"] is None
    assert "out" not in rec
    assert rec["calls"] == []


def test_dirty_clubs_with_the_upcard_to_the_dealer() -> None:
    rnd = dealt("9C", club_upcard_to_dealer=True)
    assert rnd.phase == "discard"
    assert rnd.to_act() == "Ann"
    rnd.apply("Ann", {"action": "discard", "card": "9D"})
    assert rnd.phase == PLAY
    play_out(rnd, robot)
    rec = rnd.record()
    verdict = engine.check({"format": "buck-game/1", "rules": RULES, "players": list(TABLE),
                            "first_dealer": "Ann", "options": {"club_upcard_to_dealer": True},
                            "rounds": [rec]})  # fmt: skip
    assert verdict["valid"], verdict["errors"]


def test_eight_passes_play_the_hand_without_trump() -> None:
    rnd = dealt()
    passes(rnd, "Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann")
    assert rnd.phase == PLAY
    assert rnd.view(None)["trump"] is None
    rnd.apply("Bob", {"action": "play", "card": "9S"})
    # No trump, no bowers: JD is a plain diamond and Cy must play a spade.
    assert sorted(rnd.legal("Cy")) == ["AS", "KS"]
    play_out(rnd, robot)
    rec = rnd.record()
    assert rec["trump"] is None
    assert rec["declarer"] is None
    assert engine.check({"format": "buck-game/1", "rules": RULES, "players": list(TABLE),
                         "first_dealer": "Ann", "rounds": [rec]})["valid"]  # fmt: skip


@pytest.mark.parametrize(
    "move",
    [
        None,
        "pass",
        {},
        {"action": 3},
        {"action": "bid", "bid": 3},
        {"action": "play", "card": "AH"},
    ],
)
def test_malformed_moves_are_refused_as_bad_move(move: object) -> None:
    assert refused(dealt(), "Bob", move).code == "bad_move"


def test_bad_suits_are_refused() -> None:
    rnd = dealt()
    assert refused(rnd, "Bob", {"action": "trump", "suit": "X"}).code == "bad_move"
    assert refused(rnd, "Bob", {"action": "trump"}).code == "bad_move"


def test_nothing_is_taken_after_the_end() -> None:
    rnd = play_out(dealt("9C"), robot)
    assert rnd.phase == END
    assert rnd.to_act() is None
    assert rnd.legal("Bob") == []
    assert refused(rnd, "Bob", {"action": "play", "card": "9S"}).code == "not_your_turn"


def test_record_before_the_end_is_a_usage_error() -> None:
    with pytest.raises(engine.EngineUsageError):
        dealt().record()


def _public(rnd: engine.online.OnlineRound) -> list[str]:
    up = rnd.view(None)["upcard"]
    return [up] if up else []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)))
def test_robots_play_whole_games_the_checker_accepts(seed: int, n: int) -> None:
    rng = random.Random(seed)
    _, verdict = play_game(RULES, NAMES[:n], rng, robot, check=True)
    assert verdict["valid"]
    assert verdict["finished"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)), to_dealer=st.booleans())
def test_random_legal_players_make_valid_records(seed: int, n: int, to_dealer: bool) -> None:
    rng = random.Random(seed)
    options = {"club_upcard_to_dealer": to_dealer, "start": 10}
    _, verdict = play_game(RULES, NAMES[:n], rng, random_player(rng), options=options, check=True)
    assert verdict["valid"]
    assert verdict["finished"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.integers(0, 40))
def test_views_hide_other_hands_and_the_stub_and_json_round_trips(seed: int, stop: int) -> None:
    rng = random.Random(seed)
    rnd = shuffled_deal(start(RULES, TABLE, dealer="Cy"), rng)
    choose = random_player(rng)
    for _ in range(stop):
        who = rnd.to_act()
        if who is None:
            break
        for p in (*TABLE, None):
            assert not leaks(rnd.view(p), hidden_cards(rnd, p, _public(rnd)))
        rnd.apply(who, choose(rnd, who))
    rnd = round_trip(rnd)
    play_out(rnd, robot)
    assert rnd.phase == END


def _finished_named_hand() -> dict[str, object]:
    rnd = dealt()
    passes(rnd, "Bob", "Cy", "Dee", "Ann", "Bob")
    rnd.apply("Cy", {"action": "trump", "suit": "D"})
    for p in ("Dee", "Ann", "Bob"):
        rnd.apply(p, {"action": "in"})
    play_out(rnd, robot)
    return rnd.record()


def _check(rnd: dict[str, object], **options: object) -> dict[str, object]:
    return engine.check(
        {
            "format": "buck-game/1",
            "rules": RULES,
            "players": list(TABLE),
            "first_dealer": "Ann",
            "options": options,
            "rounds": [rnd],
        }
    )


def test_the_checker_reads_the_calls_extension_and_does_without_it() -> None:
    rec = _finished_named_hand()
    assert _check(rec)["valid"]
    assert _check({k: v for k, v in rec.items() if k not in ("calls", "discard")})["valid"]
    assert _check(rec | {"calls": None})["valid"]


P = {"action": "pass"}


@pytest.mark.parametrize(
    ("calls", "code"),
    [
        ("Bob pass", "bad_field"),
        ([{"player": "Zed", "action": "pass"}], "bad_field"),
        ([{"player": ["Bob"], "action": "pass"}], "bad_field"),
        ([{"player": "Bob", "action": "trump", "suit": "X"}], "bad_field"),
        ([{"player": "Bob", "action": "bid"}], "bad_field"),
        # Cy named diamonds in the second round: five passes first, from Bob.
        ([{"player": "Cy", "action": "trump", "suit": "D"}], "calls_mismatch"),
        (
            [{"player": p} | P for p in ("Cy", "Dee", "Ann", "Bob", "Bob")]
            + [{"player": "Cy", "action": "trump", "suit": "D"}],
            "calls_mismatch",
        ),
        (
            [{"player": p} | P for p in ("Bob", "Cy", "Dee", "Ann", "Bob")]
            + [{"player": "Cy", "action": "trump", "suit": "H"}],
            "calls_mismatch",
        ),
    ],
)
def test_calls_that_do_not_fit_the_hand_are_refused(calls: object, code: str) -> None:
    verdict = _check(_finished_named_hand() | {"calls": calls})
    assert not verdict["valid"]
    assert [(e["code"], e["field"]) for e in verdict["errors"]] == [(code, "calls")]


def test_calls_in_dirty_clubs_or_too_few_passes_are_refused() -> None:
    dirty = play_out(dealt("9C"), robot).record()
    verdict = _check(dirty | {"calls": [{"player": "Bob", "action": "pass"}]})
    assert [e["code"] for e in verdict["errors"]] == ["calls_mismatch"]
    assert "dirty clubs" in verdict["errors"][0]["message"]
    rnd = dealt()
    passes(rnd, "Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann")
    no_trump = play_out(rnd, robot).record()
    assert _check(no_trump)["valid"]
    short = no_trump | {"calls": no_trump["calls"][:4]}
    assert [e["code"] for e in _check(short)["errors"]] == ["calls_mismatch"]


def test_a_deal_from_an_order_that_is_not_the_pack_is_a_usage_error() -> None:
    st_ = start(RULES, TABLE)
    with pytest.raises(engine.EngineUsageError):
        deal(st_, [*pack(st_)[:-1], "2C"])


def _ordered_up_hand() -> dict[str, object]:
    rnd = dealt()
    rnd.apply("Bob", {"action": "trump", "suit": "S"})
    rnd.apply("Ann", {"action": "discard", "card": "9D"})
    for p in ("Cy", "Dee", "Ann"):
        rnd.apply(p, {"action": "in"})
    return play_out(rnd, robot).record()


@pytest.mark.parametrize(
    ("hand", "discard", "code"),
    [
        ("ordered", "2D", "bad_field"),
        ("ordered", 9, "bad_field"),
        ("ordered", "QS", "discard_upcard"),
        ("ordered", "AD", "discard_in_hand"),
        ("named", "9D", "discard_not_allowed"),
    ],
)
def test_a_discard_that_cannot_be_is_refused(hand: str, discard: object, code: str) -> None:
    rec = _ordered_up_hand() if hand == "ordered" else _finished_named_hand()
    assert _check(rec)["valid"]
    verdict = _check(rec | {"discard": discard})
    assert [(e["code"], e["field"]) for e in verdict["errors"]] == [(code, "discard")]


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    # Bob names hearts: Cy's JD is then the left bower, a heart, and Ann's JH the right.
    hands = {
        "Bob": ["AH", "KH", "QH", "AD", "9S"],
        "Cy": ["JD", "TH", "9H", "AS", "KS"],
        "Dee": ["AC", "KC", "QC", "JC", "TC"],
        "Ann": ["JH", "KD", "QD", "TD", "9D"],
    }
    rnd = deal(start(RULES, TABLE), order_for(hands, "QS"))
    passes(rnd, "Bob", "Cy", "Dee", "Ann")
    rnd.apply("Bob", {"action": "trump", "suit": "H"})
    for p in ("Cy", "Dee", "Ann"):
        rnd.apply(p, {"action": "in"})
    rnd.apply("Bob", {"action": "play", "card": "AD"})
    # Cy holds JD, printed a diamond but a heart now: no diamond to follow with.
    assert sorted(rnd.legal("Cy")) == sorted(hands["Cy"])
    rnd.apply("Cy", {"action": "play", "card": "AS"})
    rnd.apply("Dee", {"action": "play", "card": "TC"})
    rnd.apply("Ann", {"action": "play", "card": "9D"})
    # Bob won with AD; he leads 9S, Cy must follow with KS (JD does not count as a diamond,
    # nor as a spade).
    rnd.apply("Bob", {"action": "play", "card": "9S"})
    assert rnd.legal("Cy") == ["KS"]
    rnd.apply("Cy", {"action": "play", "card": "KS"})
    rnd.apply("Dee", {"action": "play", "card": "JC"})
    rnd.apply("Ann", {"action": "play", "card": "TD"})
    # Cy won and leads JD: a trump lead, not a diamond one.
    rnd.apply("Cy", {"action": "play", "card": "JD"})
    assert sorted(rnd.legal("Dee")) == sorted(["AC", "KC", "QC"])  # void in hearts
    rnd.apply("Dee", {"action": "play", "card": "QC"})
    # Ann holds JH, the right bower: she must follow the trump lead with it.
    assert rnd.legal("Ann") == ["JH"]
    e = refused(rnd, "Ann", {"action": "play", "card": "KD"})
    assert e.code == "must_follow"
    assert "trumps (JH (right bower))" in e.message


def test_a_robot_is_asked_only_on_its_turn() -> None:
    rnd = dealt()
    assert refused_robot(rnd, "Cy") == "not_your_turn"
    assert rnd.robot_move("Bob") == rnd.robot_move("Bob")


def refused_robot(rnd: engine.online.OnlineRound, player: str) -> str:
    with pytest.raises(engine.online.MoveRefused) as info:
        rnd.robot_move(player)
    return info.value.code


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3), to_dealer=st.booleans())
def test_the_robot_plays_as_the_simulators_greedy_player(
    seed: int, dealer: int, to_dealer: bool
) -> None:
    from engine.cards import CARD_NAMES
    from engine.games.buck_euchre import simulate

    # The simulator deals seat by seat from its own shuffle: feed it the keys that make
    # its pack order a chosen permutation, and deal the online round the same hands.
    perm = list(range(24))
    random.Random(seed).shuffle(perm)
    keys = iter([perm.index(i) / 24 for i in range(24)])
    sim: dict[str, object] = {}
    simulate._play_round(
        sim, TABLE, dealer, lambda: next(keys), True, to_dealer, True, True
    )  # fmt: skip
    cards = [CARD_NAMES[simulate.PACK_CARDS[i]] for i in perm]
    hands = {p: cards[5 * s : 5 * s + 5] for s, p in enumerate(TABLE)}
    st_ = start(RULES, TABLE, dealer=TABLE[dealer], options={"club_upcard_to_dealer": to_dealer})
    rec = play_out(deal(st_, order_for(hands, cards[20], TABLE[dealer])), robot).record()
    for field in ("upcard", "trump", "declarer", "tricks"):
        assert rec[field] == sim[field]
    assert rec.get("out") == sim.get("out")
    assert rec["play"]["tricks"] == sim["play"]["tricks"]  # type: ignore[index]


def test_every_refusal_code_of_the_three_trick_games_is_documented() -> None:
    """Each code a move of Buck Euchre, Bluke or Ten-Point Buck can be refused with, and
    each code the checker gives the Buck Euchre extensions, is written in the docs."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    paths = (
        "_common/online.py",
        "buck_euchre/online.py",
        "bluke/online.py",
        "ten_point_buck/online.py",
    )
    source = "".join((root / "engine" / "games" / p).read_text() for p in paths)
    found = set(re.findall(r'MoveRefused\(\s*"(\w+)"', source))
    assert {"not_your_turn", "rank_rule", "wrong_suit", "bid_out_of_range"} <= found
    doc = (root / "docs" / "engine.md").read_text()
    assert sorted(code for code in found | {"must_follow"} if f"`{code}`" not in doc) == []
    fields = (root / "engine" / "games" / "buck_euchre" / "fields.py").read_text()
    checker = set(re.findall(r'"((?:calls|discard)_\w+)"', fields))
    assert checker == {"calls_mismatch", "discard_not_allowed", "discard_upcard", "discard_in_hand"}
    rules = (root / "docs" / "rules-buck-euchre.md").read_text()
    assert sorted(code for code in checker if f"`{code}`" not in rules) == []
