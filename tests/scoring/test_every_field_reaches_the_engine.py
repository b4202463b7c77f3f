"""A round form never drops or rewrites what a scorer typed: every field of every game
family's form reaches the engine, in every state of the form, and the engine decides
(issue "A new club's first night without help", item 1: tricks typed with Misdeal ticked
were thrown away before the engine could refuse them).

The fields are found on the form itself, so a field a family adds is covered the day it is
added. For each field of each state of the form (every field filled in; the same with
every box ticked, Misdeal and drops included; only the dealer), the field is changed to
each other value a scorer could type, and the round the form sends (`to_round`) must
change with it. The form itself may refuse only what a round cannot say (half a penalty,
half a trick order), in its own words; everything else, out-of-range numbers included,
is the engine's to refuse. The refusals as the scorer sees them on the page are in
test_refusals_on_the_page.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import parse_card
from scoring.games import RoundForm, family_for

#: Kept by the page, never typed by the scorer.
BOOKKEEPING = {"number", "entry_key"}

#: What a scorer may type into a number: in range, and out of every game's range (the
#: engine's to refuse, not the form's).
NUMBERS = ("0", "1", "2", "5", "6", "-1", "14", "221")
#: What a scorer may type into a text field (an upcard): cards of every game, and not cards.
TEXTS = ("9H", "JC", "10D", "BH", "8S", "Jack")
#: The only refusals of the form's own: what a round has no way to say.
FORM_REFUSALS = {
    "Give both the player and the kind of penalty, or neither.",
    "Give the winner of every trick, or leave the order empty.",
}


def typed_values(field: forms.Field) -> tuple[str, ...]:
    """Every value a scorer could give `field`, as the browser posts it (blank is not
    a value typed: it is the field left alone)."""
    if isinstance(field, forms.BooleanField):
        return ("on",)
    if isinstance(field, forms.ChoiceField):
        return tuple(str(value) for value, _label in field.choices if value != "")
    if isinstance(field, forms.IntegerField):
        return NUMBERS
    if isinstance(field, forms.CharField):
        return TEXTS
    raise AssertionError(f"a kind of field this test does not know yet: {field!r}; add its values")


def changes(field: forms.Field, current: str | None) -> list[str | None]:
    """What a scorer can change `field` to from `current`: every other value typed, or
    for a box the other state (None: unticked, the box left out of the POST)."""
    if isinstance(field, forms.BooleanField):
        return [None] if current == "on" else ["on"]
    return [value for value in typed_values(field) if value != current]


def scorer_fields(form_class: type[RoundForm], names: list[str]) -> dict[str, forms.Field]:
    """Every field of the form that a scorer fills in, found on the form itself."""
    form = form_class(players=names)
    fields = {name: f for name, f in form.fields.items() if name not in BOOKKEEPING}
    columns = [prefix for _header, prefix in form.visible_columns()]
    expected = set(form.top) | {f"{p}_{i}" for p in columns for i in range(1, len(names) + 1)}
    assert expected <= set(fields), expected - set(fields)
    return fields


def states(fields: dict[str, forms.Field]) -> dict[str, dict[str, str]]:
    """The form filled in three ways, as POST data."""
    filled = {
        name: typed_values(f)[0]
        for name, f in fields.items()
        if not isinstance(f, forms.BooleanField)
    }
    ticked = {name: "on" for name, f in fields.items() if isinstance(f, forms.BooleanField)}
    return {
        "every field filled in": filled,
        "every field filled in and every box ticked": {**filled, **ticked},
        "only the dealer": {"dealer": filled["dealer"]},
    }


def sent(form_class: type[RoundForm], names: list[str], data: dict[str, str]) -> Any:
    """What the form sends the engine for `data`, or the form's refusals."""
    form = form_class({"number": "1", **data}, players=names)
    if form.is_valid():
        return form.to_round()
    return {message for errors in form.errors.values() for message in errors}


def cases() -> list[tuple[str, int]]:
    """Each rules id at its smallest table and at a table of five (drops), where it can."""
    found = []
    for rules_id, info in sorted(engine.RULES.items()):
        for players in sorted({info.min_players, min(max(5, info.min_players), info.max_players)}):
            found.append((rules_id, players))
    return found


