"""`json_copy`, the copy a round's state takes on every save: the same as a deep copy for
any JSON data, and sharing no list or dict with what it copied; `json_interned`, the copy
a restore takes, the same with its strings shared with every other restored copy."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import online
from engine.online_round import json_copy, json_interned

json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=30,
)


def containers(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in containers(v))]
    return []


@given(json_data)
def test_json_copy_equals_a_deep_copy_and_shares_no_container(value: Any) -> None:
    copied = json_copy(value)
    assert copied == copy.deepcopy(value)
    originals = {id(c) for c in containers(value)}
    assert not originals & {id(c) for c in containers(copied)}


def strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [*value, *(t for v in value.values() for t in strings(v))]
    if isinstance(value, list):
        return [t for v in value for t in strings(v)]
    return [value] if isinstance(value, str) else []


@given(json_data)
def test_json_interned_equals_a_deep_copy_and_shares_every_string(value: Any) -> None:
    # Two readings of the same text: equal strings, each reading its own objects.
    first, second = json.loads(json.dumps(value)), json.loads(json.dumps(value))
    a, b = json_interned(first), json_interned(second)
    assert a == copy.deepcopy(value) == b
    assert not {id(c) for c in containers(first)} & {id(c) for c in containers(a)}
    assert [id(t) for t in strings(a)] == [id(t) for t in strings(b)]


def test_rounds_restored_from_two_readings_hold_one_copy_of_each_string() -> None:
    """What a server holding many tables' rounds relies on: the cards, names and keys of
    a round read back from its row are the process's one copy of each."""
    start = online.RoundStart(
        rules_id="huckley-buck",
        players=("Ann", "Bob", "Cat", "Dan"),
        dealer="Ann",
        number=2,
        options={},
        scores={"Ann": 3, "Bob": 0, "Cat": 0, "Dan": 0},
        earlier=({"players": ["Ann", "Bob", "Cat", "Dan"], "tricks": [["QS", "2H"]]},),
    )
    order = online.pack(start)
    random.Random(7).shuffle(order)
    text = json.dumps(online.deal(start, order).to_json())
    one = online.restore("huckley-buck", json.loads(text))
    two = online.restore("huckley-buck", json.loads(text))
    assert one.to_json() == two.to_json() == json.loads(text)
    held_one, held_two = strings(one.to_json()), strings(two.to_json())
    assert held_one
    assert [id(t) for t in held_one] == [id(t) for t in held_two]
    assert one.start.players[0] is two.start.players[0]
    assert one.start.earlier[0]["tricks"][0][0] is two.start.earlier[0]["tricks"][0][0]
