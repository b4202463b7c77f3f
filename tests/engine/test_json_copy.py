"""`json_copy`, the copy a round's state takes on every restore and save: the same as a
deep copy for any JSON data, and sharing no list or dict with what it copied."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.online_round import json_copy

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