@pytest.mark.parametrize(("rules_id", "players"), cases())
def test_every_value_typed_into_any_field_changes_the_round_the_engine_sees(
    rules_id: str, players: int
) -> None:
    form_class = family_for(rules_id).form
    names = [f"P{i}" for i in range(1, players + 1)]
    fields = scorer_fields(form_class, names)
    ignored: list[str] = []
    accepted: dict[tuple[str, str], int] = {}
    for state, data in states(fields).items():
        before = sent(form_class, names, data)
        assert isinstance(before, dict), (state, before)
        for name, field in fields.items():
            accepted.setdefault((state, name), 0)
            for value in changes(field, data.get(name)):
                changed = {k: v for k, v in data.items() if k != name}
                if value is not None:
                    changed[name] = value
                after = sent(form_class, names, changed)
                if isinstance(after, set):
                    assert after <= FORM_REFUSALS, (state, name, value, after)
                    continue
                accepted[(state, name)] += 1
                if after == before:
                    ignored.append(f"{state}: {name}={value!r}")
    assert ignored == [], "typed, and never reached the engine"
    # Each field was changed and sent at least once in the states where it is filled in
    # (with only the dealer, a lone penalty or trick is refused, as it should be).
    never = [key for key, count in accepted.items() if count == 0 and key[0] != "only the dealer"]
    assert never == []


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_from_any_state_of_the_form_a_change_reaches_the_engine(
    rules_id: str, data: st.DataObject
) -> None:
    """The three states above, and any other: any mix of blank, typed and ticked fields
    (a misdeal with some tricks, drops with penalties), then one field changed."""
    info = engine.rules_info(rules_id)
    names = [f"P{i}" for i in range(1, min(max(5, info.min_players), info.max_players) + 1)]
    form_class = family_for(rules_id).form
    fields = scorer_fields(form_class, names)
    state: dict[str, str] = {}
    for name, field in fields.items():
        blank: list[str | None] = [] if name == "dealer" else [None]
        value = data.draw(st.sampled_from([*blank, *typed_values(field)]), label=name)
        if value is not None:
            state[name] = value
    before = sent(form_class, names, state)
    if isinstance(before, set):
        # Half a penalty or half a trick order: the form's own refusals, and only those.
        assert before <= FORM_REFUSALS
        return
    name = data.draw(st.sampled_from(sorted(fields)), label="changed")
    value = data.draw(st.sampled_from(changes(fields[name], state.get(name))), label="to")
    changed = {k: v for k, v in state.items() if k != name}
    if value is not None:
        changed[name] = value
    after = sent(form_class, names, changed)
    if isinstance(after, set):
        assert after <= FORM_REFUSALS
    elif after == before:
        # The one reading of a blank: once any trick is typed, a blank cell of a player
        # who stayed in is sent as 0 (drops_and_tricks), so typing that 0 sends the same
        # round, with the 0 in it. Any other unchanged round is a value lost.
        prefix, _, seat = name.rpartition("_")
        assert (prefix, state.get(name), value) == ("tricks", None, "0"), (name, value)
        assert after["tricks"][names[int(seat) - 1]] == 0


def test_the_fields_found_include_every_column_of_every_seat() -> None:
    """The discovery itself: a Huckley Buck table of five has drops and tricks for each
    seat, the misdeal, three penalties and the five tricks of the trick order."""
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    fields = scorer_fields(family_for("huckley-buck").form, names)
    assert {f"out_{i}" for i in range(1, 6)} | {f"tricks_{i}" for i in range(1, 6)} <= set(fields)
    assert {"dealer", "misdeal", "penalty_kind_3", "trick_5"} <= set(fields)


def huckley_post(**fields: Any) -> dict[str, str]:
    return {"number": "1", "dealer": "Ann", **{k: str(v) for k, v in fields.items()}}


NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_a_misdeal_keeps_the_tricks_typed_with_it() -> None:
    """The issue's round: tricks 2/1/1/1 and Misdeal ticked."""
    form = family_for("huckley-buck").form(
        huckley_post(misdeal="on", tricks_1=2, tricks_2=1, tricks_3=1, tricks_4=1), players=NAMES
    )
    assert form.is_valid(), form.errors
    assert form.to_round() == {
        "dealer": "Ann",
        "misdeal": True,
        "tricks": {"Ann": 2, "Bob": 1, "Cy": 1, "Di": 1},
    }


def test_a_misdeal_with_nothing_else_typed_sends_no_tricks() -> None:
    """Blank cells are not tricks typed: a plain misdeal is one the engine accepts."""
    form = family_for("huckley-buck").form(huckley_post(misdeal="on"), players=NAMES)
    assert form.is_valid(), form.errors
    assert form.to_round() == {"dealer": "Ann", "misdeal": True}


def test_a_trick_order_alone_stands_for_the_tricks() -> None:
    """docs/rules.md: trick_winners "given alone, it stands for tricks"; blank trick
    cells are not five zeros that contradict it."""
    order = {f"trick_{t}": who for t, who in enumerate(["Bob", "Bob", "Cy", "Di", "Ann"], 1)}
    form = family_for("huckley-buck").form(huckley_post(**order), players=NAMES)
    assert form.is_valid(), form.errors
    sent_round = form.to_round()
    assert "tricks" not in sent_round
    record = {
        "format": engine.FORMAT,
        "rules": "huckley-buck",
        "players": NAMES,
        "first_dealer": "Ann",
        "rounds": [sent_round],
    }
    verdict = engine.check(record)
    assert verdict["valid"], verdict["errors"]
    assert verdict["rounds"][0]["points"] == {"Ann": 1, "Bob": 2, "Cy": 1, "Di": 1}


