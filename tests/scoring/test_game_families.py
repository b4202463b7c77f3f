"""Each game family's Django side (scoring/games/<family>.py): its form turns a scorer's
entry into a round the engine accepts, its score-sheet line and its print columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import engine
from scoring import games
from scoring.games import GameFamily, PrintColumn, UnknownGame, family_for

#: Print-column keys that are not round fields: what the scorer marks from the rules.
MARKED = {"hooks", "score"}


def post_data(
    form_class: type[games.RoundForm], players: Sequence[str], rnd: Mapping[str, Any]
) -> dict[str, str]:
    """What a browser posts for a round typed into the form: the form's own reading of
    the round (`initial_from_round`) in the shape of POST data."""
    initial = form_class.initial_from_round(players, rnd)
    data: dict[str, str] = {"number": "1"}
    for key, value in initial.items():
        if value is None or value is False:
            continue
        data[key] = "on" if value is True else str(value)
    return data


def table_sizes(rules_id: str) -> list[int]:
    info = engine.rules_info(rules_id)
    return sorted({info.min_players, min(info.max_players, 5), min(info.max_players, 6)})


def test_every_rules_id_of_the_engine_has_a_family() -> None:
    assert set(games.families()) == set(engine.RULES)
    for rules_id, family in games.families().items():
        assert rules_id in family.rules_ids


def test_an_unknown_rules_id_is_a_clear_error() -> None:
    with pytest.raises(UnknownGame, match=r"'poker'.*scoring/games/"):
        family_for("poker")


def test_two_families_cannot_claim_one_rules_id() -> None:
    taken = family_for("bluke")
    rival = GameFamily(name="rival", rules_ids=("bluke",), form=taken.form)
    with pytest.raises(ValueError, match="'bluke'"):
        games.register(rival)
    assert family_for("bluke") is taken


def test_a_family_module_is_named_after_its_family() -> None:
    for family in set(games.families().values()):
        assert family.form.__module__ == f"scoring.games.{family.name}"


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_the_form_enters_whole_simulated_games_the_engine_scores_the_same(rules_id: str) -> None:
    """Every round of simulated games, typed into the family's form: the rounds the form
    makes are a record the engine accepts, with the same scores and winner."""
    form_class = family_for(rules_id).form
    checked = 0
    for players in table_sizes(rules_id):
        names = [f"P{i}" for i in range(1, players + 1)]
        for seed in range(8):
            record = engine.simulate(rules_id, names, seed=seed)
            entered = []
            for rnd in record["rounds"]:
                form = form_class(post_data(form_class, names, rnd), players=names)
                assert form.is_valid(), (rnd, form.errors)
                entered.append(form.to_round())
            expected = engine.check(record)
            got = engine.check({**record, "rounds": entered})
            assert got["valid"], got["errors"]
            assert (got["scores"], got["winner"]) == (expected["scores"], expected["winner"])
            checked += len(entered)
    assert checked > 0


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_a_stored_round_reads_back_into_the_form_unchanged(rules_id: str) -> None:
    """What the correction page shows of a stored round posts back as the same round."""
    form_class = family_for(rules_id).form
    names = ["Ann", "Bob", "Cy", "Di"]
    record = engine.simulate(rules_id, names, seed=3)
    for rnd in record["rounds"][:5]:
        first = form_class(post_data(form_class, names, rnd), players=names)
        assert first.is_valid(), first.errors
        made = first.to_round()
        again = form_class(post_data(form_class, names, made), players=names)
        assert again.is_valid(), again.errors
        assert again.to_round() == made


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_print_columns_are_round_fields_of_the_game_or_marks(rules_id: str) -> None:
    info = engine.rules_info(rules_id)
    columns = family_for(rules_id).print_columns
    assert columns, "a paper score sheet needs columns"
    keys = [c.key for c in columns]
    assert len(keys) == len(set(keys))
    for column in columns:
        assert isinstance(column, PrintColumn)
        assert column.key in set(info.round_fields) | MARKED, column
        assert column.header
    # Every sheet ends each player's line with the running score.
    assert columns[-1] == PrintColumn("score", "Score")


@pytest.mark.parametrize(
    ("rules_id", "needed"),
    [
        ("huckley-buck", {"tricks", "hooks"}),
        ("hucklebuck", {"tricks", "hooks"}),
        ("buck-euchre", {"out", "tricks", "trump", "declarer"}),
        ("ten-point-buck", {"bids", "points"}),
        ("bluke", {"bids", "tricks", "cards"}),
        ("bluke-nj", {"bids", "tricks", "cards"}),
    ],
)
def test_each_paper_sheet_has_the_columns_its_game_is_scored_from(
    rules_id: str, needed: set[str]
) -> None:
    """The issue's list: drops, tricks and hooks; bids; card points."""
    info = engine.rules_info(rules_id)
    keys = {c.key for c in family_for(rules_id).print_columns_for(info.max_players)}
    assert needed <= keys


