"""The API's import and export URLs, included by api/urls.py under /api/."""

from __future__ import annotations

from django.urls import path

from exchange import api

urlpatterns = [
    path(
        "sessions/<int:session_id>/export.json",
        api.SessionExportJson.as_view(),
        name="session_export_json",
    ),
    path(
        "sessions/<int:session_id>/export.csv",
        api.SessionExportCsv.as_view(),
        name="session_export_csv",
    ),
    path(
        "seasons/<int:season_id>/standings.csv",
        api.SeasonLadderCsv.as_view(),
        name="season_standings_csv",
    ),
    path("clubs/<slug:slug>/export.json", api.ClubExportJson.as_view(), name="club_export_json"),
    path("clubs/<slug:slug>/roster-import/", api.RosterImport.as_view(), name="roster_import"),
]
