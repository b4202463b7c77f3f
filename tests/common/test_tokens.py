"""What a token in a URL may look like (common/tokens.py). The paths themselves are
walked in tests/huckley/test_token_paths.py."""

from __future__ import annotations

import secrets

import pytest
from django.apps import apps
from django.db import models

from common.tokens import MAX_LENGTH, NOT_A_TOKEN, TokenConverter, is_token


@pytest.mark.parametrize("size", [9, 16, 24, 48])
def test_every_token_the_project_makes_is_a_token(size: int) -> None:
    # Card tokens are 9 bytes, seat links 16, scorer links and sign-ups 24.
    for _ in range(200):
        assert is_token(secrets.token_urlsafe(size))


@pytest.mark.parametrize(
    "value",
    [
        "",
        "\x00",
        "a\x00b",
        "abc\n",
        "\nabc",
        "a b",
        "..",
        "a.b",
        "a/b",
        "a%00b",
        "été",
        "١٢٣",  # digits, but not ASCII ones
        "\uff41\uff42\uff43",  # fullwidth letters
        "a\u202eb",
        "a" * (MAX_LENGTH + 1),
    ],
)
def test_anything_else_is_no_token(value: str) -> None:
    assert not is_token(value)


def test_the_longest_token_is_one() -> None:
    assert is_token("a" * MAX_LENGTH)
    assert is_token("A-z_0-9")


def test_the_converter_gives_a_view_the_token_or_no_token() -> None:
    converter = TokenConverter()
    token = secrets.token_urlsafe(16)
    assert converter.to_python(token) == token
    assert converter.to_python("a\x00b") == NOT_A_TOKEN
    assert converter.to_python(token + "\x00") == NOT_A_TOKEN
    assert not is_token(NOT_A_TOKEN)
    assert converter.to_url(token) == token


def test_no_token_column_holds_more_than_a_token_may_be_long() -> None:
    """A longer column would let the project make tokens the paths refuse."""
    columns = [
        (model.__name__, field.max_length)
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if isinstance(field, models.CharField) and field.name == "token"
    ]
    assert len(columns) >= 5  # seat links, scorer links, sign-ups, the two kinds of card
    assert all(length is not None and length <= MAX_LENGTH for _, length in columns), columns
