"""What the public's printing and exports cost (docs/api.md, Printing): a sheet is built
once per generation of its session and kept, and an anonymous caller's PDFs and exports
are throttled per client, so a few clients cannot hold every web worker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from printing import pdf
from tournaments import pagecache
from tournaments.models import Session

pytestmark = pytest.mark.django_db


def url(session: Session, sheet: str, query: str = "") -> str:
    return f"/api/sessions/{session.pk}/print/{sheet}.pdf{query}"


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often each sheet was drawn (the costly part: 0.4-1.1 s at 200 players)."""
    counts: dict[str, int] = {}
    for name in ("score_sheets_pdf", "assignments_pdf", "ladder_pdf"):
        drawn = getattr(pdf, name)

        def counted(*args: Any, _drawn: Any = drawn, _name: str = name, **kw: Any) -> Any:
            counts[_name] = counts.get(_name, 0) + 1
            return _drawn(*args, **kw)

        monkeypatch.setattr(pdf, name, counted)
    return counts


def test_a_sheet_is_drawn_once_per_generation_and_again_after_a_change(
    make_session: Callable[..., Session], builds: dict[str, int]
) -> None:
    session = make_session(8)
    first = APIClient().get(url(session, "score-sheets"))
    again = APIClient().get(url(session, "score-sheets"))
    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert builds == {"score_sheets_pdf": 1}
    APIClient().get(url(session, "score-sheets", "?paper=letter"))
    assert builds == {"score_sheets_pdf": 2}, "each paper is its own sheet"
    pagecache.board_changed(session.pk)  # what every write that changes the sheets calls
    APIClient().get(url(session, "score-sheets"))
    assert builds == {"score_sheets_pdf": 3}
    for sheet in ("assignments", "standings"):
        APIClient().get(url(session, sheet))
        APIClient().get(url(session, sheet))
    assert builds == {"score_sheets_pdf": 3, "assignments_pdf": 1, "ladder_pdf": 1}


def test_an_anonymous_callers_pdfs_and_exports_are_throttled_per_client(
    make_session: Callable[..., Session], settings: Any, director: Any
) -> None:
    settings.API_ANON_SHEET_RATE = "3/minute"
    session = make_session(8)
    one = APIClient(REMOTE_ADDR="203.0.113.5")
    paths = [
        url(session, "score-sheets"),
        f"/api/sessions/{session.pk}/export.csv",
        url(session, "standings"),
    ]
    assert [one.get(path).status_code for path in paths] == [200, 200, 200]
    refused = one.get(f"/api/sessions/{session.pk}/export.json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    # Another client has its own count; a signed-in director is not counted.
    assert APIClient(REMOTE_ADDR="203.0.113.6").get(paths[0]).status_code == 200
    signed_in = APIClient(REMOTE_ADDR="203.0.113.5")
    signed_in.force_authenticate(director)
    assert [signed_in.get(paths[0]).status_code for _ in range(5)] == [200] * 5
    # The other reads of the API are not in this count.
    assert one.get(f"/api/sessions/{session.pk}/").status_code == 200
