"""Properties of every Buck Euchre game: hypothesis draws the games, deals and tricks.

The legal-card and trick-winner properties compare the engine's tables with a direct
reading of the text's Card ranking (written here, card by card, without the tables).
"""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stdout
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.cards import CARD_NAMES
from engine.cli import main
from engine.games.buck_euchre.cards import PACK_CARDS
from engine.games.buck_euchre.play import legal, trick_winner
from tests.engine.records import FOUR, assert_is_a_verdict, change_a_trick_count, game

STRATEGIES = st.sampled_from(["random", "greedy"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "start": st.integers(min_value=1, max_value=40),
        "sweep_wins": st.booleans(),
        "club_upcard_to_dealer": st.booleans(),
        "misdeal_set": st.booleans(),
    },
)
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=SEEDS, strategy=STRATEGIES, card_play=st.booleans(), options=OPTIONS)
def test_every_simulated_game_is_valid_and_finished(
    seed: int, strategy: str, card_play: bool, options: dict[str, Any]
) -> None:
    record = engine.simulate(
        "buck-euchre", FOUR, seed=seed, strategy=strategy, card_play=card_play, options=options
    )
    output = engine.check(record)
    assert output["valid"], output["errors"]
    assert output["finished"]
    winners = output["winner"] if isinstance(output["winner"], list) else [output["winner"]]
    scores = output["scores"]
    last = record["rounds"][-1]
    swept = [p for p, t in last.get("tricks", {}).items() if t == 5]
    if swept and options.get("sweep_wins", True):
        assert winners == swept
    else:
        low = min(scores.values())
        assert low <= 0
        assert winners == [p for p in FOUR if scores[p] == low]
    assert all(("play" in r) == card_play for r in record["rounds"] if not r.get("misdeal"))
    assert (
        engine.simulate(
            "buck-euchre", FOUR, seed=seed, strategy=strategy, card_play=card_play,
            options=options,
        )
        == record
    )  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, strategy=STRATEGIES, options=OPTIONS)
def test_a_random_legal_play_replays_to_the_same_tricks(
    seed: int, strategy: str, options: dict[str, Any]
) -> None:
    """The simulator plays legal cards and counts its own tricks; the checker, given only
    the cards, must find the same tricks."""
    record = engine.simulate(
        "buck-euchre", FOUR, seed=seed, strategy=strategy, card_play=True, options=options
    )
    with_summary = engine.check(record)
    bare = copy.deepcopy(record)
    for rnd in bare["rounds"]:
        rnd.pop("tricks", None)
    assert engine.check(bare) == with_summary


@FAST
@given(
    seed=SEEDS,
    card_play=st.booleans(),
    pick=st.integers(min_value=0),
    new_count=st.integers(min_value=0, max_value=5),
)
def test_changing_any_single_trick_count_makes_the_round_invalid(
    seed: int, card_play: bool, pick: int, new_count: int
) -> None:
    record = engine.simulate("buck-euchre", FOUR, seed=seed, card_play=card_play)
    i = change_a_trick_count(record, pick, new_count)
    output = engine.check(record)
    assert not output["valid"]
    assert output["errors"][0]["round"] == i + 1
    assert output["errors"][0]["code"] in ("tricks_not_five", "play_mismatch")
    assert len(output["rounds"]) == i


