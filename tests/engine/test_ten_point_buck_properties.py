"""Properties of Ten-Point Buck that hold for every game: hypothesis draws the games."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.games.ten_point_buck.cards import DECK_SIZE, TALLY_OF, VALUE_MASK, VALUE_OF_BIT
from engine.games.ten_point_buck.play import (
    CardPointsResult,
    _careful_replay,
    _quick_replay,
    check_play,
    legal_cards,
    trick_winner,
)
from tests.engine.records import FIVE, game

RULES = "ten-point-buck"
STRATEGIES = st.sampled_from(["random", "greedy"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=3, max_value=5)
#: A shared machine may be slow to generate; that is no failure of the engine.
SLOW_OK = [HealthCheck.too_slow]
FAST = settings(max_examples=120, deadline=None, suppress_health_check=SLOW_OK)


def by_the_table(distance: int) -> int:
    """Scoring, written out as the text has it."""
    if distance == 0:
        return 10
    if 1 <= distance <= 5:
        return 5
    if 6 <= distance <= 10:
        return 3
    if 11 <= distance <= 15:
        return 2
    return 0


@FAST
@given(
    seed=SEEDS,
    size=SIZES,
    strategy=STRATEGIES,
    card_play=st.booleans(),
    rounds=st.sampled_from([None, 1, 3, 7]),
    tie_break=st.sampled_from([None, "play_on", "shared"]),
)
def test_every_simulated_game_is_valid_and_finished(
    seed: int, size: int, strategy: str, card_play: bool, rounds: int | None, tie_break: str | None
) -> None:
    options: dict[str, Any] = {}
    if rounds is not None:
        options["rounds"] = rounds
    if tie_break is not None:
        options["tie_break"] = tie_break
    players = FIVE[:size]
    record = engine.simulate(
        RULES, players, seed=seed, strategy=strategy, card_play=card_play, options=options
    )
    output = engine.check(record)
    assert output["valid"], output["errors"]
    assert output["finished"]
    length = rounds or 5
    assert len(output["rounds"]) >= length
    scores = output["scores"]
    top = max(scores.values())
    winner = output["winner"]
    if isinstance(winner, str):
        assert scores[winner] == top
        assert [p for p in players if scores[p] == top] == [winner]
        # Extra rounds are played only while the top is tied.
        if len(output["rounds"]) > length:
            before = output["rounds"][-2]["scores"]
            assert list(before.values()).count(max(before.values())) > 1
    else:
        assert tie_break == "shared"
        assert len(output["rounds"]) == length
        assert winner == [p for p in players if scores[p] == top]
    assert all(r["hooks"] == [] for r in output["rounds"])
    assert all(("play" in r) == card_play for r in record["rounds"])
    assert (
        engine.simulate(
            RULES, players, seed=seed, strategy=strategy, card_play=card_play, options=options
        )
        == record
    )


@settings(max_examples=80, deadline=None, suppress_health_check=SLOW_OK)
@given(seed=SEEDS, size=SIZES, strategy=STRATEGIES)
def test_a_random_legal_play_replays_to_the_same_result(
    seed: int, size: int, strategy: str
) -> None:
    """The simulator plays legal cards and counts its own points and bonus; the checker,
    given only the bids and the cards, must find the same."""
    record = engine.simulate(RULES, FIVE[:size], seed=seed, strategy=strategy, card_play=True)
    with_summary = engine.check(record)
    assert with_summary["valid"], with_summary["errors"]
    bare = copy.deepcopy(record)
    for rnd in bare["rounds"]:
        rnd.pop("points")
        rnd.pop("doe_bonus")
    assert engine.check(bare) == with_summary
    # And the summary alone, without the cards, scores the same.
    summary = copy.deepcopy(record)
    for rnd in summary["rounds"]:
        rnd.pop("play")
    assert engine.check(summary) == with_summary


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OK)
@given(seed=SEEDS, size=SIZES, strategy=STRATEGIES)
def test_the_replay_agrees_with_the_plain_trick_rules(seed: int, size: int, strategy: str) -> None:
    """Each trick's winner in the replay is the one `trick_winner` (the rules of Tricks and
    The Doe written out plainly) picks; every card is played once; points add up to the
    cards dealt."""
    players = FIVE[:size]
    record = engine.simulate(RULES, players, seed=seed, strategy=strategy, card_play=True)
    seat = {p: s for s, p in enumerate(players)}
    for rnd in record["rounds"]:
        result = check_play(
            number=1, players=players, seat=seat, dealer=seat[rnd["dealer"]], raw=rnd["play"]
        )
        assert isinstance(result, CardPointsResult)
        leader = (seat[rnd["dealer"]] + 1) % size
        bonus = None
        for trick, winner in zip(rnd["play"]["tricks"], result.winners, strict=True):
            assert winner == (leader + trick_winner(trick)) % size
            if "0w" in trick and "10w" in trick:
                bonus = winner
            leader = winner
        assert result.doe_bonus == bonus
        played = sorted(c for trick in rnd["play"]["tricks"] for c in trick)
        dealt = sorted(c for hand in rnd["play"]["hands"].values() for c in hand)
        assert played == dealt
        assert sum(result.points) == sum(int(c.rstrip("w")) for c in dealt)


@settings(max_examples=80, deadline=None, suppress_health_check=SLOW_OK)
@given(seed=SEEDS, size=SIZES, data=st.data())
def test_changing_any_single_points_value_of_a_played_round_is_refused(
    seed: int, size: int, data: st.DataObject
) -> None:
    """With the cards given the engine knows every player's points exactly."""
    players = FIVE[:size]
    record = engine.simulate(RULES, players, seed=seed, card_play=True)
    index = data.draw(st.integers(0, len(record["rounds"]) - 1))
    name = data.draw(st.sampled_from(players))
    points = record["rounds"][index]["points"]
    new = data.draw(st.integers(0, 220).filter(lambda v: v != points[name]))
    points[name] = new
    output = engine.check(record)
    assert not output["valid"]
    assert [(e["round"], e["code"], e["field"]) for e in output["errors"]] == [
        (index + 1, "play_mismatch", "points")
    ]


