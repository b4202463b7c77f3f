"""Cards as faces on the pages (web/templatetags/card_faces.py): the rank and suit symbol,
red for hearts and diamonds, named in words for a screen reader; never the record's code.
The seat, watch and projector pages all draw their cards with it."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from web.templatetags.card_faces import card_face, card_name, suit_words


@pytest.mark.parametrize(
    ("code", "html"),
    [
        ("QS", '<span class="playing-card" role="img" aria-label="Queen of spades">Q♠</span>'),
        ("TH", '<span class="playing-card red" role="img" aria-label="10 of hearts">10♥</span>'),
        ("2D", '<span class="playing-card red" role="img" aria-label="2 of diamonds">2♦</span>'),
        ("AC", '<span class="playing-card" role="img" aria-label="Ace of clubs">A♣</span>'),
        ("JD", '<span class="playing-card red" role="img" aria-label="Jack of diamonds">J♦</span>'),
        ("BH", '<span class="playing-card" role="img" aria-label="The high Bluke">Hi Bluke</span>'),
        ("0w", '<span class="playing-card" role="img" aria-label="The Doe (white 0)">Doe</span>'),
        ("7w", '<span class="playing-card" role="img" aria-label="White 7">W7</span>'),
        ("7", '<span class="playing-card" role="img" aria-label="7">7</span>'),
    ],
)
def test_a_card_is_drawn_as_its_face_named_in_words(code: str, html: str) -> None:
    assert card_face(code) == html


def test_no_card_draws_nothing() -> None:
    assert card_face(None) == ""
    assert card_face("") == ""


def test_the_filter_escapes_what_is_not_a_card() -> None:
    drawn = card_face('<b>"X')
    assert "<b>" not in drawn
    assert "&lt;b&gt;" in drawn


def test_suits_are_named_with_their_symbol() -> None:
    assert suit_words("S") == "spades ♠"
    assert suit_words("H") == "hearts ♥"
    assert suit_words(None) == ""


def test_a_template_draws_faces_and_trump_in_words() -> None:
    page = Template(
        "{% load card_faces %}Upcard {{ up|card_face }}. Trump: {{ trump|suit_words }}."
    ).render(Context({"up": "2S", "trump": "S"}))
    assert page == (
        'Upcard <span class="playing-card" role="img" aria-label="2 of spades">2♠</span>. '
        "Trump: spades ♠."
    )
    assert "2S" not in page
    assert card_name("KH") == "King of hearts"