def test_the_drop_column_is_printed_only_where_drops_are_allowed() -> None:
    """Huckley Buck: drops only at tables of five or more (docs/rules.md, ruling 1)."""
    family = family_for("huckley-buck")
    assert "out" not in {c.key for c in family.print_columns_for(4)}
    assert "out" in {c.key for c in family.print_columns_for(5)}
    # And the entry form agrees with the sheet.
    assert "Dropped" not in family.form(players=["A", "B", "C", "D"]).headers()
    assert "Dropped" in family.form(players=["A", "B", "C", "D", "E"]).headers()


def test_round_level_print_columns_are_one_cell_per_round() -> None:
    per_round = {c.key for c in family_for("buck-euchre").print_columns if not c.per_player}
    assert per_round == {"upcard", "trump", "declarer"}


def test_buck_euchre_round_details_say_trump_and_declarer() -> None:
    details = family_for("buck-euchre").round_details
    assert details({"upcard": "9H", "trump": "H", "declarer": "Ann"}) == (
        "upcard 9H; trump H; declarer Ann"
    )
    assert details({"upcard": "9H", "trump": None}) == "upcard 9H; no trump"
    # A dirty-clubs round without a trump field is not a no-trump hand.
    assert details({"upcard": "JC"}) == "upcard JC; dirty clubs"
    assert details({"misdeal": True, "upcard": "9H"}) == ""


def test_ten_point_buck_round_details_list_bids_and_points_in_seat_order() -> None:
    details = family_for("ten-point-buck").round_details
    line = details({"bids": {"Cy": 30, "Ann": 60}, "points": {"Cy": 25, "Ann": 60}}, ["Ann", "Cy"])
    assert line == "bids: Ann 60, Cy 30; card points: Ann 60, Cy 25"
    assert details({"bids": {}, "points": {}, "doe_bonus": "Cy"}).endswith("Doe bonus Cy")


def test_bluke_round_details_show_the_hand_size_and_bids() -> None:
    details = family_for("bluke-nj").round_details
    line = details({"cards": 7, "upcard": "BH", "bids": {"Bob": 2, "Ann": 1}}, ["Ann", "Bob"])
    assert line == "7 cards; upcard BH; bids: Ann 1, Bob 2"


def test_huckley_rounds_need_no_details_line() -> None:
    assert family_for("huckley-buck").round_details({"tricks": {"Ann": 5}}) == ""


def test_each_family_has_a_legend() -> None:
    for family in set(games.families().values()):
        assert family.legend


def test_the_buck_euchre_form_never_sends_an_empty_trump_as_no_trump() -> None:
    form_class = family_for("buck-euchre").form
    names = ["Ann", "Bob", "Cy", "Di"]
    base = {"number": "1", "dealer": "Ann", "upcard": "9H", "tricks_2": "3", "tricks_3": "2"}
    empty = form_class({**base, "trump": ""}, players=names)
    assert empty.is_valid(), empty.errors
    assert "trump" not in empty.to_round()
    chosen = form_class({**base, "trump": "none"}, players=names)
    assert chosen.is_valid(), chosen.errors
    assert chosen.to_round()["trump"] is None
