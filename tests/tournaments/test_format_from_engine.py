"""The session's model and form offer the engine's games by name: the format's list of
games (tests/format/test_format_from_engine.py) reaches the database and the pages."""

from __future__ import annotations

from django import forms

import engine
from tournaments.models import Session
from web.forms import SessionForm


def test_the_session_model_and_form_offer_the_engines_games_by_name() -> None:
    expected = [(rules_id, info.name) for rules_id, info in engine.RULES.items()]
    assert list(Session._meta.get_field("rules_id").choices or []) == expected
    form_field = SessionForm.base_fields["rules_id"]
    assert isinstance(form_field, forms.ChoiceField)
    assert list(form_field.choices) == expected
