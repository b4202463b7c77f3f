"""A table's message as it is published (`play.bus`)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from play.bus import message_text

json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)
keys = st.dictionaries(st.text(max_size=6), json_data, max_size=4)


@given(message=keys, texts=keys)
def test_the_texts_given_written_out_become_keys_of_the_message(
    message: dict[str, object], texts: dict[str, object]
) -> None:
    """A round's state is written out once (for its row) and joins the message as text:
    the published message reads back as the message with those keys added."""
    texts = {k: v for k, v in texts.items() if k not in message}
    written = {k: json.dumps(v) for k, v in texts.items()}
    assert json.loads(message_text(message, written)) == {**message, **texts}
