"""A table's message as it is published and heard (`play.bus`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from play import bus
from play.bus import message_text

json_data = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=12,
)
keys = st.dictionaries(st.text(max_size=6), json_data, max_size=4)


@given(message=keys, texts=keys, as_bytes=st.booleans())
def test_the_texts_given_written_out_are_heard_as_keys_of_the_message(
    message: dict[str, object], texts: dict[str, object], as_bytes: bool
) -> None:
    """A round's state is written out once (for its row) and follows the message: heard
    (as text in process, as bytes from Redis), the message has those keys too."""
    texts = {k: v for k, v in texts.items() if k not in message}
    written = {k: json.dumps(v) for k, v in texts.items()}
    text = message_text(message, written)
    heard = bus.read(text.encode() if as_bytes else text)
    assert {k: bus.more(heard, k) for k in [*message, *texts]} == {**message, **texts}
    assert heard == {**message, **texts}


def test_a_move_s_state_is_read_only_when_asked_for() -> None:
    """Every node hears every move of its tables and reads its first line; the round's
    state on the second line is read by a node that sets its copy back, and by no other
    (the two lines: a later line that is not JSON fails only when asked for)."""
    heard = bus.read(message_text({"kind": "move", "move": 3}, {"state": "{not json"}))
    assert heard["kind"] == "move"
    assert heard["move"] == 3
    assert "state" not in heard
    with pytest.raises(json.JSONDecodeError):
        bus.more(heard, "state")


def test_what_is_not_a_message_is_refused_as_such() -> None:
    """A node skips what it cannot read (`play.node.Node.heard` passes a ValueError)."""
    for text in ["", "{", b"\xff"]:
        with pytest.raises((json.JSONDecodeError, UnicodeDecodeError)):
            bus.read(text)
    with pytest.raises(ValueError, match="not a message"):
        bus.read("[1, 2]")
