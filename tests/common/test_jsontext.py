"""The JSON text online play writes out (`common.jsontext`): the same JSON as `json`
writes, for every value `json` writes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from common import jsontext

json_data = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()), max_size=6),  # lone surrogates too
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4) | st.integers(-5, 5), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(json_data)
def test_the_text_reads_back_as_what_json_writes(data: object) -> None:
    """Integers beyond 64 bits and lone surrogates included (`json` writes those)."""
    assert json.loads(jsontext.dumps(data)) == json.loads(json.dumps(data))


def test_what_orjson_does_not_write_is_written_by_json() -> None:
    for data in ([2**64], {"name": "\udc80"}):
        assert json.loads(jsontext.dumps(data)) == data


def test_the_text_is_compact_and_keeps_its_letters() -> None:
    text = jsontext.dumps({"player": "Zoë", "scores": {1: 2}})
    assert text == '{"player":"Zoë","scores":{"1":2}}'
