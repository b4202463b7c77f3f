"""The printed sheets' URLs, included by api/urls.py under /api/ (docs/api.md, Printing)."""

from __future__ import annotations

from django.urls import path

from printing import api

urlpatterns = [
    path(
        "sessions/<int:session_id>/print/table-cards.pdf",
        api.TableCards.as_view(),
        name="print_table_cards",
    ),
    path(
        "sessions/<int:session_id>/print/score-sheets.pdf",
        api.ScoreSheets.as_view(),
        name="print_score_sheets",
    ),
    path(
        "sessions/<int:session_id>/print/assignments.pdf",
        api.Assignments.as_view(),
        name="print_assignments",
    ),
    path(
        "sessions/<int:session_id>/print/standings.pdf",
        api.Standings.as_view(),
        name="print_standings",
    ),
    path(
        "sessions/<int:session_id>/print/<str:sheet>.pdf",
        api.UnknownSheet.as_view(),
        name="print_unknown",
    ),
    path(
        "seasons/<int:season_id>/print/standings.pdf",
        api.SeasonStandings.as_view(),
        name="print_season_standings",
    ),
    path(
        "clubs/<slug:slug>/print/table-cards.pdf",
        api.ClubTableCards.as_view(),
        name="print_club_table_cards",
    ),
]