@st.composite
def hand_and_trick(draw: st.DrawFn) -> tuple[int, int]:
    """A hand of 1-10 cards of the deck, and the rank masks of a partial trick of 0-4 other
    cards."""
    bits = draw(st.lists(st.integers(0, DECK_SIZE - 1), min_size=1, max_size=14, unique=True))
    size = draw(st.integers(1, min(10, len(bits))))
    hand = sum(1 << b for b in bits[:size])
    in_trick = 0
    for b in bits[size : size + 4]:
        in_trick |= VALUE_MASK[VALUE_OF_BIT[b]]
    return hand, in_trick


@settings(max_examples=500, deadline=None, suppress_health_check=SLOW_OK)
@given(case=hand_and_trick())
def test_legal_cards_are_never_empty_and_part_of_the_hand(case: tuple[int, int]) -> None:
    hand, in_trick = case
    legal = legal_cards(hand, in_trick)
    assert legal
    assert legal & ~hand == 0
    free = [
        b for b in range(DECK_SIZE) if hand >> b & 1 and not in_trick & VALUE_MASK[VALUE_OF_BIT[b]]
    ]
    if free:
        # Legal Plays: exactly the cards of ranks not yet in the trick.
        assert legal == sum(1 << b for b in free)
    else:
        # "unless it is their only available option": then anything.
        assert legal == hand


@st.composite
def summary_game(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """A game of well-formed summary rounds at 4 players (points adding up to 105-200) and
    the Hunting Points each round should give, by the table in Scoring."""
    players = FIVE[:4]
    rounds = []
    expected = []
    for _ in range(draw(st.integers(0, 9))):
        points = draw(st.lists(st.integers(0, 100), min_size=4, max_size=4))
        total = sum(points)
        if not 110 <= total <= 198:
            continue
        bids = draw(st.lists(st.integers(0, 220), min_size=4, max_size=4))
        holders = [s for s in range(4) if points[s] >= 10]
        bonus = draw(st.sampled_from([None, *holders]))
        rounds.append(
            {
                "bids": dict(zip(players, bids, strict=True)),
                "points": dict(zip(players, points, strict=True)),
                "doe_bonus": None if bonus is None else players[bonus],
            }
        )
        expected.append(
            {
                players[s]: by_the_table(abs(bids[s] - points[s])) + (2 if s == bonus else 0)
                for s in range(4)
            }
        )
    return game(*rounds, players=players, rules=RULES), expected


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW_OK)
@given(case=summary_game())
def test_summary_rounds_score_by_the_table(
    case: tuple[dict[str, Any], list[dict[str, int]]],
) -> None:
    record, expected = case
    output = engine.check(record)
    scored = output["rounds"]
    # A game may have ended at 5 rounds; later rounds are then game_over.
    assert [r["points"] for r in scored] == expected[: len(scored)]
    running = dict.fromkeys(record["players"], 0)
    for rnd in scored:
        for name, value in rnd["points"].items():
            running[name] += value
        assert rnd["scores"] == running
    if len(scored) < len(expected):
        assert [e["code"] for e in output["errors"]] == ["game_over"]
    else:
        assert output["valid"], output["errors"]


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW_OK)
@given(seed=SEEDS, size=SIZES, data=st.data())
def test_the_quick_replay_never_passes_what_the_careful_one_refuses(
    seed: int, size: int, data: st.DataObject
) -> None:
    """The quick pass checks the hands only once, at the end (see `_replay`). Swap two
    cards anywhere in the tricks of a played round, so that cards fall to the wrong
    players or break the legal-play rule: whenever the quick pass accepts the result,
    the careful pass, which checks every card, gives the same one."""
    players = FIVE[:size]
    record = engine.simulate(RULES, players, seed=seed, card_play=True)
    rnd = record["rounds"][data.draw(st.integers(0, len(record["rounds"]) - 1))]
    tricks = [list(t) for t in rnd["play"]["tricks"]]
    for _ in range(data.draw(st.integers(1, 3))):
        a, b = data.draw(st.tuples(st.integers(0, 9), st.integers(0, 9)))
        i, j = data.draw(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1)))
        tricks[a][i], tricks[b][j] = tricks[b][j], tricks[a][i]
    hands = [sum(TALLY_OF[c] for c in rnd["play"]["hands"][p]) for p in players]
    dealer = players.index(rnd["dealer"])
    quick = _quick_replay(players, dealer, hands[:], tricks)
    careful = _careful_replay(1, players, dealer, hands[:], tricks)
    if quick is not None:
        assert careful == quick
    elif isinstance(careful, CardPointsResult):
        # Only a renege faked by corrupt tallies may send a sound play to the careful pass,
        # and a sound play leaves no corrupt tallies: so this does not happen.
        raise AssertionError("the quick pass refused a sound play")
    else:
        assert careful[0]["code"] in {"card_not_in_hand", "renege"}
