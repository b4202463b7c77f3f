"""The ratings' API URLs, included from api/urls.py (under /api/)."""

from __future__ import annotations

from django.urls import path

from ratings.api import ClubRatings

urlpatterns = [
    path("clubs/<slug:slug>/ratings/", ClubRatings.as_view(), name="club_ratings"),
]
