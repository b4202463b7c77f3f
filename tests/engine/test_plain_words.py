"""The engine's messages are plain words (issue 10, bug 3; docs/engine.md, Errors): a
message names a field or an option in words, never by its key in the record (the key is
the problem's `field`), and counts take their plural.

The scan reads every string the engine's modules could put in a message; the examples
are the messages the issue found, each checked end to end through `engine.check`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine
from tests.engine.bluke_rounds import BIDS
from tests.engine.bluke_rounds import rnd as bluke_round
from tests.engine.records import FOUR, THREE, game
from tests.engine.test_buck_euchre_refusals import NO_TRUMP, be, r
from tests.engine.test_scoring import TO_TEN

ENGINE = Path(engine.__file__).parent
#: A snake_case identifier standing bare in prose: a record key or an option's name.
KEY = re.compile(r"(?<![\w`'\"])[a-z]+(?:_[a-z0-9]+)+\b")
#: Plurals left to the reader, and JSON's word for "nothing".
HEDGED = re.compile(r"\w\((s|es)\)|\b1 (points|tricks|cards|rounds|players)\b|\bis null\b")
#: Calls whose strings are not messages to people: a programming error, or an option's
#: description in /api/rules/, whose choices are the values a client sends.
NOT_MESSAGES = {"EngineUsageError", "OptionInfo", "ValueError", "AssertionError", "TypeError"}


def _prose(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skip.add(id(body[0].value))  # docstrings
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in NOT_MESSAGES:
                skip.update(id(n) for n in ast.walk(node))
        # A rule set's `fields`: the JSON keys a round object holds, for a client.
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "fields" for t in node.targets
        ):
            skip.update(id(n) for n in ast.walk(node))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and " " in node.value
        and id(node) not in skip
    ]


def test_no_message_of_the_engine_names_a_record_key_or_hedges_a_plural() -> None:
    found = [
        f"{path.relative_to(ENGINE.parent)}:{line}: {text!r}"
        for path in sorted(ENGINE.rglob("*.py"))
        if path.name != "cli.py"  # the command line's help names its options
        for line, text in _prose(path)
        if KEY.search(text) or HEDGED.search(text)
    ]
    assert found == []


def test_the_scan_would_see_a_record_key_in_a_message() -> None:
    assert KEY.search("enter trick_winners, who won each trick")
    assert KEY.search("(option allow_zero_bid is off)")
    assert HEDGED.search("trump is null (everyone passed)")
    assert HEDGED.search("2 table(s) still have games to play")
    assert not KEY.search("the trick order, who won each trick")


def _message(record: dict[str, object]) -> str:
    output = engine.check(record)
    assert output["errors"], output
    message: str = output["errors"][0]["message"]
    return message


@pytest.mark.parametrize(
    ("record", "plain", "leak"),
    [
        (
            game(*TO_TEN, {"tricks": {"Ann": 2, "Bob": 2, "Cy": 1}}, players=FOUR),
            "enter the trick order, who won each of the 5 tricks in order",
            "trick_winners",
        ),
        (
            game(bluke_round(bids={**BIDS, "Cy": 0}), players=THREE, rules="bluke"),
            "bids start at 1 in this game (a bid of 0 is not allowed)",
            "allow_zero_bid",
        ),
        (
            be(r(NO_TRUMP, declarer="Cy")),
            "The hand is entered as no trump (everyone passed both rounds), so nobody is declarer",
            "null",
        ),
        (
            game({"trick_winners": ["Ann"], "tricks": {"Ann": 5}}, players=FOUR),
            "The trick order lists 1 trick;",
            "trick_winners",
        ),
    ],
    ids=["two reach 11", "a bid of 0", "no trump with a declarer", "one trick named"],
)
def test_the_messages_the_issue_found_are_plain_words(
    record: dict[str, object], plain: str, leak: str
) -> None:
    message = _message(record)
    assert plain in message
    assert leak not in message