def test_a_dropped_players_typed_zero_is_sent() -> None:
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    post = huckley_post(out_5="on", tricks_5=0, tricks_1=2, tricks_2=3)
    form = family_for("huckley-buck").form(post, players=names)
    assert form.is_valid(), form.errors
    assert form.to_round()["tricks"] == {"Ann": 2, "Bob": 3, "Cy": 0, "Di": 0, "Ed": 0}


def test_a_buck_euchre_misdeal_keeps_everything_typed_with_it() -> None:
    """The engine ignores a misdeal's upcard, trump, declarer and drops by its rules
    (docs/rules-buck-euchre.md, Misdeals) and refuses its tricks; the form sends them all."""
    post = {
        "number": "1",
        "dealer": "Ann",
        "misdeal": "on",
        "upcard": "9H",
        "trump": "H",
        "declarer": "Bob",
        "out_3": "on",
        "tricks_2": "3",
    }
    form = family_for("buck-euchre").form(post, players=NAMES)
    assert form.is_valid(), form.errors
    assert form.to_round() == {
        "dealer": "Ann",
        "misdeal": True,
        "upcard": "9H",
        "trump": "H",
        "declarer": "Bob",
        "out": ["Cy"],
        "tricks": {"Ann": 0, "Bob": 3, "Di": 0},
    }


def test_a_bluke_hand_size_of_zero_is_sent() -> None:
    post = {"number": "1", "dealer": "Ann", "cards": "0", "bids_1": "1", "tricks_1": "1"}
    form = family_for("bluke").form(post, players=NAMES)
    assert form.is_valid(), form.errors
    assert form.to_round()["cards"] == 0


@pytest.mark.parametrize("rules_id", ["buck-euchre", "bluke"])
def test_an_upcard_is_sent_in_capitals_which_the_engine_reads_as_the_same_card(
    rules_id: str,
) -> None:
    """The one rewrite a form makes, and why it changes nothing: the engine reads a card
    in either case as the same card (engine.cards.PARSE), and one spelling keeps two
    entries of one round equal under double entry."""
    form = family_for(rules_id).form(
        {"number": "1", "dealer": "Ann", "upcard": "jc"}, players=NAMES
    )
    assert form.is_valid(), form.errors
    assert form.to_round()["upcard"] == "JC"
    assert parse_card("jc") == parse_card("JC") is not None


@pytest.mark.parametrize(
    ("rules_id", "field", "typed", "where"),
    [
        ("huckley-buck", "tricks_1", "6", ("tricks", "Ann")),
        ("huckley-buck", "tricks_1", "-1", ("tricks", "Ann")),
        ("buck-euchre", "tricks_2", "6", ("tricks", "Bob")),
        ("ten-point-buck", "bids_1", "221", ("bids", "Ann")),
        ("ten-point-buck", "points_1", "-1", ("points", "Ann")),
        ("bluke", "tricks_1", "53", ("tricks", "Ann")),
        ("bluke", "cards", "-1", ("cards", None)),
    ],
)
def test_a_number_out_of_the_games_range_is_sent_for_the_engine_to_refuse(
    rules_id: str, field: str, typed: str, where: tuple[str, str | None]
) -> None:
    form = family_for(rules_id).form({"number": "1", "dealer": "Ann", field: typed}, players=NAMES)
    assert form.is_valid(), form.errors
    round_field, player = where
    value = form.to_round()[round_field]
    assert (value if player is None else value[player]) == int(typed)


@pytest.mark.parametrize(
    ("rules_id", "field", "words"),
    [
        ("huckley-buck", "tricks_1", "Tricks are whole numbers from 0 to 5."),
        ("buck-euchre", "tricks_1", "Tricks are whole numbers from 0 to 5."),
        ("ten-point-buck", "bids_1", "Bids are whole numbers from 0 to 220."),
        ("ten-point-buck", "points_1", "Card points are whole numbers from 0 to 220."),
        ("bluke", "bids_1", "Bids are whole numbers, like 2."),
        ("bluke", "cards", "The cards dealt are a whole number, like 7."),
    ],
)
def test_what_is_not_a_whole_number_is_refused_in_the_games_words(
    rules_id: str, field: str, words: str
) -> None:
    form = family_for(rules_id).form({"number": "1", "dealer": "Ann", field: "2.5"}, players=NAMES)
    assert not form.is_valid()
    assert form.errors[field] == [words]


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_number_inputs_keep_the_games_range_for_the_phones_stepper(rules_id: str) -> None:
    """`min` and `max` stay on the inputs; the page is sent with `novalidate`, so they
    stop nothing, and the server's answer is the engine's."""
    form = family_for(rules_id).form(players=NAMES)
    numbers = [f for f in form.fields.values() if isinstance(f, forms.IntegerField)]
    numbers = [f for f in numbers if not isinstance(f.widget, forms.HiddenInput)]
    assert numbers
    for field in numbers:
        assert field.widget.attrs["min"] in (0, 1)
        assert field.min_value is None
        assert field.max_value is None
