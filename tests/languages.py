"""What the language tests share: the catalogues compiled (as `make test` does before
pytest), so that a test run straight from pytest on a fresh checkout finds them."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils.translation import trans_real


@pytest.fixture(scope="session")
def catalogues() -> None:
    """The .mo files of locale/ up to date, and Django's memory of them fresh."""
    call_command("compile_catalogues", verbosity=0)
    # Read again from the new .mo files.
    trans_real._translations = {}