@st.composite
def summary_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A game of random but well-formed summary rounds of every kind."""
    rounds = []
    for _ in range(draw(st.integers(min_value=0, max_value=30))):
        kind = draw(st.sampled_from(["declared", "dirty", "no_trump", "misdeal"]))
        if kind == "misdeal":
            rounds.append({"misdeal": True})
            continue
        rnd: dict[str, Any] = {}
        out: list[str] = []
        if kind == "declared":
            declarer = draw(st.sampled_from(FOUR))
            others = [p for p in FOUR if p != declarer]
            out = draw(st.lists(st.sampled_from(others), unique=True))
            rnd.update(trump=draw(st.sampled_from("SHD")), declarer=declarer)
            if out:
                rnd["out"] = out
        elif kind == "dirty":
            rnd.update(upcard=draw(st.sampled_from(["9C", "TC", "JC", "QC", "KC", "AC"])))
        else:
            rnd.update(trump=None)
        in_hand = [p for p in FOUR if p not in out]
        winners = draw(st.lists(st.sampled_from(in_hand), min_size=5, max_size=5))
        rnd["tricks"] = {p: winners.count(p) for p in in_hand if winners.count(p)}
        rounds.append(rnd)
    return game(
        *rounds, players=FOUR, rules="buck-euchre", first_dealer=draw(st.sampled_from(FOUR))
    )


@FAST
@given(record=summary_rounds(), start=st.integers(min_value=1, max_value=60))
def test_scores_start_at_25_and_change_by_the_rules(record: dict[str, Any], start: int) -> None:
    """'Each player starts the game with 25 points' (option start); a round changes a
    score by +5 (set: listed in hooks), by minus the tricks taken (1 to 5), or not at all
    (dropped, or a misdeal)."""
    default = engine.check(record)
    if default["rounds"]:
        first = default["rounds"][0]
        assert {p: first["scores"][p] - first["points"][p] for p in FOUR} == dict.fromkeys(FOUR, 25)
    output = engine.check({**record, "options": {"start": start}})
    assert [e["code"] for e in output["errors"]] in ([], ["game_over"])
    totals = dict.fromkeys(FOUR, start)
    for rnd, result in zip(record["rounds"], output["rounds"], strict=False):
        for name in FOUR:
            points = result["points"][name]
            assert -5 <= points <= 5
            took = rnd.get("tricks", {}).get(name, 0)
            if rnd.get("misdeal") or name in rnd.get("out", ()):
                assert points == 0
            elif name in result["hooks"]:
                assert points == 5
                assert took < (3 if rnd.get("declarer") == name else 1)
            else:
                assert points == -took
                assert took >= (3 if rnd.get("declarer") == name else 1)
            totals[name] += points
        assert result["scores"] == totals
        # Only the last round scored may end the game.
        ended = min(totals.values()) <= 0 or 5 in rnd.get("tricks", {}).values()
        assert ended == (result is output["rounds"][-1] and output["finished"])
    assert output["scores"] == totals


SUITS = "SHDC"
PACK = [CARD_NAMES[c] for c in PACK_CARDS]
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def suit_of(card: str, trump: str | None) -> str:
    """The text: 'the left bower is considered part of the trump suit'."""
    if trump is not None and card == "J" + SAME_COLOUR[trump]:
        return trump
    return card[1]


def rank_of(card: str, trump: str | None) -> int:
    """The text's order: right bower, left bower, A K Q 10 9 of trump; A K Q J 10 9."""
    if trump is not None and suit_of(card, trump) == trump:
        return ["9", "T", "Q", "K", "A", "L", "R"].index(
            "R" if card == "J" + trump else "L" if card[0] == "J" else card[0]
        ) + 100
    return "9TJQKA".index(card[0])


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.sampled_from(PACK), min_size=2, max_size=9, unique=True),
    hand_size=st.integers(min_value=1, max_value=5),
    trump=st.sampled_from([*SUITS, None]),
)
def test_the_legal_cards_follow_the_suit_led_as_the_text_says(
    cards: list[str], hand_size: int, trump: str | None
) -> None:
    hand, rest = cards[:hand_size], cards[hand_size:]
    index = 4 if trump is None else SUITS.index(trump)
    mask = sum(1 << engine.cards.PARSE[c] for c in hand)
    if not rest:
        assert legal(mask, -1, index) == mask
        return
    led = rest[0]
    follow = [c for c in hand if suit_of(c, trump) == suit_of(led, trump)]
    expected = follow or hand
    allowed = legal(mask, engine.cards.PARSE[led], index)
    assert {CARD_NAMES[c] for c in range(52) if allowed >> c & 1} == set(expected)


@settings(max_examples=300, deadline=None)
@given(
    trick=st.lists(st.sampled_from(PACK), min_size=1, max_size=4, unique=True),
    trump=st.sampled_from([*SUITS, None]),
)
def test_the_trick_goes_to_the_highest_trump_or_the_highest_of_the_suit_led(
    trick: list[str], trump: str | None
) -> None:
    trumps = [c for c in trick if trump is not None and suit_of(c, trump) == trump]
    led = suit_of(trick[0], trump)
    contenders = trumps or [c for c in trick if suit_of(c, trump) == led]
    best = max(contenders, key=lambda c: rank_of(c, trump))
    index = 4 if trump is None else SUITS.index(trump)
    assert trick_winner([engine.cards.PARSE[c] for c in trick], index) == trick.index(best)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    ["dealer", "upcard", "trump", "declarer", "out", "tricks", "trick_winners", "misdeal",
     "penalties", "play"]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, field=FIELDS, value=JSON, which=st.integers(min_value=0))
def test_check_never_raises_when_any_field_holds_anything(
    seed: int, field: str, value: Any, which: int
) -> None:
    record = engine.simulate("buck-euchre", FOUR, seed=seed, card_play=True)
    rnd = record["rounds"][which % len(record["rounds"])]
    rnd[field] = value
    if isinstance(rnd.get("play"), dict) and which % 3 == 0:
        rnd["play"]["hands"] = {"Ann": value}
    if isinstance(rnd.get("play"), dict) and which % 3 == 1:
        rnd["play"]["tricks"] = [value] * 5
    assert_is_a_verdict(engine.check(record))


def test_the_command_line_simulates_and_checks_buck_euchre(
    monkeypatch: Any,
) -> None:
    """`python -m engine simulate --rules buck-euchre --players 4 --seed 7` and `check`."""
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main(["simulate", "--rules", "buck-euchre", "--players", "4", "--seed", "7"]) == 0
    record = json.loads(printed.getvalue())
    assert record["players"] == FOUR
    monkeypatch.setattr("sys.stdin", io.StringIO(printed.getvalue()))
    checked = io.StringIO()
    with redirect_stdout(checked):
        assert main(["check", "-"]) == 0
    output = json.loads(checked.getvalue())
    assert output["valid"]
    assert output["finished"]
